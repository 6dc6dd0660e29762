/* Probe: the FMA ceiling (CUDA), for `ladder ceilings` (host/core/ceilings.c)
 * Not a rung: it multiplies no matrices. It measures how many fused multiply-adds per
 *   second the GPU does when nothing else holds it back, the roof a GEMM's GFLOPS are
 *   read against. Compiled as it is for float, with -DLADDER_DOUBLE=1 for double
 *   (../real.cuh): one source, two precisions. The OpenCL twin,
 *   kernels-opencl/ceilings/fma.cl, says the same in the same way.
 * How it is built, and why:
 *   - Each thread runs CHAINS independent chains x = fma(x, m, c), the x held in
 *     registers. One chain alone would measure the FMA's latency, not its throughput:
 *     each step waits for the step before (4 cycles or more) while the unit could start a
 *     new FMA every cycle. CHAINS chains give the warp scheduler CHAINS FMAs that wait for
 *     nothing, and many warps per SM give it more. The host tries 8, 32 and 128 chains
 *     and keeps the fastest (a CPU, through OpenCL, needs 128: fma.cl says why); on a GPU
 *     8 should do, and 128 in double (256 registers) spills.
 *   - The loop body is STEPS steps of every chain, unrolled, so the loop's own counter,
 *     compare and branch are three instructions per STEPS x CHAINS FMAs.
 *   - No memory traffic but one store per thread at the end, of the sum of its chains:
 *     without it the compiler would see that nothing is used and delete the loop. m, c
 *     and the trip count are arguments and x starts from the thread's index, so the
 *     compiler cannot compute the result ahead either.
 *   - m = 1 - 2^-12 and c = 2^-12 (the host's choice): x moves from [0, 1) toward 1 and
 *     stays there, never overflowing or becoming subnormal. The host computes the same
 *     recurrence and checks every thread's sum, so a kernel that skipped work would be
 *     reported wrong, not fast.
 * What can make it read low: too few threads to fill every SM, or too few chains to
 *   cover the latency; a GPU that lowers its clock under sustained load (power, heat: the
 *   ceiling is what it sustains, a little under the nominal peak at its boost clock);
 *   registers that spill (CHAINS far too large).
 * Parameters: CHAINS (independent chains per thread), STEPS (steps per loop trip), given
 *   by the host, which counts the FMAs from them.
 * Launch: 1-D, any number of threads; out holds one value per thread.
 */
#include "../real.cuh"

#ifdef LADDER_DOUBLE
#define FMA fma
#else
#define FMA fmaf
#endif

extern "C" __global__ void fma_chains(const int iterations, const real m, const real c,
                                      real *out)
{
    const size_t id = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    real x[CHAINS];
#pragma unroll
    for (int j = 0; j < CHAINS; j++)
        x[j] = (real)((id + j) & 63) * (real)0.015625; /* k / 64, exact */
    for (int i = 0; i < iterations; i++) {
#pragma unroll
        for (int s = 0; s < STEPS; s++) {
#pragma unroll
            for (int j = 0; j < CHAINS; j++)
                x[j] = FMA(x[j], m, c);
        }
    }
    real sum = x[0];
#pragma unroll
    for (int j = 1; j < CHAINS; j++)
        sum += x[j];
    out[id] = sum;
}
