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
 * Parameters: rung 17's. TSM, TSN, TSK (block tile), WPTM, WPTN (rows and columns of C
 *   per thread), STAGES (tiles in flight).
 * Constraints: rung 17's; TSK a multiple of 8 that divides the thread count; the thread
 *   count / 8 divides TSN (see copy_stage).
 * Sizes: any M, N, K >= 1; lda >= M, ldb >= K, ldc >= M.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): A's pieces are then 4
 *   doubles, two 16-byte cp.async copies, B's scattering copies 8 bytes each, and a
 *   thread's 64 accumulators take 128 registers, so one block per SM. The default stages
 *   (TSK = 16) need 65 KiB of shared memory in double: the small-device defaults (TSK =
 *   8) fit in 48 KiB.
 */
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
#define LPTA (TSMV * TSK / THREADS)  /* 16-byte pieces of the A tile each thread copies */
#define LPTB (TSN * TSK / THREADS)   /* floats of the B tile each thread copies */

/* cp.async of `bytes` (4 or 16), of which the first `valid` are read from global memory
 * and the rest of the destination is filled with zeros. .cg keeps 16-byte pieces out of
 * L1 (a block reads each once); 4-byte copies must go through L1 (.ca), which also
 * catches the other lanes' reads of the same sector. */
__device__ inline void copy16(void *dst, const real *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    /* A piece is 4 reals: one 16-byte copy in float, two in double (no copy is wider).
     * A half that reads nothing keeps the piece's own address. */
#pragma unroll
    for (int h = 0; h < (int)sizeof(real4) / 16; h++) {
        const int v = sizeof(real4) == 16 ? valid : min(max(valid - 16 * h, 0), 16);
        const real *s = v ? src + h * 16 / (int)sizeof(real) : src;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d + 16 * h),
                     "l"(s), "r"(v));
    }
}
/* One real: 4 bytes, or 8 in double. */
__device__ inline void copy4(void *dst, const real *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src),
                 "n"((int)sizeof(real)), "r"(valid));
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
    return (int)sizeof(real) * (n < 0 ? 0 : n > len ? len : n);
}

struct Tiles {
    real4 A[STAGES][TSK][TSMV];     /* [k][m], A as it lies */
    real4 B[STAGES][TSK][BROW / 4]; /* [k][n], B transposed by the copies */
};

/* The matrices, where this block's tile of C starts, and where this thread's first
 * copies read (see copy_stage). */
struct Operands {
    int M, N, K, lda, ldb;
    const real *A, *B;
    int m0, n0;
    const real *a_first, *b_first;
};

/* Who copies what: each thread keeps to one row of A's tile (APR threads per row, its
 * pieces APR apart) and to one depth of every group of 8 in B's tile (BPR columns per
 * pass, its columns BPR apart). Its copies then lie at constant distances from two
 * addresses per step, which keeps both the instructions and the registers for
 * addresses few: the loop needs nearly all the registers. */
#define APR (THREADS / TSK) /* threads per row of A's tile */
#define BPR (THREADS / 8)   /* columns of B's tile per pass */

__device__ inline size_t widen(int i) { return (size_t)(unsigned)i; } /* i >= 0 */

/* Where this thread's copies of depth 0 read: its piece of row 0 of A's tile, and depth
 * tid % 8 of its first column of B's. */
__device__ inline void first_copies(Operands &o, int tid)
{
    o.a_first = o.A + widen(o.m0 + 4 * (tid % APR)) + widen(tid / APR) * o.lda;
    o.b_first = o.B + tid % 8 + widen(o.n0 + tid / 8) * o.ldb;
}

/* Issues this thread's copies of the tiles at depth k0 into stage s. EDGE: some of the
 * tiles' elements may lie outside the matrices; those are read as zeros. A copy that
 * reads nothing is given the matrix's own address, so no copy reads outside a matrix.
 * VEC: A in 16-byte pieces (see the header). */
template <bool VEC, bool EDGE>
__device__ inline void copy_stage(Tiles &sm, int s, int k0, int tid, const Operands &o)
{
    const int k = tid / APR, kk = k0 + k;
    const real *arow = o.a_first + widen(k0) * o.lda;
#pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int mq = tid % APR + l * APR, m = o.m0 + 4 * mq;
        const real *src = arow + 4 * l * APR;
        if (VEC) {
            const int valid =
                !EDGE ? (int)sizeof(real4) : kk < o.K ? valid_bytes(m, o.M, 4) : 0;
            copy16(&sm.A[s][k][mq], valid ? src : o.A, valid);
        } else {
            real *dst = (real *)&sm.A[s][k][mq];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid =
                    !EDGE || (kk < o.K && m + j < o.M) ? (int)sizeof(real) : 0;
                copy4(dst + j, valid ? src + j : o.A, valid);
            }
        }
    }
    /* B: 8 consecutive lanes take depths 0-7 of one column, a sector (see the header). */
    real *bt = (real *)sm.B[s];
    const real *bstep = o.b_first + k0;
#pragma unroll
    for (int p = 0; p < TSN / BPR; p++) {
        const int n = tid / 8 + p * BPR, nn = o.n0 + n;
        const real *col = bstep + widen(p * BPR) * o.ldb;
#pragma unroll
        for (int g = 0; g < TSK / 8; g++) {
            const int k = tid % 8 + 8 * g, kk = k0 + k;
            const int valid = !EDGE || (kk < o.K && nn < o.N) ? (int)sizeof(real) : 0;
            copy4(&bt[k * BROW + n], valid ? col + 8 * g : o.B, valid);
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
                const int m = o.m0 + 4 * (tidm + wm * RTSM);
                const int n = o.n0 + 4 * (tidn + wn * RTSN) + j;
                const real4 v = acc[wn * 4 + j][wm];
                const real e[4] = {v.x, v.y, v.z, v.w};
                if (n < o.N) {
                    real *c = &C[m + (size_t)n * ldc];
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        if (m + i < o.M)
                            c[i] = beta == 0 ? alpha * e[i] : alpha * e[i] + beta * c[i];
                }
            }
}

/* Whether A's 16-byte pieces are aligned is the same for every thread: one branch. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real alpha, const real *__restrict__ A,
     const int lda, const real *__restrict__ B, const int ldb, const real beta,
     real *__restrict__ C, const int ldc)
{
    __shared__ Tiles sm;
    Operands o = {M, N, K, lda, ldb, A, B, (int)blockIdx.x * TSM, (int)blockIdx.y * TSN};
    if (lda % 4 == 0 && (unsigned long long)A % sizeof(real4) == 0)
        gemm_body<true>(sm, o, alpha, beta, C, ldc);
    else
        gemm_body<false>(sm, o, alpha, beta, C, ldc);
}
