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
 * route_pair: when both A and B need a copy, one launch makes both. Each launch has a
 *   fixed cost, and a kernel this small spends part of its time ramping up (before its
 *   blocks fill the GPU) and in its tail (when its last blocks leave most of the GPU
 *   idle); two launches pay for that twice, one launch once, and the GEMM waits for one
 *   kernel instead of two. Its grid is the two routes' grids side by side along x
 *   (host/core/operand_route.c, plan_helper_launch).
 * The tile functions below (copy_tile, transpose_tile) hold the work of one block; the
 * kernels only say which tile a block does. pad_copy and pad_transpose compile to the same
 * machine code as when they held the work themselves (NVRTC, sm_90).
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh), as the rung they serve.
 */
#include "real.cuh"

#define HELPER_TILE 32
#define HELPER_ROWS 8

/* route_pair's kind of a route (host/core/operand_route.h has the same numbers). */
#define ROUTE_COPY 0
#define ROUTE_TRANSPOSE 1

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
 * too), swapping through shared memory `tile`, which the kernel declares (route_pair's two
 * routes share one). The +1 column keeps the column-wise reads of the tile free of bank
 * conflicts. Every thread of the block must call it: it waits at a barrier. */
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

/* One route's tile in route_pair. The grid is as tall as the taller route, so the blocks
 * above the shorter one's last tile have nothing to do: they return here, whole blocks,
 * before transpose_tile's barrier. */
static __device__ __forceinline__ void route_tile(real (*tile)[HELPER_TILE + 1],
                                                  const int kind, const int tile_r,
                                                  const int tile_c, const int src_rows,
                                                  const int src_cols, const real *src,
                                                  const int dst_rows, const int dst_cols,
                                                  real *dst)
{
    if (tile_r * HELPER_TILE >= dst_rows || tile_c * HELPER_TILE >= dst_cols)
        return;
    if (kind == ROUTE_TRANSPOSE)
        transpose_tile(tile, tile_r, tile_c, src_rows, src_cols, src, dst_rows, dst_cols,
                       dst);
    else
        copy_tile(tile_r, tile_c, src_rows, src_cols, src, dst_rows, dst_cols, dst);
}

/* Two routes in one launch: each is a kind (ROUTE_COPY: pad_copy's work, ROUTE_TRANSPOSE:
 * pad_transpose's) and a helper's six arguments. Blocks 0 .. tiles0 - 1 along x do the
 * first route's tiles, the blocks after them the second's; a block's whole work is one
 * route's, so its threads all take the same branch and all reach the barrier or none. */
extern "C" __global__ void route_pair(const int kind0, const int src_rows0,
                                      const int src_cols0, const real *src0,
                                      const int dst_rows0, const int dst_cols0, real *dst0,
                                      const int kind1, const int src_rows1,
                                      const int src_cols1, const real *src1,
                                      const int dst_rows1, const int dst_cols1, real *dst1)
{
    __shared__ real tile[HELPER_TILE][HELPER_TILE + 1];
    /* The first route's tiles along rows, rounded up (written so that it cannot overflow
     * for rows up to 2^31 - 1). */
    const int tiles0 = dst_rows0 / HELPER_TILE + (dst_rows0 % HELPER_TILE != 0);
    const int x = blockIdx.x, y = blockIdx.y;
    if (x < tiles0)
        route_tile(tile, kind0, x, y, src_rows0, src_cols0, src0, dst_rows0, dst_cols0, dst0);
    else
        route_tile(tile, kind1, x - tiles0, y, src_rows1, src_cols1, src1, dst_rows1,
                   dst_cols1, dst1);
}
