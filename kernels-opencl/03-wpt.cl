/* Rung 3: more work per thread (OpenCL)
 * Change since rung 2: the work-group shrinks to TS x TS/WPT work-items and each computes
 *   WPT elements of C, spaced TS/WPT columns apart, keeping WPT accumulators in registers.
 *   Each work-item also loads WPT elements of each tile.
 * Why it should help: in the inner loop one value of A read from local memory now serves
 *   WPT multiply-adds, so local-memory loads per multiply-add fall from 2 to 1 + 1/WPT,
 *   and the fewer, busier work-items spend less time on index arithmetic and barriers.
 * Parameters: TS (tile edge), WPT (elements of C per work-item; divides TS).
 * Sizes: M, N and K multiples of TS.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

#define RTS (TS / WPT) /* work-items along the columns of a tile */

__kernel void gemm(const int M, const int N, const int K,
                   const __global real *A, const __global real *B, __global real *C)
{
    const int row = get_local_id(0);  /* 0 .. TS-1 */
    const int col = get_local_id(1);  /* 0 .. RTS-1 */
    const int m = get_group_id(0) * TS + row;
    const int n0 = get_group_id(1) * TS + col; /* first of this work-item's columns */

    __local real Asub[TS][TS];
    __local real Bsub[TS][TS];

    real acc[WPT];
    for (int w = 0; w < WPT; w++)
        acc[w] = 0;

    for (int t = 0; t < K / TS; t++) {
        for (int w = 0; w < WPT; w++) {
            const int c = col + w * RTS;
            Asub[c][row] = A[m + (t * TS + c) * M];
            Bsub[c][row] = B[(t * TS + row) + (n0 + w * RTS) * K];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++) {
            const real a = Asub[k][row]; /* loaded once, used WPT times */
            for (int w = 0; w < WPT; w++)
                acc[w] += a * Bsub[col + w * RTS][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int w = 0; w < WPT; w++)
        C[m + (n0 + w * RTS) * M] = acc[w];
}
