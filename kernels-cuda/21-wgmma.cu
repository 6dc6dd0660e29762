/* Rung 21: Hopper's path, TMA copies and warpgroup MMA, in TF32 (CUDA, sm_90a only)
 * Parent: rung 16 (tensor cores through mma.sync, 3xTF32, cp.async copies).
 * What changed: the two halves of Hopper's own path, which come together.
 *   - Copies: instead of every thread issuing 16-byte cp.async pieces and computing their
 *     addresses and edge guards, thread 0 asks the TMA copy engine for whole boxes: a
 *     TSM x 32 tile of A (as TSM/32 boxes of 32 x 32) and a 32 x TSN tile of B per stage.
 *     Each stage's boxes complete on an mbarrier, which the other threads wait on.
 *     The engine writes zeros where a box leaves the matrix, so edges need no code.
 *   - Products: instead of a warp's mma.sync of 16 x 8 x 8, a warpgroup (4 warps) issues
 *     one asynchronous wgmma of 64 x TSN x 8, reading B straight from shared memory.
 *   And one product per multiply-add in TF32 (1xTF32), not rung 16's three: this rung
 *   measures the hardware path alone; rung 22 puts float32 accuracy back on it.
 * Why it should help: mma.sync makes every warp load its B fragments from shared memory
 *   into registers and issue one small product at a time; rung 16 reached 63 TFLOPS for
 *   3 products, about 190 in TF32 products, where cuBLAS's TF32 GEMM reaches 390. wgmma
 *   reads B from shared memory without the registers, in products 32 times larger, and
 *   runs while the threads go on (it is asynchronous); TMA frees the threads from copying.
 *   Prediction: most of the way to cuBLAS TF32, 300+ TFLOPS at 4096.
 * Why A comes from registers: TF32 wgmma reads operands from shared memory only K-major
 *   (k contiguous). B (column-major, K x N) is; A (column-major, M x K) is not, and TF32
 *   has no transposed form. So each thread reads its A values from the shared tile into
 *   registers (4 per 8-deep step, the mma.sync layout), which is also where rung 22 will
 *   split them.
 * Accuracy: the tensor cores keep 10 of a float's 23 mantissa bits of each input (they
 *   drop the rest), so each input carries a relative error below 2^-10, a product below
 *   2^-9 + 2^-20, and the sums are float32 (rounded toward zero at worst: 2^-23). Checked
 *   with |c - r| <= ((1 + u_in)^2 (1 + gamma_K(2^-23)) - 1) (|A||B|), u_in = 2^-10
 *   (rung.input_roundoff, core/verify.h): K u with a u as large as 2^-9 would be
 *   infinite from K = 512 on. (cuBLAS's TF32 mode also multiplies in TF32.)
 * Shared memory (dynamic: more than 48 KiB), per stage: A's tile as TSM/32 boxes of 32
 *   (m) x 32 (k) floats, each a 4 KiB block of 32 rows (one per k) of 128 bytes; B's tile as
 *   TSN rows (one per n) of 32 k. Both use the 128-byte swizzle (hopper.cuh). Then the
 *   stages' mbarriers.
 * Pipeline: thread 0 keeps STAGES - 1 tiles in flight; after each tile every warpgroup
 *   waits for its wgmmas and a block barrier frees the stage for the next copy.
 * Parameters: TSM (64 per warpgroup: 64 or 128), TSN (64, 128 or 256: the wgmma's N),
 *   STAGES. The tile depth is 32 floats, one swizzled row of 128 bytes.
 * Sizes: any M, N, K >= 1, with lda and ldb multiples of 4 (the copy engine steps between
 *   columns in 16-byte units; the registry pads M and K to multiples of 4 when they are
 *   not), ldc >= M; C = alpha A B + beta C, C read only when beta is not 0.
 */
#include "hopper.cuh"

#define WARPGROUPS (TSM / 64)
#define THREADS (WARPGROUPS * 128)
#define TSK 32                        /* the tile's depth: one 128-byte row of floats */
#define A_TILE (TSM * TSK)            /* floats of a stage's A tile */
#define B_TILE (TSN * TSK)
#define STAGE_BYTES ((A_TILE + B_TILE) * 4)
/* The tiles, the barriers, and room to align the tiles to 1024 bytes. */
#define SHARED_BYTES (STAGES * STAGE_BYTES + STAGES * 8 + 1024)

/* Read by the CUDA backend: the dynamic shared memory every launch of gemm gets. */
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
    unsigned long long *full = (unsigned long long *)(Bs + STAGES * B_TILE);

    const int tid = threadIdx.x, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int row = (tid / 128) * 64 + (tid % 128) / 32 * 16 + g; /* this thread's first row */
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
        for (int kt = 0; kt < STAGES - 1 && kt < tiles; kt++)
            load(kt);

    float d[TSN / 2];
#pragma unroll
    for (int i = 0; i < TSN / 2; i++)
        d[i] = 0.0f;

    for (int kt = 0; kt < tiles; kt++) {
        /* The stage this refills was freed by the barrier at the end of the last step. */
        if (tid == 0 && kt + STAGES - 1 < tiles)
            load(kt + STAGES - 1);
        const int s = kt % STAGES;
        barrier_wait(&full[s], (kt / STAGES) & 1);

        const float *a_tile = As + s * A_TILE;
        unsigned a[TSK / 8][4];
#pragma unroll
        for (int ks = 0; ks < TSK / 8; ks++) {
#pragma unroll
            for (int e = 0; e < 4; e++) /* A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4) */
                a[ks][e] = __float_as_uint(
                    a_swizzled(a_tile, row + (e % 2) * 8, ks * 8 + t + (e / 2) * 4));
        }
        const unsigned long long b_desc = smem_descriptor(Bs + s * B_TILE);
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < TSK / 8; ks++)
            wgmma_tf32(d, a[ks], b_desc + (ks * 8 * 4 >> 4)); /* 8 k further: 32 bytes */
        wgmma_commit();
        wgmma_wait<0>();
        __syncthreads(); /* every warpgroup is done with stage s */
    }

    store_block(d, M, N, alpha, beta, C, ldc, m0 + row, n0, t);
}
