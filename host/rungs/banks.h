/* Rung 11's tile parameters and rung 17's checks, launch and shared memory, which rungs
 * 18 and 29 take as they are (defined in rungs_modern.c).
 *
 * p = TSM, TSN, TSK, WPTM, WPTN[, STAGES]: a block of TSM/WPTM x TSN/WPTN threads holds a
 * TSM x TSN tile of C, each thread WPTM x WPTN elements of it.
 */
#ifndef LADDER_BANKS_H
#define LADDER_BANKS_H

#include <stddef.h>
#include "rungs/registry.h" /* CHOICES, PER_SHAPE, TILE_EDGES, launch_dims */

/* Rung 11's parameters, which rungs 17, 18 and 29 share: a 128 x 128 x 16 tile of 8 x 8 per
 * work-item. EDGES(PER_SHAPE) marks the tile's edges PER_SHAPE, EDGES(0) does not. */
#define EDGES(per_shape)                                                                 \
    {"TSM", 128, 0, 4, 1024, "tile rows (M)", TILE_EDGES, per_shape},                   \
    {"TSN", 128, 0, 1, 1024, "tile columns (N)", TILE_EDGES, per_shape},                \
    {"TSK", 16, 8, 4, 256, "tile depth (K)", TILE_DEPTHS},                              \
    {"WPTM", 8, 0, 4, 64, "rows of C per work-item (a multiple of 4)", CHOICES(4, 8, 16)}, \
    {"WPTN", 8, 0, 4, 64, "columns of C per work-item (a multiple of 4)", CHOICES(4, 8, 16)}
#define EDGES_PARAMS EDGES(0)
/* Rungs 17, 18 and 29, which race cuBLAS, vary the tile's edges PER_SHAPE: the profiler of
 * the shape-aware entry tries 64, 128 and 256 at every shape (with the thread tile and
 * depth as tuned). Their 128 x 128 default gives 997 x 1013 x 1009 64 blocks for 132 SMs
 * and 16384 x 64 x 4096 128 blocks; `ladder tune` of rung 17 at each found 64 x 64 the
 * fastest, 1.6x and 2.7x the defaults on an H200 (results/h200-2026-11-29-gemv). */
#define EDGES_PARAMS_PER_SHAPE EDGES(PER_SHAPE)
/* Rung 17's six: the tile, PER_SHAPE, and STAGES, the tiles in flight (`stages` says
 * which). */
#define BANKS_PARAMS(stages)                                                             \
    EDGES_PARAMS_PER_SHAPE, {"STAGES", 2, 0, 2, 8, stages, CHOICES(2, 3, 4)}

/* Why rungs 17, 18 and 29 are CUDA only: their tiles travel by cp.async. */
#define STAGED_COPIES_ONLY_REASON                                                        \
    "CUDA only: OpenCL has no copy into local memory that bypasses registers and runs "  \
    "stages ahead (as rung 13)"

/* A block per TSM x TSN tile of C (the grid rounded up to whole tiles). */
void edges_geometry(const int *p, int M, int N, launch_dims *d);

/* Rung 11's checks: whole float4s per thread, and every thread loads as many float4s of
 * each tile. Rung 30 takes them as they are. */
ladder_status edges_validate(const int *p, char *msg);

/* Rung 11's checks and STAGES >= 2. */
ladder_status banks_validate(const int *p, char *msg);

/* STAGES x (A's TSK x TSM and B^T's TSK x TSN), in float. */
size_t banks_local_mem(const int *p);

#endif
