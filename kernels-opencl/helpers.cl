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
 * route_pair: when both A and B need a copy, one launch makes both. Each launch has a
 *   fixed cost, and a kernel this small spends part of its time ramping up (before its
 *   work-groups fill the device) and in its tail (when its last work-groups leave most of
 *   the device idle); two launches pay for that twice, one launch once, and the GEMM
 *   waits for one kernel instead of two. Its global range is the two routes' ranges side
 *   by side along dimension 0 (host/core/operand_route.c, plan_helper_launch).
 * The tile functions below (copy_tile, transpose_tile) hold the work of one work-group;
 * the kernels only say which tile a work-group does.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h), for the rungs that take
 *   double: a helper moves matrix elements, whatever their type.
 */
#include "real.h"

#define HELPER_TILE 32
#define HELPER_ROWS 8

/* route_pair's kind of a route (host/core/operand_route.h has the same numbers). */
#define ROUTE_COPY 0
#define ROUTE_TRANSPOSE 1

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
 * arrays only in a kernel, so the kernel passes it (route_pair's two routes share one).
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

/* One route's tile in route_pair. The global range is as tall as the taller route, so the
 * work-groups above the shorter one's last tile have nothing to do: they return here,
 * whole work-groups, before transpose_tile's barrier. */
void route_tile(__local real (*tile)[HELPER_TILE + 1], const int kind, const int tile_r,
                const int tile_c, const int src_rows, const int src_cols,
                const __global real *src, const int dst_rows, const int dst_cols,
                __global real *dst)
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
 * pad_transpose's) and a helper's six arguments. Work-groups 0 .. tiles0 - 1 along
 * dimension 0 do the first route's tiles, the work-groups after them the second's; a
 * work-group's whole work is one route's, so its work-items all take the same branch and
 * all reach the barrier or none. */
__kernel void route_pair(const int kind0, const int src_rows0, const int src_cols0,
                         const __global real *src0, const int dst_rows0, const int dst_cols0,
                         __global real *dst0, const int kind1, const int src_rows1,
                         const int src_cols1, const __global real *src1, const int dst_rows1,
                         const int dst_cols1, __global real *dst1)
{
    __local real tile[HELPER_TILE][HELPER_TILE + 1];
    /* The first route's tiles along rows, rounded up (written so that it cannot overflow
     * for rows up to 2^31 - 1). */
    const int tiles0 = dst_rows0 / HELPER_TILE + (dst_rows0 % HELPER_TILE != 0);
    const int x = get_group_id(0), y = get_group_id(1);
    if (x < tiles0)
        route_tile(tile, kind0, x, y, src_rows0, src_cols0, src0, dst_rows0, dst_cols0, dst0);
    else
        route_tile(tile, kind1, x - tiles0, y, src_rows1, src_cols1, src1, dst_rows1,
                   dst_cols1, dst1);
}
