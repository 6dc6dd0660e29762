/* Rung 16: tensor cores with float32 accuracy, "3xTF32" (CUDA, compute capability 8.0+)
 * Change since rung 15: the multiply-adds leave the FP32 units for the tensor cores. Each
 *   warp hands them 16 x 8 x 8 blocks of the product through the PTX instruction
 *   mma.sync.m16n8k8 with TF32 inputs and float32 accumulators.
 * Why it should help: rungs 9-15 are limited by the FP32 units (132 SMs x 128 lanes,
 *   67 TFLOPS on the H100), and cuBLAS's SGEMM reaches 51 of them. The tensor cores do
 *   about 495 TFLOPS in TF32, more than seven times as much.
 * The catch, and what this rung does about it: TF32 keeps float32's exponent but only 10
 *   of its 23 mantissa bits, so one TF32 product is good to about 3 decimal digits, not 7.
 *   (That is the arithmetic of cuBLAS's "TF32 tensor core" mode.) So each float is split
 *   into two TF32 numbers,
 *       x = big + small,  big = x rounded to TF32,  small = (x - big) rounded to TF32,
 *   which together hold about 22 of x's 24 significant bits, and each product is built
 *   from three tensor-core products:
 *       a * b  ~  a_small * b_big + a_big * b_small + a_big * b_big.
 *   The dropped term a_small * b_small and the roundings of the two smalls add up to at
 *   most about 3 * 2^-22 |a b|: a few units in float32's last place, not in its third
 *   digit. (Each product of two TF32 numbers is exact in float32.) Three tensor-core
 *   products per multiply-add still leave more than twice the FP32 units' rate.
 * How it is checked: as a float32 kernel, but with u = 2^-20 instead of 2^-24 in the
 *   bound |c - r| <= K u (|A||B|). Up to 12 units of 2^-24 come from each product (the
 *   split), and the tensor cores may round the sums toward zero; 2^-20 covers both for
 *   every K >= 1. Measured, the largest error stays inside float32's own bound: about 1%
 *   of it at 4096, where rung 15 uses 0.1% (chapter 16).
 * What it does not do like float32: an infinite input gives NaN (inf - inf in the split),
 *   and a value within 2^-12 of the largest float rounds up to infinity as its big part.
 * The rest is rungs 13 and 15: cp.async copies both tiles straight into shared memory,
 *   STAGES steps ahead; edges are zero-filled by the copies; the arguments are a BLAS
 *   call's (alpha, beta, leading dimensions; C read only when beta is not 0).
 * Where the warp's data sits (PTX ISA, mma.m16n8k8 with .tf32): lane l of a warp is in
 *   group g = l / 4, place t = l % 4 within it. It supplies A(g, t), A(g + 8, t),
 *   A(g, t + 4), A(g + 8, t + 4) of the 16 x 8 block of A; B(t, g), B(t + 4, g) of the 8 x 8
 *   block of B; and holds C(g, 2t), C(g, 2t + 1), C(g + 8, 2t), C(g + 8, 2t + 1).
 * Shared-memory layout: A's tile as it lies ([k][m], rows of TSM + 8 floats) and B's as it
 *   lies ([n][k], rows of TSK + 4 floats). With those paddings the 32 lanes' reads of a
 *   fragment fall in 32 different banks. Lane (g, t) reads A at k = t, m = g: word
 *   t (TSM + 8) + g, and TSM + 8 is 8 times an odd number, so the four t land on four
 *   different multiples of 8 (mod 32) and the eight g fill the gaps. It reads B at n = g,
 *   k = t: word g (TSK + 4) + t, and TSK + 4 is 4 times an odd number, so the eight g land
 *   on eight different multiples of 4 and the four t fill the gaps.
 * Parameters: TSM, TSN, TSK (block tile), WM, WN (warp tile), STAGES.
 * Constraints: WM a multiple of 16 dividing TSM, WN a multiple of 8 dividing TSN, TSK a
 *   multiple of 8; the thread count divides the 16-byte pieces of both tiles; within
 *   48 KiB of static shared memory.
 * Sizes: any M, N, K >= 1; lda >= M, ldb >= K, ldc >= M.
 * Precision: float only: mma.sync with TF32 inputs is a float32 instruction. The H100's
 *   FP64 tensor cores take another (DMMA: mma.sync.m8n8k4 with .f64) with its own
 *   fragment layout, a kernel of its own.
 */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define MIN_BLOCKS (THREADS <= 256 ? 2 : 1)
#define MT (WM / 16)          /* 16-row mma blocks in a warp tile */
#define NT (WN / 8)           /* 8-column mma blocks in a warp tile */
#define LDA_S (TSM + 8)       /* A tile row length in shared memory, floats */
#define LDB_S (TSK + 4)       /* B tile row length */
#define A_CHUNKS (TSM / 4 * TSK) /* 16-byte pieces of an A tile */
#define B_CHUNKS (TSN * TSK / 4) /* 16-byte pieces of a B tile */

struct Tiles {
    float A[STAGES][TSK][LDA_S]; /* [k][m]: A as it lies */
    float B[STAGES][TSN][LDB_S]; /* [n][k]: B as it lies */
};

/* cp.async as in rung 13: `bytes` (16 or 4) to shared dst, of which the first `valid` are
 * read from src and the rest filled with zeros. */
__device__ inline void copy16(float *dst, const float *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                 "r"(valid));
}
__device__ inline void copy4(float *dst, const float *src, int valid)
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

/* Bytes of the 4 floats from `start` that lie before `end`. */
__device__ inline int valid_bytes(int start, int end)
{
    const int n = end - start;
    return 4 * (n < 0 ? 0 : n > 4 ? 4 : n);
}

/* Issues the copies of the tiles at depth k0 into stage s. A piece outside the matrix
 * reads nothing (valid = 0) and names the matrix's first element as its source, so no
 * address outside an allocation is ever formed. VEC: 16-byte pieces (A, B 16-byte
 * aligned, lda and ldb multiples of 4); otherwise single floats. */
template <bool VEC>
__device__ inline void copy_tiles(Tiles &sm, int s, int k0, int tid, int m0, int n0, int M,
                                  int N, int K, const float *A, int lda, const float *B,
                                  int ldb)
{
#pragma unroll
    for (int l = 0; l < A_CHUNKS / THREADS; l++) {
        const int c = tid + l * THREADS;
        const int mq = c % (TSM / 4), k = c / (TSM / 4);
        const int m = m0 + 4 * mq, kk = k0 + k;
        float *dst = &sm.A[s][k][4 * mq];
        if (VEC) {
            const int valid = kk < K ? valid_bytes(m, M) : 0;
            copy16(dst, valid ? A + m + (size_t)kk * lda : A, valid);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = (kk < K && m + j < M) ? 4 : 0;
                copy4(dst + j, valid ? A + (m + j) + (size_t)kk * lda : A, valid);
            }
        }
    }
#pragma unroll
    for (int l = 0; l < B_CHUNKS / THREADS; l++) {
        const int c = tid + l * THREADS;
        const int kq = c % (TSK / 4), n = c / (TSK / 4);
        const int k = k0 + 4 * kq, nn = n0 + n;
        float *dst = &sm.B[s][n][4 * kq];
        if (VEC) {
            const int valid = nn < N ? valid_bytes(k, K) : 0;
            copy16(dst, valid ? B + k + (size_t)nn * ldb : B, valid);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int valid = (nn < N && k + j < K) ? 4 : 0;
                copy4(dst + j, valid ? B + (k + j) + (size_t)nn * ldb : B, valid);
            }
        }
    }
}

/* x = big + small, both TF32 (a float whose low 13 mantissa bits are zero), each rounded
 * to nearest. x - big is exact in float32, so only small's own rounding is lost. */
__device__ inline void split(float x, unsigned &big, unsigned &small)
{
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(big) : "f"(x));
    const float rest = x - __uint_as_float(big);
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(small) : "f"(rest));
}

/* acc += a * b on the tensor cores: a 16 x 8 block of A, an 8 x 8 block of B. */
__device__ inline void mma(float (&acc)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const float alpha, const float *A, const int lda,
                                 const float *B, const int ldb, const float beta, float *C,
                                 const int ldc)
{
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4; /* this lane's group and place in it */
    const int wm = (warp % WARPS_M) * WM; /* this warp's corner in the block tile */
    const int wn = (warp / WARPS_M) * WN;
    const int m0 = blockIdx.x * TSM, n0 = blockIdx.y * TSN;

    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
            acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.0f;

    /* The pipeline of rung 13, for both tiles: steps 0 .. STAGES-2 in flight first, one
     * commit group per step (empty ones past the end keep wait_group's count right). */
    const int steps = (K + TSK - 1) / TSK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_tiles<VEC>(sm, s, s * TSK, tid, m0, n0, M, N, K, A, lda, B, ldb);
        commit_group();
    }

    for (int step = 0; step < steps; step++) {
        const int s = step % STAGES;
        wait_group<STAGES - 2>(); /* this thread's copies of this step have landed */
        __syncthreads();          /* everyone's have, and the previous step is computed */
        {
            const int later = step + STAGES - 1; /* into the stage the previous step used */
            if (later < steps)
                copy_tiles<VEC>(sm, later % STAGES, later * TSK, tid, m0, n0, M, N, K, A,
                                lda, B, ldb);
            commit_group();
        }

#pragma unroll
        for (int kk = 0; kk < TSK; kk += 8) {
            /* This lane's part of the warp's NT blocks of B (8 x 8 each), split... */
            unsigned b_big[NT][2], b_small[NT][2];
#pragma unroll
            for (int j = 0; j < NT; j++) {
                const float *bcol = sm.B[s][wn + 8 * j + g];
                split(bcol[kk + t], b_big[j][0], b_small[j][0]);
                split(bcol[kk + t + 4], b_big[j][1], b_small[j][1]);
            }
            /* ... then one block of A (16 x 8) at a time against all of them, so that only
             * one block's split A is held in registers. */
#pragma unroll
            for (int i = 0; i < MT; i++) {
                unsigned a_big[4], a_small[4];
#pragma unroll
                for (int r = 0; r < 4; r++)
                    split(sm.A[s][kk + t + 4 * (r / 2)][wm + 16 * i + g + 8 * (r % 2)],
                          a_big[r], a_small[r]);
                /* The small terms first, while the sum is still small. */
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    mma(acc[i][j], a_small, b_big[j]);
                    mma(acc[i][j], a_big, b_small[j]);
                    mma(acc[i][j], a_big, b_big[j]);
                }
            }
        }
    }
    wait_group<0>(); /* nothing may still be writing shared memory when the block ends */

    /* Only the elements of C that exist are written; C is read only when beta is not 0
     * (the same for every thread, so no thread diverges). */
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                const int m = m0 + wm + 16 * i + g + 8 * (r / 2);
                const int n = n0 + wn + 8 * j + 2 * t + r % 2;
                if (m < M && n < N) {
                    float *c = &C[m + (size_t)n * ldc];
                    *c = beta == 0.0f ? alpha * acc[i][j][r]
                                      : alpha * acc[i][j][r] + beta * *c;
                }
            }
}

/* As rung 15: one alignment test, the same for every thread, picks the copy width. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const float alpha, const float *__restrict__ A,
     const int lda, const float *__restrict__ B, const int ldb, const float beta,
     float *__restrict__ C, const int ldc)
{
    __shared__ Tiles sm;
    if (lda % 4 == 0 && ldb % 4 == 0 &&
        ((unsigned long long)A | (unsigned long long)B) % 16 == 0)
        gemm_body<true>(sm, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_body<false>(sm, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
