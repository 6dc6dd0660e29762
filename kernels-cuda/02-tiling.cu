/* Rung 2: tiling in shared memory (CUDA)
 * Change since rung 1: the block cooperates. For each step along K it loads one TS x TS
 *   tile of A and one of B into shared memory (each thread loads one element of each),
 *   waits at a barrier, and then every thread runs its dot product over the tile from
 *   shared memory.
 * Why it should help: each value loaded from global memory is now used TS times (once by
 *   each thread of a row or column of the block) instead of once, so global traffic per
 *   multiply-add falls by a factor TS. The price: two barriers per tile and two
 *   shared-memory loads per multiply-add.
 * Parameters: TS (tile edge; the block is TS x TS).
 * Sizes: M, N and K multiples of TS.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh).
 */
#include "real.cuh"

extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const real *A, const real *B, real *C)
{
    const int row = threadIdx.x; /* row of C inside the tile */
    const int col = threadIdx.y; /* column of C inside the tile */
    const int m = blockIdx.x * TS + row;
    const int n = blockIdx.y * TS + col;

    /* Asub[k][row] holds A(m, k) and Bsub[col][k] holds B(k, n) for the current tile. */
    __shared__ real Asub[TS][TS];
    __shared__ real Bsub[TS][TS];

    real acc = 0;
    for (int t = 0; t < K / TS; t++) {
        /* Threads with consecutive `row` read consecutive addresses: coalesced. */
        Asub[col][row] = A[m + (t * TS + col) * M];
        Bsub[col][row] = B[(t * TS + row) + n * K];
        __syncthreads();   /* the whole tile is loaded */

        for (int k = 0; k < TS; k++)
            acc += Asub[k][row] * Bsub[col][k];
        __syncthreads();   /* nobody still reads the tile we overwrite next */
    }
    C[m + n * M] = acc;
}
