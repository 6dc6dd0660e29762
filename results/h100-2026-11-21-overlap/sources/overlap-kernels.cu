/* Probe v2, device code (not a rung): rung 17's GEMM, overlapped with a helper that writes
 * B^T, compiled by NVRTC with the ladder's options (overlap-probe.cu). See ../README.md.
 *
 * transpose_warps: one block of 4 warps per SM, persistent. Each warp transposes its own
 *   32 x 32 tiles (taken in order of depth, so chunks finish roughly in the order the GEMM
 *   needs them): 32 loads in flight per lane, no block-wide barrier. After each tile every
 *   lane fences its stores and lane 0 adds 1 to the tile's 32-deep chunk counter. The
 *   block is small (128 threads, under 48 registers) so that rung 17's 4 blocks per SM
 *   still fit beside it.
 * gemm_overlap: rung 17's kernel with one addition: step s's tile of B^T is copied only
 *   once chunk s * TSK / 32 is complete, checked with an acquire load issued one step
 *   before, so that its latency hides behind a step of work.
 * Counters are never reset: after call e a chunk's counter is e * N / 32.
 */
#include "17-banks.cu"

/* 10 blocks of 128 threads would fit an SM: at most 51 registers each (48 in practice),
 * so one helper block leaves room for 4 of rung 17's blocks. */
extern "C" __global__ void __launch_bounds__(128, 10)
transpose_warps(const float *__restrict__ B, float *__restrict__ Bt, const int K, const int N,
                int *flags)
{
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    __shared__ float tile[4][32][33];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int tiles_n = N / 32, total = tiles_n * (K / 32);
    float (*t)[33] = tile[warp];
    for (int i = blockIdx.x * 4 + warp; i < total; i += gridDim.x * 4) {
        const int kc = i / tiles_n, nt = i % tiles_n;
        const float *src = B + (kc * 32 + lane) + (size_t)(nt * 32) * K;
        float v[32];
#pragma unroll
        for (int j = 0; j < 32; j++)
            v[j] = src[(size_t)j * K]; /* column nt*32+j, depth kc*32+lane */
#pragma unroll
        for (int j = 0; j < 32; j++)
            t[j][lane] = v[j];
        __syncwarp();
        float *dst = Bt + (nt * 32 + lane) + (size_t)(kc * 32) * N;
#pragma unroll
        for (int j = 0; j < 32; j++)
            dst[(size_t)j * N] = t[lane][j]; /* depth kc*32+j, column nt*32+lane */
        __threadfence();
        __syncwarp();
        if (lane == 0) {
            atomicAdd(&flags[kc], 1);
            atomicAdd(&flags[K / 32], 1); /* every tile: all done at e * (N/32) * (K/32) */
        }
    }
}

__device__ inline int load_acquire(const int *p)
{
    int v;
    /* No "memory" clobber: that would stop the compiler from moving shared-memory reads
     * across the poll inside the loop. The copies that must follow it are volatile asm
     * too, which the compiler keeps in order, and they depend on the poll's branch. */
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

/* Rung 17's kernel with one addition: with POLL, step s's tile of B^T is copied only once
 * chunk s * TSK / 32 of B^T is complete. `seen` holds the counter of chunk `seen_c` as
 * loaded one step before it is needed, so that the load's latency hides behind a step of
 * work. */
template <bool POLL>
__device__ inline void overlap_body(Tiles &sm, const int M, const int N, const int K,
                                    const float *__restrict__ A, const float *__restrict__ Bt,
                                    float *__restrict__ C, const int *flags, const int target)
{
    const float4 *Av = reinterpret_cast<const float4 *>(A);
    const float4 *Bv = reinterpret_cast<const float4 *>(Bt);
    const int tidm = threadIdx.x, tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV, nv0 = blockIdx.y * TSNV;
    int seen_c = -1, seen = 0;
    auto ready = [&](int step) { /* waits until step's chunk of B^T is complete */
        if (!POLL)
            return;
        const int c = step * TSK / 32;
        if (c == seen_c && seen >= target)
            return;
        while ((seen = load_acquire(&flags[c])) < target) {
        }
        seen_c = c;
    };
    auto look_ahead = [&](int step) { /* starts the load for step's chunk */
        if (!POLL)
            return;
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

/* A block that starts after the helper has finished (every block after the first wave)
 * learns it from one load and runs without polling. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm_overlap(const int M, const int N, const int K, const float *__restrict__ A,
             const float *__restrict__ Bt, float *__restrict__ C, const int *flags,
             const int target)
{
    __shared__ Tiles sm;
    __shared__ int all_done;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        all_done = load_acquire(&flags[K / 32]) >= target * (K / 32);
    __syncthreads(); /* the acquire by one thread, then the barrier, covers the block */
    if (all_done)
        overlap_body<false>(sm, M, N, K, A, Bt, C, flags, target);
    else
        overlap_body<true>(sm, M, N, K, A, Bt, C, flags, target);
}
