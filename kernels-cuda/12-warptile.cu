/* Rung 12: warp tiling (CUDA)
 * Change since rung 11: which thread computes which elements of C. In rungs 6-11 the
 *   threads of a block formed one RTSM x RTSN grid over the tile, so a warp (32
 *   consecutive threads) covered a 16 x 2 strip of that grid: 32 different float4s of
 *   the A tile, each read by two threads. Now the tile is first cut into warp tiles of
 *   WM x WN elements, one per warp, and inside a warp the 32 lanes form an LM x LN grid
 *   (LM = WM/8, LN = 32/LM). A lane takes two float4s of rows, WM/2 apart, and two
 *   float4s of columns, WN/2 apart: the same 8 x 8 elements per thread as before.
 * Why it should help: the hardware executes a warp's shared-memory read as one request.
 *   Here the 32 lanes of one read of A ask for only LM different float4s (lanes in the
 *   same row group get the same value by broadcast) and a read of B for LN different
 *   float4s, so each request touches few banks once, and a warp's data is one compact
 *   WM x WN block whose A and B fragments are each shared by many lanes.
 * Parameters: TSM, TSN, TSK (block tile) and WM (warp tile rows; WN = 2048 / WM, so a
 *   warp holds 32 x 64 elements of C). The block has (TSM/WM) x (TSN/WN) warps.
 * Constraints: WM a multiple of 8 dividing TSM, with LM = WM/8 dividing 32; WN divides
 *   TSN; 4 divides TSK; the thread count divides the float4s of each tile.
 * Sizes: any M, N, K >= 1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): every float4 is then a
 *   real4 of four doubles, 32 bytes, moved by two 16-byte accesses; the alignment rules
 *   (multiples of 4 elements) stay. In double __launch_bounds__ asks room for 256 threads
 *   per SM (a double takes two registers), and the default tile (TSK = 16) needs 66 KiB
 *   of shared memory, over the 48 KiB a block may declare: the small-device defaults (TSK
 *   = 8) fit.
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

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    real4 A[2][TSK][TSM / 4];          /* A tile, k-major: [k][m] */
    real4 B[2][TSK][(TSN + BPAD) / 4]; /* B tile, transposed: [k][n] */
};

/* One thread's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    real4 a[LPTA / 4], b[LPTB / 4];
};

/* Loads this thread's share of the tiles at depth k0. Consecutive threads read
 * consecutive addresses (A along m, B along k): coalesced. An element outside the matrix
 * is loaded as a zero, which adds nothing to any sum.
 * VEC: float4 loads, 4 rows of A or 4 depths of B at once. They must start 16-byte
 *   aligned, which holds when M and K are multiples of 4 (every column then starts on a
 *   multiple of 4 floats). Otherwise the same elements come one float at a time. */
template <bool VEC>
__device__ inline void load_share(Share &sh, int k0, int tid, int m0, int n0, int M, int N,
                                  int K, const real *A, const real *B)
{
#pragma unroll
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        const int m = m0 + 4 * (i % (TSM / 4)), k = k0 + i / (TSM / 4);
        const real *src = A + m + k * M;
        if (VEC && m + 3 < M && k < K) {
            sh.a[l] = *(const real4 *)src;
        } else {
            sh.a[l].x = (m + 0 < M && k < K) ? src[0] : 0;
            sh.a[l].y = (m + 1 < M && k < K) ? src[1] : 0;
            sh.a[l].z = (m + 2 < M && k < K) ? src[2] : 0;
            sh.a[l].w = (m + 3 < M && k < K) ? src[3] : 0;
        }
    }
#pragma unroll
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = k0 + 4 * (i % (TSK / 4)), n = n0 + i / (TSK / 4);
        const real *src = B + k + n * K;
        if (VEC && k + 3 < K && n < N) {
            sh.b[l] = *(const real4 *)src;
        } else {
            sh.b[l].x = (k + 0 < K && n < N) ? src[0] : 0;
            sh.b[l].y = (k + 1 < K && n < N) ? src[1] : 0;
            sh.b[l].z = (k + 2 < K && n < N) ? src[2] : 0;
            sh.b[l].w = (k + 3 < K && n < N) ? src[3] : 0;
        }
    }
}

/* Stores a share into buffer `buf`: A's float4 as it is, B's four depths of one column
 * into four rows of the transposed tile. */
__device__ inline void store_share(Tiles &sm, const Share &sh, int buf, int tid)
{
#pragma unroll
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        sm.A[buf][i / (TSM / 4)][i % (TSM / 4)] = sh.a[l];
    }
#pragma unroll
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = 4 * (i % (TSK / 4)), n = i / (TSK / 4);
        real *bt = (real *)sm.B[buf];
        bt[(k + 0) * (TSN + BPAD) + n] = sh.b[l].x;
        bt[(k + 1) * (TSN + BPAD) + n] = sh.b[l].y;
        bt[(k + 2) * (TSN + BPAD) + n] = sh.b[l].z;
        bt[(k + 3) * (TSN + BPAD) + n] = sh.b[l].w;
    }
}

template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const real *A, const real *B, real *C)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    /* This thread's place: float4 columns am and am + WM/8 of the A tile, float4
     * columns bq and bq + WN/8 of the (transposed) B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    const int m0 = blockIdx.x * TSM; /* this block's corner of C */
    const int n0 = blockIdx.y * TSN;
    real4(*Asub)[TSK][TSM / 4] = sm.A;
    real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm.B;

    real4 acc[8][2];
#pragma unroll
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = make_real4(0, 0, 0, 0);

    Share next; /* this thread's share of the next tiles */
    load_share<VEC>(next, 0, tid, m0, n0, M, N, K, A, B);

    const int steps = (K + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, next, buf, tid);
        __syncthreads();

        if (t + 1 < steps)
            load_share<VEC>(next, (t + 1) * TSK, tid, m0, n0, M, N, K, A, B);

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

    /* Only the elements of C that exist are written. */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            const real v[4] = {acc[j][h].x, acc[j][h].y, acc[j][h].z, acc[j][h].w};
#pragma unroll
            for (int i = 0; i < 4; i++)
                if (m + i < M && n < N)
                    C[(m + i) + n * M] = v[i];
        }
    }
}

/* Whether the float4 loads are aligned is the same for every thread: one branch. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *__restrict__ A,
     const real *__restrict__ B, real *__restrict__ C)
{
    __shared__ Tiles sm;
    if (M % 4 == 0 && K % 4 == 0)
        gemm_body<true>(sm, M, N, K, A, B, C);
    else
        gemm_body<false>(sm, M, N, K, A, B, C);
}
