/* Rung 14: big thread tiles, B read along k (CUDA, compute capability 8.0+)
 * Change since rung 13: the shape of cuBLAS's own kernel. Profiling cuBLAS on the H100
 *   (results/h100-2026-11-21-experiments) shows sm80_xmma_gemm_..._nn_..._256x128x8_
 *   stage3_warpsize4x2x1_ffma: 256 threads, 254 registers each, one block per SM, a
 *   256 x 128 tile 8 deep in 3 cp.async stages. So here:
 *   - Each thread computes 16 x 8 elements of C instead of 8 x 8, and a block covers a
 *     256 x 128 tile with the same 256 threads. With 128 accumulators a thread needs
 *     about 210 registers, so only one block fits on an SM (8 warps), where rungs 9-13
 *     ran two blocks of up to 128 registers per thread.
 *   - B's tile is not transposed at all: cp.async copies it as it lies, Bsub[n][k], and
 *     the inner loop reads it four k at a time. A float4 of B holds one column at four
 *     depths, and each of those depths meets the four float4s of A of its own k.
 * Why it should help: the bigger tile needs fewer shared-memory reads per multiply-add:
 *   per k a thread reads 4 float4s of A and half a float4 of B for 128 multiply-adds,
 *   against 4 reads for 64 in rungs 9-13, and no instruction is spent transposing B.
 *   With up to 255 registers per thread, B's values for four steps and 128
 *   accumulators fit together.
 * What the profiler says it does instead: it is slower (chapter 14). Its instruction
 *   count, shared-memory traffic and bank conflicts (none) match cuBLAS's kernel, but
 *   a warp scheduler, with only 2 warps to choose from, issued an instruction in 63% of
 *   cycles against cuBLAS's 91%; the main stall is "dispatch", which points at register
 *   bank conflicts between the operands of the multiply-adds. cuBLAS's machine code is
 *   scheduled and register-allocated by hand; this kernel is what the compiler makes of
 *   the same plan. The rung stays in the ladder as the measured answer to "why not just
 *   copy cuBLAS's shape?".
 * Lanes: a warp holds a 64 x 64 block of C; lane l takes the float4s of rows l % 4,
 *   l % 4 + 4, + 8, + 12 (in float4s) and the columns l / 4, l / 4 + 8, ..., + 56. The 8
 *   columns read at once are consecutive rows of Bsub, which its padding (rows of
 *   TSK + 4 floats) puts in different banks.
 * Parameters: TSM, TSN, TSK (block tile), STAGES. The warp tile (64 x 64) and the thread
 *   tile (16 x 8) are fixed: they are what the register file holds.
 * Constraints: 64 divides TSM and TSN; 4 divides TSK; the thread count divides the
 *   16-byte pieces of each tile; all stages within 48 KiB of static shared memory.
 * Sizes: any M, N, K >= 1 (edges as in rung 13).
 * Precision: float only. Its fixed 16 x 8 thread tile needs 128 accumulators, which in
 *   double would take 256 registers alone, more than the 255 a thread may have: the rung
 *   is its register budget, so it has no double version (host/rungs/rungs_modern.c).
 */
#define WM 64
#define WN 64
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define LM 4              /* lanes along m: four float4s of rows each, 4 float4s apart */
#define LN 8              /* lanes along n: eight columns each, 8 apart */
#define BPAD 4            /* Bsub rows of TSK + 4 floats, as rung 13 */
#define BROW ((TSK + BPAD) / 4) /* float4s per Bsub row */
#define A_CHUNKS (TSM / 4 * TSK) /* 16-byte pieces of an A tile */
#define B_CHUNKS (TSN * TSK / 4)

__device__ inline void fma4(float4 &acc, float4 a, float b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

/* Component i of a float4, for an i the compiler knows (it unrolls every loop). */
__device__ inline float component(float4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* cp.async: copy `bytes` (4 or 16) from global src to shared dst, of which only the first
 * `valid` bytes are read; the rest of dst is filled with zeros. .cg (16 bytes only) keeps
 * the data out of L1: each tile is read once per block, so only L2 helps. */
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

/* Floats of a run of `len` starting at `start`, of which those before `end` exist, in
 * bytes: 4 * clamp(end - start, 0, len). */
__device__ inline int valid_bytes(int start, int end, int len)
{
    const int n = end - start;
    return 4 * (n < 0 ? 0 : n > len ? len : n);
}

struct Tiles {
    float4 A[STAGES][TSK][TSM / 4];  /* [k][m]: A as it lies, k-major */
    float4 B[STAGES][TSN][BROW];     /* [n][k]: B as it lies, padded rows */
};

/* Issues the copies of step `step`'s tiles into stage `s`. VEC_A / VEC_B: 16-byte pieces
 * (the leading dimension is a multiple of 4) or single floats. A piece that lies outside
 * the matrix reads nothing (valid = 0); its source address is then the matrix itself, so
 * no address outside an allocation is ever formed. */
template <bool VEC_A, bool VEC_B>
__device__ inline void load_stage(Tiles &sm, int s, int step, int tid, int m0, int n0,
                                  int M, int N, int K, const float *A, const float *B)
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
            float *dst = (float *)&sm.A[s][k][mq];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = (kk < K && m + j < M) ? 4 : 0;
                copy4(dst + j, valid ? A + (m + j) + kk * M : A, valid);
            }
        }
    }
#pragma unroll
    for (int l = 0; l < B_CHUNKS / THREADS; l++) {
        const int c = tid + l * THREADS;
        const int kq = c % (TSK / 4), n = c / (TSK / 4);
        const int k = k0 + 4 * kq, nn = n0 + n;
        if (VEC_B) {
            const int valid = nn < N ? valid_bytes(k, K, 4) : 0;
            copy16(&sm.B[s][n][kq], valid ? B + k + nn * K : B, valid);
        } else {
            float *dst = (float *)&sm.B[s][n][kq];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = (nn < N && k + j < K) ? 4 : 0;
                copy4(dst + j, valid ? B + (k + j) + nn * K : B, valid);
            }
        }
    }
}

template <bool VEC_A, bool VEC_B>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const float *A, const float *B, float *C)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int m0 = blockIdx.x * TSM, n0 = blockIdx.y * TSN;
    /* This thread's place: float4 columns am, am + 4, am + 8, am + 12 of the A tile and
     * rows bn, bn + 8, ..., bn + 56 of the B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bn = (warp / WARPS_M) * WN + lane / LM;

    float4 acc[8][4];
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int i = 0; i < 4; i++)
            acc[j][i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    const int steps = (K + TSK - 1) / TSK;
    /* The pipeline of rung 13, without the transposing pass. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            load_stage<VEC_A, VEC_B>(sm, s, s, tid, m0, n0, M, N, K, A, B);
        commit_group();
    }

    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>(); /* this thread's copies of step t have landed */
        __syncthreads();          /* everyone's have, and step t-1 is computed */
        {
            const int next = t + STAGES - 1; /* into the stage step t-1 used */
            if (next < steps)
                load_stage<VEC_A, VEC_B>(sm, next % STAGES, next, tid, m0, n0, M, N, K, A,
                                         B);
            commit_group();
        }
#pragma unroll
        for (int kq = 0; kq < TSK / 4; kq++) {
            float4 b[8]; /* this thread's 8 columns at depths 4kq .. 4kq+3 */
#pragma unroll
            for (int j = 0; j < 8; j++)
                b[j] = sm.B[s][bn + j * LN][kq];
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                float4 a[4]; /* its 16 rows at depth 4kq + kk */
#pragma unroll
                for (int i = 0; i < 4; i++)
                    a[i] = sm.A[s][kq * 4 + kk][am + i * LM];
#pragma unroll
                for (int j = 0; j < 8; j++) {
                    const float bk = component(b[j], kk);
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        fma4(acc[j][i], a[i], bk);
                }
            }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* C as rung 13: float4s where they fit, single floats at the edges. */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int n = n0 + bn + j * LN;
        if (n >= N)
            continue;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const int m = m0 + 4 * (am + i * LM);
            const float4 v = acc[j][i];
            if (VEC_A && m + 3 < M) {
                *(float4 *)&C[m + n * M] = v;
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++)
                    if (m + e < M)
                        C[(m + e) + n * M] = component(v, e);
            }
        }
    }
}

/* The alignment test is the same for every thread, so each block takes one branch. One
 * block per SM: up to 255 registers per thread. */
extern "C" __global__ void __launch_bounds__(THREADS, 1)
gemm(const int M, const int N, const int K, const float *__restrict__ A,
     const float *__restrict__ B, float *__restrict__ C)
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
