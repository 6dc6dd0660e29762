/* Probe: the FMA ceiling (OpenCL), for `ladder ceilings` (host/core/ceilings.c)
 * Not a rung: it multiplies no matrices. It measures how many fused multiply-adds per
 *   second the device does when nothing else holds it back, the roof a GEMM's GFLOPS are
 *   read against. Compiled as it is for float, with -DLADDER_DOUBLE=1 for double
 *   (../real.h): one source, two precisions.
 * How it is built, and why:
 *   - Each work-item runs CHAINS independent chains x = fma(x, m, c), the x held in
 *     registers. One chain alone would measure the FMA's latency, not its throughput:
 *     each step waits for the step before (4 cycles or more) while the unit could start a
 *     new FMA every cycle. How many independent FMAs cover the latency depends on the
 *     device, so the host tries 8, 32 and 128 chains and keeps the fastest. A GPU needs
 *     few: it switches to another warp while one waits, and runs many per compute unit.
 *     A CPU core runs one work-item at a time and its compiler packs that work-item's
 *     chains into SIMD vectors, so it needs lanes x FMA pipes x latency chains: 16 x 2 x
 *     4 = 128 floats with AVX-512. (On a 2-core Zen 5, 8 chains gave 37 GFLOPS, 128 gave
 *     478.)
 *   - The loop body is STEPS steps of every chain, unrolled, so the loop's own counter,
 *     compare and branch are three instructions per STEPS x CHAINS FMAs.
 *   - No memory traffic but one store per work-item at the end, of the sum of its chains:
 *     without it the compiler would see that nothing is used and delete the loop. m, c
 *     and the trip count are arguments and x starts from the work-item's index, so the
 *     compiler cannot compute the result ahead either.
 *   - m = 1 - 2^-12 and c = 2^-12 (the host's choice): x moves from [0, 1) toward 1 and
 *     stays there, never overflowing or becoming subnormal (slow on some hardware). The
 *     host computes the same recurrence and checks every work-item's sum, so a kernel
 *     that skipped work would be reported wrong, not fast.
 * What can make it read low: too few work-items to fill every compute unit, or too few
 *   chains to cover the latency; a device that lowers its clock under sustained load
 *   (power, heat: the ceiling is what it sustains, a little under the nominal peak at
 *   its boost clock); a compiler that makes fma() a library call (a CPU without an FMA
 *   instruction); on a CPU, other programs sharing its cores.
 * Parameters: CHAINS (independent chains per work-item), STEPS (steps per loop trip),
 *   given by the host, which counts the FMAs from them.
 * Launch: 1-D, any number of work-items; out holds one value per work-item.
 */
#include "../real.h"

__kernel void fma_chains(const int iterations, const real m, const real c,
                         __global real *out)
{
    const size_t id = get_global_id(0);
    real x[CHAINS];
#pragma unroll
    for (int j = 0; j < CHAINS; j++)
        x[j] = (real)((id + j) & 63) * (real)0.015625; /* k / 64, exact */
    for (int i = 0; i < iterations; i++) {
#pragma unroll
        for (int s = 0; s < STEPS; s++) {
#pragma unroll
            for (int j = 0; j < CHAINS; j++)
                x[j] = fma(x[j], m, c);
        }
    }
    real sum = x[0];
#pragma unroll
    for (int j = 1; j < CHAINS; j++)
        sum += x[j];
    out[id] = sum;
}
