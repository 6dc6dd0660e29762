/* Rung 15: full SGEMM semantics (CUDA)
 * Change since rung 12: the kernel computes what a BLAS call computes,
 *     C = alpha * A * B + beta * C,
 *   with A, B and C stored with leading dimensions lda, ldb, ldc (column j of A starts at
 *   A + j * lda, which may be more than M: a matrix inside a bigger one), and C read only
 *   when beta is not 0, so that with beta = 0 whatever C held before (even NaN) does not
 *   matter. Everything else is rung 12's, with the parameters rung 12's search found best
 *   on the H100 (TSK=8, WM=16).
 * Why: to stand in for cublasSgemm and be compared with it on equal terms. The harness
 *   times it with alpha = 1, beta = 0 and leading dimensions M, K, M, as it calls cuBLAS;
 *   tests/test_blas_semantics.c checks other alphas, betas and leading dimensions.
 * What it costs: the float4 loads now need lda and ldb (not M and K) to be multiples of
 *   4, and A and B to start on 16-byte boundaries; the epilogue multiplies by alpha and,
 *   when beta is not 0, reads C: one read per element of C, against 2K multiply-adds per
 *   element.
 * Transposes (-DTRANS_A=1: A holds A^T, K x M; -DTRANS_B=1: B holds B^T, N x K; see
 *   load_share). Every load stays a float4 of 4 consecutive elements of one stored
 *   column, consecutive threads on consecutive float4s, so every case is coalesced; what
 *   a transpose changes is the store into shared memory. A (and B^T) run in memory along
 *   the tile's rows: a float4 goes into the tile as it is. B (and A^T) run along k: a
 *   float4 holds four depths of one column of the tile, stored as four floats into four
 *   rows, the transposing store that rung 11 gave B. So NT stores both tiles whole, NN
 *   and TT one whole and one by floats, TN both by floats. A tile stored by floats has
 *   its rows padded by 4 (BPAD; APAD for A) against bank conflicts.
 * Parameters, constraints: rung 12's.
 * Sizes: any M, N, K >= 1; lda >= M (K when A is transposed), ldb >= K (N when B is
 *   transposed), ldc >= M.
 * Offsets of columns (k * lda, n * ldb, n * ldc) are computed in 64 bits: the harness keeps
 *   every matrix under 2^31 elements, but a BLAS call may pass a leading dimension whose
 *   product with a column number passes 2^31 (test_blas_semantics --large).
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): every float4 is then a
 *   real4 of four doubles, 32 bytes, moved by two 16-byte accesses; the alignment rules
 *   (multiples of 4 elements) stay. The default tile (TSK = 8) fits in double (33 KiB of
 *   shared memory).
 */
#include "real.cuh"

#define WN (2048 / WM)             /* a warp's 32 lanes x 64 elements */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define MIN_BLOCKS (THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define LM (WM / 8)                /* lanes along m */
#define LN (32 / LM)               /* lanes along n */
#define LPTA (TSM * TSK / THREADS) /* floats of the A tile each thread loads */
#define LPTB (TSN * TSK / THREADS) /* floats of the B tile each thread loads */
#define BPAD 4 /* Bsub rows are TSN + 4 floats: the 16 depths a half-warp stores for one
                * column fall in 8 banks, not all in one, and rows stay 16-byte aligned */

__device__ inline void fma4(real4 &acc, real4 a, real b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

#include "blas_tiles.cuh" /* Tiles, Share, load_share, store_share */

template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const real alpha, const real *A, const int lda,
                                 const real *B, const int ldb, const real beta, real *C,
                                 const int ldc)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    /* This thread's place: float4 columns am and am + WM/8 of the A tile, float4
     * columns bq and bq + WN/8 of the (transposed) B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    const int m0 = blockIdx.x * TSM; /* this block's corner of C */
    const int n0 = blockIdx.y * TSN;
    real4(*Asub)[TSK][(TSM + APAD) / 4] = sm.A;
    real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm.B;

    real4 acc[8][2];
#pragma unroll
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = make_real4(0, 0, 0, 0);

    Share next; /* this thread's share of the next tiles */
    load_share<VEC>(next, 0, tid, m0, n0, M, N, K, A, lda, B, ldb);

    const int steps = (K + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, next, buf, tid);
        __syncthreads();

        if (t + 1 < steps)
            load_share<VEC>(next, (t + 1) * TSK, tid, m0, n0, M, N, K, A, lda, B, ldb);

        /* Rung 11's inner loop, for this lane's float4s of rows and of columns. */
#pragma unroll
        for (int k = 0; k < TSK; k++) {
            const real4 a0 = Asub[buf][k][am], a1 = Asub[buf][k][am + WM / 8];
            const real4 b0 = Bsub[buf][k][bq], b1 = Bsub[buf][k][bq + WN / 8];
            const real b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int j = 0; j < 8; j++) {
                fma4(acc[j][0], a0, b[j]);
                fma4(acc[j][1], a1, b[j]);
            }
        }
    }

    /* Only the elements of C that exist are written; C is read only when beta is not 0
     * (the same for every thread, so no thread diverges). */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            const real v[4] = {acc[j][h].x, acc[j][h].y, acc[j][h].z, acc[j][h].w};
#pragma unroll
            for (int i = 0; i < 4; i++)
                if (m + i < M && n < N) {
                    real *c = &C[(m + i) + (size_t)n * ldc];
                    *c = beta == 0 ? alpha * v[i] : alpha * v[i] + beta * *c;
                }
        }
    }
}

/* Whether the float4 loads are aligned is the same for every thread: one branch. Column j
 * of A starts at A + j * lda, so lda (not M) decides; likewise ldb for B. So does where A
 * and B start: like cublasSgemm, this kernel may be given a matrix inside a bigger one
 * (A + i + j * lda), which need not start on a 16-byte boundary. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
     const int lda, const real *__restrict__ B, const int ldb, const real beta,
     real *__restrict__ C, const int ldc)
{
    __shared__ Tiles sm;
    if (lda % 4 == 0 && ldb % 4 == 0 &&
        ((unsigned long long)A | (unsigned long long)B) % sizeof(real4) == 0)
        gemm_body<true>(sm, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_body<false>(sm, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
