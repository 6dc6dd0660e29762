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
 * Sizes: any M, N, K >= 1; lda >= M, ldb >= K, ldc >= M.
 * Offsets of columns (k * lda, n * ldb, n * ldc) are computed in 64 bits: the harness keeps
 *   every matrix under 2^31 elements, but a BLAS call may pass a leading dimension whose
 *   product with a column number passes 2^31 (test_blas_semantics --large).
 */
#define WN (2048 / WM)             /* a warp's 32 lanes x 64 elements */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define LM (WM / 8)                /* lanes along m */
#define LN (32 / LM)               /* lanes along n */
#define LPTA (TSM * TSK / THREADS) /* floats of the A tile each work-item loads */
#define LPTB (TSN * TSK / THREADS) /* floats of the B tile each work-item loads */
#define BPAD 4 /* Bsub rows are TSN + 4 floats: the 16 depths that half a warp stores for
                * one column fall in 8 banks, not all in one, and rows stay 16-byte
                * aligned */

/* Component i of a float4, for an i the compiler knows (once it unrolls the loops). */
float component(float4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    float4 A[2][TSK][TSM / 4];          /* A tile, k-major: [k][m] */
    float4 B[2][TSK][(TSN + BPAD) / 4]; /* B tile, transposed: [k][n] */
};

/* One work-item's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    float4 a[LPTA / 4], b[LPTB / 4];
};

/* Loads this work-item's share of the tiles at depth k0. Consecutive work-items read
 * consecutive addresses (A along m, B along k): coalesced. An element outside the matrix
 * is loaded as a zero, which adds nothing to any sum.
 * vec: float4 loads, 4 rows of A or 4 depths of B at once. They must start 16-byte
 *   aligned, which holds when lda and ldb are multiples of 4 (every column then starts on
 *   a multiple of 4 floats). Otherwise the same elements come one float at a time. */
void load_share(struct Share *sh, const int vec, int k0, int tid, int m0, int n0, int M,
                int N, int K, const __global float *A, const int lda,
                const __global float *B, const int ldb)
{
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        const int m = m0 + 4 * (i % (TSM / 4)), k = k0 + i / (TSM / 4);
        const __global float *src = A + m + (size_t)k * lda;
        if (vec && m + 3 < M && k < K) {
            sh->a[l] = *(const __global float4 *)src;
        } else {
            sh->a[l].x = (m + 0 < M && k < K) ? src[0] : 0.0f;
            sh->a[l].y = (m + 1 < M && k < K) ? src[1] : 0.0f;
            sh->a[l].z = (m + 2 < M && k < K) ? src[2] : 0.0f;
            sh->a[l].w = (m + 3 < M && k < K) ? src[3] : 0.0f;
        }
    }
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = k0 + 4 * (i % (TSK / 4)), n = n0 + i / (TSK / 4);
        const __global float *src = B + k + (size_t)n * ldb;
        if (vec && k + 3 < K && n < N) {
            sh->b[l] = *(const __global float4 *)src;
        } else {
            sh->b[l].x = (k + 0 < K && n < N) ? src[0] : 0.0f;
            sh->b[l].y = (k + 1 < K && n < N) ? src[1] : 0.0f;
            sh->b[l].z = (k + 2 < K && n < N) ? src[2] : 0.0f;
            sh->b[l].w = (k + 3 < K && n < N) ? src[3] : 0.0f;
        }
    }
}

/* Stores a share into buffer `buf`: A's float4 as it is, B's four depths of one column
 * into four rows of the transposed tile. */
void store_share(__local struct Tiles *sm, const struct Share *sh, int buf, int tid)
{
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        sm->A[buf][i / (TSM / 4)][i % (TSM / 4)] = sh->a[l];
    }
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = 4 * (i % (TSK / 4)), n = i / (TSK / 4);
        __local float *bt = (__local float *)sm->B[buf];
        bt[(k + 0) * (TSN + BPAD) + n] = sh->b[l].x;
        bt[(k + 1) * (TSN + BPAD) + n] = sh->b[l].y;
        bt[(k + 2) * (TSN + BPAD) + n] = sh->b[l].z;
        bt[(k + 3) * (TSN + BPAD) + n] = sh->b[l].w;
    }
}

void gemm_body(__local struct Tiles *sm, const int vec, const int M, const int N,
               const int K, const float alpha, const __global float *A, const int lda,
               const __global float *B, const int ldb, const float beta,
               __global float *C, const int ldc)
{
    const int tid = get_local_id(0);
    const int warp = tid / 32, lane = tid % 32;
    /* This work-item's place: float4 columns am and am + WM/8 of the A tile, float4
     * columns bq and bq + WN/8 of the (transposed) B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    const int m0 = get_group_id(0) * TSM; /* this work-group's corner of C */
    const int n0 = get_group_id(1) * TSN;
    __local float4(*Asub)[TSK][TSM / 4] = sm->A;
    __local float4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm->B;

    float4 acc[8][2];
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = 0.0f;

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
            const float4 a0 = Asub[buf][k][am], a1 = Asub[buf][k][am + WM / 8];
            const float4 b0 = Bsub[buf][k][bq], b1 = Bsub[buf][k][bq + WN / 8];
            for (int j = 0; j < 8; j++) {
                const float b = component(j < 4 ? b0 : b1, j % 4);
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
                    __global float *c = &C[(m + i) + (size_t)n * ldc];
                    const float v = alpha * component(acc[j][h], i);
                    *c = beta == 0.0f ? v : v + beta * *c;
                }
        }
    }
}

/* Whether the float4 loads are aligned is the same for every work-item: one branch. Column
 * j of A starts at A + j * lda, so lda (not M) decides; likewise ldb for B. OpenCL C has
 * no templates, so `vec` is an argument, a constant at each of the two calls. */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm(const int M, const int N, const int K, const float alpha,
          const __global float *restrict A, const int lda,
          const __global float *restrict B, const int ldb, const float beta,
          __global float *restrict C, const int ldc)
{
    __local struct Tiles sm;
    if (lda % 4 == 0 && ldb % 4 == 0)
        gemm_body(&sm, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_body(&sm, 0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
