/* Probe, not a rung: can rung 17's transposing helper hide behind its GEMM?
 *
 * Rung 17 runs a helper that writes B^T (bandwidth-bound, about 44 us at 4096 on the H100)
 * and then its GEMM (compute-bound, about 2.7 ms). Here the two run at once:
 *   - the helper is a persistent grid, one block per SM, that transposes B in 32 x 32
 *     tiles in order of depth and, after each tile, adds 1 to a counter of its 32-deep
 *     chunk of B^T (release: every thread fences its stores, then one adds);
 *   - the GEMM is rung 17's loop (kernels-cuda/17-banks.cu, included) launched with
 *     programmatic dependent launch: it starts as soon as every helper block has
 *     started, and before copying a step's tile of B^T each thread checks, with an
 *     acquire load issued one step earlier, that the chunk is complete.
 * Counters are never reset: after call e a chunk's counter is e * N / 32.
 *
 * Times (median of REPS, CUDA events around each call): cuBLAS SGEMM; helper then GEMM
 * (rung 17 as the ladder runs it, with this helper); the overlapped pair; the GEMM alone.
 * Checks each C against cuBLAS's. Square sizes, multiples of the tile (no padding).
 *
 *   nvcc -O3 -arch=sm_90 -I kernels-cuda -DTSM=128 -DTSN=64 -DTSK=16 -DWPTM=8 -DWPTN=16 \
 *        -DSTAGES=2 overlap-probe.cu -lcublas -o overlap-probe && ./overlap-probe 4096 8192
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <algorithm>

#include "17-banks.cu"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define REPS 20

/* The helper: B (K x N, column-major) to Bt[n + k * N], one block per SM, tiles taken in
 * order of depth so that chunks finish roughly in the order the GEMM needs them. */
__global__ void transpose_chunks(const float *__restrict__ B, float *__restrict__ Bt, int K,
                                 int N, int *flags)
{
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    __shared__ float tile[32][33];
    const int tiles_n = N / 32, total = tiles_n * (K / 32);
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32; /* 32 x 8 threads */
    for (int t = blockIdx.x; t < total; t += gridDim.x) {
        const int kc = t / tiles_n, nt = t % tiles_n;
        for (int j = ty; j < 32; j += 8)
            tile[j][tx] = B[(kc * 32 + tx) + (size_t)(nt * 32 + j) * K];
        __syncthreads();
        for (int j = ty; j < 32; j += 8)
            Bt[(nt * 32 + tx) + (size_t)(kc * 32 + j) * N] = tile[tx][j];
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0)
            atomicAdd(&flags[kc], 1);
    }
}

__device__ inline int load_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* Rung 17's kernel with one addition: step s's tile of B^T is copied only once chunk
 * s * TSK / 32 of B^T is complete. `seen` holds the counter of chunk `seen_c` as loaded
 * one step before it is needed, so that the load's latency hides behind a step of work. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm_overlap(const int M, const int N, const int K, const float *__restrict__ A,
             const float *__restrict__ Bt, float *__restrict__ C, const int *flags,
             const int target)
{
    const float4 *Av = reinterpret_cast<const float4 *>(A);
    const float4 *Bv = reinterpret_cast<const float4 *>(Bt);
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV, nv0 = blockIdx.y * TSNV;
    __shared__ Tiles sm;
    int seen_c = -1, seen = 0;
    auto ready = [&](int step) { /* waits until step's chunk of B^T is complete */
        const int c = step * TSK / 32;
        if (c == seen_c && seen >= target)
            return;
        while ((seen = load_acquire(&flags[c])) < target) {
        }
        seen_c = c;
    };
    auto look_ahead = [&](int step) { /* starts the load for step's chunk */
        const int c = step * TSK / 32;
        if (c != seen_c || seen < target) {
            seen_c = c;
            seen = load_acquire(&flags[c]);
        }
    };

    float4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const int steps = K / TSK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps) {
            ready(s);
            copy_stage(sm, s, s, tid, mv0, nv0, M, N, Av, Bv);
        }
        commit_group();
    }
    if (STAGES - 1 < steps)
        look_ahead(STAGES - 1);
    for (int t = 0; t < steps; t++) {
        const int s = t % STAGES;
        wait_group<STAGES - 2>();
        __syncthreads();
        const int next = t + STAGES - 1;
        if (next < steps) {
            ready(next);
            copy_stage(sm, next % STAGES, next, tid, mv0, nv0, M, N, Av, Bv);
            if (next + 1 < steps)
                look_ahead(next + 1);
        }
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
    wait_group<0>();
#pragma unroll
    for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++) {
                const int m = 4 * (mv0 + tidm + wm * RTSM);
                const int n = 4 * (nv0 + tidn + wn * RTSN) + j;
                float *c = &C[m + (size_t)n * M];
                c[0] = acc[wn * 4 + j][wm].x;
                c[1] = acc[wn * 4 + j][wm].y;
                c[2] = acc[wn * 4 + j][wm].z;
                c[3] = acc[wn * 4 + j][wm].w;
            }
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* Max |x - ref| / max |ref| over n elements. */
static double rel_diff(const float *dx, const float *dref, size_t n)
{
    std::vector<float> x(n), r(n);
    CK(cudaMemcpy(x.data(), dx, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r.data(), dref, n * 4, cudaMemcpyDeviceToHost));
    double d = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            return INFINITY;
        d = fmax(d, fabs((double)x[i] - r[i]));
        m = fmax(m, fabs((double)r[i]));
    }
    return d / m;
}

__global__ void fill(float *x, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
        x[i] = (h & 0xffffff) / 8388608.0f - 1.0f;
    }
}

int main(int argc, char **argv)
{
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cublasHandle_t h;
    cublasCreate(&h);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("# size  cublas_ms  seq_ms  overlap_ms  gemm_only_ms  seq/cublas  overlap/cublas"
           "  (GFLOPS ratios: cublas_ms / x_ms)  diff_seq  diff_overlap\n");
    for (int a = 1; a < argc; a++) {
        const int n = atoi(argv[a]), M = n, N = n, K = n;
        const size_t nn = (size_t)n * n;
        float *A, *B, *Bt, *C, *Cref;
        int *flags;
        CK(cudaMalloc(&A, nn * 4)); CK(cudaMalloc(&B, nn * 4)); CK(cudaMalloc(&Bt, nn * 4));
        CK(cudaMalloc(&C, nn * 4)); CK(cudaMalloc(&Cref, nn * 4));
        CK(cudaMalloc(&flags, (K / 32) * sizeof(int)));
        CK(cudaMemset(flags, 0, (K / 32) * sizeof(int)));
        fill<<<1024, 256>>>(A, nn, 1u);
        fill<<<1024, 256>>>(B, nn, 2u);
        const float one = 1.0f, zero = 0.0f;
        const dim3 block(RTSM, RTSN), grid(M / TSM, N / TSN);
        int epoch = 0;
        auto cublas = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, A, M, B, K,
                                        &zero, Cref, M); };
        auto seq = [&] {
            transpose_chunks<<<sms, 256>>>(B, Bt, K, N, flags);
            epoch++;
            gemm<<<grid, block>>>(M, N, K, A, Bt, C);
        };
        auto gemm_only = [&] { gemm<<<grid, block>>>(M, N, K, A, Bt, C); };
        auto overlap = [&] {
            transpose_chunks<<<sms, 256>>>(B, Bt, K, N, flags);
            epoch++;
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = grid;
            cfg.blockDim = block;
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            at[0].val.programmaticStreamSerializationAllowed = 1;
            cfg.attrs = at;
            cfg.numAttrs = 1;
            const int target = epoch * (N / 32);
            CK(cudaLaunchKernelEx(&cfg, gemm_overlap, M, N, K, (const float *)A,
                                  (const float *)Bt, C, (const int *)flags, target));
        };
        auto time = [&](auto f) {
            std::vector<float> ms;
            for (int r = 0; r < 3; r++) f();
            for (int r = 0; r < REPS; r++) {
                CK(cudaEventRecord(e0));
                f();
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float t;
                CK(cudaEventElapsedTime(&t, e0, e1));
                ms.push_back(t);
            }
            CK(cudaGetLastError());
            return median(ms);
        };
        /* Checks first, each from a B^T of NaNs (all bits set): a GEMM that read a chunk
         * before the helper wrote it would carry NaNs into C. */
        cublas();
        CK(cudaMemset(Bt, 0xff, nn * 4));
        overlap();
        CK(cudaDeviceSynchronize());
        const double dov = rel_diff(C, Cref, nn);
        CK(cudaMemset(Bt, 0xff, nn * 4));
        seq();
        CK(cudaDeviceSynchronize());
        const double dseq = rel_diff(C, Cref, nn);
        /* Times, interleaved twice, so that clock drift shows. */
        for (int round = 0; round < 2; round++) {
            const float tc = time(cublas);
            const float ts = time(seq);
            const float to = time(overlap);
            const float tg = time(gemm_only);
            printf("%5d  %9.3f  %6.3f  %10.3f  %12.3f  %10.3f  %14.3f  %8.1e  %8.1e\n", n, tc,
                   ts, to, tg, tc / ts, tc / to, dseq, dov);
        }
        cudaFree(A); cudaFree(B); cudaFree(Bt); cudaFree(C); cudaFree(Cref); cudaFree(flags);
    }
    return 0;
}
