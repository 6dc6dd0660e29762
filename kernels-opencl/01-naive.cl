/* Rung 1: naive (OpenCL)
 * The starting point: one work-item computes one element C(m, n) as the dot product of
 *   row m of A and column n of B, reading both straight from global memory.
 * Why it is slow: every multiply-add needs two global loads (8 bytes for 2 flops), so the
 *   kernel is limited by memory traffic, and neighbouring work-items re-read the same
 *   values that the caches may or may not still hold.
 * Why it is not hopeless: work-items next to each other in dimension 0 take neighbouring
 *   rows m, so their loads of A and their stores to C touch consecutive addresses
 *   (column-major storage) and coalesce into few memory transactions.
 * Why the loop carries "#pragma unroll 32": the compiler unrolls it anyway, but by less.
 *   Unrolled 32 times, each work-item can have many more loads in flight before the first
 *   multiply-adds need their operands, which is what a memory-bound kernel needs (our
 *   reading of the measurement; not profiled). The arithmetic is unchanged. On the H100
 *   this measured 6,559 GFLOPS at 4096 against 6,402 with the compiler's own unrolling,
 *   and 5-8% more at 1024, 2048 and 8192 (results/h100-2026-11-21-naive-probe).
 * Parameters: TS (work-group edge: TS x TS work-items).
 * Sizes: any M, N, K >= 1: the global range is rounded up to whole work-groups and the
 *   work-items outside C return at once.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

__kernel void gemm(const int M, const int N, const int K,
                   const __global real *A, const __global real *B, __global real *C)
{
    const int m = get_global_id(0); /* row of C */
    const int n = get_global_id(1); /* column of C */
    if (m >= M || n >= N)
        return;

    real acc = 0;
#pragma unroll 32
    for (int k = 0; k < K; k++)
        acc += A[m + k * M] * B[k + n * K];
    C[m + n * M] = acc;
}
