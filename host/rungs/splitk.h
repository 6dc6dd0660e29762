/* How the split-K rungs share K out among work-groups (defined in rungs_splitk.c): rung 19,
 * whose partial tiles a second kernel or atomics add, and rung 28, whose last slice of each
 * tile adds them in the same launch. Both take p = TSM, TSN, TSK, WM, SPLITS first, and
 * their kernels compute the same slices.
 */
#ifndef LADDER_SPLITK_H
#define LADDER_SPLITK_H

#include <stddef.h>
#include "rungs/registry.h"

/* Slices that hold K tiles: at most SPLITS, each a whole number of TSK tiles deep, so a K
 * of fewer tiles than SPLITS gets one slice per tile. */
int splitk_slice_count(const int *p, int K);

/* Rows of one slice's partial matrix in W: M rounded up to whole float4s. */
size_t splitk_partial_rows(int M);

/* Tiles of C: ceil(M / TSM) x ceil(N / TSN). */
size_t splitk_tiles(const int *p, int M, int N);

/* Floats of the slices' partial matrices in W (rung 19's deterministic mode, rung 28):
 * slices x splitk_partial_rows(M) x N, none when K is one slice. */
size_t splitk_partial_floats(const int *p, const launch_shape *s);

/* The GEMM kernel's work-groups at one slice (rung 15's); the slices multiply dimension 0. */
void splitk_geometry(const int *p, int M, int N, launch_dims *d);

/* The fallback rule's tile and split count for a shape (rung.rule_params). */
void splitk_rule_params(int *p, const gemm_size *s, const device_info *dev);

#endif
