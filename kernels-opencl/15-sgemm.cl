/* Rung 15: full SGEMM semantics (OpenCL)
 * Change since rung 12: the kernel computes what a BLAS call computes,
 *     C = alpha * A * B + beta * C,
 *   with A, B and C stored with leading dimensions lda, ldb, ldc (column j of A starts at
 *   A + j * lda, which may be more than M: a matrix inside a bigger one), and C read only
 *   when beta is not 0, so that with beta = 0 whatever C held before (even NaN) does not
 *   matter. Everything else is rung 12's, with the parameters rung 12's CUDA search found
 *   best on the H100 (TSK=8, WM=16). Its OpenCL search preferred WM=64 at TSK=8, within
 *   1% of these; rung 12's own default depth, TSK=16, is about a sixth slower there.
 * Why: to stand in for a BLAS call (clblast::Gemm, cublasSgemm) and be compared with it on
 *   equal terms. The harness times it with alpha = 1, beta = 0 and leading dimensions M,
 *   K, M, as it calls the libraries; tests/test_blas_semantics.c checks other alphas,
 *   betas and leading dimensions.
 * What it costs: the float4 loads now need lda and ldb (not M and K) to be multiples of
 *   4; the epilogue multiplies by alpha and, when beta is not 0, reads C: one read per
 *   element of C, against 2K multiply-adds per element.
 * Parameters, constraints: rung 12's.
 * Sizes: any M, N, K >= 1; lda >= M (K with TRANS_A=1), ldb >= K (N with TRANS_B=1),
 *   ldc >= M.
 * Offsets of columns (k * lda, n * ldb, n * ldc) are computed in 64 bits: the harness keeps
 *   every matrix under 2^31 elements, but a BLAS call may pass a leading dimension whose
 *   product with a column number passes 2^31 (test_blas_semantics --large).
 * Transposes: -DTRANS_A=1 and -DTRANS_B=1 take A^T (KxM, lda >= K) and B^T (NxK, ldb >= N)
 *   in place of A and B, op(A) = A^T, op(B) = B^T: C = alpha * op(A) * op(B) + beta * C.
 *   Only the loads change, in blas_tiles.h, which says which loads coalesce in which case
 *   and why.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h). The float4s of this
 *   comment are then double4s (real4), 32 bytes, and "16-byte aligned" reads 32-byte.
 */
#include "real.h"

#define WN (2048 / WM)             /* a warp's 32 lanes x 64 elements */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define LM (WM / 8)                /* lanes along m */
#define LN (32 / LM)               /* lanes along n */
#define LPTA (TSM * TSK / THREADS) /* elements of the A tile each work-item loads */
#define LPTB (TSN * TSK / THREADS) /* elements of the B tile each work-item loads */
#include "blas_tiles.h"

void gemm_body(__local struct Tiles *sm, const int vec, const int M, const int N,
               const int K, const real alpha, const __global real *A, const int lda,
               const __global real *B, const int ldb, const real beta,
               __global real *C, const int ldc)
{
    const int tid = get_local_id(0);
    const int warp = tid / 32, lane = tid % 32;
    /* This work-item's place: real4 columns am and am + WM/8 of the A tile, real4
     * columns bq and bq + WN/8 of the B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    const int m0 = get_group_id(0) * TSM; /* this work-group's corner of C */
    const int n0 = get_group_id(1) * TSN;
    __local real4(*Asub)[TSK][(TSM + APAD) / 4] = sm->A;
    __local real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm->B;

    real4 acc[8][2];
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = 0;

    struct Share next; /* this work-item's share of the next tiles */
    load_share(&next, vec, 0, tid, m0, n0, M, N, K, A, lda, B, ldb);

    const int steps = (K + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, &next, buf, tid);
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < steps)
            load_share(&next, vec, (t + 1) * TSK, tid, m0, n0, M, N, K, A, lda, B,
                       ldb);

        /* Rung 11's inner loop, for this lane's float4s of rows and of columns. */
        for (int k = 0; k < TSK; k++) {
            const real4 a0 = Asub[buf][k][am], a1 = Asub[buf][k][am + WM / 8];
            const real4 b0 = Bsub[buf][k][bq], b1 = Bsub[buf][k][bq + WN / 8];
            for (int j = 0; j < 8; j++) {
                const real b = component(j < 4 ? b0 : b1, j % 4);
                acc[j][0] += a0 * b;
                acc[j][1] += a1 * b;
            }
        }
    }

    /* Only the elements of C that exist are written; C is read only when beta is not 0
     * (the same for every work-item, so none diverges). */
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            for (int i = 0; i < 4; i++)
                if (m + i < M && n < N) {
                    __global real *c = &C[(m + i) + (size_t)n * ldc];
                    const real v = alpha * component(acc[j][h], i);
                    *c = beta == 0 ? v : v + beta * *c;
                }
        }
    }
}

/* Whether the real4 loads are aligned is the same for every work-item: one branch. Column
 * j of A starts at A + j * lda, so lda (not M) decides; likewise ldb for B. OpenCL C has
 * no templates, so `vec` is an argument, a constant at each of the two calls. */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real *restrict A, const int lda,
          const __global real *restrict B, const int ldb, const real beta,
          __global real *restrict C, const int ldc)
{
    __local struct Tiles sm;
    if (lda % 4 == 0 && ldb % 4 == 0)
        gemm_body(&sm, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_body(&sm, 0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
