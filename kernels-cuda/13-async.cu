/* Rung 13: asynchronous copies in a multi-stage pipeline (CUDA, compute capability 8.0+)
 * Change since rung 12: the tiles of A no longer pass through registers. Each thread
 *   issues cp.async instructions, which copy 16 bytes (4 floats) from global memory
 *   straight into shared memory while the thread goes on computing, and shared memory
 *   holds STAGES tiles of A instead of two. At step t the block computes on stage
 *   t % STAGES while the copies for steps t+1 .. t+STAGES-1 are in flight.
 * Why it should help: in rungs 9-12 every loaded value took a register from the moment
 *   its load was issued until it was stored into shared memory a whole step later, and
 *   a load plus a store instruction. cp.async needs neither: one instruction per 4
 *   floats, no register held while the data travels. With more than two stages a slow
 *   load (a miss in L2, a busy memory channel) has more than one step of computation to
 *   hide behind.
 * Why only A: cp.async copies bytes as they are, so it cannot transpose. B still takes
 *   rung 12's path (a float4 along k into registers, four single floats into Bsub[k][n])
 *   with its two buffers. Two alternatives were measured on the H100 at 4096 (in
 *   results/h100-2026-11-21-experiments): B copied by cp.async as it lies and transposed
 *   inside shared memory by the threads (an extra pass and a second barrier per step)
 *   reached about 42.5k GFLOPS, and B read along k four depths at a time, never
 *   transposed, about 37.7k (its B values and accumulators did not fit 128 registers
 *   well), against about 45.9k for this version.
 * How the pipeline keeps order: copies are grouped per step (cp.async.commit_group);
 *   cp.async.wait_group(STAGES-2) waits until at most STAGES-2 groups are still in flight,
 *   that is until this thread's copies of step t have landed; the barrier after it makes
 *   everyone's copies (and B stores) visible and also tells every thread that step t-1
 *   is computed, so its stage can be refilled with the tiles of step t+STAGES-1.
 * Edges: a copy of fewer than 16 bytes fills the rest with zeros (the src-size operand of
 *   cp.async), so the tiles at the edges of A arrive padded with zeros without a branch
 *   per element. A 16-byte copy must start 16-byte aligned: when M is not a multiple of
 *   4, A is copied 4 bytes at a time instead. B's edges are rung 11's.
 * Parameters: TSM, TSN, TSK (block tile), WM (warp tile rows, WN = 2048 / WM), STAGES.
 *   Each thread computes 8 x 8 elements of C, as in rung 12.
 * Constraints: as rung 12; STAGES >= 2; everything within 48 KiB of static shared
 *   memory.
 * Sizes: any M, N, K >= 1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): a piece of A is then 4
 *   doubles, 32 bytes, two 16-byte cp.async copies (none is wider), and single copies are
 *   8 bytes. The default tile and stages need 82 KiB of shared memory in double: the
 *   small-device defaults (TSK = 8, 2 stages) fit in 48 KiB.
 */
#include "cp_async.cuh" /* copy16, copy4, valid_bytes, the group waits */
#include "real.cuh"

#define WN (2048 / WM) /* a warp's 32 lanes x 64 elements, as rung 12 */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define MIN_BLOCKS (THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define LM (WM / 8)       /* lanes along m: each takes two float4s of rows, WM/2 apart */
#define LN (32 / LM)      /* lanes along n: each takes two float4s of columns, WN/2 apart */
#define BPAD 4            /* Bsub rows of TSN + 4 floats, as rung 11 */
#define A_CHUNKS (TSM / 4 * TSK) /* 16-byte pieces of an A tile */
#define B_CHUNKS (TSN * TSK / 4) /* float4s of a B tile */

__device__ inline void fma4(real4 &acc, real4 a, real b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

struct Tiles {
    real4 A[STAGES][TSK][TSM / 4];       /* [k][m]: A as it lies, k-major */
    real4 B[2][TSK][(TSN + BPAD) / 4];   /* [k][n]: B transposed, as rung 12 */
};

/* One thread's share of a B tile, in registers from its load to its store (rung 11). */
struct ShareB {
    real4 b[B_CHUNKS / THREADS];
};

/* Issues the copies of step `step`'s A tile into stage `s`. VEC_A: 16-byte pieces (M is a
 * multiple of 4) or single floats. A piece that lies outside the matrix reads nothing
 * (valid = 0); its source address is then the matrix itself, so no address outside an
 * allocation is ever formed. */
template <bool VEC_A>
__device__ inline void copy_a(Tiles &sm, int s, int step, int tid, int m0, int M, int K,
                              const real *A)
{
    const int k0 = step * TSK;
#pragma unroll
    for (int l = 0; l < A_CHUNKS / THREADS; l++) {
        const int c = tid + l * THREADS;
        const int mq = c % (TSM / 4), k = c / (TSM / 4);
        const int m = m0 + 4 * mq, kk = k0 + k;
        if (VEC_A) {
            const int valid = kk < K ? valid_bytes(m, M, 4) : 0;
            copy16(&sm.A[s][k][mq], valid ? A + m + kk * M : A, valid);
        } else {
            real *dst = (real *)&sm.A[s][k][mq];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = (kk < K && m + j < M) ? (int)sizeof(real) : 0;
                copy4(dst + j, valid ? A + (m + j) + kk * M : A, valid);
            }
        }
    }
}

/* B as rung 11: loads this thread's float4s (four depths of one column) of the tile at
 * depth k0, zeros outside the matrix; VEC_B when K is a multiple of 4. */
template <bool VEC_B>
__device__ inline void load_b(ShareB &sh, int k0, int tid, int n0, int N, int K,
                              const real *B)
{
#pragma unroll
    for (int l = 0; l < B_CHUNKS / THREADS; l++) {
        const int i = tid + l * THREADS;
        const int k = k0 + 4 * (i % (TSK / 4)), n = n0 + i / (TSK / 4);
        const real *src = B + k + n * K;
        if (VEC_B && k + 3 < K && n < N) {
            sh.b[l] = *(const real4 *)src;
        } else {
            sh.b[l].x = (k + 0 < K && n < N) ? src[0] : 0;
            sh.b[l].y = (k + 1 < K && n < N) ? src[1] : 0;
            sh.b[l].z = (k + 2 < K && n < N) ? src[2] : 0;
            sh.b[l].w = (k + 3 < K && n < N) ? src[3] : 0;
        }
    }
}

/* ... and stores them transposed into buffer `buf`. */
__device__ inline void store_b(Tiles &sm, const ShareB &sh, int buf, int tid)
{
#pragma unroll
    for (int l = 0; l < B_CHUNKS / THREADS; l++) {
        const int i = tid + l * THREADS;
        const int k = 4 * (i % (TSK / 4)), n = i / (TSK / 4);
        real *bt = (real *)sm.B[buf];
        bt[(k + 0) * (TSN + BPAD) + n] = sh.b[l].x;
        bt[(k + 1) * (TSN + BPAD) + n] = sh.b[l].y;
        bt[(k + 2) * (TSN + BPAD) + n] = sh.b[l].z;
        bt[(k + 3) * (TSN + BPAD) + n] = sh.b[l].w;
    }
}

template <bool VEC_A, bool VEC_B>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const real *A, const real *B, real *C)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int m0 = blockIdx.x * TSM, n0 = blockIdx.y * TSN;
    /* This thread's place, as rung 12: float4 columns am and am + WM/8 of the A tile,
     * float4 columns bq and bq + WN/8 of the transposed B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;

    real4 acc[8][2];
#pragma unroll
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = make_real4(0, 0, 0, 0);

    const int steps = (K + TSK - 1) / TSK;
    /* Fill the pipeline: A's tiles of steps 0 .. STAGES-2 in flight, one group each
     * (empty groups past the end keep the counting of wait_group the same for every
     * step); B's tile of step 0 into registers. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_a<VEC_A>(sm, s, s, tid, m0, M, K, A);
        commit_group();
    }
    ShareB next;
    load_b<VEC_B>(next, 0, tid, n0, N, K, B);

    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES, buf = t % 2;
        store_b(sm, next, buf, tid); /* B buffer `buf` was last read in step t-2 */
        wait_group<STAGES - 2>();    /* this thread's copies of step t have landed */
        __syncthreads();             /* everyone's have, and step t-1 is computed */
        {
            const int later = t + STAGES - 1; /* into the stage step t-1 used */
            if (later < steps)
                copy_a<VEC_A>(sm, later % STAGES, later, tid, m0, M, K, A);
            commit_group();
        }
        if (t + 1 < steps)
            load_b<VEC_B>(next, (t + 1) * TSK, tid, n0, N, K, B);
        /* Rung 12's inner loop. */
#pragma unroll
        for (int k = 0; k < TSK; k++) {
            const real4 a0 = sm.A[s][k][am], a1 = sm.A[s][k][am + WM / 8];
            const real4 b0 = sm.B[buf][k][bq], b1 = sm.B[buf][k][bq + WN / 8];
            const real b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int j = 0; j < 8; j++) {
                fma4(acc[j][0], a0, b[j]);
                fma4(acc[j][1], a1, b[j]);
            }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* C: whole float4s where the four rows exist and C's columns are 16-byte aligned,
     * single floats at the edges. */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
        if (n >= N)
            continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            const real4 v = acc[j][h];
            if (VEC_A && m + 3 < M) {
                *(real4 *)&C[m + n * M] = v;
            } else {
                const real e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                for (int i = 0; i < 4; i++)
                    if (m + i < M)
                        C[(m + i) + n * M] = e[i];
            }
        }
    }
}

/* The alignment test is the same for every thread, so each block takes one branch. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *__restrict__ A,
     const real *__restrict__ B, real *__restrict__ C)
{
    __shared__ Tiles sm;
    const bool vec_a = M % 4 == 0, vec_b = K % 4 == 0;
    if (vec_a && vec_b)
        gemm_body<true, true>(sm, M, N, K, A, B, C);
    else if (vec_a)
        gemm_body<true, false>(sm, M, N, K, A, B, C);
    else if (vec_b)
        gemm_body<false, true>(sm, M, N, K, A, B, C);
    else
        gemm_body<false, false>(sm, M, N, K, A, B, C);
}
