/* Rung 23: warp specialization, and a pipeline that never drains (CUDA, sm_90a)
 * Parent: rung 22 (3xTF32 on wgmma; every k-tile ends with wgmma_wait<0> and a block
 *   barrier, and thread 0 of the first consumer issues the copies).
 * What changed: the threads take roles, and meet through mbarriers both ways.
 *   - A producer (the block's last warpgroup; the consumer warpgroups come first) only
 *     copies: one thread issues the TMA copies of a stage as soon as the consumers
 *     release it. Its warpgroup gives registers back to the consumers (setmaxnreg).
 *   - The consumer warpgroups (TSM/64 of them) multiply, and split B as in rung 22. They
 *     keep one k-tile of wgmmas in flight: after issuing tile kt they wait only for tile
 *     kt - 1 (wgmma_wait<1>), release its stage to the producer, and split tile kt + 1
 *     while tile kt's wgmmas run. Barriers of the consumers alone (bar.sync 1) make sure
 *     every warpgroup is done with the small-part buffer before it is rewritten, and
 *     publish the split; the producer never waits for them.
 *     full[s]   the copies of stage s have landed      (TMA bytes)
 *     empty[s]  every consumer warpgroup is done with stage s
 *   - A lives in registers across a k-tile now (the wgmmas of tile kt read them while
 *     tile kt + 1's are loaded), so there are two sets, and the loop is unrolled by two to
 *     name them at compile time.
 * Why it should help: in rung 22 the tensor cores go idle at every k-tile's end: the
 *   last wgmma drains, the block waits at the barrier, and the next tile's A is loaded
 *   before the first wgmma can issue. Here the next group is issued before the last one
 *   ends. Prediction: from 103 TFLOPS toward a third of cuBLAS's TF32 (130): 115-120.
 *   (A first version gave the split to the producer's 96 other threads: 72 TFLOPS, the
 *   split of one tile then took longer than the wgmmas of one tile.)
 * Registers: the consumers hold 128 accumulators and two sets of 32 A registers (big and
 *   small parts). At 384 threads the cap at entry is 168 a thread, too few: the compiler
 *   spills and serializes the wgmmas (warning C7511). A producer of one warp would not
 *   help: the register file is split in four quarters, one per scheduler, and 9 warps
 *   put 3 on one of them (168 again). So the producer's warpgroup gives registers up
 *   (setmaxnreg.dec to 40) and the consumers take them (setmaxnreg.inc to 232).
 * Accuracy: rung 22's arithmetic unchanged (u = 2^-20).
 * Shared memory: STAGES stages of A and B (as rungs 21-22), two buffers of B's small
 *   parts, two barriers per stage.
 * Parameters: TSM (64 per consumer warpgroup: 64 or 128), TSN (64, 128 or 256), STAGES.
 * Sizes: as rung 21: any M, N, K >= 1 (M and K padded by the registry to multiples of 4
 *   when they are not), ldc >= M; C = alpha A B + beta C.
 */
#include "hopper.cuh"

#define CONSUMERS (TSM / 64)            /* consumer warpgroups */
#define CONSUMER_THREADS (CONSUMERS * 128)
#define THREADS (CONSUMER_THREADS + 128) /* and the producer's warpgroup */

/* Registers per thread after the hand-over (setmaxnreg): the producer's warpgroup gives
 * back what the consumers take. Each quarter of the SM holds 16 K registers for its share
 * of the warps: with two consumer warpgroups, two consumer warps and one producer warp,
 * 2 x 32 x 232 + 32 x 40 <= 16384. */
#define PRODUCER_REGS 40
#define CONSUMER_REGS (CONSUMERS == 2 ? 232 : 240)
#define TSK 32
#define A_TILE (TSM * TSK)
#define B_TILE (TSN * TSK)
#define SHARED_BYTES ((STAGES * (A_TILE + B_TILE) + 2 * B_TILE) * 4 + STAGES * 16 + 1024)

extern "C" __constant__ int gemm_dynamic_shared = SHARED_BYTES;

/* A consumer's share of one k-tile: issue tile kt's wgmmas (its A from the registers
 * big, small), wait for tile kt - 1's and release that stage, then split tile kt + 1's B
 * and publish it to the other consumers. */
__device__ inline void consume(int kt, int tiles, float *d, unsigned (&big)[4][4],
                               unsigned (&small)[4][4], float *As, float *Bs, float *Bsmall,
                               unsigned long long *full, unsigned long long *empty, int c,
                               int row, int t)
{
    const int s = kt % STAGES;
    load_split_a(As + s * A_TILE, row, t, big, small);
    mma_3xtf32_issue(d, big, small, smem_descriptor(Bs + s * B_TILE),
                     smem_descriptor(Bsmall + (kt % 2) * B_TILE));
    wgmma_wait<1>(); /* tile kt - 1 is done: its stage and small buffer are free */
    if (kt >= 1 && c % 128 == 0)
        barrier_arrive(&empty[(kt - 1) % STAGES]);
    if (kt + 1 < tiles) {
        /* small[(kt + 1) % 2] held tile kt - 1's parts: every warpgroup must be done. */
        group_sync(1, CONSUMER_THREADS);
        const int next = (kt + 1) % STAGES;
        barrier_wait(&full[next], ((kt + 1) / STAGES) & 1);
        split_tf32<B_TILE, CONSUMER_THREADS>(Bs + next * B_TILE,
                                             Bsmall + ((kt + 1) % 2) * B_TILE, c);
        group_sync(1, CONSUMER_THREADS);
    }
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
    float *Bsmall = Bs + STAGES * B_TILE; /* [2][B_TILE] */
    unsigned long long *full = (unsigned long long *)(Bsmall + 2 * B_TILE);
    unsigned long long *empty = full + STAGES;

    const int tid = threadIdx.x;
    const int m0 = blockIdx.x * TSM, n0 = blockIdx.y * TSN;
    const int tiles = (K + TSK - 1) / TSK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            barrier_init(&full[s], 1);          /* the producer's expect_tx */
            barrier_init(&empty[s], CONSUMERS); /* one thread per consumer warpgroup */
        }
        barrier_init_fence();
    }
    __syncthreads();

    if (tid >= CONSUMER_THREADS) { /* ---- the producer warpgroup: one thread copies ---- */
        registers_down<PRODUCER_REGS>();
        if (tid == CONSUMER_THREADS)
            produce_tiles(tiles, As, Bs, &mapA, &mapB, m0, n0, full, empty);
        return;
    }

    /* ---- a consumer warpgroup: 64 rows of the block ---- */
    registers_up<CONSUMER_REGS>();
    const int c = tid, lane = c % 32, g = lane / 4, t = lane % 4;
    const int row = (c / 128) * 64 + (c % 128) / 32 * 16 + g;
    float d[TSN / 2];
#pragma unroll
    for (int i = 0; i < TSN / 2; i++)
        d[i] = 0.0f;
    /* The first tile's split; none when K = 0 (alpha = 0 reaches the kernel so), whose
     * first tile would be waited for forever. */
    if (tiles > 0) {
        barrier_wait(&full[0], 0);
        split_tf32<B_TILE, CONSUMER_THREADS>(Bs, Bsmall, c);
        group_sync(1, CONSUMER_THREADS);
    }

    unsigned big0[4][4], small0[4][4], big1[4][4], small1[4][4];
    for (int kt = 0; kt < tiles; kt += 2) {
        consume(kt, tiles, d, big0, small0, As, Bs, Bsmall, full, empty, c, row, t);
        if (kt + 1 < tiles)
            consume(kt + 1, tiles, d, big1, small1, As, Bs, Bsmall, full, empty, c, row, t);
    }
    wgmma_wait<0>();
    store_block(d, M, N, alpha, beta, C, ldc, m0 + row, n0, t);
}
