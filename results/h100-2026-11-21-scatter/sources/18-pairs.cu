/* Rung 18: scattering copies, rung 17 as a BLAS call (CUDA, compute capability 8.0+)
 * Change since rung 17: B is read where it lies, not as B^T made by a helper kernel, and
 *   nothing is padded. cp.async copies B's tile 4 bytes at a time, and each float goes
 *   to its own place in the [k][n] tile that rung 17's loop reads: the copy transposes.
 *   Zero-filling copies (rung 13's src-size operand) stand in for the host's padding, and
 *   the kernel takes a BLAS call's arguments (rung 15's alpha, beta, lda, ldb, ldc). The
 *   loop and the single-float stores of C are rung 17's.
 * Why it should help: rung 17 pays for its B^T before the GEMM starts. At 4096 the
 *   transposing helper takes about 44 us of rung 17's 2.7 ms, 1.6%, and needs a second
 *   copy of B in memory. Rungs 13 and 14 kept cp.async for tiles that need no
 *   transposing, because a 16-byte copy moves 4 consecutive floats to 4 consecutive
 *   places. A 4-byte copy has no such limit. It costs four times as many copy
 *   instructions for B (16 per thread and step with the tuned tile, against about 2,000
 *   multiply-adds), and every float still travels without passing through a register.
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
 * Parameters: rung 17's. TSM, TSN, TSK (block tile), WPTM, WPTN (rows and columns of C
 *   per thread), STAGES (tiles in flight).
 * Constraints: rung 17's, and TSK a multiple of 8 (a sector of depths).
 * Sizes: any M, N, K >= 1; lda >= M, ldb >= K, ldc >= M.
 */
#define RTSM (TSM / WPTM) /* threads along m */
#define RTSN (TSN / WPTN) /* threads along n */
#define THREADS (RTSM * RTSN)
/* As rung 17: up to 64 accumulators, two blocks of 256 threads share an SM. */
#define MIN_BLOCKS (WPTM * WPTN > 64 ? 1 : (THREADS < 512 ? 512 / THREADS : 1))
#define WPTMV (WPTM / 4)
#define WPTNV (WPTN / 4)
#define TSMV (TSM / 4)
#define BROW (2 * TSN + 4)           /* floats in a row (a pair of depths) of B's tile */
#define LPTA (TSMV * TSK / THREADS)  /* 16-byte pieces of the A tile each thread copies */

/* cp.async of `bytes` (4 or 16), of which the first `valid` are read from global memory
 * and the rest of the destination is filled with zeros. .cg keeps 16-byte pieces out of
 * L1 (a block reads each once); 4-byte copies must go through L1 (.ca), which also
 * catches the other lanes' reads of the same sector. */
__device__ inline void copy16(void *dst, const float *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                 "r"(valid));
}
__device__ inline void copy8(void *dst, const float *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src),
                 "r"(valid));
}
__device__ inline void copy4(void *dst, const float *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src),
                 "r"(valid));
}
__device__ inline void commit_group() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ inline void wait_group()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* Bytes of a run of `len` floats starting at `start` that lie before `end`. */
__device__ inline int valid_bytes(int start, int end, int len)
{
    const int n = end - start;
    return 4 * (n < 0 ? 0 : n > len ? len : n);
}

struct Tiles {
    float4 A[STAGES][TSK][TSMV];     /* [k][m], A as it lies */
    float4 B[STAGES][TSK / 2][BROW / 4]; /* [k/2][n][k%2], B's pairs of depths */
};

/* The matrices, where this block's tile of C starts, and where this thread's first
 * copies read (see copy_stage). */
struct Operands {
    int M, N, K, lda, ldb;
    const float *A, *B;
    int m0, n0;
    const float *a_first, *b_first;
};

/* Who copies what: each thread keeps to one row of A's tile (APR threads per row, its
 * pieces APR apart) and to one pair of depths in every group of 2 BL of B's tile (BPR
 * columns per pass, its columns BPR apart). Its copies then lie at constant distances
 * from two addresses per step, which keeps both the instructions and the registers for
 * addresses few: the loop needs nearly all the registers. */
#define APR (THREADS / TSK)                 /* threads per row of A's tile */
#define BL (TSK / 2 < 8 ? TSK / 2 : 8)      /* lanes per column of B's tile */
#define BPR (THREADS / BL)                  /* columns of B's tile per pass */

__device__ inline size_t widen(int i) { return (size_t)(unsigned)i; } /* i >= 0 */

/* Where this thread's copies of depth 0 read: its piece of row 0 of A's tile, and its
 * pair of depths of its first column of B's. */
__device__ inline void first_copies(Operands &o, int tid)
{
    o.a_first = o.A + widen(o.m0 + 4 * (tid % APR)) + widen(tid / APR) * o.lda;
    o.b_first = o.B + 2 * (tid % BL) + widen(o.n0 + tid / BL) * o.ldb;
}

/* Issues this thread's copies of the tiles at depth k0 into stage s. EDGE: some of the
 * tiles' elements may lie outside the matrices; those are read as zeros. A copy that
 * reads nothing is given the matrix's own address, so no copy reads outside a matrix.
 * VEC: A in 16-byte pieces and B in 8-byte pairs (see the header); otherwise both 4
 * bytes at a time, into the same places. */
template <bool VEC, bool EDGE>
__device__ inline void copy_stage(Tiles &sm, int s, int k0, int tid, const Operands &o)
{
    const int k = tid / APR, kk = k0 + k;
    const float *arow = o.a_first + widen(k0) * o.lda;
#pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int mq = tid % APR + l * APR, m = o.m0 + 4 * mq;
        const float *src = arow + 4 * l * APR;
        if (VEC) {
            const int valid = !EDGE ? 16 : kk < o.K ? valid_bytes(m, o.M, 4) : 0;
            copy16(&sm.A[s][k][mq], valid ? src : o.A, valid);
        } else {
            float *dst = (float *)&sm.A[s][k][mq];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = !EDGE || (kk < o.K && m + j < o.M) ? 4 : 0;
                copy4(dst + j, valid ? src + j : o.A, valid);
            }
        }
    }
    /* B: BL consecutive lanes take 2 BL consecutive depths of one column (64 bytes when
     * BL = 8); pair (k, k+1) of column n goes to row k/2, floats 2n and 2n+1. */
    float *bt = (float *)sm.B[s];
    const float *bstep = o.b_first + k0;
#pragma unroll
    for (int p = 0; p < TSN / BPR; p++) {
        const int n = tid / BL + p * BPR, nn = o.n0 + n;
        const float *col = bstep + widen(p * BPR) * o.ldb;
#pragma unroll
        for (int g = 0; g < TSK / (2 * BL); g++) {
            const int pair = tid % BL + BL * g, kk = k0 + 2 * pair;
            float *dst = &bt[pair * BROW + 2 * n];
            const float *src = col + 2 * BL * g;
            if (VEC) {
                const int valid = !EDGE ? 8 : nn < o.N ? valid_bytes(kk, o.K, 2) : 0;
                copy8(dst, valid ? src : o.B, valid);
            } else {
#pragma unroll
                for (int j = 0; j < 2; j++) {
                    const int valid = !EDGE || (kk + j < o.K && nn < o.N) ? 4 : 0;
                    copy4(dst + j, valid ? src + j : o.B, valid);
                }
            }
        }
    }
}

/* Copies of step `step` (depth step * TSK): the checked kind only where needed. */
template <bool VEC>
__device__ inline void copy_step(Tiles &sm, int s, int step, int whole_steps, int tid,
                                 const Operands &o)
{
    if (step < whole_steps)
        copy_stage<VEC, false>(sm, s, step * TSK, tid, o);
    else
        copy_stage<VEC, true>(sm, s, step * TSK, tid, o);
}

template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, Operands &o, const float alpha,
                                 const float beta, float *C, const int ldc)
{
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    first_copies(o, tid);

    /* As rung 17: acc[c][wm] holds rows 4 * (tidm + wm * RTSM) .. +3 of the tile's column
     * 4 * (tidn + (c / 4) * RTSN) + c % 4. */
    float4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    const int steps = (o.K + TSK - 1) / TSK;
    /* Steps whose tiles lie wholly inside A and B: all but a last partial one, in blocks
     * whose tile of C lies wholly inside C; none in edge blocks. */
    const bool inside = o.m0 + TSM <= o.M && o.n0 + TSN <= o.N;
    const int whole_steps = inside ? o.K / TSK : 0;

    /* Rung 17's pipeline. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_step<VEC>(sm, s, s, whole_steps, tid, o);
        commit_group();
    }
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>(); /* this thread's copies of step t have landed */
        __syncthreads();          /* everyone's have, and step t-1 is computed */
        const int next = t + STAGES - 1; /* into the stage step t-1 used */
        if (next < steps)
            copy_step<VEC>(sm, next % STAGES, next, whole_steps, tid, o);
        commit_group();

#pragma unroll
        for (int pair = 0; pair < TSK / 2; pair++) {
            /* Depths 2 pair and 2 pair + 1: a0, a1 of A's tile, b0, b1 of B's. A float4 of
             * B's row holds both depths of two columns. */
            float4 a0[WPTMV], a1[WPTMV];
            float b0[WPTN], b1[WPTN];
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++) {
                a0[wm] = sm.A[s][2 * pair][tidm + wm * RTSM];
                a1[wm] = sm.A[s][2 * pair + 1][tidm + wm * RTSM];
            }
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++) {
                const float4 v = sm.B[s][pair][2 * (tidn + wn * RTSN)];     /* columns 0, 1 */
                const float4 w = sm.B[s][pair][2 * (tidn + wn * RTSN) + 1]; /* columns 2, 3 */
                b0[4 * wn] = v.x, b1[4 * wn] = v.y, b0[4 * wn + 1] = v.z, b1[4 * wn + 1] = v.w;
                b0[4 * wn + 2] = w.x, b1[4 * wn + 2] = w.y, b0[4 * wn + 3] = w.z, b1[4 * wn + 3] = w.w;
            }
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++) {
                    acc[wn][wm].x += a0[wm].x * b0[wn];
                    acc[wn][wm].y += a0[wm].y * b0[wn];
                    acc[wn][wm].z += a0[wm].z * b0[wn];
                    acc[wn][wm].w += a0[wm].w * b0[wn];
                }
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++) {
                    acc[wn][wm].x += a1[wm].x * b1[wn];
                    acc[wn][wm].y += a1[wm].y * b1[wn];
                    acc[wn][wm].z += a1[wm].z * b1[wn];
                    acc[wn][wm].w += a1[wm].w * b1[wn];
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
                const int m = o.m0 + 4 * (tidm + wm * RTSM);
                const int n = o.n0 + 4 * (tidn + wn * RTSN) + j;
                const float4 v = acc[wn * 4 + j][wm];
                const float e[4] = {v.x, v.y, v.z, v.w};
                if (n < o.N) {
                    float *c = &C[m + (size_t)n * ldc];
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        if (m + i < o.M)
                            c[i] = beta == 0.0f ? alpha * e[i] : alpha * e[i] + beta * c[i];
                }
            }
}

/* Whether A's 16-byte pieces and B's 8-byte pairs are aligned is the same for every
 * thread: one branch. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const float alpha, const float *__restrict__ A,
     const int lda, const float *__restrict__ B, const int ldb, const float beta,
     float *__restrict__ C, const int ldc)
{
    __shared__ Tiles sm;
    Operands o = {M, N, K, lda, ldb, A, B, (int)blockIdx.x * TSM, (int)blockIdx.y * TSN};
    if (lda % 4 == 0 && ldb % 2 == 0 && (unsigned long long)A % 16 == 0 &&
        (unsigned long long)B % 8 == 0)
        gemm_body<true>(sm, o, alpha, beta, C, ldc);
    else
        gemm_body<false>(sm, o, alpha, beta, C, ldc);
}
