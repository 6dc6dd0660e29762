/* Rung 1: naive (CUDA)
 * The starting point: one thread computes one element C(m, n) as the dot product of
 *   row m of A and column n of B, reading both straight from global memory.
 * Why it is slow: every multiply-add needs two global loads (8 bytes for 2 flops), so the
 *   kernel is limited by memory traffic, and neighbouring threads re-read the same values
 *   that the caches may or may not still hold.
 * Why it is not hopeless: threads next to each other in x take neighbouring rows m, so
 *   their loads of A and their stores to C touch consecutive addresses (column-major
 *   storage) and coalesce into few memory transactions.
 * Why the loop carries "#pragma unroll 32": the compiler unrolls it anyway, but by less.
 *   Unrolled 32 times, each thread can have many more loads in flight before the first
 *   multiply-adds need their operands, which is what a memory-bound kernel needs (our
 *   reading of the measurement; not profiled). The arithmetic is unchanged. On the
 *   H100 (CUDA 13.0) this measured 6,517 GFLOPS at 4096 against 5,983 with the compiler's
 *   own unrolling; 2-12% more at 1024-8192 (results/h100-2026-11-21-naive-probe).
 *   Writing the index with blockDim rather than the constant TS is worth about 1% more
 *   there; it is the usual CUDA idiom anyway.
 * Parameters: TS (block edge: TS x TS threads).
 * Sizes: any M, N, K >= 1: the grid is rounded up to whole blocks and the threads outside
 *   C return at once.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh).
 */
#include "real.cuh"

extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const real *A, const real *B, real *C)
{
    const int m = blockDim.x * blockIdx.x + threadIdx.x; /* row of C */
    const int n = blockDim.y * blockIdx.y + threadIdx.y; /* column of C */
    if (m >= M || n >= N)
        return;

    real acc = 0;
#pragma unroll 32
    for (int k = 0; k < K; k++)
        acc += A[k * M + m] * B[n * K + k];
    C[n * M + m] = acc;
}
