/* Rung 26: Stream-K (CUDA)
 * Parent: rung 19 (split-K). The same tiles, loads and inner loop (rung 15's, from
 *   blas_tiles.cuh), the same BLAS arguments and workspace W; what changes is who does
 *   which part of the work.
 * Change since rung 19: the work is counted in iterations, one iteration being one tile
 *   of C advanced by one TSK-deep step of K (ipt = ceil(K / TSK) iterations per tile), and
 *   a fixed number of blocks, G, one wave (as many as the device holds at once: two
 *   blocks of 256 threads per SM, MIN_BLOCKS), shares them out evenly. Rung 19 cuts every
 *   tile's K into the same slices, so its work-groups are all alike and the last wave is
 *   as ragged as rung 15's; here block j of the wave takes the iterations
 *   [j S / G, (j+1) S / G) of the S that it shares, whatever tile boundaries fall inside:
 *   a range may start in the middle of one tile's K and end in the middle of another's.
 *   Every block gets the same work to within one iteration, so the wave ends together.
 *   Only the tiles that do not fill whole waves are shared out that way (the hybrid of
 *   the Stream-K paper: Osama, Merrill, Cecka, Garland and Owens, PPoPP 2023): with T
 *   tiles, the last T mod G tiles, plus SKW whole waves of tiles before them (SKW = 1
 *   gives each block between one and two tiles of work, so few blocks end with a sliver),
 *   are the stream-K tiles; the others go whole, each to one block as in rung 15 (the
 *   grid's first row, below). A shape with fewer tiles than G (128 x 128 x 32768) has only
 *   stream-K tiles, and is then split-K with a split count that divides the work evenly.
 * Partial tiles: a block's range holds at most two tiles that it does not cover whole:
 *   the one it starts in and the one it ends in (a range inside one tile counts as the
 *   first). Whole tiles go to C as rung 15 writes them. A partial tile goes into one of
 *   the block's two slots in W, slot 0 for its first tile, slot 1 for its last; then the
 *   kernel `fixup` adds up each shared tile's parts, spread over the blocks that shared
 *   it (each sums a piece of the tile over all its parts), in an order fixed by the shape
 *   (the same on every run: deterministic, as rung 19's `reduce`), and writes
 *   C = alpha * sum + beta * C. No
 *   block ever waits for another inside `gemm`: the blocks of a grid are not promised to
 *   run at the same time, so a kernel that spins on a flag another block sets can hang.
 * Why it should help: 3072^3 in 128 x 128 tiles is 576 tiles for a wave of 264 blocks on
 *   132 SMs: 2.18 waves, so rung 15 runs a third wave that has 48 tiles for 264 places,
 *   and for that time most of the device idles. Here the last 48 + 264 tiles are shared
 *   out evenly among the 264 blocks of one wave, and the call takes about 2.18 waves'
 *   time plus the partial tiles' traffic: a write and a read of at most two tiles per
 *   block of the wave (33 MiB at most for 264 blocks of 128 x 128 floats, most of it in
 *   the L2), not rung 19's S partial copies of all of C. At 1024^3 (64 tiles) every tile
 *   is shared, about four blocks to a tile.
 * Parameters: TSM, TSN, TSK, WM as rung 15 (and its constraints); SKW, whole waves of
 *   tiles added to the stream-K ones (0 or 1). The host computes the same schedule
 *   (host/rungs/rungs_streamk.c) to size the grid and W.
 * Grid: G blocks along x, so the kernel reads G as gridDim.x; two rows when some tiles
 *   go whole: row 0 takes those, block b the tiles b, b + G, b + 2G, ... (their count is
 *   a whole number of waves, so every block of the row gets as many), and the last row
 *   is the stream-K wave. Both rows are persistent: a block loops over its work instead
 *   of the hardware starting a block per tile, so the grid's size never depends on the
 *   shape.
 * Sizes, transposes, precision: rung 19's (any M, N, K >= 1; K = 0, which the harness
 *   passes for alpha = 0, gives each tile one empty iteration, so C = beta * C).
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
#define BPAD 4 /* Bsub rows are TSN + 4 floats (rung 15 says why) */

__device__ inline void fma4(real4 &acc, real4 a, real b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

__device__ inline void add4(real4 &acc, real4 v)
{
    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
}

#include "blas_tiles.cuh" /* Tiles, Share, load_share, store_share */

/* ---- the schedule, the same in `gemm`, `fixup` and the host --------------------------- */

struct Schedule {
    int tiles_m, tiles;    /* tiles of C along M, and in all */
    int ipt;               /* iterations per tile: TSK-deep steps of K, at least 1 */
    int dp_tiles;          /* the first tiles, one whole tile per block */
    int sk_tiles;          /* the last tiles, shared out by the stream-K wave */
    int sk_blocks;         /* blocks of the wave that get work: G, or fewer when the
                              stream-K tiles have fewer iterations than G */
    long long sk_iters;    /* sk_tiles x ipt */
};

__device__ inline Schedule schedule(const int M, const int N, const int K, const int G)
{
    Schedule s;
    s.tiles_m = (M + TSM - 1) / TSM;
    s.tiles = s.tiles_m * ((N + TSN - 1) / TSN);
    s.ipt = max(1, (K + TSK - 1) / TSK);
    const int rest = s.tiles % G; /* tiles of the last, ragged wave */
    s.sk_tiles = rest == 0 ? 0 : s.tiles < G * (1 + SKW) ? s.tiles : rest + SKW * G;
    s.dp_tiles = s.tiles - s.sk_tiles;
    s.sk_iters = (long long)s.sk_tiles * s.ipt;
    s.sk_blocks = (int)min((long long)G, s.sk_iters);
    return s;
}

/* The first iteration of block j of the wave: the wave's iterations shared out evenly. */
__device__ inline long long range_start(const Schedule &s, const int j)
{
    return (long long)j * s.sk_iters / s.sk_blocks;
}

/* The block of the wave whose range holds iteration i: the last j with
 * range_start(j) <= i, that is j < (i + 1) sk_blocks / sk_iters. */
__device__ inline int block_of(const Schedule &s, const long long i)
{
    return (int)(((i + 1) * s.sk_blocks - 1) / s.sk_iters);
}

/* ---- one tile's K range, and where its sums go ---------------------------------------- */

/* This thread's place in a tile: float4 columns am and am + WM/8 of the A tile, float4
 * columns bq and bq + WN/8 of the (transposed) B tile. */
__device__ inline int lane_am(const int tid)
{
    return (((tid / 32) % WARPS_M) * WM) / 4 + (tid % 32) % LM;
}
__device__ inline int lane_bq(const int tid)
{
    return (((tid / 32) / WARPS_M) * WN) / 4 + (tid % 32) / LM;
}

/* Rung 19's loop over one slice: the tile at (m0, n0) over depths [kbegin, kend), added
 * into acc. The caller has synchronized since the tiles were last read. */
template <bool VEC>
__device__ inline void mac_range(Tiles &sm, real4 (&acc)[8][2], const int m0, const int n0,
                                 const int kbegin, const int kend, const int M, const int N,
                                 const real *A, const int lda, const real *B, const int ldb)
{
    const int tid = threadIdx.x, am = lane_am(tid), bq = lane_bq(tid);
    real4(*Asub)[TSK][(TSM + APAD) / 4] = sm.A;
    real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm.B;

    Share next; /* this thread's share of the next tiles */
    load_share<VEC>(next, kbegin, tid, m0, n0, M, N, kend, A, lda, B, ldb);
    const int steps = (kend - kbegin + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        store_share(sm, next, buf, tid);
        __syncthreads();
        if (t + 1 < steps)
            load_share<VEC>(next, kbegin + (t + 1) * TSK, tid, m0, n0, M, N, kend, A, lda,
                            B, ldb);
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
    /* The next range's first store goes into buffer 0, which the last step (or the one
     * before) read: every thread must be done reading first. */
    __syncthreads();
}

/* Where float4 q of thread `tid`'s sums lies in the tile: rows m .. m + 3 of column n,
 * counted from the tile's corner. q = j * 2 + h is acc[j][h]: h picks the thread's first
 * or second float4 column of A, j its j-th column of B. */
__device__ inline void sum_place(const int q, const int tid, int &m, int &n)
{
    const int j = q / 2, h = q % 2;
    m = 4 * (lane_am(tid) + h * (WM / 8));
    n = 4 * (lane_bq(tid) + (j / 4) * (WN / 8)) + j % 4;
}

/* C = alpha * v + beta * C at rows m .. m + 3 of column n (which exists), those of the
 * rows that exist; C is read only when beta != 0 (BLAS). */
__device__ inline void store4(const real4 &v, const int m, const int n, const int M,
                              const real alpha, const real beta, real *C, const int ldc)
{
    const real e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (m + i < M) {
            real *c = &C[(m + i) + (size_t)n * ldc];
            *c = beta == 0 ? alpha * e[i] : alpha * e[i] + beta * *c;
        }
}

/* The tile at (m0, n0) from this thread's sums: the places of sum_place, written out by j
 * and h, and store4 taking v by reference. Both matter to the register allocation of
 * `gemm`, whose K loop leaves no register spare: with a loop over q through sum_place, or
 * with v passed by value, NVRTC 13.0 spilled 64 bytes at TSK = 8 and reloaded 3 or 4 of
 * them inside the K loop (cuobjdump -res-usage, -sass). */
__device__ inline void store_c(const real4 (&acc)[8][2], const int m0, const int n0,
                               const int M, const int N, const real alpha, const real beta,
                               real *C, const int ldc)
{
    const int am = lane_am(threadIdx.x), bq = lane_bq(threadIdx.x);
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            if (m < M && n < N)
                store4(acc[j][h], m, n, M, alpha, beta, C, ldc);
        }
    }
}

/* Where slot `slot` (0 or 1) of block j of the wave starts in W, in float4s. A slot holds
 * a whole tile's sums in the order the threads hold them (float4 (j8, h) of thread t at
 * [(j8 * 2 + h) * THREADS + t]), so that every write and read is a coalesced float4 and
 * `fixup`'s threads, holding the same places, read what the same thread index wrote. */
__device__ inline size_t slot_at(const int j, const int slot)
{
    return ((size_t)j * 2 + slot) * (TSM * TSN / 4);
}

/* The tile at index `tile` (the order of rung 19's blocks: along M first). */
__device__ inline void tile_corner(const Schedule &s, const int tile, int &m0, int &n0)
{
    m0 = (tile % s.tiles_m) * TSM;
    n0 = (tile / s.tiles_m) * TSN;
}

/* ---- the kernels ---------------------------------------------------------------------- */

/* A block's work is a run of `count` iterations from iteration `off` of tile `t`, done tile
 * by tile: a whole-tile block's run is one tile, then the tile G further on, and so on;
 * block j of the stream-K wave has one run, which may cross tiles. The run is kept as a
 * 32-bit tile and offset (only the wave's shares need 64 bits), and one loop serves both
 * kinds of block: each copy of the inner loop costs registers, and this kernel has 128 of
 * them (MIN_BLOCKS). */
template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const real alpha, const real *A, const int lda,
                                 const real *B, const int ldb, const real beta, real *C,
                                 const int ldc, real *W)
{
    const int G = gridDim.x;
    const Schedule s = schedule(M, N, K, G);
    const int in_wave = blockIdx.y + 1 == gridDim.y;
    int t, off = 0, count = s.ipt, slot = 0;
    if (!in_wave) {
        t = blockIdx.x;
        if (t >= s.dp_tiles)
            return;
    } else {
        if ((int)blockIdx.x >= s.sk_blocks)
            return;
        const long long begin = range_start(s, blockIdx.x);
        count = (int)(range_start(s, blockIdx.x + 1) - begin);
        t = (int)(begin / s.ipt);
        off = (int)(begin - (long long)t * s.ipt);
        t += s.dp_tiles;
    }
    for (;;) {
        const int n = min(count, s.ipt - off); /* iterations of tile t in this run */
        real4 acc[8][2];
#pragma unroll
        for (int q = 0; q < 8; q++)
            acc[q][0] = acc[q][1] = make_real4(0, 0, 0, 0);
        int m0, n0;
        tile_corner(s, t, m0, n0);
        mac_range<VEC>(sm, acc, m0, n0, off * TSK, min(K, (off + n) * TSK), M, N, A, lda, B,
                       ldb);
        if (n == s.ipt) {
            store_c(acc, m0, n0, M, N, alpha, beta, C, ldc); /* the whole tile: to C */
        } else {
            /* Part of a tile: into this block's slot 0 if the run began with it, else
             * slot 1. */
            real4 *w = (real4 *)W + slot_at(blockIdx.x, slot);
#pragma unroll
            for (int q = 0; q < 16; q++)
                w[q * THREADS + threadIdx.x] = acc[q / 2][q % 2];
        }
        slot = 1;
        count -= n;
        off = 0;
        t++;
        if (count == 0) {
            if (in_wave)
                return;
            t += G - 1; /* a whole-tile block's next tile */
            if (t >= s.dp_tiles)
                return;
            count = s.ipt;
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

/* C = alpha * v + beta * C for float4 e of a slot of the tile at (m0, n0), v being its sum
 * over the tile's parts. */
__device__ inline void store_piece(const real4 &v, const int e, const int m0, const int n0,
                                   const int M, const int N, const real alpha, const real beta,
                                   real *C, const int ldc)
{
    int m, n;
    sum_place(e / THREADS, e % THREADS, m, n);
    if (m0 + m < M && n0 + n < N)
        store4(v, m0 + m, n0 + n, M, alpha, beta, C, ldc);
}

/* After `gemm`, on the same grid of G blocks along x (one row), `fixup` finishes the
 * shared tiles: those whose iterations more than one block of the wave did. A shared
 * tile's P blocks, first .. last in the order of the wave, left their parts in slots (the
 * first in slot 1 when its range began in an earlier tile, every other in slot 0); block
 * j of `fixup` is one of those P for at most two tiles, the first and the last its range
 * touches, and for each it sums the (j - first)-th of P even pieces of the tile over all
 * P parts and writes that piece of C. So a tile's sum is spread over the blocks that made
 * it: at 128 x 128 x 32768, 264 blocks share the one tile and each adds a 264th of it,
 * where one block adding all 264 parts read 16.5 MiB alone (a tenth of split-K's speed,
 * results/h200-2026-11-29-streamk). Within a block, each thread adds whole float4s over
 * all the parts when the piece has a float4 or more per thread; a smaller piece (a tile
 * shared by many blocks) is added by groups of threads, each taking every R-th part,
 * whose sums are then added in the order of the groups through shared memory. Either
 * way the order of every addition depends on the shape and G only, so the result is the
 * same bits on every run (deterministic, as rung 19's `reduce`). */
extern "C" __global__ void __launch_bounds__(THREADS)
fixup(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
      const int lda, const real *__restrict__ B, const int ldb, const real beta,
      real *__restrict__ C, const int ldc, const real *__restrict__ W)
{
    __shared__ real4 group_sums[THREADS];
    const Schedule s = schedule(M, N, K, gridDim.x);
    const int j = blockIdx.x;
    if (j >= s.sk_blocks)
        return;
    const long long begin = range_start(s, j), end = range_start(s, j + 1);
    const int t_first = (int)(begin / s.ipt), t_last = (int)((end - 1) / s.ipt);
    for (int t = t_first; t <= t_last; t += max(1, t_last - t_first)) {
        const long long tile_begin = (long long)t * s.ipt;
        const int first = block_of(s, tile_begin), last = block_of(s, tile_begin + s.ipt - 1);
        if (first == last)
            continue; /* done whole by one block, which wrote C */
        /* This block's piece of the tile: float4s [e0, e1) of a slot (none when the tile has
         * fewer float4s than blocks: a 64 x 64 tile shared by all 1056 blocks of a wave). */
        const int E = TSM * TSN / 4, P = last - first + 1;
        const int e0 = (int)((long long)(j - first) * E / P);
        const int ne = (int)((long long)(j - first + 1) * E / P) - e0;
        const real4 *part = (const real4 *)W;
        const size_t first_slot = slot_at(first, range_start(s, first) < tile_begin ? 1 : 0);
        int m0, n0;
        tile_corner(s, s.dp_tiles + t, m0, n0);
        if (ne >= THREADS) {
            /* A float4 or more per thread: each adds its float4s over every part, in the
             * order of the blocks. A tile is 16 float4s per thread and P >= 2, so a piece is
             * at most 8 per thread: all 8 loads of a part are issued before any is added
             * (a loop over the float4s, with the parts inside, kept one or two in flight
             * and ran 4096 x 4096 x 64 at 0.91 of the one-block fixup). */
            real4 v[8];
#pragma unroll
            for (int c = 0; c < 8; c++)
                if (threadIdx.x + c * THREADS < ne)
                    v[c] = part[first_slot + e0 + threadIdx.x + c * THREADS];
            for (int p = first + 1; p <= last; p++) {
                const real4 *w = part + slot_at(p, 0) + e0 + threadIdx.x;
#pragma unroll
                for (int c = 0; c < 8; c++)
                    if (threadIdx.x + c * THREADS < ne)
                        add4(v[c], w[c * THREADS]);
            }
#pragma unroll
            for (int c = 0; c < 8; c++)
                if (threadIdx.x + c * THREADS < ne)
                    store_piece(v[c], e0 + threadIdx.x + c * THREADS, m0, n0, M, N, alpha, beta,
                                C, ldc);
        } else if (ne > 0) {
            /* Fewer float4s than threads (a tile shared by many blocks: long sums): R groups
             * of L >= ne threads, group g adding the parts g, g + R, ... of float4 e0 + i,
             * then group 0 adding the groups' sums in their order. */
            const int R = min(P, THREADS / ne), L = THREADS / R;
            const int g = threadIdx.x / L, i = threadIdx.x % L;
            real4 v = make_real4(0, 0, 0, 0);
            if (g < R && i < ne)
                for (int p = first + g; p <= last; p += R)
                    add4(v, part[(p == first ? first_slot : slot_at(p, 0)) + e0 + i]);
            group_sums[threadIdx.x] = v;
            __syncthreads();
            if (g == 0 && i < ne) {
                for (int r = 1; r < R; r++)
                    add4(v, group_sums[r * L + i]);
                store_piece(v, e0 + i, m0, n0, M, N, alpha, beta, C, ldc);
            }
            __syncthreads(); /* group_sums is read before the next tile's piece writes it */
        }
    }
}
