/* Rung 1: naive (CUDA)
 * The starting point: one thread computes one element C(m, n) as the dot product of
 *   row m of A and column n of B, reading both straight from global memory.
 * Why it is slow: every multiply-add needs two global loads (8 bytes for 2 flops), so the
 *   kernel is limited by memory traffic, and neighbouring threads re-read the same values
 *   that the caches may or may not still hold.
 * Why it is not hopeless: threads next to each other in x take neighbouring rows m, so
 *   their loads of A and their stores to C touch consecutive addresses (column-major
 *   storage) and coalesce into few memory transactions.
 * Parameters: TS (block edge: TS x TS threads).
 * Sizes: any M, N, K >= 1: the grid is rounded up to whole blocks and the threads outside
 *   C return at once.
 */
extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const float *A, const float *B, float *C)
{
    const int m = blockIdx.x * TS + threadIdx.x; /* row of C */
    const int n = blockIdx.y * TS + threadIdx.y; /* column of C */
    if (m >= M || n >= N)
        return;

    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[m + k * M] * B[k + n * K];
    C[m + n * M] = acc;
}
