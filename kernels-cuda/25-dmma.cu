/* Rung 25: the FP64 tensor cores (DMMA), double precision only (CUDA, compute capability
 * 9.0+)
 * Change since rung 16: the same warp-tiled kernel on mma.sync, with cp.async bringing
 *   both tiles STAGES steps ahead and the arguments of a BLAS call, but in double: the
 *   mma is mma.sync.m16n8kMMAK with .f64 inputs and accumulators, and every element,
 *   tile and accumulator is a double. There is no split and no second product: a DMMA
 *   multiplies doubles exactly and adds in double, so rung 16's 3xTF32 trick is not
 *   needed. The tiles are larger and deeper (128 x 128 x 32 by default), three stages of
 *   them in dynamic shared memory (207 KiB at the defaults, past static memory's 48 KiB).
 * Why it should help: the H100's FP64 units do 64 multiply-adds per clock per SM, 33.5
 *   TFLOPS, and the best double rung on them is bounded by that. Its tensor cores do twice
 *   as many doubles, about 67 TFLOPS, which is what cuBLAS's DGEMM uses.
 * Which mma: compute capability 8.0 has one double shape, m8n8k4 (an 8 x 8 block of C per
 *   warp, one double of A and one of B per lane). Hopper (9.0) adds m16n8k4, m16n8k8 and
 *   m16n8k16, whose 16 x 8 block of C is rung 16's, lane for lane, and whose A and B
 *   fragments are rung 16's tf32 ones, extended along k. So this kernel is written for
 *   the sm_90 shapes, and the registry refuses older GPUs: the H100 is the machine with
 *   FP64 tensor cores worth racing here, and one layout keeps the kernel short. MMAK picks
 *   the depth of one mma: 4, 8 or 16 (the tuner tries each). A deeper mma issues fewer
 *   instructions but holds more fragment registers (8 doubles of A per 16 rows at k16).
 * Where the warp's data sits (PTX ISA, mma.m16n8k{4,8,16} with .f64): lane l is in group
 *   g = l / 4, place t = l % 4 in it. For an mma at depth kk it supplies A(g + 8 (i % 2),
 *   kk + t + 4 (i / 2)) for i < MMAK/2, B(kk + t + 4 j, g) for j < MMAK/4, and holds
 *   C(g, 2t), C(g, 2t + 1), C(g + 8, 2t), C(g + 8, 2t + 1) of the 16 x 8 block.
 * Shared-memory layout, and why it has no bank conflicts: ldmatrix moves 16-bit elements
 *   only, so each double of a fragment is its own 64-bit load (ld.shared.f64). A warp's
 *   64-bit load is served as two half-warps of 16 lanes, each 16 doubles, 128 bytes: it
 *   is conflict-free when the 16 doubles of a half-warp fall in 16 different 8-byte bank
 *   pairs, i.e. differ mod 16 doubles. A half-warp is groups g = 0..3 (or 4..7) by places
 *   t = 0..3.
 *   - A's tile lies as A does ([k][m], rows of TSM + 4 doubles): lane (g, t) reads double
 *     t (TSM + 4) + g from its fragment's corner. TSM is a multiple of 16, so TSM + 4 is
 *     4 mod 16 and the half-warp reads 4t + g (mod 16): 0..15, all different.
 *   - B's tile lies as B does ([n][k], rows of TSK + 4 doubles): lane (g, t) reads double
 *     g (TSK + 4) + t. TSK is a multiple of 8, so TSK + 4 is 4 or 12 mod 16, and g
 *     (TSK + 4) for g = 0..3 is four different multiples of 4 (mod 16) that the four t
 *     fill in.
 *   That is the layout at MMAK = 4 and 16. The padding keeps every row 16-byte aligned,
 *   as the 16-byte cp.async copies need.
 * Two doubles a load (PAIRED, MMAK = 8, the default): an mma sums over k in an order of
 *   its own, and its rows may be any rows of the tile, as long as A, B and the stores of
 *   C agree. So lane (g, t) takes depths 2t and 2t + 1 where the instruction says t and
 *   t + 4, and rows 2g and 2g + 1 where it says g and g + 8: each pair of doubles it
 *   needs lies side by side, and one 16-byte load fetches it (half the load
 *   instructions). 16-byte loads are served a quarter-warp (8 lanes, 128 bytes) at a
 *   time, g = 0..1 by t = 0..3: A's rows of TSM + 2 doubles (2 mod 16) put lane (g, t)
 *   at 4t + 2g (mod 16), B's rows of 8 mod 16 doubles at 8g + 2t: eight different
 *   16-byte slots each.
 * Copies: as rung 16, in pieces of 4 doubles (two 16-byte cp.async each: cp_async.cuh's
 *   copy16), consecutive lanes on consecutive pieces of a column of A or B, so each warp
 *   reads whole sectors; a piece partly or wholly outside the matrix reads only what is
 *   inside and fills the rest with zeros, which is how edge tiles and K = 0 need no other
 *   care. When A or B or a leading dimension is not 16-byte aligned (an odd M or K makes
 *   an odd lda or ldb), each double travels alone (8-byte copies).
 * Whole tiles take cheaper copies. Under the profiler the first version of this rung
 *   (0.69x cuBLAS) issued 616 million instructions at 4096 against cuBLAS's 432 million:
 *   the checks and address arithmetic of its copies cost about 10 instructions each, 3
 *   for every mma, and its warps waited on them. A tile that lies wholly inside A and B
 *   (every tile but the last partial one along K, in every block but the edge ones)
 *   needs no checks, and each thread's pieces sit a fixed distance apart in it, so
 *   copy_whole_tiles issues each 16-byte copy with an add or two. It also spreads a
 *   step's copies over the step's mma rounds (TSK / MMAK parts) instead of issuing them
 *   all at the top, so they queue behind the fragment loads a few at a time. Measured
 *   on the H100 (results/h100-2026-11-25-dmma2): 365 million instructions, 42 -> 54
 *   TFLOPS at 4096; with the grouped order and the paired loads below, 56 (0.92x).
 * Block order: rung 24's grouped_tile (grouped_tile.cuh), GROUP rows of tiles per group,
 *   so that a wave of blocks shares panels of A in the L2 (A is 512 MiB at 8192 in
 *   double, ten times the L2).
 * Accuracy: each product is exact and each sum rounds to double, so the double bound
 *   K u (|A||B|) with u = 2^-53 holds whatever order the tensor cores add in.
 * Parameters: TSM, TSN, TSK (block tile), WM, WN (warp tile), STAGES (tiles in flight),
 *   MMAK (depth of one mma: 4, 8, 16), GROUP (rows of tiles per group of blocks; 0: plain
 *   order).
 * Constraints: WM a multiple of 16 dividing TSM, WN a multiple of 8 dividing TSN, at most
 *   64 accumulators a lane (WM x WN <= 2048), TSK a multiple of 8 and of MMAK, the thread
 *   count (TSM/WM x TSN/WN warps) divides the pieces of both tiles and is at most 1024,
 *   STAGES >= 2, the stages fit the device's opt-in shared memory (227 KiB on the H100).
 * Sizes: any M, N, K >= 0; lda >= M, ldb >= K, ldc >= M. C = alpha A B + beta C, C read
 *   only when beta is not 0. NN, column-major (a row-major case is the column-major call
 *   with A and B swapped, made by the harness); no transposes.
 * Precision: double only. The host refuses a single-precision case with the reason; a
 *   compile without -DLADDER_DOUBLE still makes the double kernel (below), so that tools
 *   that compile every rung with its defaults (tools/ptxas-report.sh) see this one.
 */
#ifndef LADDER_DOUBLE
#define LADDER_DOUBLE 1 /* double only: see "Precision" above */
#endif
#include "cp_async.cuh" /* copy16, copy4, valid_bytes, commit_group, wait_group */
#include "grouped_tile.cuh" /* grouped_tile: which tile of C a block computes */
#include "real.cuh"

#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define MT (WM / 16)       /* 16-row mma blocks in a warp tile */
#define NT (WN / 8)        /* 8-column mma blocks in a warp tile */
#define A_FRAG (MMAK / 2)  /* doubles of A a lane supplies to one mma */
#define B_FRAG (MMAK / 4)  /* and of B */
/* PAIRED (MMAK = 8): each lane's fragment doubles are read two at a time (see the
 * header), with rows padded for it; otherwise one at a time. */
#define PAIRED (MMAK == 8)
#if PAIRED
#define LDA_S (TSM + 2)                                    /* 2 mod 16 doubles */
#define LDB_S (TSK % 16 == 0 ? TSK + 8 : TSK)              /* 8 mod 16 */
#else
#define LDA_S (TSM + 4)    /* doubles in a row of A's tile (see the header) */
#define LDB_S (TSK + 4)    /* doubles in a row of B's tile */
#endif
#define A_STAGE (TSK * LDA_S)
#define B_STAGE (TSN * LDB_S)
#define SHARED_BYTES (STAGES * (A_STAGE + B_STAGE) * 8)

/* Read by the CUDA backend: the dynamic shared memory every launch of gemm gets. */
extern "C" __constant__ int gemm_dynamic_shared = SHARED_BYTES;

/* Issues this thread's copies of one tile: COLS columns of LEN doubles, from rows r0 ..
 * r0 + LEN - 1 of columns c0 .. c0 + COLS - 1 of the column-major matrix P (R x C, leading
 * dimension ld), each column into a row of ROW doubles at dst. A's tile is TSK columns of
 * TSM (rows m, columns k), B's TSN columns of TSK (rows k, columns n): both are copied so.
 * Consecutive threads take consecutive pieces of 4 doubles down a column, so a warp reads
 * whole sectors. A piece outside the matrix reads nothing (valid = 0) and names the
 * matrix's first element, so no address outside an allocation is formed. VEC: 16-byte
 * copies (P and ld 16-byte aligned); otherwise one double at a time. Column offsets are
 * size_t: ld x column may pass 2^31. */
template <int LEN, int COLS, int ROW, bool VEC>
__device__ inline void copy_tile(double *dst, const double *P, int ld, int r0, int c0, int R,
                                 int C, int tid)
{
#pragma unroll
    for (int l = 0; l < LEN / 4 * COLS / THREADS; l++) {
        const int piece = tid + l * THREADS;
        const int q = piece % (LEN / 4), col = piece / (LEN / 4);
        const int r = r0 + 4 * q, c = c0 + col;
        double *to = &dst[col * ROW + 4 * q];
        const double *src = P + r + (size_t)c * ld;
        if (VEC) {
            const int valid = c < C ? valid_bytes(r, R, 4) : 0;
            copy16(to, valid ? src : P, valid);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = c < C && r + j < R ? 8 : 0;
                copy4(to + j, valid ? src + j : P, valid);
            }
        }
    }
}

/* The copies of the tiles at depth k0 into the stage at As, Bs. */
template <bool VEC>
__device__ inline void copy_tiles(double *As, double *Bs, int k0, int tid, int m0, int n0,
                                  int M, int N, int K, const double *A, int lda,
                                  const double *B, int ldb)
{
    copy_tile<TSM, TSK, LDA_S, VEC>(As, A, lda, m0, k0, M, K, tid);
    copy_tile<TSK, TSN, LDB_S, VEC>(Bs, B, ldb, k0, n0, K, N, tid);
}

/* Whole tiles, the common case, need none of copy_tile's checks, and their addresses
 * follow a pattern: a thread copies the same piece q of every CPP-th column of the tile
 * (CPP = THREADS / (LEN / 4), the columns one pass of the block covers), so piece l of
 * this step sits l x `pass` elements past its first one, `first`. Part `part` of `parts`
 * issues the passes l with l x parts / PASSES == part: the main loop spreads a step's
 * copies over its mma rounds (parts = TSK / MMAK) instead of issuing them all at once, so
 * the copies queue behind the fragment loads a few at a time. This path needs the 16-byte
 * copies (VEC) and a thread count that is a whole number of columns (WHOLE_COPIES). */
#define WHOLE_COPIES (THREADS % (TSM / 4) == 0 && THREADS % (TSK / 4) == 0)
template <int LEN, int COLS, int ROW>
__device__ inline void copy_whole(double *dst, const double *first, size_t pass, int part,
                                  int parts, int tid)
{
    constexpr int PIECES = LEN / 4, CPP = THREADS / PIECES, PASSES = COLS / CPP;
    double *to = dst + (tid / PIECES) * ROW + 4 * (tid % PIECES);
#pragma unroll
    for (int l = 0; l < PASSES; l++)
        if (l * parts / PASSES == part)
            copy16(to + l * CPP * ROW, first + l * pass, 32);
}

/* Where this thread's copies of whole tiles start at step 0, how far apart its pieces lie
 * in one step (pass) and how far one step moves them (step). */
struct WholeCopies {
    const double *a, *b;
    size_t a_pass, b_pass, a_step;
};

__device__ inline WholeCopies whole_copies(int tid, int m0, int n0, const double *A, int lda,
                                           const double *B, int ldb)
{
    WholeCopies w;
    w.a = A + m0 + 4 * (tid % (TSM / 4)) + (size_t)(tid / (TSM / 4)) * lda;
    w.b = B + 4 * (tid % (TSK / 4)) + (size_t)(n0 + tid / (TSK / 4)) * ldb;
    w.a_pass = (size_t)(THREADS / (TSM / 4)) * lda; /* A: CPP columns of depth further */
    w.b_pass = (size_t)(THREADS / (TSK / 4)) * ldb; /* B: CPP columns of n further */
    w.a_step = (size_t)TSK * lda;                   /* B moves TSK elements down a column */
    return w;
}

/* Part `part` of `parts` of this thread's copies of whole step `st` into As, Bs. */
__device__ inline void copy_whole_tiles(double *As, double *Bs, const WholeCopies &w, int st,
                                        int part, int parts, int tid)
{
    copy_whole<TSM, TSK, LDA_S>(As, w.a + st * w.a_step, w.a_pass, part, parts, tid);
    copy_whole<TSK, TSN, LDB_S>(Bs, w.b + (size_t)st * TSK, w.b_pass, part, parts, tid);
}

/* acc += a * b on the FP64 tensor cores: a 16 x MMAK block of A, an MMAK x 8 block of B. */
__device__ inline void dmma(double (&acc)[4], const double (&a)[A_FRAG],
                            const double (&b)[B_FRAG])
{
#if MMAK == 4
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
        "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
        : "+d"(acc[0]), "+d"(acc[1]), "+d"(acc[2]), "+d"(acc[3])
        : "d"(a[0]), "d"(a[1]), "d"(b[0]));
#elif MMAK == 8
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+d"(acc[0]), "+d"(acc[1]), "+d"(acc[2]), "+d"(acc[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#elif MMAK == 16
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, "
        "{%0, %1, %2, %3};\n"
        : "+d"(acc[0]), "+d"(acc[1]), "+d"(acc[2]), "+d"(acc[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
          "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
#else
#error "MMAK must be 4, 8 or 16: the depths of Hopper's double mma"
#endif
}

/* One step of the main loop: wait for this step's tiles, start the copies of step
 * step + STAGES - 1 into the stage the previous step used, and multiply this step's tiles
 * into acc. LATER_WHOLE: that later step is whole, and its copies are spread over the mma
 * rounds (copy_whole_tiles); otherwise they are checked copies, issued at once. */
template <bool VEC, bool LATER_WHOLE>
__device__ inline void run_step(double (&acc)[MT][NT][4], double *As, double *Bs,
                                const WholeCopies &w, int step, int steps, int tid, int lane,
                                int wm, int wn, int m0, int n0, int M, int N, int K,
                                const double *A, int lda, const double *B, int ldb)
{
    const int g = lane / 4, t = lane % 4; /* this lane's group and place in it */
    constexpr int PARTS = TSK / MMAK;     /* mma rounds of a step: the copies' parts */
    const int s = step % STAGES;
    wait_group<STAGES - 2>(); /* this thread's copies of this step have landed */
    __syncthreads();          /* everyone's have, and the previous step is computed */
    const int later = step + STAGES - 1;
    const int ls = later % STAGES;
    if (!LATER_WHOLE && later < steps)
        copy_tiles<VEC>(As + ls * A_STAGE, Bs + ls * B_STAGE, later * TSK, tid, m0, n0, M, N,
                        K, A, lda, B, ldb);
    /* This lane's first double of A's tile and of B's: every load below is at a constant
     * distance from one of them. Unpaired: A's row wm + g at depth t, B's column wn + g at
     * depth t. Paired: A's row wm + 2g at depth 2t, B's column wn + g at depth 2t. */
    const double *a_tile = As + s * A_STAGE + (PAIRED ? 2 * t : t) * LDA_S + wm +
                           (PAIRED ? 2 * g : g);
    const double *b_tile = Bs + s * B_STAGE + (wn + g) * LDB_S + (PAIRED ? 2 * t : t);

#pragma unroll
    for (int kk = 0; kk < TSK; kk += MMAK) {
        /* This lane's part of the warp's fragments at depth kk: MT blocks of A (16 x MMAK)
         * and NT of B (MMAK x 8), conflict-free loads of one double or (paired) two. */
        double a[MT][A_FRAG], b[NT][B_FRAG];
#if PAIRED
#pragma unroll
        for (int i = 0; i < MT; i++) {
            const double2 near = *(const double2 *)&a_tile[kk * LDA_S + 16 * i];
            const double2 next = *(const double2 *)&a_tile[(kk + 1) * LDA_S + 16 * i];
            a[i][0] = near.x; /* mma row g, k t: tile row 2g, depth 2t */
            a[i][1] = near.y; /* row g + 8, k t: row 2g + 1, depth 2t */
            a[i][2] = next.x; /* row g, k t + 4: row 2g, depth 2t + 1 */
            a[i][3] = next.y; /* row g + 8, k t + 4: row 2g + 1, depth 2t + 1 */
        }
#pragma unroll
        for (int j = 0; j < NT; j++) {
            const double2 pair = *(const double2 *)&b_tile[8 * j * LDB_S + kk];
            b[j][0] = pair.x; /* k t: depth 2t */
            b[j][1] = pair.y; /* k t + 4: depth 2t + 1 */
        }
#else
#pragma unroll
        for (int i = 0; i < MT; i++)
#pragma unroll
            for (int r = 0; r < A_FRAG; r++)
                a[i][r] = a_tile[(kk + 4 * (r / 2)) * LDA_S + 16 * i + 8 * (r % 2)];
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int r = 0; r < B_FRAG; r++)
                b[j][r] = b_tile[8 * j * LDB_S + kk + 4 * r];
#endif
        if (LATER_WHOLE)
            copy_whole_tiles(As + ls * A_STAGE, Bs + ls * B_STAGE, w, later, kk / MMAK, PARTS,
                             tid);
#pragma unroll
        for (int i = 0; i < MT; i++)
#pragma unroll
            for (int j = 0; j < NT; j++)
                dmma(acc[i][j], a[i], b[j]);
    }
    commit_group(); /* step `later`'s copies, or none past the end */
}

template <bool VEC>
__device__ inline void gemm_body(double *shared, const int M, const int N, const int K,
                                 const double alpha, const double *A, const int lda,
                                 const double *B, const int ldb, const double beta,
                                 double *C, const int ldc)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4; /* this lane's group and place in it */
    const int wm = (warp % WARPS_M) * WM; /* this warp's corner in the block tile */
    const int wn = (warp / WARPS_M) * WN;
    int tile_m, tile_n;
    grouped_tile(&tile_m, &tile_n); /* rung 24's order of the blocks, for the L2 */
    const int m0 = tile_m * TSM, n0 = tile_n * TSN;
    double *const As = shared;                  /* STAGES tiles of A, then... */
    double *const Bs = shared + STAGES * A_STAGE; /* ... STAGES tiles of B */

    double acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
            acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.0;

    /* Steps whose tiles lie wholly inside A and B (all but a last partial one, in blocks
     * whose tile of C lies wholly inside C; none in edge blocks) take copy_whole_tiles. */
    const int steps = (K + TSK - 1) / TSK;
    const bool whole_ok = VEC && WHOLE_COPIES && m0 + TSM <= M && n0 + TSN <= N;
    const int whole_steps = whole_ok ? K / TSK : 0;
    const WholeCopies w = whole_copies(tid, m0, n0, A, lda, B, ldb);

    /* Rung 16's pipeline: steps 0 .. STAGES-2 in flight first, one commit group per step
     * (empty ones past the end keep wait_group's count right). */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < whole_steps)
            copy_whole_tiles(As + s * A_STAGE, Bs + s * B_STAGE, w, s, 0, 1, tid);
        else if (s < steps)
            copy_tiles<VEC>(As + s * A_STAGE, Bs + s * B_STAGE, s * TSK, tid, m0, n0, M, N,
                            K, A, lda, B, ldb);
        commit_group();
    }

    /* The steps whose later step is whole run a loop of their own, with no checked
     * copies in it; the last STAGES - 1 steps, and every step of an edge block, the
     * other. */
    int step = 0;
    for (; VEC && step + STAGES - 1 < whole_steps; step++)
        run_step<VEC, true>(acc, As, Bs, w, step, steps, tid, lane, wm, wn, m0, n0, M, N, K,
                            A, lda, B, ldb);
    for (; step < steps; step++)
        run_step<VEC, false>(acc, As, Bs, w, step, steps, tid, lane, wm, wn, m0, n0, M, N, K,
                             A, lda, B, ldb);
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* Only the elements of C that exist are written; C is read only when beta is not 0
     * (the same for every thread, so no thread diverges). */
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                const int m = m0 + wm + 16 * i + (PAIRED ? 2 * g + r / 2 : g + 8 * (r / 2));
                const int n = n0 + wn + 8 * j + 2 * t + r % 2;
                if (m < M && n < N) {
                    double *c = &C[m + (size_t)n * ldc];
                    *c = beta == 0.0 ? alpha * acc[i][j][r] : alpha * acc[i][j][r] + beta * *c;
                }
            }
}

/* As rung 16: one alignment test, the same for every thread, picks the copy width. One
 * block per SM: its accumulators take half the register file. */
extern "C" __global__ void __launch_bounds__(THREADS, 1)
gemm(const int M, const int N, const int K, const double alpha, const double *__restrict__ A,
     const int lda, const double *__restrict__ B, const int ldb, const double beta,
     double *__restrict__ C, const int ldc)
{
    extern __shared__ __align__(16) unsigned char shared_raw[];
    double *shared = reinterpret_cast<double *>(shared_raw);
    if (lda % 2 == 0 && ldb % 2 == 0 &&
        ((unsigned long long)A | (unsigned long long)B) % 16 == 0)
        gemm_body<true>(shared, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_body<false>(shared, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
