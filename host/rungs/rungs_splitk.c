/* Registry entry for rung 19, split-K: rung 15's kernel with the K loop shared out among
 * work-groups, for products whose C has too few tiles to fill the device (128 x 128 x 32768
 * makes 4 tiles of 64 x 64 for 132 SMs). Its parent is rung 15; kernel sources:
 * kernels-opencl/19-splitk.cl, kernels-cuda/19-splitk.cu.
 *
 * One call launches two kernels (rung.launches):
 *   ATOMIC=0  "gemm" writes each slice's partial tile into the workspace W, then "reduce"
 *             sums the slices in a fixed order into C: the same result every run;
 *   ATOMIC=1  "scale_c" makes C = beta * C, then "gemm" adds alpha * its partial tile into C
 *             with atomic additions, in whatever order the work-groups finish.
 * A shape whose K fits in one slice launches "gemm" alone, which then writes C itself, as
 * rung 15 does.
 */
#include "rungs/registry.h"
#include "rungs/splitk.h"
#include "rungs/warptile.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* p = TSM, TSN, TSK, WM (rung 15's), SPLITS, ATOMIC: rung 28 has the first five. */
enum { TSM, TSN, TSK, WM, SPLITS, ATOMIC };

/* Most slices one work-item of "reduce" adds; must match REDUCE_DEPTH in the kernels. */
#define REDUCE_DEPTH 8

/* The work-items of "reduce" that share one float4 of C, as the kernels compute it
 * (reduce_groups in 19-splitk.cl and .cu): as few as keep each one's sum at REDUCE_DEPTH
 * slices or fewer, a power of two that divides the work-group. A work-group then covers
 * threads / groups float4s. */
static size_t reduce_groups(size_t threads, int slices)
{
    size_t g = 1;
    while (g * REDUCE_DEPTH < (size_t)slices && threads % (2 * g) == 0)
        g *= 2;
    return g;
}

/* How K is shared out, exactly as the kernels compute it (slice_tiles and slice_count in
 * 19-splitk.cl and .cu): every slice but the last holds the same number of whole K tiles,
 * and only the slices that hold some are launched. So SPLITS is the most slices, and a
 * shape with fewer K tiles than SPLITS gets one slice per K tile. */
static int slice_tiles(const int *p, int K)
{
    const int ktiles = (K + p[TSK] - 1) / p[TSK];
    const int per = (ktiles + p[SPLITS] - 1) / p[SPLITS];
    return per > 0 ? per : 1;
}
int splitk_slice_count(const int *p, int K)
{
    const int ktiles = (K + p[TSK] - 1) / p[TSK], per = slice_tiles(p, K);
    const int n = (ktiles + per - 1) / per;
    return n > 0 ? n : 1;
}

/* Rows of one slice's partial matrix in W: M rounded up to whole float4s, so that every
 * float4 of W is 16-byte aligned. */
size_t splitk_partial_rows(int M) { return rung_ceil_div((size_t)M, 4) * 4; }

/* The GEMM kernel's work-groups at one slice: rung 15's. */
void splitk_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)warptile_threads(p);
    d->local[1] = 1;
    d->global[0] = rung_ceil_div((size_t)M, (size_t)p[TSM]) * d->local[0];
    d->global[1] = rung_ceil_div((size_t)N, (size_t)p[TSN]);
}

/* The slices go along dimension 0 (tile of M, then slice), not beside the tiles of N in
 * dimension 1: CUDA allows 65535 blocks in a grid's second dimension, 2^31 - 1 in its
 * first. Every kernel runs in work-groups of the GEMM's size, so `geometry` stays the
 * largest. */
static int splitk_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    const size_t threads = (size_t)warptile_threads(p);
    const int slices = splitk_slice_count(p, s->K);
    rung_launch gemm = {"gemm", {{0, 0}, {threads, 1}}};
    splitk_geometry(p, s->M, s->N, &gemm.dims);
    gemm.dims.global[0] *= (size_t)slices;
    if (slices == 1) {
        out[0] = gemm;
        return 1;
    }
    if (p[ATOMIC]) {
        const size_t elements = (size_t)s->M * (size_t)s->N;
        out[0] = (rung_launch){"scale_c", {{rung_ceil_div(elements, threads) * threads, 1},
                                           {threads, 1}}};
        out[1] = gemm;
        return 2;
    }
    const size_t float4s = splitk_partial_rows(s->M) / 4 * (size_t)s->N;
    out[0] = gemm;
    const size_t cols = threads / reduce_groups(threads, slices);
    out[1] = (rung_launch){"reduce", {{rung_ceil_div(float4s, cols) * threads, 1},
                                      {threads, 1}}};
    return 2;
}

size_t splitk_tiles(const int *p, int M, int N)
{
    return rung_ceil_div((size_t)M, (size_t)p[TSM]) * rung_ceil_div((size_t)N, (size_t)p[TSN]);
}

size_t splitk_partial_floats(const int *p, const launch_shape *s)
{
    const int slices = splitk_slice_count(p, s->K);
    return slices == 1 ? 0 : (size_t)slices * splitk_partial_rows(s->M) * (size_t)s->N;
}

/* One partial matrix per slice, for the deterministic reduction only. */
static size_t splitk_workspace(const int *p, const launch_shape *s)
{
    return p[ATOMIC] ? 0 : splitk_partial_floats(p, s);
}

/* The GEMM's tiles, or the reduction's float4 per work-item if that is more. */
static size_t splitk_local_mem(const int *p)
{
    const size_t tiles = blas_tiles(p), reduce = (size_t)warptile_threads(p) * 16;
    return tiles > reduce ? tiles : reduce;
}

/* The fallback rule's tile and split count (rung.rule_params), for a shape no selection
 * table has. The fastest split-K candidates the H200's profiler measured at the eleven
 * shapes of its set where this rule runs split-K (results/h200-2026-11-29-shapes), and
 * what the H100's and the CPU's tables chose, agree on two things:
 * - each edge of the tile the smallest of 32, 64 and 128 that covers M (or N), so that a
 *   C of 32 rows is not computed in tiles of 128 (a tile holds at least one warp's 32 x
 *   64 elements: a 32 x 32 C takes 64 x 32), with the widest warp tile that fits;
 * - on a GPU, slices enough that the GEMM's work-items number about 512 per compute unit
 *   (16 warps an SM: 256 blocks of 256 threads at 997 x 1013 x 1009 and 256 x 256 x
 *   16384, 1024 of 64 at 8192 x 32 x 8192, 512 of 128 at 64 x 8192 x 4096, the fastest
 *   in each case); on a CPU, where a core runs one work-group at a time, two work-groups
 *   per core.
 * Of SPLITS's choices, the one whose count is nearest that (as a ratio: the last below it
 * or the first above it); as many slices as K has tiles when that is fewer. Each slice's
 * partial tile costs a write and a read of M x N numbers more, so more slices than fill
 * the device only add traffic. */
#define RULE_ITEMS_PER_GPU_UNIT 512
#define RULE_GROUPS_PER_CPU_UNIT 2
static int rule_edge(long n) { return n <= 32 ? 32 : n <= 64 ? 64 : 128; }
void splitk_rule_params(int *p, const gemm_size *s, const device_info *dev)
{
    if (dev->compute_units <= 0)
        return; /* the device's size unknown: the tuned or default parameters stand */
    int q[SPLITS + 1]; /* the parameters the rule sets (rung 19's and 28's first five) */
    memcpy(q, p, sizeof q);
    q[TSM] = rule_edge(s->M);
    q[TSN] = rule_edge(s->N);
    /* The widest warp tile (WM rows by 2048 / WM columns) that rung 15's rules let the
     * tile hold; a tile too small for any (32 x 32) grows along its shorter edge. */
    char why[LADDER_MSG];
    for (;;) {
        for (q[WM] = 64; q[WM] >= 16; q[WM] /= 2)
            if (warptile_validate(q, why) == LADDER_OK)
                break;
        if (q[WM] >= 16)
            break;
        if (q[TSM] >= 128 && q[TSN] >= 128)
            return; /* nothing fits: the tuned or default parameters stand */
        q[q[TSM] <= q[TSN] ? TSM : TSN] *= 2;
    }
    const size_t tiles = splitk_tiles(q, (int)s->M, (int)s->N),
                 items = (size_t)warptile_threads(q), units = (size_t)dev->compute_units;
    const rung_param *splits = &rungs_splitk[0].params[SPLITS];
    const double target = dev->is_gpu ? (double)RULE_ITEMS_PER_GPU_UNIT * units
                                      : (double)RULE_GROUPS_PER_CPU_UNIT * units;
    int best = p[SPLITS], seen_slices = 0;
    double best_gap = HUGE_VAL;
    for (int i = 0; i < splits->nchoices; i++) {
        q[SPLITS] = splits->choices[i];
        const int slices = splitk_slice_count(q, (int)s->K);
        if (slices == seen_slices)
            continue; /* K has no more tiles to share: the fewer slices stand */
        seen_slices = slices;
        const double groups = (double)tiles * slices,
                     amount = dev->is_gpu ? groups * (double)items : groups;
        /* The count nearest the target, as a ratio: the last below it or the first
         * above it, whichever is closer. */
        const double gap = fabs(log(amount / target));
        if (gap < best_gap) {
            best = q[SPLITS];
            best_gap = gap;
        }
        if (amount >= target)
            break;
    }
    q[SPLITS] = best;
    memcpy(p, q, sizeof q);
}

const rung rungs_splitk[] = {
    {
        .number = 19, .id = "19-splitk", .name = "splitk",
        .title = "Split-K: work-groups share the K loop",
        .idea = "rung 15 with K split among work-groups; the partial tiles summed by a "
                "second kernel or by atomics",
        .parent = 15,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        /* For small M x N with a long K on the H100: 64 x 64 tiles (4 of them at 128 x 128)
         * of 64 work-items, in up to 256 slices. At 128 x 128 x 32768 that is 1024
         * work-groups: 7.8 per SM, where 8 fit (128 registers each, the most that lets 8
         * of them share an SM's 65536), so all run at once, with 4 warps per scheduler as
         * rung 15 has at large sizes. TSK = 8: at 16, the next tile's share no longer
         * fits in 128 registers beside the 64 accumulators (ptxas spills). A small device
         * has fewer compute units to fill: 16 slices. */
        /* The tile is PER_SHAPE too: a C of 32 rows (32 x 16384 x 8192) wants tiles 32
         * rows tall, one of 32 columns tiles 32 wide (WM = 64), so the profiler of the
         * shape-aware entry tries every tile with every split count. */
        .params = {{"TSM", 64, 0, 8, 1024, "tile rows (M)", CHOICES(32, 64, 128), PER_SHAPE},
                   {"TSN", 64, 0, 8, 1024, "tile columns (N)", CHOICES(32, 64, 128),
                    PER_SHAPE},
                   {"TSK", 8, 0, 4, 256, "tile depth (K); slices are whole tiles deep",
                    TILE_DEPTHS},
                   {"WM", 32, 0, 8, 256, "warp tile rows (WN = 2048 / WM columns)",
                    CHOICES(16, 32, 64), PER_SHAPE},
                   {"SPLITS", 256, 16, 1, 4096,
                    "most slices of K (fewer when K has fewer tiles)",
                    CHOICES(1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 256), PER_SHAPE},
                   {"ATOMIC", 0, 0, 0, 1,
                    "0: partials summed by a second kernel (deterministic); 1: by atomics",
                    CHOICES(0, 1)}},
        .validate = warptile_validate,
        .geometry = splitk_geometry,
        .launches = splitk_launches,
        .rule_params = splitk_rule_params,
        .workspace_floats = splitk_workspace,
        .local_mem_bytes = splitk_local_mem,
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_splitk_count = (int)(sizeof rungs_splitk / sizeof rungs_splitk[0]);
