/* Registry entry for rung 28, split-K in one launch: rung 19's kernel, but the last slice
 * of each tile of C to finish adds the others' partial tiles itself, so no second kernel
 * runs. Its parent is rung 19; kernel source: kernels-cuda/28-lastslice.cu (CUDA only:
 * the counting needs a fence between work-groups that OpenCL 1.2 does not give).
 *
 * W holds the slices' partial matrices, as rung 19's ATOMIC=0, then one int counter per
 * tile of C. The counters start at zero (rung.workspace_counters: the harness sets them)
 * and every call leaves them at zero.
 */
#include "rungs/registry.h"
#include "rungs/splitk.h"
#include "rungs/warptile.h"

#include <stddef.h>

/* p = TSM, TSN, TSK, WM (rung 15's), SPLITS: rung 19's first five. */
enum { TSM, TSN, TSK, WM, SPLITS };

/* One kernel, one block per tile and slice (a rung with a workspace lists its launches). */
static int lastslice_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    out[0] = (rung_launch){"gemm", {{0, 0}, {0, 0}}};
    splitk_geometry(p, s->M, s->N, &out[0].dims);
    out[0].dims.global[0] *= (size_t)splitk_slice_count(p, s->K);
    return 1;
}

/* Elements of W's counters: one int per tile of C, in whole elements of the precision. */
static size_t lastslice_counters(const int *p, const launch_shape *s)
{
    if (splitk_slice_count(p, s->K) == 1)
        return 0;
    const size_t elem = s->element_bytes > 0 ? (size_t)s->element_bytes : 4;
    return rung_ceil_div(splitk_tiles(p, s->M, s->N) * sizeof(int), elem);
}

/* The partial matrices (rung 19's), then the counters. One slice needs neither. */
static size_t lastslice_workspace(const int *p, const launch_shape *s)
{
    return splitk_partial_floats(p, s) + lastslice_counters(p, s);
}

const rung rungs_lastslice[] = {
    {
        .number = 28, .id = "28-lastslice", .name = "lastslice",
        .title = "Split-K in one launch: the last slice of a tile adds the others",
        .idea = "rung 19 without its second kernel: a counter per tile of C, and the "
                "block that finishes a tile's count adds its partial tiles in order",
        .parent = 19,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        /* Rung 19's parameters and defaults, but a few slices by default: the last block
         * of a tile adds every slice alone, which pays at 2 to 8 slices (997 x 1013 x
         * 1009, 333 x 7777 x 555) and not at rung 19's 256. */
        .params = {{"TSM", 128, 0, 8, 1024, "tile rows (M)", CHOICES(32, 64, 128),
                    PER_SHAPE},
                   {"TSN", 128, 0, 8, 1024, "tile columns (N)", CHOICES(32, 64, 128),
                    PER_SHAPE},
                   {"TSK", 8, 0, 4, 256, "tile depth (K); slices are whole tiles deep",
                    TILE_DEPTHS},
                   {"WM", 64, 0, 8, 256, "warp tile rows (WN = 2048 / WM columns)",
                    CHOICES(16, 32, 64), PER_SHAPE},
                   {"SPLITS", 4, 2, 1, 4096,
                    "most slices of K (fewer when K has fewer tiles)",
                    CHOICES(1, 2, 3, 4, 6, 8, 12, 16), PER_SHAPE}},
        .validate = warptile_validate,
        .geometry = splitk_geometry,
        .launches = lastslice_launches,
        .rule_params = splitk_rule_params,
        .workspace_floats = lastslice_workspace,
        .workspace_counters = lastslice_counters,
        .local_mem_bytes = blas_tiles,
        .only_backend = "cuda",
        .only_reason = "CUDA only: a block counts its tile done after a fence that makes its "
                       "partial tile visible to every other block, which OpenCL 1.2 does "
                       "not promise between work-groups",
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_lastslice_count = (int)(sizeof rungs_lastslice / sizeof rungs_lastslice[0]);
