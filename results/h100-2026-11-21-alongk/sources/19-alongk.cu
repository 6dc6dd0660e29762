/* EXPERIMENT, not a rung (results/h100-2026-11-21-alongk, runs 1-3): it ran as rung 19
 * with sources/19-alongk-registry.patch applied. Correct at every size tested, and slower
 * than rungs 17 and 18 at every tile tried (0.80-0.91 of cuBLAS); see the README there.
 */
/* Rung 19: B read along k, with rung 17's registers (CUDA, compute capability 8.0+)
 * Change since rung 18: B's tile is not transposed at all. cp.async copies it as it
 *   lies, 16 bytes at a time: a row of the tile is one column of B, TSK depths long.
 *   The loop then takes four depths at a time. It reads this thread's rows of A at the
 *   four depths (float4s, as rung 17), and then, column by column, one float4 of B: one
 *   column at those four depths. Each depth of that float4 meets A's values of its own
 *   depth. Everything else is rung 18's: the pipeline, zero-filling copies at the edges,
 *   single-float stores of C, and a BLAS call's arguments (alpha, beta, lda, ldb, ldc).
 * Why it should help: rung 17 needs a helper kernel to make B^T, and rung 18 copies B
 *   4 bytes at a time instead, which cost more than the helper did (chapter 18). Here B
 *   travels in 16-byte pieces, as many copy instructions as rung 17's B^T, and no
 *   helper runs. Per four depths a thread still reads WPTM float4s of A and WPTN float4s
 *   of B for 4 * WPTM * WPTN multiply-adds: the same count as rung 17.
 * Rung 14 read B this way and was slow: the profiler blamed register bank conflicts
 *   (dispatch stalls), which rung 17 then traced to float4 stores of C. This rung reads
 *   B as rung 14 did but keeps rung 17's single-float stores and thread layout, so the
 *   compiler is free to put accumulators in other banks than the A values they meet.
 *   Which of A and B a thread holds for four depths matters for registers: it holds A's
 *   4 * WPTM values (32 at WPTM = 8) and streams B, a float4 at a time.
 * Bank conflicts: a warp's lanes read at most a few columns of B's tile at once (lanes
 *   with the same tidn read the same float4, a broadcast). Rows of TSK + 4 floats put
 *   columns 4 apart, which is how far apart the lanes' columns are, 16 banks apart.
 * Edges: as rung 18, a copy outside the matrix reads nothing and writes zeros
 *   (src-size 0, or 4, 8, 12 bytes for the last piece of a column when K is not a
 *   multiple of 4). Stores of C check that the element exists.
 * The 16-byte pieces need every column of A and of B to start 16-byte aligned (A and B
 *   aligned, lda and ldb multiples of 4); otherwise both tiles travel 4 bytes at a time.
 * Parameters: rung 17's. TSM, TSN, TSK (block tile), WPTM, WPTN (rows and columns of C
 *   per thread), STAGES (tiles in flight).
 * Constraints: rung 17's; TSK divides the thread count (see copy_stage).
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
#define TSKV (TSK / 4)              /* 16-byte pieces in a column of B's tile */
#define BROWV ((TSK + 4) / 4)       /* float4s in a row of B's tile, padded (see above) */
#define LPTA (TSMV * TSK / THREADS) /* 16-byte pieces of the A tile each thread copies */
#define LPTB (TSN * TSKV / THREADS) /* and of the B tile */

/* cp.async of `bytes` (4 or 16), of which the first `valid` are read from global memory
 * and the rest of the destination is filled with zeros. .cg keeps 16-byte pieces out of
 * L1 (a block reads each once); 4-byte copies must go through L1 (.ca). */
__device__ inline void copy16(void *dst, const float *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
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

/* Component d of a float4, for a d the compiler knows (every loop is unrolled). */
__device__ inline float component(float4 v, int d)
{
    return d == 0 ? v.x : d == 1 ? v.y : d == 2 ? v.z : v.w;
}

struct Tiles {
    float4 A[STAGES][TSK][TSMV]; /* [k][m], A as it lies */
    float4 B[STAGES][TSN][BROWV]; /* [n][k], B as it lies, rows padded */
};

/* The matrices, where this block's tile of C starts, and where this thread's first
 * copies read (see copy_stage). */
struct Operands {
    int M, N, K, lda, ldb;
    const float *A, *B;
    int m0, n0;
    const float *a_first, *b_first;
    size_t b_pass; /* floats between the columns of one thread's successive B copies */
};

/* Who copies what: each thread keeps to one row of A's tile (APR threads per row, its
 * pieces APR apart) and to one piece of depth of B's columns (BPP columns per pass, its
 * columns BPP apart). Its copies then lie at constant distances from two addresses per
 * step, which keeps the instructions and the registers for addresses few. */
#define APR (THREADS / TSK)  /* threads per row of A's tile */
#define BPP (THREADS / TSKV) /* columns of B's tile per pass */

__device__ inline size_t widen(int i) { return (size_t)(unsigned)i; } /* i >= 0 */

/* Where this thread's copies of depth 0 read: its piece of row 0 of A's tile, and its
 * piece of its first column of B's. */
__device__ inline void first_copies(Operands &o, int tid)
{
    o.a_first = o.A + widen(o.m0 + 4 * (tid % APR)) + widen(tid / APR) * o.lda;
    o.b_first = o.B + 4 * (tid % TSKV) + widen(o.n0 + tid / TSKV) * o.ldb;
    o.b_pass = widen(BPP) * o.ldb;
}

/* Issues this thread's copies of the tiles at depth k0 into stage s. EDGE: some of the
 * tiles' elements may lie outside the matrices; those are read as zeros. A copy that
 * reads nothing is given the matrix's own address, so no copy reads outside a matrix.
 * VEC: 16-byte pieces (see the header). */
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
    /* B: TSKV consecutive lanes copy one column's TSK depths, 4 * TSK contiguous bytes. */
    const int kq = tid % TSKV, kb = k0 + 4 * kq;
    const float *src = o.b_first + k0;
#pragma unroll
    for (int l = 0; l < LPTB; l++, src += o.b_pass) {
        const int n = tid / TSKV + l * BPP, nn = o.n0 + n;
        if (VEC) {
            const int valid = !EDGE ? 16 : nn < o.N ? valid_bytes(kb, o.K, 4) : 0;
            copy16(&sm.B[s][n][kq], valid ? src : o.B, valid);
        } else {
            float *dst = (float *)&sm.B[s][n][kq];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = !EDGE || (nn < o.N && kb + j < o.K) ? 4 : 0;
                copy4(dst + j, valid ? src + j : o.B, valid);
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
        for (int kq = 0; kq < TSKV; kq++) {
            float4 a[4][WPTMV]; /* this thread's rows at depths 4kq .. 4kq+3 */
#pragma unroll
            for (int d = 0; d < 4; d++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++)
                    a[d][wm] = sm.A[s][4 * kq + d][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    /* One column at the four depths; each depth meets A's of its own. */
                    const float4 b = sm.B[s][4 * (tidn + wn * RTSN) + c][kq];
                    float4 *col = acc[4 * wn + c];
#pragma unroll
                    for (int d = 0; d < 4; d++) {
                        const float bd = component(b, d);
#pragma unroll
                        for (int wm = 0; wm < WPTMV; wm++) {
                            col[wm].x += a[d][wm].x * bd;
                            col[wm].y += a[d][wm].y * bd;
                            col[wm].z += a[d][wm].z * bd;
                            col[wm].w += a[d][wm].w * bd;
                        }
                    }
                }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* Rung 18's stores: one float at a time, only elements that exist, and C read only
     * when beta is not 0 (the same for every thread). */
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

/* Whether the 16-byte pieces are aligned is the same for every thread: one branch. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const float alpha, const float *__restrict__ A,
     const int lda, const float *__restrict__ B, const int ldb, const float beta,
     float *__restrict__ C, const int ldc)
{
    __shared__ Tiles sm;
    Operands o = {M, N, K, lda, ldb, A, B, (int)blockIdx.x * TSM, (int)blockIdx.y * TSN};
    const bool aligned = lda % 4 == 0 && (unsigned long long)A % 16 == 0 &&
                         ldb % 4 == 0 && (unsigned long long)B % 16 == 0;
    if (aligned)
        gemm_body<true>(sm, o, alpha, beta, C, ldc);
    else
        gemm_body<false>(sm, o, alpha, beta, C, ldc);
}
