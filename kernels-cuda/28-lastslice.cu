/* Rung 28: split-K in one launch: the last slice of a tile adds the others (CUDA)
 * Parent: rung 19 (split-K, ATOMIC=0). Its GEMM loop, tiles and slices are rung 19's, line
 *   for line; what changed is who adds the slices' partial tiles, and when.
 * Change since rung 19: no `reduce` kernel. Each block still writes its slice's partial
 *   tile into W, then counts itself done on its tile's counter (one int per tile of C, at
 *   the end of W). The block that brings the count to the number of slices is the last
 *   of its tile: every other slice's partial tile is in W by then, so that block adds them
 *   in the order s = 0, 1, 2, ..., writes C = alpha * sum + beta * C for its tile, and sets
 *   the counter back to 0 for the next call. The order of the additions is fixed by the
 *   slice numbers, not by which block came last, so the result is deterministic: the same
 *   bits on every run (and the same as rung 19's `reduce` wherever that adds up to 8
 *   slices, which it also does in order).
 * Why it should help: at shapes with only a few slices, rung 19's second kernel is a
 *   sizeable part of the call. On the H200, Nsight Compute timed rung 19's `gemm` at 75 us
 *   and its `reduce` at 10 us at 997 x 1013 x 1009 (4 slices), and 121 us and 15 us at
 *   333 x 7777 x 555 (2 slices), where cuBLAS's one kernel took 74 us and 116 us
 *   (results/h200-2026-11-29-lastslice). The GEMM was level with cuBLAS; the reduction, a
 *   second launch that starts only when the last block of the first has finished, was
 *   the whole gap. Here the adding happens inside the one launch, tile by tile, while other
 *   tiles are still being computed, and reads partial tiles that were written moments
 *   before and are still in L2.
 * What it costs: the last block of a tile reads all its slices' partial tiles alone. With
 *   few slices that is little (4 x 64 KiB at 128 x 128 tiles); with hundreds (rung 19's
 *   256 at 128 x 128 x 32768) one block would add 16 MiB, which rung 19's `reduce` spreads
 *   over 2048 blocks: there rung 19 stays the better rung (rung 26 met the same limit with
 *   its first fixup).
 * Why the fences: blocks on different SMs see each other's writes through L2, and a GPU
 *   may make writes visible out of order. __threadfence() after a block's stores of its
 *   partial tile, before its count, makes sure that any block that sees the count also
 *   sees the partial tile; the last block fences again before reading, and reads W with
 *   __ldcg (L2, not the SM's own L1, which is not kept coherent with other SMs' writes).
 *   OpenCL 1.2, which the OpenCL rungs target, makes no such promise between work-groups
 *   (its fences order memory within one work-group), so this rung is CUDA only.
 * Parameters: TSM, TSN, TSK, WM as rung 15 (and its constraints); SPLITS, the most slices
 *   of K, as rung 19 (any count >= 1; a K of fewer tiles gets one slice per tile).
 * Transposes (-DTRANS_A, -DTRANS_B): rung 15's, through the same tile code (blas_tiles.cuh).
 * Sizes: any M, N, K >= 1; lda >= M (K when A is transposed), ldb >= K (N when B is
 *   transposed), ldc >= M. W holds slices x (M rounded up to a multiple of 4) x N reals,
 *   then one int per tile of C; the counters must be 0 before the first call (the host's
 *   buffers start zeroed) and every call leaves them 0.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh), as rung 19.
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

/* Four reals of W through L2 only (ld.global.cg): W holds other blocks' partial tiles,
 * which this SM's L1 does not see change. One 16-byte load in float, two in double. */
__device__ inline real4 ldcg4(const real *src)
{
#ifdef LADDER_DOUBLE
    const real2 lo = __ldcg((const real2 *)src), hi = __ldcg((const real2 *)src + 1);
    return make_real4(lo.x, lo.y, hi.x, hi.y);
#else
    return __ldcg((const real4 *)src);
#endif
}

/* C = alpha * v + beta * C for rows m..m+3 (those below M) of column n (if below N). C is
 * read only when beta != 0 (BLAS: beta = 0 never reads C, which may hold NaN). */
__device__ inline void finish4(real *C, const int ldc, const int m, const int n,
                               const int M, const int N, const real4 v4, const real alpha,
                               const real beta)
{
    if (m >= M || n >= N)
        return;
    const real v[4] = {v4.x, v4.y, v4.z, v4.w};
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (m + i < M) {
            real *c = &C[(m + i) + (size_t)n * ldc];
            *c = beta == 0 ? alpha * v[i] : alpha * v[i] + beta * *c;
        }
}

/* Rung 15's tiles, loads and stores, in every transpose case; a share's loads end at the
 * slice's end, kend, as in rung 19. */
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

    /* One slice: rung 15's epilogue, straight into C. */
    const int slices = slice_count(K);
    if (slices == 1) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
#pragma unroll
            for (int h = 0; h < 2; h++)
                finish4(C, ldc, m0 + 4 * (am + h * (WM / 8)), n, M, N, acc[j][h], alpha,
                        beta);
        }
        return;
    }

    /* Several: this slice's partial tile into its partial matrix of W, as rung 19 does. */
    const int ldw = partial_rows(M); /* the leading dimension of W's partial matrices */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            if (m < M && n < N) /* rows past M exist in W (ldw is whole float4s) */
                *(real4 *)(W + ((size_t)slice * N + n) * ldw + m) = acc[j][h];
        }
    }

    /* Count this slice done on the tile's counter; the block that completes the count
     * adds the tile. Every thread fences its own stores before the count is taken. */
    __shared__ int is_last;
    const int tile = blockIdx.x % tiles_m + tiles_m * blockIdx.y;
    int *count = (int *)(W + (size_t)slices * N * ldw) + tile;
    __threadfence();
    __syncthreads();
    if (tid == 0)
        is_last = atomicAdd(count, 1) == slices - 1;
    __syncthreads();
    if (!is_last)
        return;
    __threadfence(); /* the other slices' stores, seen through their count, come first */

    /* The tile's float4s, consecutive threads on consecutive float4s of a column (rows
     * are contiguous in W and C), each the sum of its slices in the order s = 0, 1, ... */
    for (int q = tid; q < (TSM / 4) * TSN; q += THREADS) {
        const int m = m0 + 4 * (q % (TSM / 4)), n = n0 + q / (TSM / 4);
        if (m >= M || n >= N)
            continue;
        const real *w = W + (size_t)n * ldw + m;
        real4 sum = ldcg4(w);
#pragma unroll 4
        for (int s = 1; s < slices; s++)
            add4(sum, ldcg4(w + (size_t)s * N * ldw));
        finish4(C, ldc, m, n, M, N, sum, alpha, beta);
    }
    if (tid == 0)
        *count = 0; /* ready for the next call */
}

/* Whether the float4 loads are aligned is the same for every thread: one branch (rung
 * 15's, which says why the pointers are tested too). W is always given: the counters
 * live in it even when K is one slice (then unused). */
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

