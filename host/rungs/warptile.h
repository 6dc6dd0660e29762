/* Rung 12's warp tiles, which rungs 13, 15 and 19 build on (defined in rungs_modern.c).
 *
 * p = TSM, TSN, TSK, WM, ...: a work-group holds a TSM x TSN tile of C; each warp of 32
 * work-items a WM x WN part of it, WN = 2048 / WM (8 x 8 elements per work-item).
 */
#ifndef LADDER_WARPTILE_H
#define LADDER_WARPTILE_H

#include <stddef.h>
#include "base/status.h"

/* Work-items of a work-group: (TSM / WM) x (TSN / WN) warps of 32. */
int warptile_threads(const int *p);

/* WM a lane grid can take, WM and WN dividing the tile, whole float4 loads per work-item. */
ladder_status warptile_validate(const int *p, char *msg);

/* Local memory of two buffers of a TSK x TSM tile of A and a TSK x (TSN + 4) tile of B^T. */
size_t double_tiles(const int *p);

/* The same with A's rows padded by 4 as well, as a transposed A's are: rungs 15 and 19,
 * whose kernels take every transpose pair. */
size_t blas_tiles(const int *p);

#endif
