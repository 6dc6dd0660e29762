/* Rung 12: warp tiling (OpenCL)
 * Change since rung 11: which work-item computes which elements of C. In rungs 6-11 the
 *   work-items of a work-group formed one RTSM x RTSN grid over the tile, so a warp (a
 *   sub-group of 32 consecutive work-items on NVIDIA) covered a 16 x 2 strip of that
 *   grid: 32 different float4s of the A tile, each read by two work-items. Now the tile
 *   is first cut into warp tiles of WM x WN elements, one per warp, and inside a warp
 *   the 32 lanes form an LM x LN grid (LM = WM/8, LN = 32/LM). A lane takes two float4s
 *   of rows, WM/2 apart, and two float4s of columns, WN/2 apart: the same 8 x 8 elements
 *   per work-item as before.
 * Why it should help: the hardware executes a warp's local-memory read as one request.
 *   Here the 32 lanes of one read of A ask for only LM different float4s (lanes in the
 *   same row group get the same value by broadcast) and a read of B for LN different
 *   float4s, so each request touches few banks once, and a warp's data is one compact
 *   WM x WN block whose A and B fragments are each shared by many lanes.
 *   OpenCL does not promise warps of 32: the kernel only assumes, as a performance
 *   model, that 32 consecutive work-items of a 1D work-group run together, as they do
 *   on NVIDIA. On any other device the result is the same, only the banks differ.
 * Parameters: TSM, TSN, TSK (work-group tile) and WM (warp tile rows; WN = 2048 / WM, so
 *   a warp holds 32 x 64 elements of C). The work-group has (TSM/WM) x (TSN/WN) warps,
 *   THREADS work-items in one dimension.
 * Constraints: WM a multiple of 8 dividing TSM, with LM = WM/8 dividing 32; WN divides
 *   TSN; 4 divides TSK; the work-item count divides the float4s of each tile.
 * Sizes: any M, N, K >= 1.
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
#define LPTA (TSM * TSK / THREADS) /* floats of the A tile each work-item loads */
#define LPTB (TSN * TSK / THREADS) /* floats of the B tile each work-item loads */
#define BPAD 4 /* Bsub rows are TSN + 4 floats: the 16 depths that half a warp stores for
                * one column fall in 8 banks, not all in one, and rows stay 16-byte
                * aligned */

/* Component i of a real4, for an i the compiler knows (once it unrolls the loops). */
real component(real4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    real4 A[2][TSK][TSM / 4];          /* A tile, k-major: [k][m] */
    real4 B[2][TSK][(TSN + BPAD) / 4]; /* B tile, transposed: [k][n] */
};

/* One work-item's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    real4 a[LPTA / 4], b[LPTB / 4];
};

/* Loads this work-item's share of the tiles at depth k0. Consecutive work-items read
 * consecutive addresses (A along m, B along k): coalesced. An element outside the matrix
 * is loaded as a zero, which adds nothing to any sum.
 * vec: real4 loads, 4 rows of A or 4 depths of B at once. They must start 16-byte
 *   aligned, which holds when M and K are multiples of 4 (every column then starts on a
 *   multiple of 4 floats). Otherwise the same elements come one element at a time. */
void load_share(struct Share *sh, const int vec, int k0, int tid, int m0, int n0, int M,
                int N, int K, const __global real *A, const __global real *B)
{
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        const int m = m0 + 4 * (i % (TSM / 4)), k = k0 + i / (TSM / 4);
        const __global real *src = A + m + k * M;
        if (vec && m + 3 < M && k < K) {
            sh->a[l] = *(const __global real4 *)src;
        } else {
            sh->a[l].x = (m + 0 < M && k < K) ? src[0] : 0;
            sh->a[l].y = (m + 1 < M && k < K) ? src[1] : 0;
            sh->a[l].z = (m + 2 < M && k < K) ? src[2] : 0;
            sh->a[l].w = (m + 3 < M && k < K) ? src[3] : 0;
        }
    }
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = k0 + 4 * (i % (TSK / 4)), n = n0 + i / (TSK / 4);
        const __global real *src = B + k + n * K;
        if (vec && k + 3 < K && n < N) {
            sh->b[l] = *(const __global real4 *)src;
        } else {
            sh->b[l].x = (k + 0 < K && n < N) ? src[0] : 0;
            sh->b[l].y = (k + 1 < K && n < N) ? src[1] : 0;
            sh->b[l].z = (k + 2 < K && n < N) ? src[2] : 0;
            sh->b[l].w = (k + 3 < K && n < N) ? src[3] : 0;
        }
    }
}

/* Stores a share into buffer `buf`: A's real4 as it is, B's four depths of one column
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
        __local real *bt = (__local real *)sm->B[buf];
        bt[(k + 0) * (TSN + BPAD) + n] = sh->b[l].x;
        bt[(k + 1) * (TSN + BPAD) + n] = sh->b[l].y;
        bt[(k + 2) * (TSN + BPAD) + n] = sh->b[l].z;
        bt[(k + 3) * (TSN + BPAD) + n] = sh->b[l].w;
    }
}

void gemm_body(__local struct Tiles *sm, const int vec, const int M, const int N,
               const int K, const __global real *A, const __global real *B,
               __global real *C)
{
    const int tid = get_local_id(0);
    const int warp = tid / 32, lane = tid % 32;
    /* This work-item's place: real4 columns am and am + WM/8 of the A tile, real4
     * columns bq and bq + WN/8 of the (transposed) B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    const int m0 = get_group_id(0) * TSM; /* this work-group's corner of C */
    const int n0 = get_group_id(1) * TSN;
    __local real4(*Asub)[TSK][TSM / 4] = sm->A;
    __local real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm->B;

    real4 acc[8][2];
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = 0;

    struct Share next; /* this work-item's share of the next tiles */
    load_share(&next, vec, 0, tid, m0, n0, M, N, K, A, B);

    const int steps = (K + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, &next, buf, tid);
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < steps)
            load_share(&next, vec, (t + 1) * TSK, tid, m0, n0, M, N, K, A, B);

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

    /* Only the elements of C that exist are written. */
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            for (int i = 0; i < 4; i++)
                if (m + i < M && n < N)
                    C[(m + i) + n * M] = component(acc[j][h], i);
        }
    }
}

/* Whether the real4 loads are aligned is the same for every work-item: one branch.
 * OpenCL C has no templates, so `vec` is an argument, a constant at each of the two
 * calls; a compiler that inlines the calls keeps only one side of its tests in each. */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm(const int M, const int N, const int K,
          const __global real *restrict A, const __global real *restrict B,
          __global real *restrict C)
{
    __local struct Tiles sm;
    if (M % 4 == 0 && K % 4 == 0)
        gemm_body(&sm, 1, M, N, K, A, B, C);
    else
        gemm_body(&sm, 0, M, N, K, A, B, C);
}
