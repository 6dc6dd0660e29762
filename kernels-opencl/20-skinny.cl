/* Rung 20: skinny and GEMV-like shapes (OpenCL)
 * Parent: rung 15 (the BLAS call: C = alpha * A * B + beta * C with lda, ldb, ldc). Same
 *   arguments, same contract, for shapes where M or N is 1 to 16.
 * Change since rung 15: no tiles of C. Rung 15 gives a 128 x 128 tile of C to a work-group
 *   and counts on reusing each loaded float 128 times; at 1x4096x4096 one row of that tile
 *   exists, 1/128 of the work, and nothing is reused: each float of B is used once. So
 *   this rung streams the big matrix, once, as fast as memory delivers it:
 *   - tall path (N <= 16: C = A * b for a few columns b): each work-item loads float4s of
 *     4 rows of A, 4*TQ of them before it waits (loads in flight), down its share of K;
 *     B's few columns of the current round wait in local memory; the work-group's shares
 *     of K are added in local memory.
 *   - wide path (M <= 16: a few rows times B): KL work-items share each column of B, each
 *     loading float4s of 4 depths, WC columns and WU float4s per column at a time; A's
 *     few rows of the current round wait in local memory; the KL lanes' sums are added
 *     across the lanes in local memory (a halving tree: OpenCL has no portable shuffle).
 *   - when the rows (tall) or columns (wide) alone make too few work-groups for the device,
 *     K is split across work-groups too: each writes its partial sums into the workspace
 *     W and the kernel `reduce` adds them in a fixed order and applies alpha and beta, as
 *     split-K's reduction (rung 19) does. With one slice the first kernel writes C.
 * Why it helps: count the bytes. At 1x4096x4096, A (1 x 4096), B (4096 x 4096) and C
 *   (1 x 4096) are 4 * (4096 + 16,777,216 + 4096) = 67.1 MB, read or written once; the
 *   product is 2 * 4096 * 4096 = 33.6 Mflop. That is 0.50 flop per byte, the arithmetic
 *   intensity. An H100 reads about 3.07 TB/s (measured), so no kernel can pass
 *   3.07 TB/s * 0.50 = 1.5 TFLOPS here, far below its 65 TFLOPS of FMA: the roofline's
 *   bandwidth side. The goal is bytes per second: 67.1 MB in about 22 us. What brings it
 *   close is only what keeps memory busy: wide (16-byte) coalesced loads, several
 *   independent loads in flight per work-item, and enough work-groups on every compute
 *   unit; the multiply-adds hide in the shadow of the loads.
 * Loads in flight across rounds (PF = 1): a work-group works in rounds (load the big
 *   matrix's real4s, stage the small one's slab between two barriers, multiply-add).
 *   Without PF a work-item's loads are issued at the top of a round and all land before
 *   its sums, so between the last load landing and the next round's first load issuing
 *   (the barriers, the slab, the multiply-adds) the work-group has nothing in flight;
 *   with one work-group per compute unit, as at 1x4096x4096 on an H100, that gap is the
 *   unit's whole share of memory traffic lost each round. PF = 1 issues round r + 1's
 *   loads before round r's slab and sums, into a second set of registers, so one round's
 *   loads are always in flight. It costs those registers (4*TQ real4s tall, WU*WC wide):
 *   PF = 1 with TQ = 2 holds as many as PF = 0 with TQ = 4.
 * Parameters: WG work-items per work-group (every kernel); tall: RX work-items along M
 *   (4 rows each, so RX*4 rows per work-group and WG/RX work-items along K), TQ groups of
 *   4 depths per work-item per round; wide: KL work-items along K per column of B, WC
 *   columns per work-item, WU float4s per column per round; PF (0 or 1): the next
 *   round's loads of the big matrix issued before this round's sums (above); GPC (host
 *   only): the work-groups per compute unit that splitting K aims for.
 * Kernels: tall_n1, _n2, _n4, _n8, _n16 and wide_m1 ... _m16, each holding that many
 *   columns (rows) of sums (N = 3 runs tall_n4); `reduce` when K is split. The host
 *   (host/rungs/rungs_skinny.c) picks them from M, N, K and the compute units.
 * Sizes: M or N from 1 to 16, any K >= 0 and the other dimension any size; lda >= M,
 *   ldb >= K, ldc >= M. float4 loads of the big matrix when its leading dimension is a
 *   multiple of 4 (lda for A, ldb for B), single floats otherwise.
 * Transposes: -DTRANS_A=1 takes A^T (KxM, lda >= K), -DTRANS_B=1 takes B^T (NxK, ldb >= N).
 *   The big matrix is still read in real4s along its contiguous direction, and the block
 *   the sums want is made in registers (transpose4):
 *   - tall path, A^T: each work-item reads 4 depths of each of its 4 rows and transposes
 *     the 4 x 4 block. The 32/RX work-items of a warp that share x read consecutive
 *     real4s of a row: runs of 64 bytes in float at RX = 8 (128 in double), every sector
 *     whole.
 *   - wide path, B^T: each work-item reads its WC columns at each of its 4 depths. A warp
 *     (at KL = 32: 32 values of x, one y) then reads 32 rows of B^T, WC elements of each:
 *     with WC = 4, 16 bytes of a 32-byte sector in float (its other half is the next
 *     y's, in another warp of the same work-group, so it is usually still in the cache),
 *     the whole sector in double. WC < 4 puts n0 off the real4 grid: single elements then.
 *   The small matrix is staged along whichever direction it is contiguous in.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h): the floats and float4s of
 *   this comment are then doubles and double4s (real4); W holds doubles.
 */
#include "real.h"

#define CAP 16                /* most columns (tall) or rows (wide) of C */
#define HEADER 4              /* elements of W before the partial sums: W[0] = slices */
#define LY (WG / RX)          /* tall: work-items along K */
#define KCT (LY * 4 * TQ)     /* tall: depths of K in one round of a work-group */
#define LN (WG / KL)          /* wide: work-items along N */
#define KCW (4 * KL * WU)     /* wide: depths of K in one round */
#define ASTRIDE (KCW + 4)     /* wide: elements per row of A's slab (aligned rows;
                                 the 4 extra spread a column's rows over the banks) */
#define MIN_(a, b) ((a) < (b) ? (a) : (b))
#define MAX_(a, b) ((a) > (b) ? (a) : (b))
/* Local memory of a kernel: its slab of the small matrix, reused for the sums. */
#define TALL_REALS(nb) MAX_((nb) * KCT, 4 * MIN_(nb, 4) * WG)
#define WIDE_REALS(mb) MAX_((mb) * ASTRIDE, MIN_((mb) * WC, 16) * WG)

/* This work-group's slice of K, [*kb, *ke). The call splits K into get_num_groups(1)
 * slices of whole rounds; the last slice may be shorter, or empty. */
void k_slice(const int K, const int round, int *kb, int *ke)
{
    const int slices = get_num_groups(1);
    const int len = ((K + slices - 1) / slices + round - 1) / round * round;
    *kb = min(K, (int)get_group_id(1) * len);
    *ke = min(K, *kb + len);
}

/* The reduce kernel learns the slice count from the head of the workspace. */
void write_header(__global real *W)
{
    if (get_num_groups(1) > 1 && get_group_id(0) == 0 && get_group_id(1) == 0 &&
        get_local_id(0) == 0)
        W[0] = (real)get_num_groups(1);
}

/* C = alpha * sum + beta * C for one element; C is read only when beta is not 0. */
void finish_c(__global real *c, const real sum, const real alpha, const real beta)
{
    *c = beta == 0 ? alpha * sum : alpha * sum + beta * *c;
}

/* The sum of element (m, n) over this work-group's slice of K: into C when K is not split,
 * else into this slice's M x N block of W. */
void put(const int m, const int n, const real sum, const int M, const int N,
         const real alpha, const real beta, __global real *C, const int ldc,
         __global real *W)
{
    if (m >= M || n >= N)
        return;
    if (get_num_groups(1) == 1)
        finish_c(C + m + (size_t)n * ldc, sum, alpha, beta);
    else
        W[HEADER + ((size_t)get_group_id(1) * N + n) * M + m] = sum;
}

/* Elements i..i+3 of column j of a column-major matrix X (leading dimension ld): A's rows
 * m..m+3 at depth k (tall), or B's depths k..k+3 in column n (wide). Zeros where the
 * column does not count (`col_ok` false: past the slice of K, or past N) and at
 * i + t >= `end` (past M, or past the slice). `vec`: one real4 load, aligned because ld
 * is a multiple of 4 and so is i. */
real4 load4(const __global real *X, const int ld, const int i, const int j, const int end,
            const int col_ok, const int vec)
{
    const __global real *src = X + i + (size_t)j * ld;
    if (!col_ok)
        return (real4)(0);
    if (vec && i + 3 < end)
        return *(const __global real4 *)src;
    return (real4)(i < end ? src[0] : 0, i + 1 < end ? src[1] : 0,
                   i + 2 < end ? src[2] : 0, i + 3 < end ? src[3] : 0);
}

/* Element (r, c) of op(X), X column-major with leading dimension ld: X(r, c), or with
 * `trans` X^T(r, c) = X(c, r). For the small matrix, staged one element at a time. */
#define OP_AT(X, ld, trans, r, c) ((trans) ? (X)[(c) + (size_t)(r) * (ld)] : (X)[(r) + (size_t)(c) * (ld)])

/* A 4 x 4 block in registers, transposed: out[j] takes component j of r[0], r[1], r[2],
 * r[3]. For a big matrix read along the other direction than the sums want (A^T in the
 * tall path, B^T in the wide one): four real4 loads along its contiguous direction, then
 * this, so that every global load stays a coalesced real4. */
void transpose4(const real4 r[4], real4 *out)
{
    out[0] = (real4)(r[0].x, r[1].x, r[2].x, r[3].x);
    out[1] = (real4)(r[0].y, r[1].y, r[2].y, r[3].y);
    out[2] = (real4)(r[0].z, r[1].z, r[2].z, r[3].z);
    out[3] = (real4)(r[0].w, r[1].w, r[2].w, r[3].w);
}

/* ---- tall: N <= 16 ------------------------------------------------------------------ */

/* One round's loads of A for work-item (x, y): a[4q + j] gets rows m..m+3 at depth
 * k0 + 4(y + LY q) + j, zeros past the slice (so a round past its end loads nothing). */
void tall_load_a(real4 *a, const __global real *A, const int lda, const int M,
                 const int k0, const int ke, const int m, const int y, const int vec)
{
#if !TRANS_A
    if (vec && m + 3 < M && k0 + KCT <= ke) {
        /* The whole round lies inside A and the slice: no element needs its checks, and
         * each load is one address step from the last (load4's checks, a branch or
         * select per element, would otherwise spread the round's loads out). */
        const __global real *src = A + m + (size_t)(k0 + 4 * y) * lda;
        for (int q = 0; q < TQ; q++)
            for (int j = 0; j < 4; j++)
                a[4 * q + j] = *(const __global real4 *)(src + (size_t)(4 * LY * q + j) * lda);
        return;
    }
#endif
    for (int q = 0; q < TQ; q++) {
#if TRANS_A /* A^T: along k, depths k..k+3 of each of the rows m..m+3 */
        const int k = k0 + 4 * (y + LY * q);
        real4 r[4];
        for (int t = 0; t < 4; t++)
            r[t] = load4(A, lda, k, m + t, ke, m + t < M, vec);
        transpose4(r, &a[4 * q]);
#else       /* A: along m, rows m..m+3 at each of the depths */
        for (int j = 0; j < 4; j++) {
            const int k = k0 + 4 * (y + LY * q) + j;
            a[4 * q + j] = load4(A, lda, m, k, M, k < ke, vec);
        }
#endif
    }
}

/* nb (1, 2, 4, 8 or 16, a constant at each call) columns of sums; work-item (x, y) owns
 * rows m..m+3 and, in each round of KCT depths, the groups of 4 depths y, y + LY, ... */
void tall_body(__local real4 *lm, const int nb, const int vec, const int M, const int N,
               const int K, const real alpha, const __global real *A, const int lda,
               const __global real *B, const int ldb, const real beta,
               __global real *C, const int ldc, __global real *W)
{
    const int tid = get_local_id(0), x = tid % RX, y = tid / RX;
    const int m = (get_group_id(0) * RX + x) * 4;
    int kb, ke;
    k_slice(K, KCT, &kb, &ke);
    write_header(W);
    __local real *Bs = (__local real *)lm; /* [nb][KCT]: the round's depths of B */

    real4 acc[CAP];
    for (int n = 0; n < nb; n++)
        acc[n] = (real4)(0);

    real4 a[4 * TQ], next[4 * TQ]; /* this round's A; with PF, the next round's too */
    if (PF)
        tall_load_a(a, A, lda, M, kb, ke, m, y, vec);
    for (int k0 = kb; k0 < ke; k0 += KCT) {
        /* A's loads first: in flight while B's slab is staged (and, with PF, while this
         * round's sums are made too: they are the next round's). */
        if (PF)
            tall_load_a(next, A, lda, M, k0 + KCT, ke, m, y, vec);
        else
            tall_load_a(a, A, lda, M, k0, ke, m, y, vec);
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read the last round's slab */
        for (int i = tid; i < nb * KCT; i += WG) {
#if TRANS_B
            const int n = i % nb, kk = i / nb; /* B^T: along n, coalesced */
#else
            const int n = i / KCT, kk = i % KCT; /* B: along k, coalesced */
#endif
            const int k = k0 + kk;
            Bs[n * KCT + kk] = (n < N && k < ke) ? OP_AT(B, ldb, TRANS_B, k, n) : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int q = 0; q < TQ; q++) {
            const int kk = 4 * (y + LY * q);
            for (int n = 0; n < nb; n++) {
                const real4 b = *(__local real4 *)(Bs + n * KCT + kk);
                acc[n] += a[4 * q] * b.x + a[4 * q + 1] * b.y + a[4 * q + 2] * b.z +
                          a[4 * q + 3] * b.w;
            }
        }
        if (PF)
            for (int i = 0; i < 4 * TQ; i++)
                a[i] = next[i];
    }

    /* The LY work-items of a column of rows add their sums: P columns at a time, in a
     * halving tree over y in local memory (the slab's space, now free). */
    __local real4 *sums = lm; /* [P][LY][RX] */
    const int P = MIN_(nb, 4);
    for (int n0 = 0; n0 < nb; n0 += P) {
        barrier(CLK_LOCAL_MEM_FENCE); /* the slab, or the last pass, has been read */
        for (int p = 0; p < P; p++)
            sums[p * WG + tid] = acc[n0 + p];
        for (int h = LY / 2; h > 0; h /= 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (y < h)
                for (int p = 0; p < P; p++)
                    sums[p * WG + tid] += sums[p * WG + tid + h * RX];
        }
        if (y == 0)
            for (int p = 0; p < P; p++) {
                const real4 v = sums[p * WG + tid];
                put(m + 0, n0 + p, v.x, M, N, alpha, beta, C, ldc, W);
                put(m + 1, n0 + p, v.y, M, N, alpha, beta, C, ldc, W);
                put(m + 2, n0 + p, v.z, M, N, alpha, beta, C, ldc, W);
                put(m + 3, n0 + p, v.w, M, N, alpha, beta, C, ldc, W);
            }
    }
}

/* ---- wide: M <= 16 ------------------------------------------------------------------ */

/* One round's loads of B for work-item (x, y): b[u][c] gets depths k..k+3 (k = k0 +
 * 4(x + KL u)) of column n0 + c, zeros past the slice (so a round past its end loads
 * nothing). */
void wide_load_b(real4 (*b)[WC], const __global real *B, const int ldb, const int N,
                 const int k0, const int ke, const int x, const int n0, const int vec)
{
#if !TRANS_B
    if (vec && n0 + WC <= N && k0 + KCW <= ke) {
        /* The whole round lies inside B and the slice: no checks (as tall_load_a). */
        const __global real *src = B + k0 + 4 * x + (size_t)n0 * ldb;
        for (int u = 0; u < WU; u++)
            for (int c = 0; c < WC; c++)
                b[u][c] = *(const __global real4 *)(src + 4 * KL * u + (size_t)c * ldb);
        return;
    }
#endif
    for (int u = 0; u < WU; u++) {
        const int k = k0 + 4 * (x + KL * u); /* b[u][c]: depths k..k+3 of column n0+c */
#if TRANS_B && WC % 4 == 0 /* B^T: along n, columns n0+c..n0+c+3 at each depth */
        for (int c = 0; c < WC; c += 4) {
            real4 r[4];
            for (int t = 0; t < 4; t++)
                r[t] = load4(B, ldb, n0 + c, k + t, N, k + t < ke, vec);
            transpose4(r, &b[u][c]);
        }
#elif TRANS_B /* B^T with WC < 4: n0 is no multiple of 4, so no aligned real4s */
        for (int c = 0; c < WC; c++) {
            real e[4];
            for (int t = 0; t < 4; t++)
                e[t] = (n0 + c < N && k + t < ke) ? OP_AT(B, ldb, 1, k + t, n0 + c) : 0;
            b[u][c] = (real4)(e[0], e[1], e[2], e[3]);
        }
#else /* B: along k */
        for (int c = 0; c < WC; c++)
            b[u][c] = load4(B, ldb, k, n0 + c, ke, n0 + c < N, vec);
#endif
    }
}

/* mb (1, 2, 4, 8 or 16) rows of sums; work-item (x, y) owns columns n0..n0+WC-1 and, in
 * each round of KCW depths, the float4s of depths 4x, 4(x + KL), ... */
void wide_body(__local real4 *lm, const int mb, const int vec, const int M, const int N,
               const int K, const real alpha, const __global real *A, const int lda,
               const __global real *B, const int ldb, const real beta,
               __global real *C, const int ldc, __global real *W)
{
    const int tid = get_local_id(0), x = tid % KL, y = tid / KL;
    const int n0 = (get_group_id(0) * LN + y) * WC;
    int kb, ke;
    k_slice(K, KCW, &kb, &ke);
    write_header(W);
    __local real *As = (__local real *)lm; /* [mb][ASTRIDE]: the round's depths of A */

    real acc[CAP][WC];
    for (int i = 0; i < mb; i++)
        for (int c = 0; c < WC; c++)
            acc[i][c] = 0;

    real4 b[WU][WC], next[WU][WC]; /* this round's B; with PF, the next round's too */
    if (PF)
        wide_load_b(b, B, ldb, N, kb, ke, x, n0, vec);
    for (int k0 = kb; k0 < ke; k0 += KCW) {
        /* B's loads first: in flight while A's slab is staged (and, with PF, while this
         * round's sums are made too: they are the next round's). */
        if (PF)
            wide_load_b(next, B, ldb, N, k0 + KCW, ke, x, n0, vec);
        else
            wide_load_b(b, B, ldb, N, k0, ke, x, n0, vec);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = tid; i < mb * KCW; i += WG) {
#if TRANS_A
            const int r = i / KCW, kk = i % KCW; /* A^T: along k, coalesced */
#else
            const int r = i % mb, kk = i / mb; /* A: along A's columns, coalesced */
#endif
            const int k = k0 + kk;
            As[r * ASTRIDE + kk] = (r < M && k < ke) ? OP_AT(A, lda, TRANS_A, r, k) : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int u = 0; u < WU; u++) {
            const int kk = 4 * (x + KL * u);
            for (int r = 0; r < mb; r++) {
                const real4 a = *(__local real4 *)(As + r * ASTRIDE + kk);
                for (int c = 0; c < WC; c++)
                    acc[r][c] += a.x * b[u][c].x + a.y * b[u][c].y + a.z * b[u][c].z +
                                 a.w * b[u][c].w;
            }
        }
        if (PF)
            for (int u = 0; u < WU; u++)
                for (int c = 0; c < WC; c++)
                    b[u][c] = next[u][c];
    }

    /* The KL lanes of a column add their sums: P of the mb * WC values at a time, in a
     * halving tree over x in local memory. */
    __local real *sums = (__local real *)lm; /* [P][WG] */
    const int V = mb * WC, P = MIN_(V, 16);
    for (int v0 = 0; v0 < V; v0 += P) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int p = 0; p < P && v0 + p < V; p++)
            sums[p * WG + tid] = acc[(v0 + p) / WC][(v0 + p) % WC];
        for (int h = KL / 2; h > 0; h /= 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (x < h)
                for (int p = 0; p < P && v0 + p < V; p++)
                    sums[p * WG + tid] += sums[p * WG + tid + h];
        }
        if (x == 0)
            for (int p = 0; p < P && v0 + p < V; p++)
                put((v0 + p) / WC, n0 + (v0 + p) % WC, sums[p * WG + tid], M, N, alpha,
                    beta, C, ldc, W);
    }
}

/* ---- the kernels ------------------------------------------------------------------- */

#define KERNEL_ARGS                                                                     \
    const int M, const int N, const int K, const real alpha,                            \
        const __global real *restrict A, const int lda,                                 \
        const __global real *restrict B, const int ldb, const real beta,                \
        __global real *restrict C, const int ldc, __global real *restrict W
#define PASS_ARGS M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W

/* One kernel per count of columns (rows), so each keeps only the sums it needs. Whether
 * the real4 loads are aligned is the same for every work-item: one branch, as rung 15. */
#define SKINNY_KERNEL(NAME, BODY, COUNT, REALS, ALIGNED)                                \
    __kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void NAME(KERNEL_ARGS)     \
    {                                                                                   \
        __local real4 lm[((REALS) + 3) / 4];                                            \
        if (ALIGNED)                                                                    \
            BODY(lm, COUNT, 1, PASS_ARGS);                                              \
        else                                                                            \
            BODY(lm, COUNT, 0, PASS_ARGS);                                              \
    }

SKINNY_KERNEL(tall_n1, tall_body, 1, TALL_REALS(1), lda % 4 == 0)
SKINNY_KERNEL(tall_n2, tall_body, 2, TALL_REALS(2), lda % 4 == 0)
SKINNY_KERNEL(tall_n4, tall_body, 4, TALL_REALS(4), lda % 4 == 0)
SKINNY_KERNEL(tall_n8, tall_body, 8, TALL_REALS(8), lda % 4 == 0)
SKINNY_KERNEL(tall_n16, tall_body, 16, TALL_REALS(16), lda % 4 == 0)
SKINNY_KERNEL(wide_m1, wide_body, 1, WIDE_REALS(1), ldb % 4 == 0)
SKINNY_KERNEL(wide_m2, wide_body, 2, WIDE_REALS(2), ldb % 4 == 0)
SKINNY_KERNEL(wide_m4, wide_body, 4, WIDE_REALS(4), ldb % 4 == 0)
SKINNY_KERNEL(wide_m8, wide_body, 8, WIDE_REALS(8), ldb % 4 == 0)
SKINNY_KERNEL(wide_m16, wide_body, 16, WIDE_REALS(16), ldb % 4 == 0)

/* When K was split: element e of C (column-major, m fastest) is the sum of the slices'
 * partials, added in slice order, so every run gives the same bits. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void reduce(KERNEL_ARGS)
{
    const size_t e = get_global_id(0), count = (size_t)M * N;
    if (e >= count)
        return;
    const int slices = (int)W[0];
    real sum = 0;
    for (int s = 0; s < slices; s++)
        sum += W[HEADER + s * count + e];
    finish_c(C + e % M + (e / M) * (size_t)ldc, sum, alpha, beta);
}
