/* Rung 18 (experiment): rung 17 without the transposing helper: B's tile copied as it lies. */
#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define MIN_BLOCKS (WPTM * WPTN > 64 ? 1 : (THREADS < 512 ? 512 / THREADS : 1))
#define WPTMV (WPTM / 4)
#define TSMV (TSM / 4)
#define TSKV (TSK / 4)
#define BROW (TSKV + 1) /* float4s per row of the B tile: TSK floats and 4 of padding */
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSN * TSKV / THREADS)

__device__ inline void copy16(void *dst, const void *src)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
}
__device__ inline void commit_group() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ inline void wait_group()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ inline float component(float4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

struct Tiles {
    float4 A[STAGES][TSK][TSMV]; /* [k][m], A as it lies */
    float4 B[STAGES][TSN][BROW]; /* [n][k], B as it lies */
};

__device__ inline void copy_stage(Tiles &sm, int s, int step, int tid, int m0, int n0,
                                  int M, int K, const float *A, const float *B)
{
    const int k0 = step * TSK;
#pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l * THREADS;
        copy16(&sm.A[s][i / TSMV][i % TSMV], A + (m0 + 4 * (i % TSMV)) + (size_t)(k0 + i / TSMV) * M);
    }
#pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l * THREADS;
        copy16(&sm.B[s][i / TSKV][i % TSKV], B + (k0 + 4 * (i % TSKV)) + (size_t)(n0 + i / TSKV) * K);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const float *__restrict__ A,
     const float *__restrict__ B, float *__restrict__ C)
{
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int m0 = blockIdx.x * TSM, n0 = blockIdx.y * TSN;
    __shared__ Tiles sm;

    float4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    const int steps = K / TSK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            copy_stage(sm, s, s, tid, m0, n0, M, K, A, B);
        commit_group();
    }
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>();
        __syncthreads();
        const int next = t + STAGES - 1;
        if (next < steps)
            copy_stage(sm, next % STAGES, next, tid, m0, n0, M, K, A, B);
        commit_group();
#pragma unroll
        for (int kq = 0; kq < TSKV; kq++) {
            float4 b[WPTN]; /* this thread's columns at depths 4kq .. 4kq+3 */
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                b[wn] = sm.B[s][tidn + wn * RTSN][kq];
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                float4 a[WPTMV];
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++)
                    a[wm] = sm.A[s][4 * kq + kk][tidm + wm * RTSM];
#pragma unroll
                for (int wn = 0; wn < WPTN; wn++) {
                    const float bk = component(b[wn], kk);
#pragma unroll
                    for (int wm = 0; wm < WPTMV; wm++) {
                        acc[wn][wm].x += a[wm].x * bk;
                        acc[wn][wm].y += a[wm].y * bk;
                        acc[wn][wm].z += a[wm].z * bk;
                        acc[wn][wm].w += a[wm].w * bk;
                    }
                }
            }
        }
    }
    wait_group<0>();
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++) {
            const int m = m0 + 4 * (tidm + wm * RTSM);
            const int n = n0 + tidn + wn * RTSN;
            float *c = &C[m + (size_t)n * M];
            c[0] = acc[wn][wm].x;
            c[1] = acc[wn][wm].y;
            c[2] = acc[wn][wm].z;
            c[3] = acc[wn][wm].w;
        }
}
