/* Rung 3: more work per thread (CUDA)
 * Change since rung 2: the block shrinks to TS x TS/WPT threads and each computes WPT
 *   elements of C, spaced TS/WPT columns apart, keeping WPT accumulators in registers.
 *   Each thread also loads WPT elements of each tile.
 * Why it should help: in the inner loop one value of A read from shared memory now serves
 *   WPT multiply-adds, so shared-memory loads per multiply-add fall from 2 to 1 + 1/WPT,
 *   and the fewer, busier threads spend less time on index arithmetic and barriers.
 * Parameters: TS (tile edge), WPT (elements of C per thread; divides TS).
 * Sizes: M, N and K multiples of TS.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh).
 */
#include "real.cuh"

#define RTS (TS / WPT) /* threads along the columns of a tile */

extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const real *A, const real *B, real *C)
{
    const int row = threadIdx.x; /* 0 .. TS-1 */
    const int col = threadIdx.y; /* 0 .. RTS-1 */
    const int m = blockIdx.x * TS + row;
    const int n0 = blockIdx.y * TS + col; /* first of this thread's columns */

    __shared__ real Asub[TS][TS];
    __shared__ real Bsub[TS][TS];

    real acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; w++)
        acc[w] = 0;

    for (int t = 0; t < K / TS; t++) {
#pragma unroll
        for (int w = 0; w < WPT; w++) {
            const int c = col + w * RTS;
            Asub[c][row] = A[m + (t * TS + c) * M];
            Bsub[c][row] = B[(t * TS + row) + (n0 + w * RTS) * K];
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < TS; k++) {
            const real a = Asub[k][row]; /* loaded once, used WPT times */
#pragma unroll
            for (int w = 0; w < WPT; w++)
                acc[w] += a * Bsub[col + w * RTS][k];
        }
        __syncthreads();
    }
#pragma unroll
    for (int w = 0; w < WPT; w++)
        C[m + (n0 + w * RTS) * M] = acc[w];
}
