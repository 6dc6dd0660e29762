/* Rung 18: scattering copies, rung 17 as a BLAS call (CUDA, compute capability 8.0+)
 * Change since rung 17: B is read where it lies, not as B^T made by a helper kernel, and
 *   nothing is padded. cp.async copies B's tile 4 bytes at a time, and each float goes
 *   to its own place in the [k][n] tile that rung 17's loop reads: the copy transposes.
 *   Zero-filling copies (rung 13's src-size operand) stand in for the host's padding, and
 *   the kernel takes a BLAS call's arguments (rung 15's alpha, beta, lda, ldb, ldc). The
 *   loop and the single-float stores of C are rung 17's.
 * Why it should help: rung 17 pays for its B^T before the GEMM starts. At 4096 the
 *   transposing helper takes about 44 us beside rung 17's 2.7 ms, under 2%, and needs a second
 *   copy of B in memory. Rungs 13 and 14 kept cp.async for tiles that need no
 *   transposing, because a 16-byte copy moves 4 consecutive floats to 4 consecutive
 *   places. A 4-byte copy has no such limit, and every float still travels without
 *   passing through a register.
 * What it costs: four times as many copy instructions for B, each of which touches four
 *   columns of B, four cache lines. On the H100 (results/h100-2026-11-21-scatter) this
 *   rung reaches 0.95 of cuBLAS at 4096 with its defaults, which a 77-candidate search
 *   found best, against rung 17's 0.99: it saves the helper but loses more in the
 *   kernel. Under the profiler it issues about as many instructions per cycle as rung
 *   17 but has about 5% more of them, and keeps L1 busier (68% against 41%); those two
 *   profiles are of different tiles, though. On rung 17's best tile (8 x 16 per
 *   thread, 64 threads a block, 16 copies of B per thread and step) it falls to 0.85.
 *   Copying pairs of depths (8 bytes) into a tile that keeps each pair together was
 *   slower still (0.91). It is the fastest FP32 rung that is a BLAS call (rung 15: 0.92).
 * How the copies are laid out: 8 consecutive lanes copy 8 consecutive depths of one
 *   column of B, 32 bytes, a whole sector of memory, and a warp covers 4 columns. In
 *   shared memory those 32 floats land in rows k..k+7 of columns n..n+3. With rows of
 *   TSN + 4 floats (a multiple of 32 plus 4) row k starts 4k banks further on, so the 32
 *   floats fall in 32 different banks. Rows stay 16 bytes aligned for the loop's float4
 *   reads.
 * Edges: a copy outside the matrix reads nothing and writes zeros (src-size 0), so edge
 *   tiles need no other care; stores of C check that the element exists. Whole tiles,
 *   the common case, take copies without those checks.
 * A's tiles travel in 16-byte pieces when every column of A starts 16-byte aligned (A
 *   aligned, lda a multiple of 4); otherwise 4 bytes at a time, as rung 13.
 * Transposes (-DTRANS_A=1: A holds A^T, K x M; -DTRANS_B=1: B holds B^T, N x K). Each
 *   tile is copied one of two ways, chosen by which way its matrix runs in memory:
 *   - A tile whose rows run along memory (A, and B^T: row k of the [k][n] tile is TSN
 *     consecutive elements of column k of B^T) travels as A always did, in 16-byte
 *     pieces, consecutive lanes on consecutive pieces of a row: runs of THREADS/TSK
 *     pieces, 256 contiguous bytes at the default tile.
 *   - A tile whose columns run along memory (B, and A^T: column m of the [k][m] tile is
 *     TSK consecutive elements of column m of A^T) is scattered as B always was: 8 lanes
 *     copy 8 consecutive depths, a 32-byte sector, into 8 rows of the tile. A scattered
 *     A tile gets B's padded rows (TSM + 4) for the same banks.
 *   Both ways read every sector a warp touches whole, so every case stays coalesced;
 *   they differ in copy instructions: a scattered tile takes one per element, four
 *   times as many as pieces. NT (both tiles in pieces, rung 17's copies without the
 *   helper) takes fewest, NN and TT (one of each) the same number, TN (both scattered)
 *   the most. The loop and C are the same in all four.
 * Parameters: rung 17's. TSM, TSN, TSK (block tile), WPTM, WPTN (rows and columns of C
 *   per thread), STAGES (tiles in flight).
 * Constraints: rung 17's; TSK a multiple of 8 that divides the thread count; the thread
 *   count / 8 divides TSN (see copy_stage).
 * Sizes: any M, N, K >= 1; lda >= M (K when A is transposed), ldb >= K (N when B is
 *   transposed), ldc >= M.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): A's pieces are then 4
 *   doubles, two 16-byte cp.async copies, B's scattering copies 8 bytes each, and a
 *   thread's 64 accumulators take 128 registers, so one block per SM. The default stages
 *   (TSK = 16) need 65 KiB of shared memory in double: the small-device defaults (TSK =
 *   8) fit in 48 KiB.
 */
#include "cp_async.cuh" /* copy16, copy4, valid_bytes, the group waits */
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
#define BROW (TSN + 4)               /* floats in a row of B's tile (see above) */

/* Rows of the tiles, in elements: B's padded by 4 (see the header), and A's too when A
 * is transposed, for the same reason: its copies scatter as B's do. */
#define APAD (TRANS_A ? 4 : 0)
#define AROW (TSM + APAD)

struct Tiles {
    real4 A[STAGES][TSK][AROW / 4]; /* [k][m] */
    real4 B[STAGES][TSK][BROW / 4]; /* [k][n] */
};

/* One matrix as the copies see it: P (A or B) with leading dimension ld, whose tile runs
 * along x (m for A, n for B) from x0, X elements in all; `first`: where this thread's
 * copies of depth 0 read (first_copies). */
struct Operand {
    const real *P;
    int ld, x0, X;
    const real *first;
};
struct Operands {
    int K;
    Operand a, b;
};

/* Who copies what. A tile copied as it lies (A; B^T): each thread keeps to one row of it
 * (LPR threads per row, its pieces LPR apart). A tile copied by scattering (B; A^T): each
 * thread keeps to one depth of every group of 8 (SPR columns per pass, its columns SPR
 * apart). Its copies then lie at constant distances from two addresses per step, which
 * keeps both the instructions and the registers for addresses few: the loop needs nearly
 * all the registers. */
#define LPR (THREADS / TSK) /* threads per row of a tile copied as it lies */
#define SPR (THREADS / 8)   /* columns per pass of a scattered tile */

__device__ inline size_t widen(int i) { return (size_t)(unsigned)i; } /* i >= 0 */

/* Where this thread's copies of depth 0 read: in a tile that lies along x, its piece of
 * row 0; in one it scatters, depth tid % 8 of its first column. */
__device__ inline const real *lying_first(const Operand &o, int tid)
{
    return o.P + widen(o.x0 + 4 * (tid % LPR)) + widen(tid / LPR) * o.ld;
}
__device__ inline const real *scattered_first(const Operand &o, int tid)
{
    return o.P + tid % 8 + widen(o.x0 + tid / 8) * o.ld;
}
__device__ inline void first_copies(Operands &o, int tid)
{
    o.a.first = TRANS_A ? scattered_first(o.a, tid) : lying_first(o.a, tid);
    o.b.first = TRANS_B ? lying_first(o.b, tid) : scattered_first(o.b, tid);
}

/* The copies of a tile whose rows lie along memory (A; B^T): row k of the tile is TSX
 * consecutive elements of the matrix's column k0 + k. LPR consecutive lanes copy LPR
 * consecutive 16-byte pieces of one row (256 contiguous bytes at the default tile), whole
 * sectors. VEC: 16-byte pieces (the matrix and every column of it 16-byte aligned);
 * otherwise 4 bytes at a time, as rung 13. `tile`: the stage's tile, rows of ROW4
 * real4s. */
template <int TSX, int ROW4, bool VEC, bool EDGE>
__device__ inline void copy_lying(real4 (*tile)[ROW4], int k0, int tid, int K,
                                  const Operand &o)
{
    const int k = tid / LPR, kk = k0 + k;
    const real *row = o.first + widen(k0) * o.ld;
#pragma unroll
    for (int l = 0; l < TSX / 4 / LPR; l++) {
        const int q = tid % LPR + l * LPR, x = o.x0 + 4 * q;
        const real *src = row + 4 * l * LPR;
        if (VEC) {
            const int valid =
                !EDGE ? (int)sizeof(real4) : kk < K ? valid_bytes(x, o.X, 4) : 0;
            copy16(&tile[k][q], valid ? src : o.P, valid);
        } else {
            real *dst = (real *)&tile[k][q];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = !EDGE || (kk < K && x + j < o.X) ? (int)sizeof(real) : 0;
                copy4(dst + j, valid ? src + j : o.P, valid);
            }
        }
    }
}

/* The copies of a tile whose columns lie along memory (B; A^T): column x of the tile is
 * TSK consecutive elements of the matrix's column x0 + x, each copied into its own row.
 * 8 consecutive lanes take depths 0-7 of one column, a 32-byte sector (see the header).
 * `tile`: the stage's tile, rows of `row` elements. */
template <int TSX, bool EDGE>
__device__ inline void copy_scattered(real *tile, int row, int k0, int tid, int K,
                                      const Operand &o)
{
    const real *step = o.first + k0;
#pragma unroll
    for (int p = 0; p < (TSX + SPR - 1) / SPR; p++) {
        const int x = tid / 8 + p * SPR, xx = o.x0 + x;
        if (TSX % SPR != 0 && x >= TSX)
            continue; /* the last pass of a tile that is not whole passes */
        const real *col = step + widen(p * SPR) * o.ld;
#pragma unroll
        for (int g = 0; g < TSK / 8; g++) {
            const int k = tid % 8 + 8 * g, kk = k0 + k;
            const int valid = !EDGE || (kk < K && xx < o.X) ? (int)sizeof(real) : 0;
            copy4(&tile[k * row + x], valid ? col + 8 * g : o.P, valid);
        }
    }
}

/* Issues this thread's copies of the tiles at depth k0 into stage s. EDGE: some of the
 * tiles' elements may lie outside the matrices; those are read as zeros. A copy that
 * reads nothing is given the matrix's own address, so no copy reads outside a matrix.
 * VEC_A, VEC_B: 16-byte pieces for a tile copied as it lies (see copy_lying). Which way
 * each tile is copied, and so which loads coalesce how, depends on the transposes:
 *   NN: A as it lies, B scattered (rung 18's own case).
 *   NT: both as they lie: two tiles of 16-byte pieces, as rung 17 copies A and B^T.
 *   TN: both scattered: every element a copy of its own, the most copy instructions.
 *   TT: A scattered, B^T as it lies: NN with the roles of the tiles swapped. */
template <bool VEC_A, bool VEC_B, bool EDGE>
__device__ inline void copy_stage(Tiles &sm, int s, int k0, int tid, const Operands &o)
{
    if (TRANS_A)
        copy_scattered<TSM, EDGE>((real *)sm.A[s], AROW, k0, tid, o.K, o.a);
    else
        copy_lying<TSM, AROW / 4, VEC_A, EDGE>(sm.A[s], k0, tid, o.K, o.a);
    if (TRANS_B)
        copy_lying<TSN, BROW / 4, VEC_B, EDGE>(sm.B[s], k0, tid, o.K, o.b);
    else
        copy_scattered<TSN, EDGE>((real *)sm.B[s], BROW, k0, tid, o.K, o.b);
}

/* Copies of step `step` (depth step * TSK): the checked kind only where needed. */
template <bool VEC_A, bool VEC_B>
__device__ inline void copy_step(Tiles &sm, int s, int step, int whole_steps, int tid,
                                 const Operands &o)
{
    if (step < whole_steps)
        copy_stage<VEC_A, VEC_B, false>(sm, s, step * TSK, tid, o);
    else
        copy_stage<VEC_A, VEC_B, true>(sm, s, step * TSK, tid, o);
}

template <bool VEC_A, bool VEC_B>
__device__ inline void gemm_body(Tiles &sm, Operands &o, const real alpha,
                                 const real beta, real *C, const int ldc)
{
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    first_copies(o, tid);

    /* As rung 17: acc[c][wm] holds rows 4 * (tidm + wm * RTSM) .. +3 of the tile's column
     * 4 * (tidn + (c / 4) * RTSN) + c % 4. */
    real4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_real4(0, 0, 0, 0);

    const int steps = (o.K + TSK - 1) / TSK;
    /* Steps whose tiles lie wholly inside A and B: all but a last partial one, in blocks
     * whose tile of C lies wholly inside C; none in edge blocks. */
    const bool inside = o.a.x0 + TSM <= o.a.X && o.b.x0 + TSN <= o.b.X;
    const int whole_steps = inside ? o.K / TSK : 0;

    /* Rung 17's pipeline. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_step<VEC_A, VEC_B>(sm, s, s, whole_steps, tid, o);
        commit_group();
    }
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>(); /* this thread's copies of step t have landed */
        __syncthreads();          /* everyone's have, and step t-1 is computed */
        const int next = t + STAGES - 1; /* into the stage step t-1 used */
        if (next < steps)
            copy_step<VEC_A, VEC_B>(sm, next % STAGES, next, whole_steps, tid, o);
        commit_group();

#pragma unroll
        for (int k = 0; k < TSK; k++) {
            real4 a[WPTMV];
            real b[WPTN];
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                a[wm] = sm.A[s][k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++) {
                const real4 v = sm.B[s][k][tidn + wn * RTSN];
                b[4 * wn] = v.x;
                b[4 * wn + 1] = v.y;
                b[4 * wn + 2] = v.z;
                b[4 * wn + 3] = v.w;
            }
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++) {
                    acc[wn][wm].x += a[wm].x * b[wn];
                    acc[wn][wm].y += a[wm].y * b[wn];
                    acc[wn][wm].z += a[wm].z * b[wn];
                    acc[wn][wm].w += a[wm].w * b[wn];
                }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* Rung 17's single-float stores, with rung 15's arithmetic: only elements that exist
     * are written, and C is read only when beta is not 0 (the same for every thread). */
#pragma unroll
    for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++) {
                const int m = o.a.x0 + 4 * (tidm + wm * RTSM);
                const int n = o.b.x0 + 4 * (tidn + wn * RTSN) + j;
                const real4 v = acc[wn * 4 + j][wm];
                const real e[4] = {v.x, v.y, v.z, v.w};
                if (n < o.b.X) {
                    real *c = &C[m + (size_t)n * ldc];
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        if (m + i < o.a.X)
                            c[i] = beta == 0 ? alpha * e[i] : alpha * e[i] + beta * c[i];
                }
            }
}

/* Whether the 16-byte pieces of a tile copied as it lies are aligned (the matrix and its
 * leading dimension, see copy_lying) is the same for every thread: one branch. A tile
 * that is scattered needs no alignment (its flag stays false). */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
     const int lda, const real *__restrict__ B, const int ldb, const real beta,
     real *__restrict__ C, const int ldc)
{
    __shared__ Tiles sm;
    Operands o = {K,
                  {A, lda, (int)blockIdx.x * TSM, M, nullptr},
                  {B, ldb, (int)blockIdx.y * TSN, N, nullptr}};
    /* Written as nested tests rather than two flags: with the flags in variables the
     * compiler made a different, larger NN kernel (and NN must stay rung 18's). */
    if (!TRANS_A && lda % 4 == 0 && (unsigned long long)A % sizeof(real4) == 0) {
        if (TRANS_B && ldb % 4 == 0 && (unsigned long long)B % sizeof(real4) == 0)
            gemm_body<true, true>(sm, o, alpha, beta, C, ldc);
        else
            gemm_body<true, false>(sm, o, alpha, beta, C, ldc);
    } else {
        if (TRANS_B && ldb % 4 == 0 && (unsigned long long)B % sizeof(real4) == 0)
            gemm_body<false, true>(sm, o, alpha, beta, C, ldc);
        else
            gemm_body<false, false>(sm, o, alpha, beta, C, ldc);
    }
}
