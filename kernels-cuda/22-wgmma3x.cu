/* Rung 22: 3xTF32 on wgmma, float32 accuracy on Hopper's path (CUDA, sm_90a only)
 * Parent: rung 21 (TMA copies and wgmma in TF32, one product per multiply-add).
 * What changed: rung 16's split, on rung 21's instructions. Each float becomes two TF32
 *   numbers, x = big + small (big = x rounded to TF32, small = the rest rounded to TF32),
 *   and every 64 x TSN x 8 step is three wgmmas into the same accumulators:
 *       a_small * b_big,  a_big * b_small,  a_big * b_big   (small products first).
 *   A is split in registers, where rung 21 already reads it. B is read by the tensor
 *   cores from shared memory, so its split must be in shared memory too: after a stage
 *   lands, every thread rewrites its share of B's tile in place as big parts and writes
 *   the small parts to a second buffer, and fences them for the tensor cores (ordinary
 *   stores read next by the async proxy need fence.proxy.async).
 * Why it should help: rung 16 does the same arithmetic at 63 TFLOPS on mma.sync. Three
 *   wgmmas per step cost three times rung 21's tensor-core time, so the ceiling is a third
 *   of cuBLAS's TF32 (about 130 TFLOPS); splitting B costs shared-memory traffic (one
 *   read and two writes of each element of B's tile per k-tile). To hide it, the split of
 *   the next stage runs while this stage's wgmmas do (they are asynchronous), into the
 *   other of two small-part buffers. Prediction: 100-115 TFLOPS at 4096 and 8192.
 * Accuracy: as rung 16: the split keeps about 22 of 24 bits, the dropped a_small * b_small
 *   and the roundings of the small parts add up to a few units of 2^-24; checked with
 *   u = 2^-20 in |c - r| <= K u (|A||B|). Inf inputs give NaN (inf - inf in the split).
 * Shared memory per stage as rung 21, plus two buffers of B's small parts (TSN x 32, the
 *   same swizzled layout: the split is element by element, so the layout carries over).
 * Pipeline: thread 0 refills a stage as soon as the block is done with it, STAGES k-tiles
 *   ahead. Step kt: issue kt's wgmmas; wait for stage kt+1 and split it; wait for the
 *   wgmmas; block barrier (stage kt and its small buffer are free, kt+1's split is
 *   published); refill.
 * Parameters: TSM (64 or 128), TSN (64, 128 or 256), STAGES, as rung 21.
 * Sizes: as rung 21: any M, N, K >= 1 (M and K padded by the registry to multiples of 4
 *   when they are not), ldc >= M; C = alpha A B + beta C.
 */
#include "hopper.cuh"

#define WARPGROUPS (TSM / 64)
#define THREADS (WARPGROUPS * 128)
#define TSK 32
#define A_TILE (TSM * TSK)
#define B_TILE (TSN * TSK)
#define STAGE_BYTES ((A_TILE + B_TILE) * 4)
/* The stages, two buffers of small parts of B, the barriers, alignment room. */
#define SHARED_BYTES (STAGES * STAGE_BYTES + 2 * B_TILE * 4 + STAGES * 8 + 1024)

extern "C" __constant__ int gemm_dynamic_shared = SHARED_BYTES;

extern "C" __global__ void __launch_bounds__(THREADS, 1)
gemm(const int M, const int N, const int K, const float alpha, const float *__restrict__ A,
     const int lda, const float *__restrict__ B, const int ldb, const float beta,
     float *__restrict__ C, const int ldc, const __grid_constant__ TensorMap mapA,
     const __grid_constant__ TensorMap mapB)
{
    extern __shared__ unsigned char shared_raw[];
    float *As = aligned_shared(shared_raw);
    float *Bs = As + STAGES * A_TILE;
    float *Bsmall = Bs + STAGES * B_TILE; /* [2][B_TILE] */
    unsigned long long *full = (unsigned long long *)(Bsmall + 2 * B_TILE);

    const int tid = threadIdx.x, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int row = (tid / 128) * 64 + (tid % 128) / 32 * 16 + g;
    const int m0 = blockIdx.x * TSM, n0 = blockIdx.y * TSN;
    const int tiles = (K + TSK - 1) / TSK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++)
            barrier_init(&full[s], 1);
        barrier_init_fence();
    }
    __syncthreads();

    auto load = [&](int kt) { /* thread 0: the copies of k-tile kt into its stage */
        const int s = kt % STAGES;
        tma_load_tiles(As + s * A_TILE, Bs + s * B_TILE, &mapA, &mapB, m0, n0, kt * TSK,
                       &full[s]);
    };
    if (tid == 0)
        for (int kt = 0; kt < STAGES && kt < tiles; kt++)
            load(kt);

    float d[TSN / 2];
#pragma unroll
    for (int i = 0; i < TSN / 2; i++)
        d[i] = 0.0f;

    /* The first tile's split, before the loop. K = 0 (alpha = 0 reaches the kernel so: C =
     * beta C) has no first tile: waiting for it would never end. */
    if (tiles > 0) {
        barrier_wait(&full[0], 0);
        split_tf32<B_TILE, THREADS>(Bs, Bsmall, tid);
        __syncthreads();
    }

    for (int kt = 0; kt < tiles; kt++) {
        const int s = kt % STAGES;
        mma_3xtf32(d, As + s * A_TILE, row, t, smem_descriptor(Bs + s * B_TILE),
                   smem_descriptor(Bsmall + (kt % 2) * B_TILE));
        /* While the tensor cores work: the next stage's split. */
        if (kt + 1 < tiles) {
            const int next = (kt + 1) % STAGES;
            barrier_wait(&full[next], ((kt + 1) / STAGES) & 1);
            split_tf32<B_TILE, THREADS>(Bs + next * B_TILE, Bsmall + ((kt + 1) % 2) * B_TILE,
                                           tid);
        }
        wgmma_wait<0>();
        __syncthreads(); /* stage s is free; the next split is published */
        if (tid == 0 && kt + STAGES < tiles)
            load(kt + STAGES);
    }

    store_block(d, M, N, alpha, beta, C, ldc, m0 + row, n0, t);
}
