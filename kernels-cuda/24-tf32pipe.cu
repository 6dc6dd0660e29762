/* Rung 24: rung 23's pipeline in plain TF32: how close to cuBLAS's TF32 (CUDA, sm_90a)
 * Parent: rung 23 (warp-specialized 3xTF32: a producer warpgroup copies, the consumers
 *   split and multiply with a k-tile of wgmmas always in flight).
 * What changed: the split is gone. One wgmma per 8-deep step (1xTF32, rung 21's
 *   arithmetic), A's registers hold raw floats (the tensor cores drop their low bits), B is
 *   read from shared memory as the copy engine left it, and with nothing to split the
 *   consumers need no barrier among themselves: each warpgroup waits on full[s], issues,
 *   and releases stages on empty[s] at its own pace.
 * Why it should help: rung 21 computes the same thing with rung 22's drain at every
 *   k-tile (wgmma_wait<0> and a block barrier) and reached 72% of cuBLAS's TF32 GEMM.
 *   With one k-tile of wgmmas always queued and the copies a warp of their own, the tensor
 *   cores should stay busy: prediction 0.85-0.95 of cuBLAS TF32 (330-370 TFLOPS).
 *   It also measures what rung 23 pays for float32 accuracy: three products and a split.
 * Accuracy: rung 21's: products off by up to 2^-9 + 2^-20 of themselves, float32 sums
 *   (rung.input_roundoff = 2^-10, u = 2^-23).
 * Shared memory: STAGES stages of A and B, two barriers per stage.
 * Parameters: TSM (64 per consumer warpgroup: 64 or 128), TSN (64, 128 or 256), STAGES,
 *   GROUP (rows of tiles that consecutive blocks share, for the L2: grouped_tile below).
 * Sizes: as rung 21: any M, N, K >= 1 (M and K padded by the registry to multiples of 4
 *   when they are not), ldc >= M; C = alpha A B + beta C.
 */
#include "grouped_tile.cuh" /* grouped_tile: which tile of C a block computes */
#include "hopper.cuh"

#define CONSUMERS (TSM / 64)
#define CONSUMER_THREADS (CONSUMERS * 128)
#define THREADS (CONSUMER_THREADS + 128) /* and the producer's warpgroup */
#define TSK 32
#define A_TILE (TSM * TSK)
#define B_TILE (TSN * TSK)
#define SHARED_BYTES (STAGES * (A_TILE + B_TILE) * 4 + STAGES * 16 + 1024)

extern "C" __constant__ int gemm_dynamic_shared = SHARED_BYTES;

#define PRODUCER_REGS 40
#define CONSUMER_REGS (CONSUMERS == 2 ? 232 : 240)

/* One k-tile of a consumer warpgroup: wait for the copies, load this thread's A values
 * into `a`, issue the 4 wgmmas, then wait for tile kt - 1's and release its stage. */
__device__ inline void consume(int kt, float *d, unsigned (&a)[4][4], const float *As,
                               float *Bs, unsigned long long *full,
                               unsigned long long *empty, int c, int row, int t)
{
    const int s = kt % STAGES;
    barrier_wait(&full[s], (kt / STAGES) & 1);
    const float *a_tile = As + s * A_TILE;
#pragma unroll
    for (int ks = 0; ks < 4; ks++)
#pragma unroll
        for (int e = 0; e < 4; e++) /* A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4) */
            a[ks][e] = __float_as_uint(
                a_swizzled(a_tile, row + (e % 2) * 8, ks * 8 + t + (e / 2) * 4));
    const unsigned long long b_desc = smem_descriptor(Bs + s * B_TILE);
    wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < 4; ks++)
        wgmma_tf32(d, a[ks], b_desc + (ks * 8 * 4 >> 4)); /* 8 k further: 32 bytes */
    wgmma_commit();
    wgmma_wait<1>();
    if (kt >= 1 && c % 128 == 0)
        barrier_arrive(&empty[(kt - 1) % STAGES]);
}

extern "C" __global__ void __launch_bounds__(THREADS, 1)
gemm(const int M, const int N, const int K, const float alpha, const float *__restrict__ A,
     const int lda, const float *__restrict__ B, const int ldb, const float beta,
     float *__restrict__ C, const int ldc, const __grid_constant__ TensorMap mapA,
     const __grid_constant__ TensorMap mapB)
{
    extern __shared__ unsigned char shared_raw[];
    float *As = aligned_shared(shared_raw);
    float *Bs = As + STAGES * A_TILE;
    unsigned long long *full = (unsigned long long *)(Bs + STAGES * B_TILE);
    unsigned long long *empty = full + STAGES;

    const int tid = threadIdx.x;
    int tile_m, tile_n;
    grouped_tile(&tile_m, &tile_n);
    const int m0 = tile_m * TSM, n0 = tile_n * TSN;
    const int tiles = (K + 2 * TSK - 1) / (2 * TSK) * 2; /* even: see the consumers' loop */

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            barrier_init(&full[s], 1);
            barrier_init(&empty[s], CONSUMERS);
        }
        barrier_init_fence();
    }
    __syncthreads();

    if (tid >= CONSUMER_THREADS) {
        registers_down<PRODUCER_REGS>();
        if (tid == CONSUMER_THREADS)
            produce_tiles(tiles, As, Bs, &mapA, &mapB, m0, n0, full, empty);
        return;
    }

    registers_up<CONSUMER_REGS>();
    const int c = tid, lane = c % 32, g = lane / 4, t = lane % 4;
    const int row = (c / 128) * 64 + (c % 128) / 32 * 16 + g;
    float d[TSN / 2];
#pragma unroll
    for (int i = 0; i < TSN / 2; i++)
        d[i] = 0.0f;
    /* Two sets of A registers, a0 for even k-tiles and a1 for odd ones: tile kt + 1's
     * loads must not touch the registers that tile kt's wgmmas, still in flight, read.
     * The loop takes two tiles a trip with no condition between them (an odd count gets
     * one more tile, all zeros: the copy engine fills what lies past K). With the second
     * tile under `if (kt + 1 < tiles)`, ptxas could not prove the two sets apart and
     * serialized every wgmma (warning C7513: a wait after each HGMMA), a fifth of the
     * speed; one set reused every tile runs fast and computes garbage. Chapter 24. */
    unsigned a0[4][4], a1[4][4];
    for (int kt = 0; kt < tiles; kt += 2) {
        consume(kt, d, a0, As, Bs, full, empty, c, row, t);
        consume(kt + 1, d, a1, As, Bs, full, empty, c, row, t);
    }
    wgmma_wait<0>();
    store_block(d, M, N, alpha, beta, C, ldc, m0 + row, n0, t);
}
