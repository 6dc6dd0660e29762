/* Rung 29: rung 17 without its padded copies: the kernel takes the edges (CUDA, 8.0+)
 * Parent: rung 17. The loop, the snake order of its multiply-adds, the single-float
 *   stores of C and the cp.async pipeline are rung 17's, line for line.
 * Change since rung 17: the host no longer pads A, B^T and C up to whole tiles. The kernel
 *   gets the true M, N and K, and:
 *   - a copy of a piece that lies past the matrix (along m or n, or past K) reads 0 bytes
 *     and writes zeros (rung 13's zero-filling cp.async), so the loop multiplies zeros
 *     there, as it did with the padding;
 *   - C is stored where it lies, M x N, only the elements that exist.
 *   The helper still transposes B (rung 18 showed that scattering B in the kernel costs
 *   more than the helper), and the columns of A and B^T that the kernel reads are rounded
 *   up to 32 elements (COLUMN): A is copied unless M is a multiple of 32.
 * Why it should help: off whole tiles, rung 17's helpers are a sizeable part of the call.
 *   Nsight Compute on the H200 (results/h200-2026-11-29-unpadded, at its fixed clock)
 *   timed rung 17's `gemm` at 333 x 7777 x 555 at 100 us, below cuBLAS's kernel at 116,
 *   and its copies of B^T (11 us), A (4) and C back (10) around it. This rung drops the
 *   copy of C everywhere, and A's where M is a multiple of 32.
 * Why the columns are rounded up to 32 and not to 4 (16 bytes, all a cp.async piece
 *   needs): with columns of 1000 or 1016 floats the rows of a tile straddle 128-byte
 *   lines, and a version that read them so ran its kernel some 10 us behind rung 17's at
 *   997 x 1013 x 1009 and 1000 x 1016 x 1009, level with it at 4096.
 * Why each thread's copy size is fixed before the loop: a thread copies its pieces of a
 *   tile at one place along m (n) and LPT depths, so whether they lie past the matrix is
 *   known for the block's life. Blocks inside the matrix copy 16 bytes, those past it 0
 *   (at index 0, inside the matrix), and every block runs one loop with no test. Two
 *   versions tried before were slower: testing the edges at every step (3% at 4096, where
 *   no block has an edge, and more at 997 x 1013 x 1009, where the kernel is one wave and
 *   waits for its checked blocks), and two copies of the loop, with and without checks,
 *   which ran 997 x 1013 x 1009 at 0.43 of rung 17 (not explained).
 * Why the partial step comes first: when TSK does not divide K, one step holds fewer than
 *   TSK depths. Taken last, its checked copies sat inside the loop (the compiler kept both
 *   kinds there at 64 x 64 tiles, 1,250 SASS instructions a step against rung 17's
 *   1,170). Taken first, it is copied in the prologue, and the loop's copies have no check.
 * Why the loop's copies step their addresses: a thread's pieces lie a fixed stride apart,
 *   so each address is one add from the last (copy_tile). With both, the loop is 1,144
 *   instructions at 64 x 64.
 * Tried and not kept: reading A as it lies, a real at a time (4-byte copies) when M is
 *   not a multiple of 32, so that A needs no copy at all. The loop grew to 1,169
 *   instructions (16 copies of A a step at 64 x 64), and against the version before
 *   stepped addresses it ran 997 x 1013 x 1009 1.6% faster at 64 x 64 tiles, 1% slower at
 *   128 x 64, and 4099 x 3001 x 2999 2% slower.
 * What it gains on the H200 (results/h200-2026-11-29-unpadded-2, same parameters as rung
 *   17, in turn, of cuBLAS): 997 x 1013 x 1009 0.86-0.87 against rung 17's 0.84-0.85,
 *   1024 x 1024 x 1009 0.97 against 0.86, 333 x 7777 x 555 0.95 against 0.87, 4099 x 3001
 *   x 2999 1.07 against 1.03; level at 1024^3 and 4096^3.
 * Layout the kernel reads: A is M x K with columns of M rounded up to COLUMN (the rows past
 *   M, if any, are the copy's zeros); B^T is N x K, likewise. C is M x N, tight. The host
 *   passes COLUMN (-DCOLUMN, rung_compile_options).
 * Parameters: rung 17's. TSM, TSN, TSK (block tile), WPTM, WPTN (rows and columns of C per
 *   thread), STAGES (tiles in flight).
 * Constraints: rung 17's.
 * Sizes: any M, N, K >= 1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh), as rung 17.
 */
#include "cp_async.cuh" /* copy16 (zero-filling), commit_group, wait_group */
#include "real.cuh"

#define RTSM (TSM / WPTM) /* threads along m */
#define RTSN (TSN / WPTN) /* threads along n */
#define THREADS (RTSM * RTSN)
/* As rung 17: up to 64 accumulators, two blocks of 256 threads share an SM. */
#define MIN_BLOCKS                                                                     \
    (WPTM * WPTN * REAL_WORDS > 64 ? 1                                                 \
     : THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define WPTMV (WPTM / 4)
#define WPTNV (WPTN / 4)
#define TSMV (TSM / 4)
#define TSNV (TSN / 4)
#define LPTA (TSMV * TSK / THREADS) /* pieces of the A tile each thread copies */
#define LPTB (TSNV * TSK / THREADS) /* and of the B^T tile */

/* The leading dimension of A and B^T, in pieces of 4: M (N) rounded up to COLUMN elements.
 * The host passes COLUMN, its RUNG_ALIGNED_COLUMN (rungs/registry.h), as it rounds its
 * copies of A and B^T to it. */
#ifndef COLUMN
#error "COLUMN (the multiple the columns of A and B^T are rounded up to) must be defined"
#endif
__device__ inline int column_pieces(int rows)
{
    return (rows + COLUMN - 1) / COLUMN * (COLUMN / 4);
}

struct Tiles {
    real4 A[STAGES][TSK][TSMV]; /* [k][m], A as it lies */
    real4 B[STAGES][TSK][TSNV]; /* [k][n], B^T as it lies */
};

/* One operand as the copies see it: P in pieces of 4, `ld` pieces a column, the tile
 * starting at piece x0 of each column. */
struct Operand {
    const real4 *P;
    int ld, x0;
};

/* A thread's copies of one tile: LPT pieces, each in its own row of the tile (depth) but
 * all of them at the same place x along it when the thread count is a multiple of the
 * tile's width in pieces (TSM / 4 or TSN / 4), as at the defaults and every tile of the
 * measurements; otherwise copy_tile works x out piece by piece.
 * Where that place lies past the operand's columns, in the blocks of the last row or
 * column of tiles, the copies read nothing and write zeros: `bytes` is 0, and `x`, the
 * index they read at, is 0, inside the matrix. Both are fixed for the block's life, so
 * the loop's copies differ from rung 17's only in taking `bytes` from a register. */
struct Copies {
    int x, bytes;
};

/* The copies at place x of the tile's width: the whole piece, or zeros past the columns. */
__device__ inline Copies copies_at(const Operand &o, int x)
{
    return x < o.ld ? Copies{x, (int)sizeof(real4)} : Copies{0, 0};
}

template <int TSXV>
__device__ inline Copies thread_copies(const Operand &o, int tid)
{
    return copies_at(o, o.x0 + tid % TSXV);
}

/* Copies this thread's pieces of one tile at depth k0. EDGE_K, in the prologue: pieces
 * at a depth below 0 (the first step's, see `first` in gemm) are read as zeros too. When
 * the thread count is not a multiple of the tile's width, a thread's pieces lie at
 * different x, and each is checked. */
template <int TSXV, int LPT, bool EDGE_K>
__device__ inline void copy_tile(real4 (*tile)[TSXV], const Operand &o, Copies c, int k0,
                                 int tid)
{
    if (THREADS % TSXV == 0 && !EDGE_K) {
        /* The loop's case: a thread's pieces lie a fixed stride apart in both memories, so
         * each address is one add from the last, not a product of its own (13 instructions
         * fewer a step at 64 x 64 tiles). */
        const real4 *src = o.P + c.x + (k0 + tid / TSXV) * o.ld;
        const int stride = THREADS / TSXV * o.ld;
        real4 *dst = &tile[tid / TSXV][tid % TSXV];
#pragma unroll
        for (int l = 0; l < LPT; l++, src += stride, dst += THREADS)
            copy16(dst, (const real *)src, c.bytes);
    } else {
#pragma unroll
        for (int l = 0; l < LPT; l++) {
            const int i = tid + l * THREADS;
            const int k = k0 + i / TSXV;
            if (THREADS % TSXV != 0)
                c = copies_at(o, o.x0 + i % TSXV);
            const bool inside = !EDGE_K || k >= 0;
            const int at = inside ? c.x + k * o.ld : 0;
            copy16(&tile[i / TSXV][i % TSXV], (const real *)(o.P + at),
                   inside ? c.bytes : 0);
        }
    }
}

/* This thread's copies of the step that starts at depth k0 into stage s. */
template <bool EDGE_K>
__device__ inline void copy_stage(Tiles &sm, int s, int k0, const Operand &a, Copies ca,
                                  const Operand &b, Copies cb, int tid)
{
    copy_tile<TSMV, LPTA, EDGE_K>(sm.A[s], a, ca, k0, tid);
    copy_tile<TSNV, LPTB, EDGE_K>(sm.B[s], b, cb, k0, tid);
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *__restrict__ A,
     const real *__restrict__ Bt, real *__restrict__ C)
{
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV, nv0 = blockIdx.y * TSNV;
    const Operand a = {reinterpret_cast<const real4 *>(A), column_pieces(M), mv0};
    const Operand b = {reinterpret_cast<const real4 *>(Bt), column_pieces(N), nv0};
    const Copies ca = thread_copies<TSMV>(a, tid), cb = thread_copies<TSNV>(b, tid);
    __shared__ Tiles sm;

    /* As in rung 17: acc[c][wm] holds rows 4 * (mv0 + tidm + wm * RTSM) .. +3 of C's column
     * 4 * (nv0 + tidn + (c / 4) * RTSN) + c % 4. */
    real4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_real4(0, 0, 0, 0);

    /* Rung 17's pipeline, over every step that K reaches into. When K is not a multiple
     * of TSK, the partial step is the first: it starts at depth `first` < 0 and its depths
     * below 0 are zeros. It is copied in the prologue, which checks depths anyway, and the
     * loop's copies are all of whole steps, with no check along K. */
    const int steps = (K + TSK - 1) / TSK;
    const int first = K - steps * TSK; /* -TSK < first <= 0 */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_stage<true>(sm, s, first + s * TSK, a, ca, b, cb, tid);
        commit_group();
    }
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>(); /* this thread's copies of step t have landed */
        __syncthreads();          /* everyone's have, and step t-1 is computed */
        const int next = t + STAGES - 1; /* into the stage step t-1 used */
        if (next < steps)
            copy_stage<false>(sm, next % STAGES, first + next * TSK, a, ca, b, cb, tid);
        commit_group();

#pragma unroll
        for (int k = 0; k < TSK; k++) {
            real4 av[WPTMV];
            real bv[WPTN];
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                av[wm] = sm.A[s][k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++) {
                const real4 v = sm.B[s][k][tidn + wn * RTSN];
                bv[4 * wn] = v.x;
                bv[4 * wn + 1] = v.y;
                bv[4 * wn + 2] = v.z;
                bv[4 * wn + 3] = v.w;
            }
            /* Rung 17's snake order: column wn's rows forth, column wn+1's back. */
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int i = 0; i < WPTM; i++) {
                    const int m = wn % 2 ? WPTM - 1 - i : i;
                    real *c = &acc[wn][m / 4].x;
                    const real *x = &av[m / 4].x;
                    c[m % 4] += x[m % 4] * bv[wn];
                }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* Rung 17's single-float stores, into C as it lies: a block whose tile lies inside C
     * stores everything, one at an edge only the elements that exist. */
    const bool c_inside = 4 * (mv0 + TSMV) <= M && 4 * (nv0 + TSNV) <= N;
#pragma unroll
    for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++) {
                const int m = 4 * (mv0 + tidm + wm * RTSM);
                const int n = 4 * (nv0 + tidn + wn * RTSN) + j;
                const real4 v = acc[wn * 4 + j][wm];
                const real e[4] = {v.x, v.y, v.z, v.w};
                real *c = &C[m + n * M];
                if (c_inside) {
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        c[i] = e[i];
                } else if (n < N) {
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        if (m + i < M)
                            c[i] = e[i];
                }
            }
}
