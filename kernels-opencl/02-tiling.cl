/* Rung 2: tiling in local memory (OpenCL)
 * Change since rung 1: the work-group cooperates. For each step along K it loads one
 *   TS x TS tile of A and one of B into local memory (each work-item loads one element of
 *   each), waits at a barrier, and then every work-item runs its dot product over the
 *   tile from local memory.
 * Why it should help: each value loaded from global memory is now used TS times (once by
 *   each work-item of a row or column of the work-group) instead of once, so global
 *   traffic per multiply-add falls by a factor TS. The price: two barriers per tile and
 *   two local-memory loads per multiply-add.
 * Parameters: TS (tile edge; the work-group is TS x TS).
 * Sizes: M, N and K multiples of TS.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

__kernel void gemm(const int M, const int N, const int K,
                   const __global real *A, const __global real *B, __global real *C)
{
    const int row = get_local_id(0);  /* row of C inside the tile */
    const int col = get_local_id(1);  /* column of C inside the tile */
    const int m = get_group_id(0) * TS + row;
    const int n = get_group_id(1) * TS + col;

    /* Asub[k][row] holds A(m, k) and Bsub[col][k] holds B(k, n) for the current tile. */
    __local real Asub[TS][TS];
    __local real Bsub[TS][TS];

    real acc = 0;
    for (int t = 0; t < K / TS; t++) {
        /* Work-items with consecutive `row` read consecutive addresses: coalesced. */
        Asub[col][row] = A[m + (t * TS + col) * M];
        Bsub[col][row] = B[(t * TS + row) + n * K];
        barrier(CLK_LOCAL_MEM_FENCE);   /* the whole tile is loaded */

        for (int k = 0; k < TS; k++)
            acc += Asub[k][row] * Bsub[col][k];
        barrier(CLK_LOCAL_MEM_FENCE);   /* nobody still reads the tile we overwrite next */
    }
    C[m + n * M] = acc;
}
