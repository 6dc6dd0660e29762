/* Rung 5: transposed input and rectangular tiles (OpenCL)
 * Change since rung 4: two changes that go together.
 *   - The kernel reads B^T (an N x K column-major matrix, Bt[n + k*N]) instead of B. A
 *     helper kernel makes it once before the GEMM and is timed with the rung. Now both
 *     inputs are contiguous along the dimension of C they belong to (A along M, B^T along
 *     N), so both tiles are loaded by the same code, and both are stored k-major in local
 *     memory: Asub[k][m] and Bsub[k][n].
 *   - The tiles are no longer TS x TS but TSM x TSK for A and TSK x TSN for B. The loads
 *     are decoupled from the work-items' share of C: the work-group walks over each tile
 *     as a flat list of vectors, each work-item taking every (work-group size)-th one.
 *   The computation itself is rung 4's: WIDTH consecutive rows (one vector) by WPTN
 *   columns spaced RTSN apart.
 * Why it should help: in rung 4 the vectors of B ran along K, which only fits a tile that
 *   is as deep as it is wide. With B^T, every load of either matrix is a coalesced vector
 *   along M or N for any tile shape, so the tile can be shaped for reuse: a large TSM x
 *   TSN tile reuses each loaded value more often, while a shallow TSK keeps local memory
 *   small. In the inner loop the values of B that a work-item needs at step k sit in one
 *   row of Bsub (a broadcast to the work-items sharing a column) instead of TS floats apart.
 * Parameters: TSM, TSN, TSK (tile sizes), WIDTH (1, 2, 4 or 8), WPTN (columns of C per
 *   work-item). The work-group is TSM/WIDTH x TSN/WPTN.
 * Constraints: WIDTH divides TSM and TSN; WPTN divides TSN; the work-group size divides
 *   TSM*TSK/WIDTH and TSN*TSK/WIDTH (whole loads per work-item).
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

#if WIDTH == 1
typedef real realX;
#elif WIDTH == 2
typedef real2 realX;
#elif WIDTH == 4
typedef real4 realX;
#elif WIDTH == 8
typedef real8 realX;
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

#define RTSM (TSM / WIDTH)          /* work-items along M: one vector of rows each */
#define RTSN (TSN / WPTN)           /* work-items along N */
#define THREADS (RTSM * RTSN)
#define TSMV (TSM / WIDTH)          /* vectors along M in one column of the A tile */
#define TSNV (TSN / WIDTH)          /* vectors along N in one column of the B^T tile */
#define LPTA (TSMV * TSK / THREADS) /* vector loads of A per work-item per tile */
#define LPTB (TSNV * TSK / THREADS) /* vector loads of B^T per work-item per tile */

__kernel void gemm(const int M, const int N, const int K,
                   const __global real *A, const __global real *Bt, __global real *C)
{
    const __global realX *Av = (const __global realX *)A;
    const __global realX *Bv = (const __global realX *)Bt;
    __global realX *Cv = (__global realX *)C;

    const int tidm = get_local_id(0);       /* 0 .. RTSM-1 */
    const int tidn = get_local_id(1);       /* 0 .. RTSN-1 */
    const int tid = tidn * RTSM + tidm;     /* 0 .. THREADS-1 */
    const int mv0 = get_group_id(0) * TSMV; /* the tile's first vector of rows */
    const int nv0 = get_group_id(1) * TSNV; /* the same along N, for loading B^T */
    const int n0 = get_group_id(1) * TSN;   /* the tile's first column */

    __local realX Asub[TSK][TSMV];
    __local realX Bsub[TSK][TSNV];

    realX acc[WPTN];
    for (int wn = 0; wn < WPTN; wn++)
        acc[wn] = 0;

    for (int t = 0; t < K / TSK; t++) {
        /* Both tiles: vector i of the tile is column i / TSxV, vector i % TSxV within it.
         * Consecutive work-items take consecutive vectors: coalesced. */
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l * THREADS;
            const int k = i / TSMV, v = i % TSMV;
            Asub[k][v] = Av[(mv0 + v) + (t * TSK + k) * (M / WIDTH)];
        }
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l * THREADS;
            const int k = i / TSNV, v = i % TSNV;
            Bsub[k][v] = Bv[(nv0 + v) + (t * TSK + k) * (N / WIDTH)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TSK; k++) {
            const realX a = Asub[k][tidm];
            const __local real *bk = (const __local real *)Bsub[k]; /* row k, by real */
            for (int wn = 0; wn < WPTN; wn++)
                acc[wn] += a * bk[tidn + wn * RTSN];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int wn = 0; wn < WPTN; wn++)
        Cv[(mv0 + tidm) + (n0 + tidn + wn * RTSN) * (M / WIDTH)] = acc[wn];
}
