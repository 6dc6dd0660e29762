/* The tiles of a BLAS call's warp-tiled kernel, rungs 15 and 19, in every transpose case:
 * the double-buffered shared-memory tiles, one thread's share of them in registers, and
 * how that share is loaded from A and B (or A^T, B^T) and stored into the tiles.
 * Rung 15's header says what each transpose does to the loads (all coalesced) and the
 * stores; rung 19 takes them unchanged. Before including it a kernel defines TSM, TSN,
 * TSK, THREADS, LPTA, LPTB (elements of each tile a thread loads) and BPAD (the padding of
 * B's tile rows), and includes real.cuh.
 */
#ifndef LADDER_BLAS_TILES_CUH
#define LADDER_BLAS_TILES_CUH

/* Rows of the tiles, in elements. B's are padded (BPAD); A's too when A is transposed,
 * because its tile is then stored as B's is, four depths of one column into four rows. */
#define APAD (TRANS_A ? 4 : 0)

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    real4 A[2][TSK][(TSM + APAD) / 4]; /* A tile, k-major: [k][m] */
    real4 B[2][TSK][(TSN + BPAD) / 4]; /* B tile, transposed: [k][n] */
};

/* One thread's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    real4 a[LPTA / 4], b[LPTB / 4];
};

/* Elements r..r+3 of column c of a column-major matrix P (leading dimension ld, R rows and
 * C columns that exist); zeros for those that do not. VEC: one float4 load, which must
 * start 16-byte aligned: that holds when P starts 16-byte aligned and ld and r are
 * multiples of 4 (every column then starts on a multiple of 4 floats). Otherwise the same
 * elements come one float at a time. */
template <bool VEC>
__device__ inline real4 load4(const real *P, int ld, int r, int c, int R, int C)
{
    real4 v;
    const real *src = P + r + (size_t)c * ld;
    if (VEC && r + 3 < R && c < C) {
        v = *(const real4 *)src;
    } else {
        v.x = (r + 0 < R && c < C) ? src[0] : 0;
        v.y = (r + 1 < R && c < C) ? src[1] : 0;
        v.z = (r + 2 < R && c < C) ? src[2] : 0;
        v.w = (r + 3 < R && c < C) ? src[3] : 0;
    }
    return v;
}

/* Float4 i of a share, for a tile (TSX wide, TSK deep) whose matrix runs in memory along
 * the tile's rows (A; B^T): 4 elements of one row of the tile, at row i / (TSX/4). Or,
 * for one whose matrix runs along k (B; A^T): 4 depths of one column, at column
 * i / (TSK/4). Consecutive threads take consecutive float4s of one column of the matrix
 * either way: coalesced. */
template <int TSX> __device__ inline int lying_x(int i) { return 4 * (i % (TSX / 4)); }
template <int TSX> __device__ inline int lying_k(int i) { return i / (TSX / 4); }
__device__ inline int standing_k(int i) { return 4 * (i % (TSK / 4)); }
__device__ inline int standing_x(int i) { return i / (TSK / 4); }

/* Loads this thread's share of the tiles at depth k0. An element outside the matrix is
 * loaded as a zero, which adds nothing to any sum. Which way each tile is loaded follows
 * the way its matrix runs in memory:
 *   A: along m, float4s of 4 rows at one depth; A^T (TRANS_A): along k, 4 depths of one
 *   row. B: along k, 4 depths of one column; B^T (TRANS_B): along n, 4 columns at one
 *   depth. Every load is a float4 of one column of the matrix as it is stored, and
 *   consecutive threads read consecutive float4s: coalesced in all four cases. */
template <bool VEC>
__device__ inline void load_share(Share &sh, int k0, int tid, int m0, int n0, int M, int N,
                                  int K, const real *A, int lda, const real *B, int ldb)
{
#pragma unroll
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        if (TRANS_A)
            sh.a[l] = load4<VEC>(A, lda, k0 + standing_k(i), m0 + standing_x(i), K, M);
        else
            sh.a[l] = load4<VEC>(A, lda, m0 + lying_x<TSM>(i), k0 + lying_k<TSM>(i), M, K);
    }
#pragma unroll
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        if (TRANS_B)
            sh.b[l] = load4<VEC>(B, ldb, n0 + lying_x<TSN>(i), k0 + lying_k<TSN>(i), N, K);
        else
            sh.b[l] = load4<VEC>(B, ldb, k0 + standing_k(i), n0 + standing_x(i), K, N);
    }
}

/* Stores float4 i of a share into a tile of rows of `row` elements: as it is when its
 * matrix runs along the tile's rows, else its four depths into four rows (the
 * transposing store, with the bank conflicts BPAD keeps few). */
template <int TSX, int ROW4>
__device__ inline void store_lying(real4 (*tile)[ROW4], real4 v, int i)
{
    tile[lying_k<TSX>(i)][lying_x<TSX>(i) / 4] = v;
}
__device__ inline void store_standing(real *tile, int row, real4 v, int i)
{
    const int k = standing_k(i), x = standing_x(i);
    tile[(k + 0) * row + x] = v.x;
    tile[(k + 1) * row + x] = v.y;
    tile[(k + 2) * row + x] = v.z;
    tile[(k + 3) * row + x] = v.w;
}

/* Stores a share into buffer `buf` (NN: A's float4 as it is, B's four depths of one
 * column into four rows of the transposed tile). */
__device__ inline void store_share(Tiles &sm, const Share &sh, int buf, int tid)
{
#pragma unroll
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        if (TRANS_A)
            store_standing((real *)sm.A[buf], TSM + APAD, sh.a[l], i);
        else
            store_lying<TSM>(sm.A[buf], sh.a[l], i);
    }
#pragma unroll
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        if (TRANS_B)
            store_lying<TSN>(sm.B[buf], sh.b[l], i);
        else
            store_standing((real *)sm.B[buf], TSN + BPAD, sh.b[l], i);
    }
}

#endif
