/* Rung 16's warps of mma blocks, which rung 25 takes too (defined in rungs_modern.c).
 *
 * p = TSM, TSN, TSK, WM, WN, STAGES, ...: a block of warps holds a TSM x TSN tile of C, each
 * warp a WM x WN part of it made of 16 x 8 mma blocks; STAGES tiles of A and B travel in
 * pieces of 4 elements (cp.async).
 */
#ifndef LADDER_MMA_WARPS_H
#define LADDER_MMA_WARPS_H

#include "backends/backend.h"
#include "base/status.h"

/* WM and WN whole mma blocks dividing the tile, TSK a multiple of 8, STAGES >= 2, at most
 * 1024 threads, and every thread copying the same number of pieces of each tile. */
ladder_status mma_warps_validate(const int *p, char *msg);

/* One block of (TSM / WM) x (TSN / WN) warps per TSM x TSN tile of C. */
void mma_warps_geometry(const int *p, int M, int N, launch_dims *d);

#endif
