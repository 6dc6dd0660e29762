/* Helper kernels that rungs ask for in the registry (`transposes_b`, `pads`).
 * They are timed together with the rung's GEMM kernel, because a user calling the rung
 * waits for them too.
 *
 * Both take a column-major source (src_rows x src_cols) and write a column-major
 * destination (dst_rows x dst_cols); destination elements with no source element get 0,
 * and source elements outside the destination are dropped. So one kernel pads (dst
 * larger), strips padding off (dst smaller) or copies.
 * Launch: work-groups of HELPER_TILE x HELPER_ROWS work-items, each covering a HELPER_TILE x
 *   HELPER_TILE tile of the destination (each work-item HELPER_TILE / HELPER_ROWS elements,
 *   in rows HELPER_ROWS apart), the global range rounded up to whole tiles. A 32-float tile
 *   row is a whole 128-byte line on a GPU; 256 work-items fit every device we know of.
 * The tile functions below (copy_tile, transpose_tile) hold the work of one work-group;
 * the kernels only say which tile a work-group does.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h), for the rungs that take
 *   double: a helper moves matrix elements, whatever their type.
 */
#include "real.h"

#define HELPER_TILE 32
#define HELPER_ROWS 8

/* Destination tile (tile_r, tile_c) of pad_copy: rows from tile_r * HELPER_TILE,
 * columns from tile_c * HELPER_TILE. */
void copy_tile(const int tile_r, const int tile_c, const int src_rows, const int src_cols,
               const __global real *src, const int dst_rows, const int dst_cols,
               __global real *dst)
{
    const int r = tile_r * HELPER_TILE + get_local_id(0);
    for (int j = 0; j < HELPER_TILE; j += HELPER_ROWS) {
        const int c = tile_c * HELPER_TILE + get_local_id(1) + j;
        if (r < dst_rows && c < dst_cols)
            dst[r + c * dst_rows] =
                (r < src_rows && c < src_cols) ? src[r + c * src_rows] : (real)0;
    }
}

/* Destination tile (tile_r, tile_c) of pad_transpose: dst = transpose(src), padded or
 * cropped: dst(r, c) = src(c, r).
 * A naive transpose reads or writes with a large stride. Here the work-group first reads
 * a tile with consecutive work-items on consecutive source rows (coalesced), then writes
 * the transposed tile with consecutive work-items on consecutive destination rows
 * (coalesced too), swapping through local memory `tile`. OpenCL C declares __local
 * arrays only in a kernel, so the kernel passes it.
 * The +1 column keeps the column-wise reads of the tile free of bank conflicts. Every
 * work-item of the group must call it: it waits at a barrier. */
void transpose_tile(__local real (*tile)[HELPER_TILE + 1], const int tile_r,
                    const int tile_c, const int src_rows, const int src_cols,
                    const __global real *src, const int dst_rows, const int dst_cols,
                    __global real *dst)
{
    const int lr = get_local_id(0);
    /* This work-group covers dst rows r0.., dst columns c0..; that is src rows c0..,
     * src columns r0.. */
    const int r0 = tile_r * HELPER_TILE;
    const int c0 = tile_c * HELPER_TILE;

    for (int j = 0; j < HELPER_TILE; j += HELPER_ROWS) {
        const int lc = get_local_id(1) + j;
        const int sr = c0 + lr, sc = r0 + lc; /* source element this work-item reads */
        tile[lc][lr] = (sr < src_rows && sc < src_cols) ? src[sr + sc * src_rows] : (real)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int j = 0; j < HELPER_TILE; j += HELPER_ROWS) {
        const int lc = get_local_id(1) + j;
        const int r = r0 + lr, c = c0 + lc; /* destination element this work-item writes */
        if (r < dst_rows && c < dst_cols)
            dst[r + c * dst_rows] = tile[lr][lc];
    }
}

__kernel void pad_copy(const int src_rows, const int src_cols, const __global real *src,
                       const int dst_rows, const int dst_cols, __global real *dst)
{
    copy_tile(get_group_id(0), get_group_id(1), src_rows, src_cols, src, dst_rows, dst_cols,
              dst);
}

__kernel void pad_transpose(const int src_rows, const int src_cols, const __global real *src,
                            const int dst_rows, const int dst_cols, __global real *dst)
{
    __local real tile[HELPER_TILE][HELPER_TILE + 1];
    transpose_tile(tile, get_group_id(0), get_group_id(1), src_rows, src_cols, src, dst_rows,
                   dst_cols, dst);
}
