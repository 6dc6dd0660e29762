/* Which tile of C a block computes, in an order that is kind to the L2 (rungs 24 and 25).
 *
 * The GPU starts blocks in the order of their linear index (x fastest), about one per SM
 * at a time. In plain order (GROUP = 0) those run down one or two columns of tiles: at
 * 8192 they read all of A (256 MB in float, five times the L2) and two panels of B at the
 * same time. Grouped, consecutive blocks take GROUP rows of tiles and go across the
 * columns together: a wave then reads GROUP panels of A and a few of B, which stay in the
 * L2 while the wave uses them. The kernel that includes this defines GROUP (a parameter).
 */
#ifndef LADDER_GROUPED_TILE_CUH
#define LADDER_GROUPED_TILE_CUH

__device__ inline void grouped_tile(int *tile_m, int *tile_n)
{
#if GROUP > 0
    const int tiles_m = gridDim.x, tiles_n = gridDim.y;
    const int id = blockIdx.x + blockIdx.y * tiles_m;
    const int first = id / (GROUP * tiles_n) * GROUP; /* the group's first row of tiles */
    const int rows = min(GROUP, tiles_m - first);     /* the last group may be shorter */
    const int in_group = id - first * tiles_n;
    *tile_m = first + in_group % rows;
    *tile_n = in_group / rows;
#else
    *tile_m = blockIdx.x;
    *tile_n = blockIdx.y;
#endif
}

#endif
