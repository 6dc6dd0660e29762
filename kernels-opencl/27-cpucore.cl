/* Rung 27: a kernel shaped for a CPU core (OpenCL only)
 * Parent: rung 19 (split-K). The same BLAS call (C = alpha op(A) op(B) + beta C, leading
 *   dimensions, transposes, K shared out among work-groups with a deterministic sum), and
 *   nothing else of its kernel: no local memory, no barriers, no warp tiles.
 * What changed, and why it should help on a CPU: PoCL runs a work-group on one core as a
 *   loop over its work-items, and LLVM's loop vectorizer vectorizes only the innermost
 *   loop. A GEMM's work-item has its own loop over K inside, so the loop over work-items is
 *   an outer loop and is not vectorized across work-items (chapter 27 shows the code PoCL
 *   made of a kernel written that way: 8 columns of one work-item in a vector, filled by
 *   gathers). Rungs 12-19 also pay for what a GPU needs and a core does not: tiles copied
 *   into local memory (on a CPU, ordinary memory: a copy through the caches the loads
 *   would use anyway), and barriers, at which PoCL ends one loop over the work-items and
 *   starts the next, keeping each work-item's values that live across it in memory.
 *   So here one work-item is what BLAS libraries call a micro-kernel, written with the
 *   vector explicit: it holds a VW x NR block of C in registers, VW rows as one vector
 *   (VW = 16 floats: one AVX-512 register) and NR columns, and for each k loads VW rows of
 *   A (one vector load, contiguous in column-major A) and multiplies them by NR single
 *   elements of B, broadcast: NR fused multiply-adds per load of A, with no shuffles.
 *   The caches do the reuse the local memory did. Every work-item runs the whole K loop
 *   (or its slice); work-groups are small (LX x LY work-items, a (LX VW) x (LY NR) tile),
 *   since the work-items of a group add no parallelism on a CPU.
 *   K is split only where C has too few tiles to give the cores work: the host launches
 *   as many slices of K as bring the work-groups nearest GPC per compute unit (one slice
 *   when the tiles are enough; none shallower than 16), and each slice writes its partial
 *   block into W, which kernel `reduce` sums in slice order (rung 19's ATOMIC=0).
 *   A work-item that owns all VW rows of its block stores each column as one vector; at
 *   a small K (1024 x 1024 x 4) the stores are most of the work, and storing element by
 *   element made that shape 4 times slower.
 * Parameters: VW (1, 2, 4, 8 or 16: rows per work-item, one vector), NR (columns per
 *   work-item), LX, LY (work-items of a work-group along M and N), GPC (work-groups per
 *   compute unit to aim for when splitting K). The host computes the slices
 *   (host/rungs/rungs_cpucore.c); the kernels read their count from the grid and W[0].
 *   A work-group of more work-items than the device takes is reported unsupported.
 * Sizes: any M, N, K >= 1; lda >= M, ldb >= K, ldc >= M (as transposes change them). A
 *   block past M's edge is shifted back to end at row M-1 (its rows before the shift
 *   belong to the block before it and are not stored), so every vector load reads rows
 *   that exist; when M < VW, rows past M read row M-1 again. Columns past N read column
 *   N-1 again. Neither is stored.
 * Transposes: TRANS_A, TRANS_B as rung 19 takes them (registry.h). With TRANS_A=1 the VW
 *   rows of A at one depth are lda apart: gathered element by element they cost 16 loads
 *   where NN has one, and TN ran at a sixth of NN's speed (36 against 220 GFLOPS at 512³
 *   on the 2-core EPYC, the fastest of three runs each). So when each block of rows is read by PACK_TILES blocks of
 *   columns or more, a first kernel, `transpose_a`, copies A into W once as the M x K
 *   matrix NN reads, and `gemm` reads its vectors from there: one pass of gathers for the
 *   whole call instead of one per block of columns. A C of few columns (GEMV-like) has no
 *   such reuse, and keeps the gathers. With TRANS_B=1 the NR broadcast elements of one
 *   depth sit side by side in a row of B^T, but every depth is a new row, ldb apart: a
 *   new cache line (and at ldb = 1024 floats a new page) per depth, where NN walks NR
 *   columns along their length; NT ran at 0.63 to 0.80 of NN. So B^T is copied too, by
 *   `transpose_b`, when PACK_TILES blocks of rows or more read it.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h): VW doubles are then a
 *   vector of twice the bytes (VW = 16: two AVX-512 registers), W holds doubles.
 */
#include "real.h"

#ifdef LADDER_DOUBLE
typedef double16 real16;
#else
typedef float16 real16;
#endif

/* vreal: the VW rows of A (and of C) one work-item holds, as one vector. */
#if VW == 1
typedef real vreal;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#elif VW == 2
typedef real2 vreal;
#define VLOAD(p) vload2(0, p)
#define VSTORE(v, p) vstore2(v, 0, p)
#elif VW == 4
typedef real4 vreal;
#define VLOAD(p) vload4(0, p)
#define VSTORE(v, p) vstore4(v, 0, p)
#elif VW == 8
typedef real8 vreal;
#define VLOAD(p) vload8(0, p)
#define VSTORE(v, p) vstore8(v, 0, p)
#elif VW == 16
typedef real16 vreal;
#define VLOAD(p) vload16(0, p)
#define VSTORE(v, p) vstore16(v, 0, p)
#else
#error "VW must be 1, 2, 4, 8 or 16"
#endif

/* A vreal as VW single elements. */
typedef union {
    vreal v;
    real r[VW];
} lanes;

#define HEADER 4 /* elements of W before the rest: W[0] = the slice count */
#define PACK_TILES 4 /* blocks of columns (rows) from which A (B) is copied first (above) */
#define COPY_AT 16   /* where the copies start in W, and what their leading dimensions are
                        odd multiples of: 16 elements, 64 bytes in float, so that every
                        column starts on a cache line and a vector load of VW <= 16 rows
                        never straddles two (at W + HEADER, 16 bytes past one, every load
                        did: TN ran 0.73 of NN's speed at 512³, 0.85 aligned, one run
                        each); odd, so that the columns' lines spread over the sets of the
                        L1 (copy_transposed says why) */
#define TR 16        /* transpose_a, _b: a work-item copies TR rows of A (depths of B) ... */
#define TD 256       /* ... TD deep (TD columns of B) */

/* The slices of K are dimension 1's groups beyond the tiles of N: group tile_n +
 * tiles_n * slice. Slice s holds depths [s K / slices, (s + 1) K / slices): floor(K /
 * slices) or one more, never none (the host launches no more slices than K has depths). */
int tiles_n(const int N) { return (N + LY * NR - 1) / (LY * NR); }
int tiles_m(const int M) { return (M + LX * VW - 1) / (LX * VW); }
int slice_count(const int N) { return get_num_groups(1) / tiles_n(N); }

/* W after its header, from COPY_AT on: A copied as an M x K matrix when packs_a (TRANS_A,
 * enough blocks of columns), leading dimension copy_ld(M); B copied as a K x N matrix
 * when packs_b (TRANS_B, enough blocks of rows), leading dimension copy_ld(K); then the
 * slices' partial blocks when K is split. The host sizes W by the same rule
 * (host/rungs/rungs_cpucore.c). */
int packs_a(const int N) { return TRANS_A && tiles_n(N) >= PACK_TILES; }
int packs_b(const int M) { return TRANS_B && tiles_m(M) >= PACK_TILES; }
int copy_ld(const int rows)
{
    const int lines = (rows + COPY_AT - 1) / COPY_AT; /* of COPY_AT elements */
    return (lines % 2 ? lines : lines + 1) * COPY_AT;
}
size_t b_copy_at(const int M, const int N, const int K)
{
    return COPY_AT + (packs_a(N) ? (size_t)copy_ld(M) * K : 0);
}
size_t parts_at(const int M, const int N, const int K)
{
    if (!packs_a(N) && !packs_b(M))
        return HEADER;
    return b_copy_at(M, N, K) + (packs_b(M) ? (size_t)copy_ld(K) * N : 0);
}
/* Rows mb..mb+VW-1 of op(A) at depth k, from A stored as it is (transposed: A^T, K x M)
 * or M x K. They exist whenever M >= VW (mb was shifted back from the edge); below that,
 * rows past M read row M-1 again. */
vreal load_a(const __global real *A, const int lda, const int M, const int mb, const int k,
             const int transposed)
{
    if (!transposed && M >= VW)
        return VLOAD(A + mb + (size_t)k * lda);
    lanes u;
    for (int i = 0; i < VW; i++) {
        const int r = min(mb + i, M - 1);
        u.r[i] = transposed ? A[k + (size_t)r * lda] : A[r + (size_t)k * lda];
    }
    return u.v;
}

/* dst = the transpose of src, for rows [r0, re) of dst and its columns [c0, ce): dst(r, c)
 * = src(c, r), both column-major. Row by row of dst: each is a column of src, read along
 * its length, and its elements go to that many columns of dst, which the next rows fill
 * in beside them while those cache lines are still in L1, if they do not evict each other.
 * An L1 of 64 sets puts lines 4 KiB apart in one set: at 1024 rows (4 KiB) TN ran 0.6 of
 * NN's speed at 1024³ instead of level with it, and at 1000 rows rounded up to 1008 and
 * padded by one line to 1024, 0.65 of it at 1000³ (the fastest of three runs each). So
 * dst_ld (copy_ld) is an odd number of lines: column after column, the lines then visit
 * every set before they meet one again. */
void copy_transposed(__global real *dst, const int dst_ld, const __global real *src,
                     const int src_ld, const int r0, const int re, const int c0,
                     const int ce)
{
    for (int r = r0; r < re; r++)
        for (int c = c0; c < ce; c++)
            dst[r + (size_t)c * dst_ld] = src[c + (size_t)r * src_ld];
}

/* TRANS_A, when packs_a: A^T (K x M, lda) copied into W as A, M x K with leading
 * dimension copy_ld(M), before `gemm` runs. A plain double loop: it runs once per call,
 * over M K elements, where `gemm` does 2 M N K flops. Each work-item copies TR rows TD
 * deep, so that a work-group (one work-item) has enough to do to pay for its start: with
 * 16 x 16 blocks the copy took about a quarter of the call at 512³ (one run). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void transpose_a(const int M, const int N, const int K, const real alpha,
                 const __global real *restrict A, const int lda,
                 const __global real *restrict B, const int ldb, const real beta,
                 __global real *restrict C, const int ldc, __global real *restrict W)
{
    const int m0 = (int)get_global_id(0) * TR, k0 = (int)get_global_id(1) * TD;
    copy_transposed(W + COPY_AT, copy_ld(M), A, lda, m0, min(m0 + TR, M), k0,
                    min(k0 + TD, K));
}

/* TRANS_B, when packs_b: B^T (N x K, ldb) copied into W as B, K x N with leading
 * dimension copy_ld(K), after A's copy if there is one: TR depths of TD columns per
 * work-item. */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void transpose_b(const int M, const int N, const int K, const real alpha,
                 const __global real *restrict A, const int lda,
                 const __global real *restrict B, const int ldb, const real beta,
                 __global real *restrict C, const int ldc, __global real *restrict W)
{
    const int k0 = (int)get_global_id(0) * TR, n0 = (int)get_global_id(1) * TD;
    copy_transposed(W + b_copy_at(M, N, K), copy_ld(K), B, ldb, k0, min(k0 + TR, K), n0,
                    min(n0 + TD, N));
}

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real *restrict A, const int lda,
          const __global real *restrict B, const int ldb, const real beta,
          __global real *restrict C, const int ldc, __global real *restrict W)
{
    const int slices = slice_count(N), slice = get_group_id(1) / tiles_n(N);
    const int m = (int)get_global_id(0) * VW;
    const int n = ((get_group_id(1) % tiles_n(N)) * LY + get_local_id(1)) * NR;
    /* The vector's first row: m, or shifted back so that all VW rows exist. */
    const int mb = M >= VW ? min(m, M - VW) : 0;
    const int kb = (int)((long)slice * K / slices), ke = (int)((long)(slice + 1) * K / slices);
    /* Where the rows of A come from: the copy in W, or A as it is. */
    const int packed = packs_a(N);
    const __global real *a_src = packed ? W + COPY_AT : A;
    const int a_ld = packed ? copy_ld(M) : lda;

    /* Where column j's elements of op(B) are: B(k, n+j) = b[j][k * bstep], in B^T as it
     * is, or in B or its copy (K x N). Past N, column N-1 again. */
    const __global real *b[NR];
    const int b_packed = packs_b(M);
    const __global real *b_src = b_packed ? W + b_copy_at(M, N, K) : B;
    const int b_ld = b_packed ? copy_ld(K) : ldb;
    const size_t bstep = TRANS_B && !b_packed ? ldb : 1;
#pragma unroll
    for (int j = 0; j < NR; j++)
        b[j] = TRANS_B && !b_packed ? b_src + min(n + j, N - 1)
                                    : b_src + (size_t)min(n + j, N - 1) * b_ld;

    /* The micro-kernel: NR vectors of C in registers, each k one vector of A times NR
     * broadcast elements of B. The loops over j are unrolled (NR is a constant), so that
     * acc[] stays in registers. */
    vreal acc[NR];
#pragma unroll
    for (int j = 0; j < NR; j++)
        acc[j] = 0;
    for (int k = kb; k < ke; k++) {
        const vreal a = load_a(a_src, a_ld, M, mb, k, TRANS_A && !packed);
#pragma unroll
        for (int j = 0; j < NR; j++)
            acc[j] += a * b[j][k * bstep];
    }

    /* Only the rows and columns this work-item owns, and only those that exist: a whole
     * vector at once when it owns all VW rows (every block but the last of a column when
     * M >= VW), else element by element. */
    if (slices > 1 && get_global_id(0) == 0 && get_group_id(1) == 0 && get_local_id(1) == 0)
        W[0] = (real)slices;
    const int whole = mb == m && m + VW <= M;
#pragma unroll
    for (int j = 0; j < NR; j++) {
        if (n + j >= N)
            break;
        __global real *c = C + m + (size_t)(n + j) * ldc;
        __global real *w = W + parts_at(M, N, K) + ((size_t)slice * N + n + j) * M + m;
        if (whole && slices > 1) {
            VSTORE(acc[j], w);
        } else if (whole && beta == 0) { /* C is read only when beta != 0 (BLAS) */
            VSTORE(alpha * acc[j], c);
        } else if (whole) {
            VSTORE(alpha * acc[j] + beta * VLOAD(c), c);
        } else {
            lanes u;
            u.v = acc[j];
            for (int i = 0; i < VW; i++) {
                const int r = mb + i;
                if (r < m || r >= M)
                    continue;
                if (slices > 1)
                    w[r - m] = u.r[i];
                else
                    c[r - m] = beta == 0 ? alpha * u.r[i] : alpha * u.r[i] + beta * c[r - m];
            }
        }
    }
}

/* When K was split: C = alpha * (the slices' partials, added in slice order, so every run
 * gives the same bits) + beta * C. A work-item sums VW consecutive elements of C (column-
 * major, m fastest), in work-groups of LX: no larger than the GEMM's (the host checks the
 * GEMM's work-group against the device, and the registry promises the others fit). */
__kernel __attribute__((reqd_work_group_size(LX, 1, 1)))
void reduce(const int M, const int N, const int K, const real alpha,
            const __global real *restrict A, const int lda,
            const __global real *restrict B, const int ldb, const real beta,
            __global real *restrict C, const int ldc, const __global real *restrict W)
{
    const size_t count = (size_t)M * N, e0 = get_global_id(0) * (size_t)VW;
    const int slices = (int)W[0];
    for (int i = 0; i < VW; i++) {
        const size_t e = e0 + i;
        if (e >= count)
            return;
        real sum = 0;
        for (int s = 0; s < slices; s++)
            sum += W[parts_at(M, N, K) + s * count + e];
        __global real *c = C + e % M + (e / M) * (size_t)ldc;
        *c = beta == 0 ? alpha * sum : alpha * sum + beta * *c;
    }
}
