/* Helper kernels that rungs ask for in the registry (`transposes_b`, `pads`).
 * They are timed together with the rung's GEMM kernel, because a user calling the rung
 * waits for them too.
 *
 * Both take a column-major source (src_rows x src_cols) and write a column-major
 * destination (dst_rows x dst_cols); destination elements with no source element get 0,
 * and source elements outside the destination are dropped. So one kernel pads (dst
 * larger), strips padding off (dst smaller) or copies.
 * Launch: blocks of HELPER_TILE x HELPER_ROWS threads, each block covering a HELPER_TILE x
 *   HELPER_TILE tile of the destination (each thread HELPER_TILE / HELPER_ROWS elements, in
 *   rows HELPER_ROWS apart), the grid rounded up to whole tiles. A 32-float tile row is a
 *   whole 128-byte line. The first version, 16 x 16 tiles of one element per thread, moved
 *   half lines: Nsight Compute timed its transpose of a 4096 x 4096 B at 74 us (1.6 TB/s),
 *   this one at 44 us (2.6 TB/s) (results/h100-2026-11-21-banks/steps/run4-helper).
 * The tile functions below (copy_tile, transpose_tile) hold the work of one block; the
 * kernels only say which tile a block does. pad_copy and pad_transpose compile to the same
 * machine code as when they held the work themselves (NVRTC, sm_90).
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh), as the rung they serve.
 */
#include "real.cuh"

#define HELPER_TILE 32
#define HELPER_ROWS 8

/* Destination tile (tile_r, tile_c) of pad_copy: rows from tile_r * HELPER_TILE,
 * columns from tile_c * HELPER_TILE. */
static __device__ __forceinline__ void copy_tile(const int tile_r, const int tile_c,
                                                 const int src_rows, const int src_cols,
                                                 const real *src, const int dst_rows,
                                                 const int dst_cols, real *dst)
{
    const int r = tile_r * HELPER_TILE + threadIdx.x;
#pragma unroll
    for (int j = 0; j < HELPER_TILE; j += HELPER_ROWS) {
        const int c = tile_c * HELPER_TILE + threadIdx.y + j;
        if (r < dst_rows && c < dst_cols)
            dst[r + c * dst_rows] =
                (r < src_rows && c < src_cols) ? src[r + c * src_rows] : 0;
    }
}

/* Destination tile (tile_r, tile_c) of pad_transpose: dst = transpose(src), padded or
 * cropped: dst(r, c) = src(c, r).
 * A naive transpose reads or writes with a large stride. Here the block first reads a tile
 * with consecutive threads on consecutive source rows (coalesced), then writes the
 * transposed tile with consecutive threads on consecutive destination rows (coalesced
 * too), swapping through shared memory `tile`, which the kernel declares. The +1 column
 * keeps the column-wise reads of the tile free of bank conflicts. Every thread of the block must call it: it waits at a barrier. */
static __device__ __forceinline__ void transpose_tile(real (*tile)[HELPER_TILE + 1],
                                                      const int tile_r, const int tile_c,
                                                      const int src_rows, const int src_cols,
                                                      const real *src, const int dst_rows,
                                                      const int dst_cols, real *dst)
{
    const int lr = threadIdx.x;
    const int r0 = tile_r * HELPER_TILE;
    const int c0 = tile_c * HELPER_TILE;

#pragma unroll
    for (int j = 0; j < HELPER_TILE; j += HELPER_ROWS) {
        const int lc = threadIdx.y + j;
        const int sr = c0 + lr, sc = r0 + lc; /* source element this thread reads */
        tile[lc][lr] = (sr < src_rows && sc < src_cols) ? src[sr + sc * src_rows] : 0;
    }
    __syncthreads();

#pragma unroll
    for (int j = 0; j < HELPER_TILE; j += HELPER_ROWS) {
        const int lc = threadIdx.y + j;
        const int r = r0 + lr, c = c0 + lc; /* destination element this thread writes */
        if (r < dst_rows && c < dst_cols)
            dst[r + c * dst_rows] = tile[lr][lc];
    }
}

extern "C" __global__ void pad_copy(const int src_rows, const int src_cols, const real *src,
                                    const int dst_rows, const int dst_cols, real *dst)
{
    copy_tile(blockIdx.x, blockIdx.y, src_rows, src_cols, src, dst_rows, dst_cols, dst);
}

extern "C" __global__ void pad_transpose(const int src_rows, const int src_cols,
                                         const real *src, const int dst_rows,
                                         const int dst_cols, real *dst)
{
    __shared__ real tile[HELPER_TILE][HELPER_TILE + 1];
    transpose_tile(tile, blockIdx.x, blockIdx.y, src_rows, src_cols, src, dst_rows,
                   dst_cols, dst);
}
