/* Rung 20: skinny and GEMV-like shapes (CUDA)
 * Parent: rung 15 (the BLAS call: C = alpha * A * B + beta * C with lda, ldb, ldc). Same
 *   arguments, same contract, for shapes where M or N is 1 to 16.
 * Change since rung 15: no tiles of C. Rung 15 gives a 128 x 128 tile of C to a block and
 *   counts on reusing each loaded float 128 times; at 1x4096x4096 one row of that tile
 *   exists, 1/128 of the work, and nothing is reused: each float of B is used once. So
 *   this rung streams the big matrix, once, as fast as memory delivers it:
 *   - tall path (N <= 16: C = A * b for a few columns b): each thread loads float4s of 4
 *     rows of A, 4*TQ of them before it waits (loads in flight), down its share of K;
 *     B's few columns of the current round wait in shared memory; the block's shares of K
 *     are added in shared memory.
 *   - wide path (M <= 16: a few rows times B): KL lanes of a warp share each column of B,
 *     each loading float4s of 4 depths, WC columns and WU float4s per column at a time;
 *     A's few rows of the current round wait in shared memory; the KL lanes' sums are
 *     added across the lanes with __shfl_down_sync (registers, no barrier).
 *   - when the rows (tall) or columns (wide) alone make too few blocks for the GPU, K is
 *     split across blocks too: each writes its partial sums into the workspace W and the
 *     kernel `reduce` adds them in a fixed order and applies alpha and beta, as split-K's
 *     reduction (rung 19) does. With one slice the first kernel writes C.
 * Why it helps: count the bytes. At 1x4096x4096, A (1 x 4096), B (4096 x 4096) and C
 *   (1 x 4096) are 4 * (4096 + 16,777,216 + 4096) = 67.1 MB, read or written once; the
 *   product is 2 * 4096 * 4096 = 33.6 Mflop. That is 0.50 flop per byte, the arithmetic
 *   intensity. An H100 reads about 3.07 TB/s (measured), so no kernel can pass
 *   3.07 TB/s * 0.50 = 1.5 TFLOPS here, far below its 65 TFLOPS of FMA: the roofline's
 *   bandwidth side. The goal is bytes per second: 67.1 MB in about 22 us. What brings it
 *   close is only what keeps memory busy: 16-byte coalesced loads through the read-only
 *   path (__ldg), several independent loads in flight per thread, and enough blocks on
 *   every SM; the multiply-adds hide in the shadow of the loads.
 * Loads in flight across rounds (PF = 1): a block works in rounds (load the big matrix's
 *   float4s, stage the small one's slab between two barriers, multiply-add). Without PF
 *   a thread's loads are issued at the top of a round and all land before its sums, so
 *   between the last load landing and the next round's first load issuing (the barriers,
 *   the slab, the multiply-adds) the block has nothing in flight. With one block per SM,
 *   as at 1x4096x4096 (128 blocks for 132 SMs), that gap is the SM's whole share of
 *   memory traffic lost each round. PF = 1 issues round r + 1's loads before round r's
 *   slab and sums, into a second set of registers: the loads of one round are always in
 *   flight while the block does everything else. It costs those registers (4*TQ float4s
 *   tall, WU*WC wide): PF = 1 with TQ = 2 holds as many as PF = 0 with TQ = 4.
 * The small matrix's slab, staged early: the slab is small, but it comes from L2, and a
 *   block that loads it only after the round's first barrier waits one L2 round trip
 *   per round with nothing of its own to do. When a thread's share of the slab fits in a
 *   few registers (SLAB_HELD_MOST), its loads are issued before that barrier: with PF = 0
 *   beside the round's loads of the big matrix, so that one wait covers both; with
 *   PF = 1 a round ahead, beside the next round's. A larger share (16 rows or columns of
 *   deep rounds) would spill next to the big matrix's registers, and is still copied
 *   between the barriers. On an H200 this took 8x8192x8192 from 2,727 to 3,359 GB/s at
 *   the best parameters of each (results/h200-2026-11-29-gemv).
 * Parameters: WG threads per block (every kernel); tall: RX threads along M (4 rows each,
 *   so RX*4 rows per block and WG/RX threads along K), TQ groups of 4 depths per thread
 *   per round; wide: KL lanes along K per column of B (a power of two up to 32: the lanes
 *   of a column stay in one warp), WC columns per thread, WU float4s per column per
 *   round; PF (0 or 1): the next round's loads of the big matrix issued before this
 *   round's sums (above); GPC (host only): the blocks per SM that splitting K aims for.
 * Kernels: tall_n1, _n2, _n4, _n8, _n16 and wide_m1 ... _m16, each holding that many
 *   columns (rows) of sums (N = 3 runs tall_n4); `reduce` when K is split. The host
 *   (host/rungs/rungs_skinny.c) picks them from M, N, K and the SM count.
 * Sizes: M or N from 1 to 16, any K >= 0 and the other dimension any size; lda >= M (K
 *   when A is transposed), ldb >= K (N when B is transposed), ldc >= M. float4 loads of
 *   the big matrix when it starts 16-byte aligned and its leading dimension is a
 *   multiple of 4 (A and lda, or B and ldb), single floats otherwise.
 * Transposes (-DTRANS_A=1: A holds A^T, K x M; -DTRANS_B=1: B holds B^T, N x K). The big
 *   matrix is still read in float4s along the way it runs in memory, and the 4 x 4 block
 *   the sums want is turned around in registers (transpose4): the tall path reads 4
 *   depths of each of its 4 rows of A^T (runs of 64 bytes per row at RX = 8), the wide
 *   path its WC columns of B^T at each of its 4 depths (16 bytes of each row of B^T at
 *   WC = 4, half a sector; the other half is the next warp's). The small matrix is
 *   staged along whichever way it runs. Threads, blocks and sums are NN's.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): every float4 is then a
 *   real4 of four doubles, 32 bytes, moved by two 16-byte accesses; the alignment rules
 *   (multiples of 4 elements) stay. W then holds doubles.
 */
#include "real.cuh"

#define CAP 16                /* most columns (tall) or rows (wide) of C */
#define HEADER 4              /* floats of W before the partial sums: W[0] = slices */
#define LY (WG / RX)          /* tall: threads along K */
#define KCT (LY * 4 * TQ)     /* tall: depths of K in one round of a block */
#define LN (WG / KL)          /* wide: threads along N */
#define KCW (4 * KL * WU)     /* wide: depths of K in one round */
#define ASTRIDE (KCW + 4)     /* wide: floats per row of A's slab (16-byte aligned rows;
                                 the 4 extra spread a column's rows over the banks) */
#define MIN_(a, b) ((a) < (b) ? (a) : (b))
#define MAX_(a, b) ((a) > (b) ? (a) : (b))
/* Shared memory of a kernel: its slab of the small matrix, reused for the sums. */
#define TALL_FLOATS(nb) MAX_((nb) * KCT, 4 * MIN_(nb, 4) * WG)
#define WIDE_FLOATS(mb) MAX_((mb) * ASTRIDE, MIN_((mb) * WC, 16) * WG)

/* This block's slice of K, [kb, ke). The call splits K into gridDim.y slices of whole
 * rounds; the last slice may be shorter, or empty. */
__device__ inline void k_slice(int K, int round, int &kb, int &ke)
{
    const int slices = gridDim.y;
    const int len = ((K + slices - 1) / slices + round - 1) / round * round;
    kb = min(K, (int)blockIdx.y * len);
    ke = min(K, kb + len);
}

/* The reduce kernel learns the slice count from the head of the workspace. */
__device__ inline void write_header(real *W)
{
    if (gridDim.y > 1 && blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0)
        W[0] = (real)gridDim.y;
}

/* C = alpha * sum + beta * C for one element; C is read only when beta is not 0. */
__device__ inline void finish_c(real *c, real sum, real alpha, real beta)
{
    *c = beta == 0 ? alpha * sum : alpha * sum + beta * *c;
}

/* What every kernel is given, in one place. */
struct Args {
    int M, N, K;
    real alpha;
    const real *A;
    int lda;
    const real *B;
    int ldb;
    real beta;
    real *C;
    int ldc;
    real *W;
};

/* The sum of element (m, n) over this block's slice of K: into C when K is not split,
 * else into this slice's M x N block of W. */
__device__ inline void put(int m, int n, real sum, const Args &g)
{
    if (m >= g.M || n >= g.N)
        return;
    if (gridDim.y == 1)
        finish_c(g.C + m + (size_t)n * g.ldc, sum, g.alpha, g.beta);
    else
        g.W[HEADER + ((size_t)blockIdx.y * g.N + n) * g.M + m] = sum;
}

/* Four reals through the read-only path: one 16-byte load in float, two in double (__ldg
 * takes no 32-byte vector). src is aligned to sizeof(real4). */
__device__ inline real4 ldg4(const real *src)
{
#ifdef LADDER_DOUBLE
    const real2 lo = __ldg((const real2 *)src), hi = __ldg((const real2 *)src + 1);
    return make_real4(lo.x, lo.y, hi.x, hi.y);
#else
    return __ldg((const real4 *)src);
#endif
}

/* Elements i..i+3 of column j of a column-major matrix X (leading dimension ld): A's rows
 * m..m+3 at depth k (tall), or B's depths k..k+3 in column n (wide). Zeros where the
 * column does not count (col_ok false: past the slice of K, or past N) and at
 * i + t >= end (past M, or past the slice). VEC: one 16-byte load through the read-only
 * path, aligned because X is, ld is a multiple of 4 and so is i. */
template <bool VEC>
__device__ inline real4 load4(const real *X, int ld, int i, int j, int end, bool col_ok)
{
    const real *src = X + i + (size_t)j * ld;
    if (!col_ok)
        return make_real4(0, 0, 0, 0);
    if (VEC && i + 3 < end)
        return ldg4(src);
    return make_real4(i < end ? __ldg(src) : 0, i + 1 < end ? __ldg(src + 1) : 0,
                       i + 2 < end ? __ldg(src + 2) : 0,
                       i + 3 < end ? __ldg(src + 3) : 0);
}

/* out[j] = (r[0] component j, r[1] component j, r[2] ..., r[3] ...): a 4 x 4 block of a
 * matrix read along one direction, turned to the other (for the transposes). */
__device__ inline void transpose4(const real4 *r, real4 *out)
{
    out[0] = make_real4(r[0].x, r[1].x, r[2].x, r[3].x);
    out[1] = make_real4(r[0].y, r[1].y, r[2].y, r[3].y);
    out[2] = make_real4(r[0].z, r[1].z, r[2].z, r[3].z);
    out[3] = make_real4(r[0].w, r[1].w, r[2].w, r[3].w);
}

/* ---- the small matrix's slab ------------------------------------------------------- */

/* A round's slab of the small matrix, which the whole block stages in shared memory: B's
 * R columns at KCT depths (tall, R = NB: [R][KCT]) or A's R rows at KCW depths (wide,
 * R = MB: [R][ASTRIDE]). Thread tid handles its elements i = tid, tid + WG, ...; i runs
 * along the matrix's memory (coalesced). It is staged in one of two ways:
 *   copy: element by element, straight from L2 into shared memory, between the barriers;
 *   fetch, then put: into registers first (`per` of them), so that the loads can be in
 *     flight at the same time as the big matrix's, or a whole round ahead, and into
 *     shared memory after the barrier.
 * A body calls start() before its first round, with_loads() beside each round's loads
 * of the big matrix, and stage() between the round's two barriers; which way is taken
 * is decided at compile time (held_fits, ahead, early). */
#define SLAB_HELD_MOST 8 /* registers a thread may hold its share of the slab in */

template <bool TALL, int R>
struct Slab {
    static constexpr int size = TALL ? R * KCT : R * KCW;
    static constexpr int per = (size + WG - 1) / WG;

    /* Where element i goes in shared memory. */
    __device__ static int place(int i)
    {
        if (TALL)
            return TRANS_B ? (i % R) * KCT + i / R : i;
        return TRANS_A ? (i / KCW) * ASTRIDE + i % KCW : (i % R) * ASTRIDE + i / R;
    }

    /* Element i of the slab of the round at k0: 0 past the matrix or the slice. */
    __device__ static real value(const Args &g, int i, int k0, int ke)
    {
        if (TALL) {
            if (TRANS_B) { /* B^T runs along n */
                const int n = i % R, k = k0 + i / R;
                return n < g.N && k < ke ? __ldg(g.B + n + (size_t)k * g.ldb) : 0;
            }
            const int n = i / KCT, k = k0 + i % KCT; /* B runs along k */
            return n < g.N && k < ke ? __ldg(g.B + k + (size_t)n * g.ldb) : 0;
        }
        if (TRANS_A) { /* A^T runs along k */
            const int r = i / KCW, k = k0 + i % KCW;
            return r < g.M && k < ke ? __ldg(g.A + k + (size_t)r * g.lda) : 0;
        }
        const int r = i % R, k = k0 + i / R; /* A runs along m */
        return r < g.M && k < ke ? __ldg(g.A + r + (size_t)k * g.lda) : 0;
    }

    __device__ static void copy(real *s, const Args &g, int k0, int ke, int tid)
    {
        for (int i = tid; i < size; i += WG)
            s[place(i)] = value(g, i, k0, ke);
    }

    __device__ static void fetch(real *v, const Args &g, int k0, int ke, int tid)
    {
#pragma unroll
        for (int j = 0; j < per; j++)
            v[j] = tid + j * WG < size ? value(g, tid + j * WG, k0, ke) : 0;
    }

    __device__ static void put(real *s, const real *v, int tid)
    {
#pragma unroll
        for (int j = 0; j < per; j++)
            if (tid + j * WG < size)
                s[place(tid + j * WG)] = v[j];
    }

    /* How a round's slab is staged: a share that fits in SLAB_HELD_MOST registers is
     * fetched a round ahead with PF, and beside the round's loads of the big matrix
     * without; a larger one would spill beside those loads, and is copied between the
     * barriers. */
    static constexpr bool held_fits = per <= SLAB_HELD_MOST;
    static constexpr bool ahead = PF && held_fits, early = !PF && held_fits;
    static constexpr int depth = TALL ? KCT : KCW; /* of a round */

    /* Before the first round: its slab, if slabs go a round ahead. */
    __device__ static void start(real *v, const Args &g, int kb, int ke, int tid)
    {
        if (ahead)
            fetch(v, g, kb, ke, tid);
    }

    /* Beside the round's loads of the big matrix, before the first barrier. */
    __device__ static void with_loads(real *v, const Args &g, int k0, int ke, int tid)
    {
        if (early)
            fetch(v, g, k0, ke, tid);
    }

    /* Between the barriers: the round's slab into shared memory, and the next round's
     * on its way while this round's sums are made. */
    __device__ static void stage(real *s, real *v, const Args &g, int k0, int ke, int tid)
    {
        if (held_fits)
            put(s, v, tid);
        else
            copy(s, g, k0, ke, tid);
        if (ahead)
            fetch(v, g, k0 + depth, ke, tid);
    }
};

/* ---- tall: N <= 16 ------------------------------------------------------------------ */

__device__ inline void fma4(real4 &acc, real4 a, real b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

/* One round's loads of A for thread (x, y): a[4q + j] gets rows m..m+3 at depth
 * k0 + 4(y + LY q) + j, zeros past the slice (so a round past its end loads nothing). */
template <bool VEC>
__device__ inline void tall_load_a(real4 *a, const Args &g, int k0, int ke, int m, int y)
{
    if (TRANS_A) {
        /* A^T runs along k: depths k..k+3 of each of the rows m..m+3, a 4 x 4 block
         * turned around in registers. The 32/RX lanes of a warp that share x read
         * consecutive float4s of one row of A: runs of 64 bytes at RX = 8. */
#pragma unroll
        for (int q = 0; q < TQ; q++) {
            const int k = k0 + 4 * (y + LY * q);
            real4 r[4];
#pragma unroll
            for (int t = 0; t < 4; t++)
                r[t] = load4<VEC>(g.A, g.lda, k, m + t, ke, m + t < g.M);
            transpose4(r, &a[4 * q]);
        }
    } else if (VEC && m + 3 < g.M && k0 + KCT <= ke) {
        /* The whole round lies inside A and the slice: no element needs its checks, and
         * each load is one address step from the last (load4's branches, one nest per
         * load, would otherwise spread the round's loads over hundreds of cycles). */
        const real *src = g.A + m + (size_t)(k0 + 4 * y) * g.lda;
#pragma unroll
        for (int q = 0; q < TQ; q++)
#pragma unroll
            for (int j = 0; j < 4; j++)
                a[4 * q + j] = ldg4(src + (size_t)(4 * LY * q + j) * g.lda);
    } else {
#pragma unroll
        for (int q = 0; q < TQ; q++)
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int k = k0 + 4 * (y + LY * q) + j;
                a[4 * q + j] = load4<VEC>(g.A, g.lda, m, k, g.M, k < ke);
            }
    }
}

/* NB columns of sums; thread (x, y) owns rows m..m+3 and, in each round of KCT depths,
 * the groups of 4 depths y, y + LY, ... */
template <int NB, bool VEC>
__device__ inline void tall_body(real4 *lm, const Args &g)
{
    const int tid = threadIdx.x, x = tid % RX, y = tid / RX;
    const int m = (blockIdx.x * RX + x) * 4;
    int kb, ke;
    k_slice(g.K, KCT, kb, ke);
    write_header(g.W);
    real *Bs = (real *)lm; /* [NB][KCT]: the round's depths of B */

    real4 acc[NB];
#pragma unroll
    for (int n = 0; n < NB; n++)
        acc[n] = make_real4(0, 0, 0, 0);

    real4 a[4 * TQ], next[4 * TQ]; /* this round's A; with PF, the next round's too */
    using slab = Slab<true, NB>; /* the round's slab of B (above: how it is staged) */
    real held[slab::per];
    if (PF)
        tall_load_a<VEC>(a, g, kb, ke, m, y);
    slab::start(held, g, kb, ke, tid);
    for (int k0 = kb; k0 < ke; k0 += KCT) {
        /* A's loads first: in flight while B's slab is staged (and, with PF, while this
         * round's sums are made too: they are the next round's). */
        if (PF)
            tall_load_a<VEC>(next, g, k0 + KCT, ke, m, y);
        else
            tall_load_a<VEC>(a, g, k0, ke, m, y);
        slab::with_loads(held, g, k0, ke, tid);
        __syncthreads(); /* everyone has read the last round's slab */
        slab::stage(Bs, held, g, k0, ke, tid);
        __syncthreads();
#pragma unroll
        for (int q = 0; q < TQ; q++) {
            const int kk = 4 * (y + LY * q);
#pragma unroll
            for (int n = 0; n < NB; n++) {
                const real4 b = *(const real4 *)(Bs + n * KCT + kk);
                fma4(acc[n], a[4 * q], b.x);
                fma4(acc[n], a[4 * q + 1], b.y);
                fma4(acc[n], a[4 * q + 2], b.z);
                fma4(acc[n], a[4 * q + 3], b.w);
            }
        }
        if (PF) {
#pragma unroll
            for (int i = 0; i < 4 * TQ; i++)
                a[i] = next[i];
        }
    }

    /* The LY threads of a column of rows add their sums: P columns at a time, in a halving
     * tree over y in shared memory (the slab's space, now free). */
    real4 *sums = lm; /* [P][LY][RX] */
    constexpr int P = MIN_(NB, 4);
#pragma unroll
    for (int n0 = 0; n0 < NB; n0 += P) {
        __syncthreads(); /* the slab, or the last pass, has been read */
#pragma unroll
        for (int p = 0; p < P; p++)
            sums[p * WG + tid] = acc[n0 + p];
        for (int h = LY / 2; h > 0; h /= 2) {
            __syncthreads();
            if (y < h) {
#pragma unroll
                for (int p = 0; p < P; p++) {
                    real4 &s = sums[p * WG + tid];
                    const real4 o = sums[p * WG + tid + h * RX];
                    s.x += o.x; s.y += o.y; s.z += o.z; s.w += o.w;
                }
            }
        }
        if (y == 0) {
#pragma unroll
            for (int p = 0; p < P; p++) {
                const real4 v = sums[p * WG + tid];
                put(m + 0, n0 + p, v.x, g);
                put(m + 1, n0 + p, v.y, g);
                put(m + 2, n0 + p, v.z, g);
                put(m + 3, n0 + p, v.w, g);
            }
        }
    }
}

/* ---- wide: M <= 16 ------------------------------------------------------------------ */

/* The wide path's loads of B^T (TRANS_B), which runs along n: b[u][c] gets depths
 * k..k+3 (k = k0 + 4(x + KL u)) of column n0 + c, as from B. With WC a multiple of 4, a
 * thread reads its WC columns at each of its 4 depths as float4s and turns each 4 x 4
 * block around; the KL lanes of a warp then read KL rows of B^T, 16 bytes of each (at
 * WC = 4), half a sector, whose other half the next y's warp reads. With WC < 4, n0 is
 * no multiple of 4: single elements. */
template <bool VEC>
__device__ inline void load_bt(real4 (*b)[WC], const Args &g, int k0, int x, int n0, int ke)
{
#pragma unroll
    for (int u = 0; u < WU; u++) {
        const int k = k0 + 4 * (x + KL * u);
        if (WC % 4 == 0) {
#pragma unroll
            for (int c = 0; c < WC; c += 4) {
                real4 r[4];
#pragma unroll
                for (int t = 0; t < 4; t++)
                    r[t] = load4<VEC>(g.B, g.ldb, n0 + c, k + t, g.N, k + t < ke);
                transpose4(r, &b[u][c]);
            }
        } else {
#pragma unroll
            for (int c = 0; c < WC; c++) {
                real e[4];
#pragma unroll
                for (int t = 0; t < 4; t++)
                    e[t] = n0 + c < g.N && k + t < ke
                               ? __ldg(g.B + (n0 + c) + (size_t)(k + t) * g.ldb)
                               : 0;
                b[u][c] = make_real4(e[0], e[1], e[2], e[3]);
            }
        }
    }
}

/* One round's loads of B for thread (x, y): b[u][c] gets depths k..k+3 (k = k0 +
 * 4(x + KL u)) of column n0 + c, zeros past the slice (so a round past its end loads
 * nothing). */
template <bool VEC>
__device__ inline void wide_load_b(real4 (*b)[WC], const Args &g, int k0, int ke, int x,
                                   int n0)
{
    if (TRANS_B) {
        load_bt<VEC>(b, g, k0, x, n0, ke);
        return;
    }
    if (VEC && n0 + WC <= g.N && k0 + KCW <= ke) {
        /* The whole round lies inside B and the slice: no checks (as tall_load_a). */
        const real *src = g.B + k0 + 4 * x + (size_t)n0 * g.ldb;
#pragma unroll
        for (int u = 0; u < WU; u++)
#pragma unroll
            for (int c = 0; c < WC; c++)
                b[u][c] = ldg4(src + 4 * KL * u + (size_t)c * g.ldb);
        return;
    }
#pragma unroll
    for (int u = 0; u < WU; u++)
#pragma unroll
        for (int c = 0; c < WC; c++)
            b[u][c] = load4<VEC>(g.B, g.ldb, k0 + 4 * (x + KL * u), n0 + c, ke, n0 + c < g.N);
}

/* MB rows of sums; thread (x, y) owns columns n0..n0+WC-1 and, in each round of KCW
 * depths, the float4s of depths 4x, 4(x + KL), ... */
template <int MB, bool VEC>
__device__ inline void wide_body(real4 *lm, const Args &g)
{
    const int tid = threadIdx.x, x = tid % KL, y = tid / KL;
    const int n0 = (blockIdx.x * LN + y) * WC;
    int kb, ke;
    k_slice(g.K, KCW, kb, ke);
    write_header(g.W);
    real *As = (real *)lm; /* [MB][ASTRIDE]: the round's depths of A */

    real acc[MB][WC];
#pragma unroll
    for (int r = 0; r < MB; r++)
#pragma unroll
        for (int c = 0; c < WC; c++)
            acc[r][c] = 0;

    real4 b[WU][WC], next[WU][WC]; /* this round's B; with PF, the next round's too */
    using slab = Slab<false, MB>; /* the round's slab of A (above: how it is staged) */
    real held[slab::per];
    if (PF)
        wide_load_b<VEC>(b, g, kb, ke, x, n0);
    slab::start(held, g, kb, ke, tid);
    for (int k0 = kb; k0 < ke; k0 += KCW) {
        /* B's loads first: in flight while A's slab is staged (and, with PF, while this
         * round's sums are made too: they are the next round's). */
        if (PF)
            wide_load_b<VEC>(next, g, k0 + KCW, ke, x, n0);
        else
            wide_load_b<VEC>(b, g, k0, ke, x, n0);
        slab::with_loads(held, g, k0, ke, tid);
        __syncthreads(); /* everyone has read the last round's slab */
        slab::stage(As, held, g, k0, ke, tid);
        __syncthreads();
#pragma unroll
        for (int u = 0; u < WU; u++) {
            const int kk = 4 * (x + KL * u);
#pragma unroll
            for (int r = 0; r < MB; r++) {
                const real4 a = *(const real4 *)(As + r * ASTRIDE + kk);
#pragma unroll
                for (int c = 0; c < WC; c++)
                    acc[r][c] += a.x * b[u][c].x + a.y * b[u][c].y + a.z * b[u][c].z +
                                 a.w * b[u][c].w;
            }
        }
        if (PF) {
#pragma unroll
            for (int u = 0; u < WU; u++)
#pragma unroll
                for (int c = 0; c < WC; c++)
                    b[u][c] = next[u][c];
        }
    }

    /* The KL lanes of a column add their sums by shuffles within the warp: after the
     * halving steps, lane x = 0 of each column holds the whole sum. */
#pragma unroll
    for (int r = 0; r < MB; r++)
#pragma unroll
        for (int c = 0; c < WC; c++) {
#pragma unroll
            for (int h = KL / 2; h > 0; h /= 2)
                acc[r][c] += __shfl_down_sync(0xffffffffu, acc[r][c], h, KL);
            if (x == 0)
                put(r, n0 + c, acc[r][c], g);
        }
}

/* ---- the kernels ------------------------------------------------------------------- */

#define KERNEL_ARGS                                                                     \
    const int M, const int N, const int K, const real alpha,                           \
        const real *__restrict__ A, const int lda, const real *__restrict__ B,        \
        const int ldb, const real beta, real *__restrict__ C, const int ldc,          \
        real *__restrict__ W
#define ARGS_STRUCT {M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W}

/* One kernel per count of columns (rows), so each keeps only the sums it needs (and the
 * registers of the largest do not limit the smallest). Whether the 16-byte loads are
 * aligned is the same for every thread: one branch, as rung 15.
 * A call launches one of the ten (and `reduce`), and NVRTC compiles every kernel of a
 * file: 3.6 s here, most of what a candidate costs `ladder select`. So the host compiles
 * a call with ONLY_TALL (or ONLY_WIDE) set to the count of the kernel it launches
 * (host/rungs/rungs_skinny.c, skinny_call_defines), and every other kernel keeps an empty
 * body: 0.5 s. With neither set, as in test_nvrtc_compile, every body is compiled. */
#ifndef ONLY_TALL
#define ONLY_TALL 0
#endif
#ifndef ONLY_WIDE
#define ONLY_WIDE 0
#endif
#define KEPT(only, count) ((ONLY_TALL == 0 && ONLY_WIDE == 0) || (only) == (count))
#define SKINNY_KERNEL(NAME, BODY, COUNT, FLOATS, ALIGNED, ONLY)                         \
    extern "C" __global__ void __launch_bounds__(WG) NAME(KERNEL_ARGS)                  \
    {                                                                                   \
        __shared__ real4 lm[((FLOATS) + 3) / 4];                                       \
        const Args g = ARGS_STRUCT;                                                     \
        if constexpr (KEPT(ONLY, COUNT)) {                                              \
            if (ALIGNED)                                                                \
                BODY<COUNT, true>(lm, g);                                               \
            else                                                                        \
                BODY<COUNT, false>(lm, g);                                              \
        }                                                                               \
    }

/* The big matrix starts 16-byte aligned and so does each of its columns. */
#define A_ALIGNED (lda % 4 == 0 && (size_t)A % sizeof(real4) == 0)
#define B_ALIGNED (ldb % 4 == 0 && (size_t)B % sizeof(real4) == 0)

SKINNY_KERNEL(tall_n1, tall_body, 1, TALL_FLOATS(1), A_ALIGNED, ONLY_TALL)
SKINNY_KERNEL(tall_n2, tall_body, 2, TALL_FLOATS(2), A_ALIGNED, ONLY_TALL)
SKINNY_KERNEL(tall_n4, tall_body, 4, TALL_FLOATS(4), A_ALIGNED, ONLY_TALL)
SKINNY_KERNEL(tall_n8, tall_body, 8, TALL_FLOATS(8), A_ALIGNED, ONLY_TALL)
SKINNY_KERNEL(tall_n16, tall_body, 16, TALL_FLOATS(16), A_ALIGNED, ONLY_TALL)
SKINNY_KERNEL(wide_m1, wide_body, 1, WIDE_FLOATS(1), B_ALIGNED, ONLY_WIDE)
SKINNY_KERNEL(wide_m2, wide_body, 2, WIDE_FLOATS(2), B_ALIGNED, ONLY_WIDE)
SKINNY_KERNEL(wide_m4, wide_body, 4, WIDE_FLOATS(4), B_ALIGNED, ONLY_WIDE)
SKINNY_KERNEL(wide_m8, wide_body, 8, WIDE_FLOATS(8), B_ALIGNED, ONLY_WIDE)
SKINNY_KERNEL(wide_m16, wide_body, 16, WIDE_FLOATS(16), B_ALIGNED, ONLY_WIDE)

/* When K was split: element e of C (column-major, m fastest) is the sum of the slices'
 * partials, added in slice order, so every run gives the same bits. */
extern "C" __global__ void __launch_bounds__(WG) reduce(KERNEL_ARGS)
{
    const size_t e = (size_t)blockIdx.x * WG + threadIdx.x, count = (size_t)M * N;
    if (e >= count)
        return;
    const int slices = (int)W[0];
    real sum = 0;
    for (int s = 0; s < slices; s++)
        sum += W[HEADER + s * count + e];
    finish_c(C + e % M + (e / M) * (size_t)ldc, sum, alpha, beta);
}
