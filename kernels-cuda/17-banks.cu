/* Rung 17: register banks, and both tiles by cp.async (CUDA, compute capability 8.0+)
 * Change since rung 16: back to the FP32 units, and back to rung 10's layout: A as it
 *   lies and B^T (made by the transposing helper), both read k-major, padded by the host
 *   to whole tiles. The kernel is rung 9's with two changes:
 *   - C is stored one float at a time, not as float4s.
 *   - Both tiles travel by cp.async, STAGES steps ahead, in rung 13's pipeline. Rung 13
 *     could do that only for A, because its B had to be transposed on the way into shared
 *     memory and cp.async copies bytes as they are. B^T needs no transposing: a row of
 *     its tile is contiguous along n, as a row of A's tile is along m.
 * Why the stores matter: an SM keeps registers in banks, and an instruction whose
 *   operands sit in one bank needs extra cycles to read them. The profiler reports those
 *   cycles as "dispatch stalls": 0.46 per instruction for rung 9 at 4096, against 0.10
 *   for cuBLAS (results/h100-2026-11-21-experiments). The cause is in the machine code
 *   (tools/sass-report.sh): a float4 store needs its four values in four consecutive
 *   registers starting at a multiple of 4, so the compiler keeps every float4 of
 *   accumulators in such a quad, and every float4 of A read from shared memory lands in
 *   one too. The accumulator of row m+i and the A value of row m+i then sit at place i
 *   of their quads, in the same bank, in every multiply-add (b comes from the operand
 *   reuse cache):   FFMA R109, R88, R92.reuse, R8
 *   With single-float stores the compiler may put each accumulator anywhere, and it picks
 *   registers in other banks. Counting banks as register number mod 4 (NVIDIA does not
 *   publish the layout), 834 of rung 9's 1024 multiply-adds per step read two operands
 *   from one bank, and 123 of this kernel's in its first order of multiply-adds (below).
 * Why cp.async for B too: no registers hold the next tiles while they travel (rung 9
 *   needed 16 for them) and no instructions store them; the stage count hides latency.
 * The order of the multiply-adds: a column's b value is used by WPTM multiply-adds in a
 *   row, and the SM keeps it in an operand reuse cache (.reuse in the machine code), so
 *   those read only a and the accumulator from the banks. The loop walks the rows of
 *   column wn forth and those of column wn+1 back, a snake: at each turn the same a
 *   value is used twice in a row and comes from the reuse cache too. Of the 2048
 *   multiply-adds of a step at the tuned tile, those that read all three operands from
 *   the banks fell from 313 to 134, and the kernel took about 1% less time at 4096 and
 *   8192 (results/h100-2026-11-22-regs). Other orders tried there were slower.
 * What it gained on the H100 (results/h100-2026-11-21-banks, 4096 and 8192): single
 *   stores alone took rung 9 from 47.5k to 48.6k GFLOPS at 4096 (dispatch stalls 0.46 ->
 *   0.37), and both tiles by cp.async to 49.3k; the multiply-add pipe went from 77% to
 *   79% busy.
 * Parameters: TSM, TSN, TSK (block tile), WPTM, WPTN (rows and columns of C per thread,
 *   as in rung 9), STAGES (tiles in flight).
 * Constraints: 4 divides WPTM and WPTN, which divide TSM and TSN; the thread count
 *   divides the float4s of each tile; STAGES >= 2; the stages fit 48 KiB.
 * Sizes: any M, N, K >= 1 (the host pads, as for rung 10).
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): a piece is then 4
 *   doubles, two 16-byte cp.async copies, and a thread's 64 accumulators take 128
 *   registers, so one block per SM. The default stages (TSK = 16) need 64 KiB of shared
 *   memory in double: the small-device defaults (TSK = 8) fit in 48 KiB.
 */
#include "real.cuh"

#define RTSM (TSM / WPTM) /* threads along m */
#define RTSN (TSN / WPTN) /* threads along n */
#define THREADS (RTSM * RTSN)
/* Up to 64 accumulators a thread fits in 128 registers, so two blocks of 256 share an
 * SM (16 warps to hide latency); more accumulators need one block per SM. */
#define MIN_BLOCKS                                                                     \
    (WPTM * WPTN * REAL_WORDS > 64 ? 1                                                 \
     : THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define WPTMV (WPTM / 4)
#define WPTNV (WPTN / 4)
#define TSMV (TSM / 4)
#define TSNV (TSN / 4)
#define LPTA (TSMV * TSK / THREADS) /* float4s of the A tile each thread copies */
#define LPTB (TSNV * TSK / THREADS) /* and of the B^T tile */

/* cp.async of 16 bytes, global to shared; .cg: through L2 only (the block reads each
 * piece once). The PTX of rung 13's helpers, for whole pieces only: the host pads. */
__device__ inline void copy16(void *dst, const void *src)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    /* A piece is a real4: one 16-byte copy in float, two in double. */
#pragma unroll
    for (int h = 0; h < (int)sizeof(real4) / 16; h++)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d + 16 * h),
                     "l"((const char *)src + 16 * h));
}
__device__ inline void commit_group() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ inline void wait_group()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

struct Tiles {
    real4 A[STAGES][TSK][TSMV]; /* [k][m], A as it lies */
    real4 B[STAGES][TSK][TSNV]; /* [k][n], B^T as it lies */
};

/* Issues this thread's copies of step `step`'s tiles into stage `s`. Av and Bv are A and
 * B^T as float4s: row k of A's tile is TSMV float4s starting at mv0 in column k of A. */
__device__ inline void copy_stage(Tiles &sm, int s, int step, int tid, int mv0, int nv0,
                                  int M, int N, const real4 *Av, const real4 *Bv)
{
    const int k0 = step * TSK;
#pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l * THREADS;
        copy16(&sm.A[s][i / TSMV][i % TSMV], &Av[(mv0 + i % TSMV) + (k0 + i / TSMV) * (M / 4)]);
    }
#pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l * THREADS;
        copy16(&sm.B[s][i / TSNV][i % TSNV], &Bv[(nv0 + i % TSNV) + (k0 + i / TSNV) * (N / 4)]);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *__restrict__ A,
     const real *__restrict__ Bt, real *__restrict__ C)
{
    const real4 *Av = reinterpret_cast<const real4 *>(A);
    const real4 *Bv = reinterpret_cast<const real4 *>(Bt);
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV, nv0 = blockIdx.y * TSNV;
    __shared__ Tiles sm;

    /* As in rung 9: acc[c][wm] holds rows 4 * (mv0 + tidm + wm * RTSM) .. +3 of C's column
     * 4 * (nv0 + tidn + (c / 4) * RTSN) + c % 4. */
    real4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_real4(0, 0, 0, 0);

    /* The pipeline of rung 13: the first STAGES-1 steps are in flight before the loop. */
    const int steps = K / TSK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_stage(sm, s, s, tid, mv0, nv0, M, N, Av, Bv);
        commit_group();
    }
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>(); /* this thread's copies of step t have landed */
        __syncthreads();          /* everyone's have, and step t-1 is computed */
        const int next = t + STAGES - 1; /* into the stage step t-1 used */
        if (next < steps)
            copy_stage(sm, next % STAGES, next, tid, mv0, nv0, M, N, Av, Bv);
        commit_group();

#pragma unroll
        for (int k = 0; k < TSK; k++) {
            real4 a[WPTMV];
            real b[WPTN];
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                a[wm] = sm.A[s][k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++) {
                const real4 v = sm.B[s][k][tidn + wn * RTSN];
                b[4 * wn] = v.x;
                b[4 * wn + 1] = v.y;
                b[4 * wn + 2] = v.z;
                b[4 * wn + 3] = v.w;
            }
            /* Snake order: column wn's rows forth, column wn+1's back (see the header). */
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int i = 0; i < WPTM; i++) {
                    const int m = wn % 2 ? WPTM - 1 - i : i;
                    real *c = &acc[wn][m / 4].x;
                    const real *av = &a[m / 4].x;
                    c[m % 4] += av[m % 4] * b[wn];
                }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* One float at a time: this is what frees the accumulators' registers (see above).
     * The four stores of a float4's worth go to consecutive addresses, so a warp's
     * stores still fill whole sectors in L2; they happen once per block. */
#pragma unroll
    for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++) {
                const int m = 4 * (mv0 + tidm + wm * RTSM);
                const int n = 4 * (nv0 + tidn + wn * RTSN) + j;
                real *c = &C[m + n * M];
                c[0] = acc[wn * 4 + j][wm].x;
                c[1] = acc[wn * 4 + j][wm].y;
                c[2] = acc[wn * 4 + j][wm].z;
                c[3] = acc[wn * 4 + j][wm].w;
            }
}
