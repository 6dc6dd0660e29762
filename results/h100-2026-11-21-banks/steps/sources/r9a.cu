/* Rung 9: software prefetching (CUDA)
 * Change since rung 8: shared memory holds two tiles of A and two of B (double
 *   buffering). While the block computes on the tiles of step t, each thread already has
 *   its share of the tiles of step t+1 on the way from global memory into registers
 *   (Apre, Bpre); at the top of the next step it stores them into the other pair of
 *   buffers. One barrier per step remains instead of two.
 * Why it should help: in rung 8 a thread issued its global loads and then waited at the
 *   barrier until they arrived, so every step began with a full trip to global memory
 *   (hundreds of cycles) with nothing to compute; only other blocks on the same SM could
 *   fill the gap. Now the loads are issued first and the whole computation of a step runs
 *   while they travel. The single barrier is safe: the buffers written at the top of
 *   step t were last read in step t-2, and every thread has passed step t-1's barrier
 *   since.
 * The price: twice the shared memory, and the registers that hold the prefetched values.
 *   It is also why TSK is 16 here where rungs 6-8 take 32: two buffers of 32 would need
 *   64 KiB, more than the 48 KiB a block may declare.
 * Parameters: TSM, TSN, TSK, WIDTH, WPTM, WPTN, as in rung 7. It keeps rung 8's default
 *   features: the read-only data path (const __restrict__ pointers) and no warp shuffles.
 * Constraints: as rung 7.
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 */

#ifndef STAGES
#define STAGES 2
#endif
#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define MIN_BLOCKS (WPTM * WPTN > 64 ? 1 : (THREADS < 512 ? 512 / THREADS : 1))
#define WPTMV (WPTM / 4)
#define WPTNV (WPTN / 4)
#define TSMV (TSM / 4)
#define TSNV (TSN / 4)
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSNV * TSK / THREADS)

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

struct Tiles {
    float4 A[STAGES][TSK][TSMV];
    float4 B[STAGES][TSK][TSNV];
};

__device__ inline void load_stage(Tiles &sm, int s, int t, int tid, int mv0, int nv0, int M,
                                  int N, const float4 *Av, const float4 *Bv)
{
#pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l * THREADS;
        copy16(&sm.A[s][i / TSMV][i % TSMV], &Av[(mv0 + i % TSMV) + (t * TSK + i / TSMV) * (M / 4)]);
    }
#pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l * THREADS;
        copy16(&sm.B[s][i / TSNV][i % TSNV], &Bv[(nv0 + i % TSNV) + (t * TSK + i / TSNV) * (N / 4)]);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const float *__restrict__ A,
     const float *__restrict__ Bt, float *__restrict__ C)
{
    const float4 *Av = reinterpret_cast<const float4 *>(A);
    const float4 *Bv = reinterpret_cast<const float4 *>(Bt);
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV, nv0 = blockIdx.y * TSNV;
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
            load_stage(sm, s, s, tid, mv0, nv0, M, N, Av, Bv);
        commit_group();
    }
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>();
        __syncthreads();
        const int next = t + STAGES - 1;
        if (next < steps)
            load_stage(sm, next % STAGES, next, tid, mv0, nv0, M, N, Av, Bv);
        commit_group();
#pragma unroll
        for (int k = 0; k < TSK; k++) {
            float4 a[WPTMV];
            float b[WPTN];
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                a[wm] = sm.A[s][k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++) {
                const float4 v = sm.B[s][k][tidn + wn * RTSN];
                b[4 * wn] = v.x; b[4 * wn + 1] = v.y; b[4 * wn + 2] = v.z; b[4 * wn + 3] = v.w;
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
    wait_group<0>();
#pragma unroll
    for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++) {
                float *c = &C[(mv0 + tidm + wm * RTSM) * 4 + ((nv0 + tidn + wn * RTSN) * 4 + j) * M];
                c[0] = acc[wn * 4 + j][wm].x;
                c[1] = acc[wn * 4 + j][wm].y;
                c[2] = acc[wn * 4 + j][wm].z;
                c[3] = acc[wn * 4 + j][wm].w;
            }
}
