/* Rung 19: split-K (CUDA)
 * Parent: rung 15 (full SGEMM semantics). Its kernel is rung 15's, and a call takes the
 *   same BLAS arguments, plus a workspace W that the host allocates.
 * Change since rung 15: the K loop is shared out. Each block computes its TSM x TSN tile
 *   of C over one slice of K only: SPLITS slices at most, each a whole number of TSK tiles
 *   deep (the last may be shorter; K need not be a multiple of anything). Block (tile of
 *   M, slice) is blockIdx.x = tile_m + tiles_m * slice; blockIdx.y is the tile of N, as in
 *   rung 15. (The slices go along x because a grid may have 2^31 - 1 blocks in x but only
 *   65535 in y.) The partial tiles of one tile of C must then be summed, in one of two
 *   ways (the parameter ATOMIC):
 *   ATOMIC=0, deterministic: kernel `gemm` writes each slice's partial tile into its own
 *     M x N matrix of W; kernel `reduce` then sums the slices of each element in a fixed
 *     order and writes C = alpha * sum + beta * C. The same inputs give the same bits on
 *     every run.
 *   ATOMIC=1, atomics: kernel `scale_c` first makes C = beta * C; kernel `gemm` then adds
 *     alpha * its partial tile into C, element by element, with atomicAdd. The slices
 *     arrive in whatever order the blocks finish, and float addition is not associative,
 *     so the last bits of C can differ from run to run: NOT deterministic.
 *   When K fits in one slice, `gemm` alone runs and writes C as rung 15 does.
 * Why: a GEMM with a small C and a long K has too few tiles to fill a GPU. 128 x 128 x
 *   32768 has 4 tiles of 64 x 64 (1 of rung 15's 128 x 128): 4 blocks for the H100's 132
 *   SMs, each running a loop of 4096 steps (TSK = 8) while 128 SMs idle. With 256 slices
 *   there are 1024 blocks, about 8 per SM, each 128 deep in K.
 * What it costs: the partial tiles' memory traffic, and a second kernel. At 128 x 128 x
 *   32768 with 256 slices, ATOMIC=0 writes 256 partial 128 x 128 matrices, 16 MiB, and
 *   `reduce` reads them back: 32 MiB of traffic beside the 32 MiB of A and B that any
 *   SGEMM reads, twice the traffic (though 16 MiB fits in the H100's 50 MB L2, so
 *   little of it need reach DRAM). ATOMIC=1 makes 4 million atomic additions into a
 *   64 KiB C instead: no workspace and no second pass, but each element of C is updated
 *   256 times, one after another, in the L2. Both are pure waste at a shape that has
 *   tiles enough (set SPLITS=1 there: then this is rung 15 with its own tile sizes).
 * Parameters: TSM, TSN, TSK, WM as rung 15 (and its constraints); SPLITS, the most slices
 *   of K (any count >= 1: a K of fewer tiles gets one slice per tile, and no slice is
 *   empty); ATOMIC (0 or 1). The host computes the same slices (host/rungs/rungs_splitk.c).
 * Transposes (-DTRANS_A, -DTRANS_B): rung 15's, through the same tile code
 *   (blas_tiles.cuh): a slice reads its depths of A^T or B^T as rung 15 reads all of
 *   them, and the partial tiles, the reduction and C do not change.
 * Sizes: any M, N, K >= 1; lda >= M (K when A is transposed), ldb >= K (N when B is
 *   transposed), ldc >= M. W holds slices x (M rounded up to a multiple of 4) x N
 *   floats for ATOMIC=0, nothing otherwise.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): every float4 is then a
 *   real4 of four doubles, 32 bytes, moved by two 16-byte accesses; the alignment rules
 *   (multiples of 4 elements) stay. W then holds doubles. The default tile fits in
 *   double.
 */
#include "real.cuh"

#define WN (2048 / WM)             /* a warp's 32 lanes x 64 elements */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
/* Blocks an SM must hold at once, which caps each thread's registers (__launch_bounds__).
 * Rung 15's cap, 512 threads' worth (16 warps, 4 per scheduler: 128 registers a thread),
 * except for blocks of one or two warps (tiles such as 32 x 128, 64 x 64 at WM = 32 or
 * 128 x 32, the tiles of skinny shapes): 384 threads' worth (12 warps, 3 per scheduler:
 * up to 168 registers). A thread of such a block loads more of each tile (5 float4s at
 * 32 x 128 x 8, against 2 in 256 threads), and at 128 registers NVRTC 13.0 spilled 16 to
 * 112 bytes a thread to local memory and reloaded some of them every step of K. On the
 * H200, with the tiles and slices the selection had given rung 19 at 11008 x 16 x 4096,
 * 32 x 16384 x 8192 and 64 x 64 x 65536, the spill-free kernel ran 1.39, 1.13 and 1.10
 * times as fast, though it keeps 12 warps on an SM instead of 16; at 8192 x 32 x 8192,
 * 0.95 and 1.07 in two rounds (results/h200-2026-11-29-spills). A scheduler's 16384
 * registers go to whole warps, so no cap lies between 128 (4 warps) and 168 (3). */
#define MIN_WARPS(threads) ((threads) <= 64 ? 12 : 16)
#define MIN_BLOCKS (THREADS * REAL_WORDS < 32 * MIN_WARPS(THREADS * REAL_WORDS) \
                        ? 32 * MIN_WARPS(THREADS * REAL_WORDS) / (THREADS * REAL_WORDS) : 1)
#define LM (WM / 8)                /* lanes along m */
#define LN (32 / LM)               /* lanes along n */
#define LPTA (TSM * TSK / THREADS) /* floats of the A tile each thread loads */
#define LPTB (TSN * TSK / THREADS) /* floats of the B tile each thread loads */
#define BPAD 4 /* Bsub rows are TSN + 4 floats: the 16 depths a half-warp stores for one
                * column fall in 8 banks, not all in one, and rows stay 16-byte aligned */
#define REDUCE_DEPTH 8 /* most slices one thread of `reduce` adds (see there) */

/* K tiles per slice: SPLITS slices of whole TSK tiles, rounded up. */
__device__ inline int slice_tiles(const int K)
{
    const int ktiles = (K + TSK - 1) / TSK;
    const int per = (ktiles + SPLITS - 1) / SPLITS;
    return per > 0 ? per : 1;
}

/* The slices that hold K tiles (at most SPLITS): only these are launched and summed. */
__device__ inline int slice_count(const int K)
{
    const int ktiles = (K + TSK - 1) / TSK, per = slice_tiles(K);
    const int n = (ktiles + per - 1) / per;
    return n > 0 ? n : 1;
}

/* Rows of a partial matrix in W: M rounded up to whole float4s, so every float4 of W is
 * 16-byte aligned. */
__device__ inline int partial_rows(const int M) { return (M + 3) / 4 * 4; }

__device__ inline void fma4(real4 &acc, real4 a, real b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

__device__ inline void add4(real4 &acc, real4 v)
{
    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
}

/* Rung 15's tiles, loads and stores, in every transpose case. Here a share's loads end at
 * the slice's end, kend, passed where rung 15 passes K: the depths past it load as zeros,
 * like those past K. */
#include "blas_tiles.cuh" /* Tiles, Share, load_share, store_share */

template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const real alpha, const real *A, const int lda,
                                 const real *B, const int ldb, const real beta, real *C,
                                 const int ldc, real *W)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    /* This thread's place: float4 columns am and am + WM/8 of the A tile, float4
     * columns bq and bq + WN/8 of the (transposed) B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    /* This block's corner of C and its slice of K, [kbegin, kend). */
    const int tiles_m = (M + TSM - 1) / TSM;
    const int slice = blockIdx.x / tiles_m;
    const int m0 = (blockIdx.x % tiles_m) * TSM;
    const int n0 = blockIdx.y * TSN;
    const int kbegin = slice * slice_tiles(K) * TSK;
    const int kend = min(K, kbegin + slice_tiles(K) * TSK);
    real4(*Asub)[TSK][(TSM + APAD) / 4] = sm.A;
    real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm.B;

    real4 acc[8][2];
#pragma unroll
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = make_real4(0, 0, 0, 0);

    Share next; /* this thread's share of the next tiles */
    load_share<VEC>(next, kbegin, tid, m0, n0, M, N, kend, A, lda, B, ldb);

    const int steps = (kend - kbegin + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, next, buf, tid);
        __syncthreads();

        if (t + 1 < steps)
            load_share<VEC>(next, kbegin + (t + 1) * TSK, tid, m0, n0, M, N, kend, A, lda,
                            B, ldb);

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

    /* Where the tile goes: into C when K is one slice (rung 15's epilogue), else into the
     * slice's partial matrix in W, or added into C. The same for every thread
     * (slice_count depends on K alone), so none diverges. Only elements that exist are
     * written. */
    enum { TO_C, TO_W, ADD_TO_C };
    const int dest = slice_count(K) == 1 ? TO_C : ATOMIC ? ADD_TO_C : TO_W;
    const int ldw = partial_rows(M); /* the leading dimension of W's partial matrices */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            if (m >= M || n >= N)
                continue;
            if (dest == TO_W) {
                /* Rows m..m+3 of the slice's partial matrix exist even past M (ldw is
                 * whole float4s): one aligned float4 store. `reduce` applies alpha and
                 * beta. */
                const size_t at = ((size_t)slice * N + n) * ldw + m;
                *(real4 *)(W + at) = acc[j][h];
                continue;
            }
            const real v[4] = {acc[j][h].x, acc[j][h].y, acc[j][h].z, acc[j][h].w};
#pragma unroll
            for (int i = 0; i < 4; i++)
                if (m + i < M) {
                    real *c = &C[(m + i) + (size_t)n * ldc];
                    if (dest == TO_C) /* C read only when beta != 0, as in rung 15 */
                        *c = beta == 0 ? alpha * v[i] : alpha * v[i] + beta * *c;
                    else              /* `scale_c` has already made C = beta * C */
                        atomicAdd(c, alpha * v[i]);
                }
        }
    }
}

/* Whether the float4 loads are aligned is the same for every thread: one branch (rung
 * 15's, which says why the pointers are tested too). */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
     const int lda, const real *__restrict__ B, const int ldb, const real beta,
     real *__restrict__ C, const int ldc, real *__restrict__ W)
{
    __shared__ Tiles sm;
    if (lda % 4 == 0 && ldb % 4 == 0 &&
        ((unsigned long long)A | (unsigned long long)B) % sizeof(real4) == 0)
        gemm_body<true>(sm, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W);
    else
        gemm_body<false>(sm, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W);
}

/* ATOMIC=0, after `gemm`: C = alpha * (sum of the slices' partials) + beta * C.
 * The threads that share one float4 of C (4 rows of one column), `groups` of them, each add
 * every groups-th slice, and thread 0 of them adds their sums in the order g = 0, 1, 2,
 * ...: the same order on every run, so the same bits. `groups` is as small as keeps each
 * thread's sum at REDUCE_DEPTH slices or fewer (a power of two that divides THREADS), and
 * the host sizes the grid by the same rule (reduce_groups in host/rungs/rungs_splitk.c):
 *   - few slices (4 or 8): one thread per float4, a block covers THREADS float4s, and
 *     neighbouring threads read neighbouring float4s of one partial matrix;
 *   - many slices (256 at 128 x 128 x 32768, a partial matrix of only 4096 float4s):
 *     32 threads share a float4, each adding 8 slices, so there are still 2048 blocks.
 * Its first version gave every float4 THREADS / 8 threads whatever the slice count: at 4
 * slices and 128 threads, 12 of every 16 threads had nothing to add, and a partial matrix
 * of 16384 x 64 took 32768 blocks of 8 float4s each. Nsight Compute timed that `reduce`
 * at a tenth of the call there, and at a third of it at 512 x 512 x 512 with 16 slices
 * (results/h100-2026-11-28-splitk). W is read once. */
__device__ inline int reduce_groups(const int slices)
{
    int g = 1;
    while (g * REDUCE_DEPTH < slices && THREADS % (2 * g) == 0)
        g *= 2;
    return g;
}

extern "C" __global__ void __launch_bounds__(THREADS)
reduce(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
       const int lda, const real *__restrict__ B, const int ldb, const real beta,
       real *__restrict__ C, const int ldc, const real *__restrict__ W)
{
    __shared__ real4 sums[THREADS];
    const int slices = slice_count(K);
    const int groups = reduce_groups(slices), cols = THREADS / groups;
    const int col = threadIdx.x % cols, g = threadIdx.x / cols;
    const size_t rows4 = partial_rows(M) / 4;
    const size_t per_slice = rows4 * N; /* float4s in one partial matrix */
    const size_t q = blockIdx.x * (size_t)cols + col; /* this float4 */
    const real4 *w = (const real4 *)W;

    real4 sum = make_real4(0, 0, 0, 0);
    if (q < per_slice) {
#pragma unroll 4
        for (int s = g; s < slices; s += groups)
            add4(sum, w[s * per_slice + q]);
    }
    sums[threadIdx.x] = sum; /* (also with one group: as the OpenCL file, which says why) */
    __syncthreads();
    if (g != 0 || q >= per_slice)
        return;
    for (int i = 1; i < groups; i++)
        add4(sum, sums[i * cols + col]);

    const int m = 4 * (int)(q % rows4), n = (int)(q / rows4);
    const real v[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (m + i < M) {
            real *c = &C[(m + i) + (size_t)n * ldc];
            /* BLAS: beta = 0 never reads C */
            *c = beta == 0 ? alpha * v[i] : alpha * v[i] + beta * *c;
        }
}

/* ATOMIC=1, before `gemm`: C = beta * C, element by element, so that the atomic additions
 * of alpha * A * B land on it. beta = 0 writes zeros without reading C (it may hold NaN);
 * beta = 1 leaves C as it is. */
extern "C" __global__ void __launch_bounds__(THREADS)
scale_c(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
        const int lda, const real *__restrict__ B, const int ldb, const real beta,
        real *__restrict__ C, const int ldc, real *__restrict__ W)
{
    /* Element e of C, column by column. */
    const size_t e = blockIdx.x * (size_t)THREADS + threadIdx.x;
    if (beta == 1 || e >= (size_t)M * N)
        return;
    real *c = &C[e % M + (e / M) * ldc];
    *c = beta == 0 ? 0 : beta * *c;
}
