/* The tiles of op(A) and op(B) for the BLAS-call rungs (15-sgemm.cl, 19-splitk.cl): how a
 * work-group loads them from global memory, for every transpose pair, and stores them in
 * local memory, double-buffered as in rung 9.
 *
 * The includer defines the tile (TSM, TSN, TSK), THREADS (work-items of a work-group),
 * LPTA = TSM*TSK/THREADS and LPTB = TSN*TSK/THREADS (elements of each tile a work-item
 * loads), and includes real.h. The host passes TRANS_A and TRANS_B (0 or 1):
 *   TRANS_A=0: A is MxK, A(m, k) = A[m + k*lda]: contiguous along m.
 *   TRANS_A=1: A holds A^T, KxM, A(m, k) = A[k + m*lda]: contiguous along k.
 *   TRANS_B=0: B is KxN, B(k, n) = B[k + n*ldb]: contiguous along k.
 *   TRANS_B=1: B holds B^T, NxK, B(k, n) = B[n + k*ldb]: contiguous along n.
 * Whatever the case, the tiles in local memory are the same, k-major: Asub[k][m] and
 * Bsub[k][n], so the inner loop (the rung's) never knows which case it runs.
 *
 * Coalescing, the lesson of this file. A warp's loads coalesce when its consecutive lanes
 * read consecutive addresses, so each operand is loaded along the direction in which it is
 * contiguous, whatever direction the tile wants:
 *   - along m or n (A, or B^T): consecutive work-items take consecutive real4s down one
 *     column, TSM (or TSN) elements in a row: 512 contiguous bytes at TSM = 128 in float.
 *     The real4 goes into the tile as it is: its 4 elements are 4 neighbours of one row
 *     of Asub (Bsub).
 *   - along k (A^T, or B): consecutive work-items take consecutive real4s of 4 depths
 *     down one column, TSK elements in a row (32 bytes at TSK = 8 in float, 64 in double),
 *     TSK/4 work-items per column. Every byte fetched is still used, in sectors of 32
 *     bytes (the unit in which an NVIDIA GPU moves data since Maxwell) rather than whole
 *     128-byte lines, as long as the columns start on sector boundaries (in float, lda a
 *     multiple of 8; otherwise each run straddles two sectors); a deeper TSK makes the
 *     runs longer. The real4 is then taken apart
 *     on its way into local memory: its 4 depths go to 4 rows of the tile (a transposing
 *     store, rung 11's for B), and the tile's rows get PAD extra elements so that the
 *     depths that neighbouring work-items store do not all fall into one bank.
 *   The naive alternative, reading A^T along m as A is read, would give each lane one
 *   element of its own column, lda elements from its neighbour's: 32 sectors for 32
 *   elements, 1/8 of every sector used in float.
 * So per case: NN loads A along m and B along k (one transposing store, B's); NT loads
 *   both along m and n, no transposing store (rung 5's discovery that B^T suits this
 *   tile); TN loads both along k (two transposing stores); TT loads A along k, B^T along n.
 *
 * Local memory: two buffers of TSK x (TSM + APAD) and TSK x (TSN + BPAD) elements; the
 * host counts the pads of the worst case, TN (blas_tiles() in host/rungs/rungs_modern.c).
 */
#ifndef LADDER_BLAS_TILES_H
#define LADDER_BLAS_TILES_H

#define PAD 4 /* elements added to a tile row filled by transposing stores: the 16 depths
               * that half a warp (32 work-items on NVIDIA) stores for one column then fall
               * in 8 banks, not all in one, and rows stay whole real4s */
#define APAD (TRANS_A ? PAD : 0) /* A^T is loaded along k */
#define BPAD (TRANS_B ? 0 : PAD) /* B is loaded along k */

/* Component i of a real4, for an i the compiler knows (once it unrolls the loops). */
real component(real4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    real4 A[2][TSK][(TSM + APAD) / 4]; /* op(A) tile, k-major: [k][m] */
    real4 B[2][TSK][(TSN + BPAD) / 4]; /* op(B) tile, k-major: [k][n] */
};

/* One work-item's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    real4 a[LPTA / 4], b[LPTB / 4];
};

/* LOAD4(v, X, ld, e, c, end, col_ok, vec): v = elements e..e+3 of column c of the
 * column-major matrix X (leading dimension ld), as one real4. Zeros at e + t >= end (past
 * the matrix, or past the slice of K) and everywhere when the column does not count
 * (col_ok false). vec: one real4 load where all four exist; it must start aligned (16
 * bytes in float, 32 in double), which holds when ld is a multiple of 4, as e is.
 * Otherwise the elements come one at a time.
 * Why a macro: written as a function called from load_tile4, or as one load after the
 * choice of direction, PoCL (the CPU OpenCL) ran rung 15 at half its speed (34 ms instead
 * of 14 at 512^3); spelled out in each branch, as this macro does, it keeps its speed. */
#define LOAD4(v, X, ld, e, c, end, col_ok, vec)                                          \
    do {                                                                                 \
        const __global real *src_ = (X) + (e) + (size_t)(c) * (ld);                      \
        if ((vec) && (e) + 3 < (end) && (col_ok)) {                                      \
            (v) = *(const __global real4 *)src_;                                         \
        } else {                                                                         \
            (v).x = ((e) + 0 < (end) && (col_ok)) ? src_[0] : 0;                         \
            (v).y = ((e) + 1 < (end) && (col_ok)) ? src_[1] : 0;                         \
            (v).z = ((e) + 2 < (end) && (col_ok)) ? src_[2] : 0;                         \
            (v).w = ((e) + 3 < (end) && (col_ok)) ? src_[3] : 0;                         \
        }                                                                                \
    } while (0)

/* One real4 of an operand's tile, its i-th: the operand's rows (m of A, n of B) r0..r0+ts-1
 * of R, at depths k0.. below kend. along_k (A^T, B): 4 depths of one row, TSK/4 work-items
 * per row; otherwise (A, B^T): 4 rows at one depth, ts/4 work-items per depth. Either way
 * consecutive i, consecutive addresses. Rows past R and depths past kend load as zeros,
 * which add nothing to any sum. vec: real4 loads allowed (ld a multiple of 4). */
real4 load_tile4(const __global real *X, const int ld, const int along_k, const int ts,
                 const int i, const int r0, const int R, const int k0, const int kend,
                 const int vec)
{
    real4 v;
    if (along_k) {
        const int k = k0 + 4 * (i % (TSK / 4)), r = r0 + i / (TSK / 4);
        LOAD4(v, X, ld, k, r, kend, r < R, vec);
    } else {
        const int r = r0 + 4 * (i % (ts / 4)), k = k0 + i / (ts / 4);
        LOAD4(v, X, ld, r, k, R, k < kend, vec);
    }
    return v;
}

/* Stores the i-th real4 of load_tile4 into the operand's k-major tile, whose rows are
 * `width` elements (ts and the pad). Along k, the transposing store: the 4 depths go to 4
 * rows of the tile, one element each. Otherwise the real4 lands as it is. */
void store_tile4(__local real4 *tile, const int along_k, const int ts, const int width,
                 const int i, const real4 v)
{
    if (along_k) {
        __local real *t = (__local real *)tile;
        const int k = 4 * (i % (TSK / 4)), r = i / (TSK / 4);
        t[(k + 0) * width + r] = v.x;
        t[(k + 1) * width + r] = v.y;
        t[(k + 2) * width + r] = v.z;
        t[(k + 3) * width + r] = v.w;
    } else {
        tile[(i / (ts / 4)) * (width / 4) + i % (ts / 4)] = v;
    }
}

/* Loads this work-item's share of the tiles of op(A) (rows m0.., depths k0..) and op(B)
 * (depths k0.., columns n0..), each along its contiguous direction (above). Depths at or
 * past kend, rows past M and columns past N load as zeros. vec: lda and ldb multiples
 * of 4. */
void load_share(struct Share *sh, const int vec, int k0, int tid, int m0, int n0, int M,
                int N, int kend, const __global real *A, const int lda,
                const __global real *B, const int ldb)
{
    for (int l = 0; l < LPTA / 4; l++)
        sh->a[l] = load_tile4(A, lda, TRANS_A, TSM, tid + l * THREADS, m0, M, k0, kend, vec);
    for (int l = 0; l < LPTB / 4; l++)
        sh->b[l] = load_tile4(B, ldb, !TRANS_B, TSN, tid + l * THREADS, n0, N, k0, kend, vec);
}

/* Stores a share into buffer `buf`, with the mapping of load_share. */
void store_share(__local struct Tiles *sm, const struct Share *sh, int buf, int tid)
{
    for (int l = 0; l < LPTA / 4; l++)
        store_tile4(sm->A[buf][0], TRANS_A, TSM, TSM + APAD, tid + l * THREADS, sh->a[l]);
    for (int l = 0; l < LPTB / 4; l++)
        store_tile4(sm->B[buf][0], !TRANS_B, TSN, TSN + BPAD, tid + l * THREADS, sh->b[l]);
}

#endif
