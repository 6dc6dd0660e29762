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
 * Parameters: WG work-items per work-group (every kernel); tall: RX work-items along M
 *   (4 rows each, so RX*4 rows per work-group and WG/RX work-items along K), TQ groups of
 *   4 depths per work-item per round; wide: KL work-items along K per column of B, WC
 *   columns per work-item, WU float4s per column per round; GPC (host only): the
 *   work-groups per compute unit that splitting K aims for.
 * Kernels: tall_n1, _n2, _n4, _n8, _n16 and wide_m1 ... _m16, each holding that many
 *   columns (rows) of sums (N = 3 runs tall_n4); `reduce` when K is split. The host
 *   (host/rungs/rungs_skinny.c) picks them from M, N, K and the compute units.
 * Sizes: M or N from 1 to 16, any K >= 0 and the other dimension any size; lda >= M,
 *   ldb >= K, ldc >= M. float4 loads of the big matrix when its leading dimension is a
 *   multiple of 4 (lda for A, ldb for B), single floats otherwise.
 */
#define CAP 16                /* most columns (tall) or rows (wide) of C */
#define HEADER 4              /* floats of W before the partial sums: W[0] = slices */
#define LY (WG / RX)          /* tall: work-items along K */
#define KCT (LY * 4 * TQ)     /* tall: depths of K in one round of a work-group */
#define LN (WG / KL)          /* wide: work-items along N */
#define KCW (4 * KL * WU)     /* wide: depths of K in one round */
#define ASTRIDE (KCW + 4)     /* wide: floats per row of A's slab (16-byte aligned rows;
                                 the 4 extra spread a column's rows over the banks) */
#define MIN_(a, b) ((a) < (b) ? (a) : (b))
#define MAX_(a, b) ((a) > (b) ? (a) : (b))
/* Local memory of a kernel: its slab of the small matrix, reused for the sums. */
#define TALL_FLOATS(nb) MAX_((nb) * KCT, 4 * MIN_(nb, 4) * WG)
#define WIDE_FLOATS(mb) MAX_((mb) * ASTRIDE, MIN_((mb) * WC, 16) * WG)

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
void write_header(__global float *W)
{
    if (get_num_groups(1) > 1 && get_group_id(0) == 0 && get_group_id(1) == 0 &&
        get_local_id(0) == 0)
        W[0] = (float)get_num_groups(1);
}

/* C = alpha * sum + beta * C for one element; C is read only when beta is not 0. */
void finish_c(__global float *c, const float sum, const float alpha, const float beta)
{
    *c = beta == 0.0f ? alpha * sum : alpha * sum + beta * *c;
}

/* The sum of element (m, n) over this work-group's slice of K: into C when K is not split,
 * else into this slice's M x N block of W. */
void put(const int m, const int n, const float sum, const int M, const int N,
         const float alpha, const float beta, __global float *C, const int ldc,
         __global float *W)
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
 * i + t >= `end` (past M, or past the slice). `vec`: one float4 load, aligned because ld
 * is a multiple of 4 and so is i. */
float4 load4(const __global float *X, const int ld, const int i, const int j, const int end,
             const int col_ok, const int vec)
{
    const __global float *src = X + i + (size_t)j * ld;
    if (!col_ok)
        return (float4)(0.0f);
    if (vec && i + 3 < end)
        return *(const __global float4 *)src;
    return (float4)(i < end ? src[0] : 0.0f, i + 1 < end ? src[1] : 0.0f,
                    i + 2 < end ? src[2] : 0.0f, i + 3 < end ? src[3] : 0.0f);
}

/* ---- tall: N <= 16 ------------------------------------------------------------------ */

/* nb (1, 2, 4, 8 or 16, a constant at each call) columns of sums; work-item (x, y) owns
 * rows m..m+3 and, in each round of KCT depths, the groups of 4 depths y, y + LY, ... */
void tall_body(__local float4 *lm, const int nb, const int vec, const int M, const int N,
               const int K, const float alpha, const __global float *A, const int lda,
               const __global float *B, const int ldb, const float beta,
               __global float *C, const int ldc, __global float *W)
{
    const int tid = get_local_id(0), x = tid % RX, y = tid / RX;
    const int m = (get_group_id(0) * RX + x) * 4;
    int kb, ke;
    k_slice(K, KCT, &kb, &ke);
    write_header(W);
    __local float *Bs = (__local float *)lm; /* [nb][KCT]: the round's depths of B */

    float4 acc[CAP];
    for (int n = 0; n < nb; n++)
        acc[n] = (float4)(0.0f);

    for (int k0 = kb; k0 < ke; k0 += KCT) {
        /* A's loads first: they are in flight while B's slab is staged. */
        float4 a[4 * TQ];
        for (int q = 0; q < TQ; q++)
            for (int j = 0; j < 4; j++) {
                const int k = k0 + 4 * (y + LY * q) + j;
                a[4 * q + j] = load4(A, lda, m, k, M, k < ke, vec);
            }
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read the last round's slab */
        for (int i = tid; i < nb * KCT; i += WG) {
            const int n = i / KCT, k = k0 + i % KCT; /* along k: coalesced */
            Bs[i] = (n < N && k < ke) ? B[k + (size_t)n * ldb] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int q = 0; q < TQ; q++) {
            const int kk = 4 * (y + LY * q);
            for (int n = 0; n < nb; n++) {
                const float4 b = *(__local float4 *)(Bs + n * KCT + kk);
                acc[n] += a[4 * q] * b.x + a[4 * q + 1] * b.y + a[4 * q + 2] * b.z +
                          a[4 * q + 3] * b.w;
            }
        }
    }

    /* The LY work-items of a column of rows add their sums: P columns at a time, in a
     * halving tree over y in local memory (the slab's space, now free). */
    __local float4 *sums = lm; /* [P][LY][RX] */
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
                const float4 v = sums[p * WG + tid];
                put(m + 0, n0 + p, v.x, M, N, alpha, beta, C, ldc, W);
                put(m + 1, n0 + p, v.y, M, N, alpha, beta, C, ldc, W);
                put(m + 2, n0 + p, v.z, M, N, alpha, beta, C, ldc, W);
                put(m + 3, n0 + p, v.w, M, N, alpha, beta, C, ldc, W);
            }
    }
}

/* ---- wide: M <= 16 ------------------------------------------------------------------ */

/* mb (1, 2, 4, 8 or 16) rows of sums; work-item (x, y) owns columns n0..n0+WC-1 and, in
 * each round of KCW depths, the float4s of depths 4x, 4(x + KL), ... */
void wide_body(__local float4 *lm, const int mb, const int vec, const int M, const int N,
               const int K, const float alpha, const __global float *A, const int lda,
               const __global float *B, const int ldb, const float beta,
               __global float *C, const int ldc, __global float *W)
{
    const int tid = get_local_id(0), x = tid % KL, y = tid / KL;
    const int n0 = (get_group_id(0) * LN + y) * WC;
    int kb, ke;
    k_slice(K, KCW, &kb, &ke);
    write_header(W);
    __local float *As = (__local float *)lm; /* [mb][ASTRIDE]: the round's depths of A */

    float acc[CAP][WC];
    for (int i = 0; i < mb; i++)
        for (int c = 0; c < WC; c++)
            acc[i][c] = 0.0f;

    for (int k0 = kb; k0 < ke; k0 += KCW) {
        float4 b[WU][WC]; /* B's loads first, in flight while A's slab is staged */
        for (int u = 0; u < WU; u++)
            for (int c = 0; c < WC; c++)
                b[u][c] = load4(B, ldb, k0 + 4 * (x + KL * u), n0 + c, ke, n0 + c < N, vec);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = tid; i < mb * KCW; i += WG) {
            const int r = i % mb, kk = i / mb; /* along A's columns: coalesced */
            As[r * ASTRIDE + kk] = (r < M && k0 + kk < ke) ? A[r + (size_t)(k0 + kk) * lda]
                                                           : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int u = 0; u < WU; u++) {
            const int kk = 4 * (x + KL * u);
            for (int r = 0; r < mb; r++) {
                const float4 a = *(__local float4 *)(As + r * ASTRIDE + kk);
                for (int c = 0; c < WC; c++)
                    acc[r][c] += a.x * b[u][c].x + a.y * b[u][c].y + a.z * b[u][c].z +
                                 a.w * b[u][c].w;
            }
        }
    }

    /* The KL lanes of a column add their sums: P of the mb * WC values at a time, in a
     * halving tree over x in local memory. */
    __local float *sums = (__local float *)lm; /* [P][WG] */
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
    const int M, const int N, const int K, const float alpha,                           \
        const __global float *restrict A, const int lda,                                \
        const __global float *restrict B, const int ldb, const float beta,              \
        __global float *restrict C, const int ldc, __global float *restrict W
#define PASS_ARGS M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W

/* One kernel per count of columns (rows), so each keeps only the sums it needs. Whether
 * the float4 loads are aligned is the same for every work-item: one branch, as rung 15. */
#define SKINNY_KERNEL(NAME, BODY, COUNT, FLOATS, ALIGNED)                               \
    __kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void NAME(KERNEL_ARGS)     \
    {                                                                                   \
        __local float4 lm[((FLOATS) + 3) / 4];                                          \
        if (ALIGNED)                                                                    \
            BODY(lm, COUNT, 1, PASS_ARGS);                                              \
        else                                                                            \
            BODY(lm, COUNT, 0, PASS_ARGS);                                              \
    }

SKINNY_KERNEL(tall_n1, tall_body, 1, TALL_FLOATS(1), lda % 4 == 0)
SKINNY_KERNEL(tall_n2, tall_body, 2, TALL_FLOATS(2), lda % 4 == 0)
SKINNY_KERNEL(tall_n4, tall_body, 4, TALL_FLOATS(4), lda % 4 == 0)
SKINNY_KERNEL(tall_n8, tall_body, 8, TALL_FLOATS(8), lda % 4 == 0)
SKINNY_KERNEL(tall_n16, tall_body, 16, TALL_FLOATS(16), lda % 4 == 0)
SKINNY_KERNEL(wide_m1, wide_body, 1, WIDE_FLOATS(1), ldb % 4 == 0)
SKINNY_KERNEL(wide_m2, wide_body, 2, WIDE_FLOATS(2), ldb % 4 == 0)
SKINNY_KERNEL(wide_m4, wide_body, 4, WIDE_FLOATS(4), ldb % 4 == 0)
SKINNY_KERNEL(wide_m8, wide_body, 8, WIDE_FLOATS(8), ldb % 4 == 0)
SKINNY_KERNEL(wide_m16, wide_body, 16, WIDE_FLOATS(16), ldb % 4 == 0)

/* When K was split: element e of C (column-major, m fastest) is the sum of the slices'
 * partials, added in slice order, so every run gives the same bits. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void reduce(KERNEL_ARGS)
{
    const size_t e = get_global_id(0), count = (size_t)M * N;
    if (e >= count)
        return;
    const int slices = (int)W[0];
    float sum = 0.0f;
    for (int s = 0; s < slices; s++)
        sum += W[HEADER + s * count + e];
    finish_c(C + e % M + (e / M) * (size_t)ldc, sum, alpha, beta);
}
