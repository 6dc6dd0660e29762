/* Registry entry for rung 26, Stream-K: rung 19's tiles with the work counted in
 * iterations (one tile of C, one TSK-deep step of K) and shared out evenly by one wave of
 * blocks, so that a shape whose tiles make 4.36 waves does not run a fifth, mostly idle
 * one. Its parent is rung 19; kernel source: kernels-cuda/26-streamk.cu (CUDA only).
 *
 * One call launches two kernels (rung.launches), on grids G blocks wide, G being as many
 * blocks as the device holds at once (wave_blocks), so that the kernels read G as
 * gridDim.x:
 *   "gemm"   a row of G blocks that take the whole tiles (block b the tiles b, b + G,
 *            b + 2G, ...), then a row that is the stream-K wave, whose block j takes the
 *            j-th even share of the remaining tiles' iterations and puts the tiles it
 *            does only part of into its two slots of the workspace W;
 *   "fixup"  one row of G blocks: the blocks that shared a tile each add up a piece of
 *            it over all its parts, in an order fixed by the shape (deterministic), and
 *            write that piece of C.
 * A shape whose tiles fill whole waves has no stream-K tiles: "gemm" alone, rung 15's
 * work in rung 19's kernel.
 */
#include "rungs/registry.h"
#include "rungs/warptile.h"

#include <stddef.h>

/* p = TSM, TSN, TSK, WM (rung 15's), SKW. */
enum { TSM, TSN, TSK, WM, SKW };

static long ceil_div(long n, long d) { return (n + d - 1) / d; }

/* The schedule, exactly as `schedule` in 26-streamk.cu computes it. */
typedef struct {
    long tiles;     /* tiles of C */
    long dp_tiles;  /* the first tiles, one whole tile per block */
    long sk_tiles;  /* the last tiles, shared out by the wave */
    long sk_blocks; /* blocks of the wave that get work */
} streamk_schedule;

/* The wave: G blocks, as many as the device holds at once. The kernel's __launch_bounds__
 * promises room for 512 threads per SM in float, 256 in double (MIN_BLOCKS in
 * 26-streamk.cu: 128 registers a thread, as rung 15's), so G is that many blocks on each
 * compute unit (one compute unit when the device did not say how many it has). A wave of
 * fewer blocks would leave SMs half empty through the whole-tile row too, which loops over
 * its tiles rather than starting a block per tile: measured on the H200 with one block
 * per SM, 4096^3 ran at 26,040 GFLOPS against 46,141 with two. */
static long wave_blocks(const int *p, const launch_shape *s)
{
    const long words = s->element_bytes == 8 ? 2 : 1, threads = warptile_threads(p);
    const long per_unit = threads * words < 512 ? 512 / (threads * words) : 1;
    return (long)(s->compute_units > 0 ? s->compute_units : 1) * per_unit;
}

static streamk_schedule schedule(const int *p, const launch_shape *s)
{
    const long G = wave_blocks(p, s);
    streamk_schedule k;
    k.tiles = ceil_div(s->M, p[TSM]) * ceil_div(s->N, p[TSN]);
    const long ipt = s->K > 0 ? ceil_div(s->K, p[TSK]) : 1, rest = k.tiles % G;
    k.sk_tiles = rest == 0 ? 0 : k.tiles < G * (1 + p[SKW]) ? k.tiles : rest + p[SKW] * G;
    k.dp_tiles = k.tiles - k.sk_tiles;
    k.sk_blocks = k.sk_tiles * ipt < G ? k.sk_tiles * ipt : G;
    return k;
}

/* The work-groups of one whole tile each (the kernel's `gemm` for a shape with no stream-K
 * tiles): rung 15's. What `ladder list` and the device checks read; the real grids are
 * `streamk_launches`'. */
static void streamk_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)warptile_threads(p);
    d->local[1] = 1;
    d->global[0] = (size_t)ceil_div(M, p[TSM]) * d->local[0];
    d->global[1] = (size_t)ceil_div(N, p[TSN]);
}

static int streamk_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    const size_t threads = (size_t)warptile_threads(p), G = (size_t)wave_blocks(p, s);
    const streamk_schedule k = schedule(p, s);
    /* A row of G blocks for the whole tiles (each takes every G-th: dp_tiles is whole
     * waves), when there are any, then the wave. */
    const size_t rows = k.dp_tiles > 0 ? 2 : 1;
    out[0] = (rung_launch){"gemm", {{G * threads, rows}, {threads, 1}}};
    if (k.sk_tiles == 0)
        return 1;
    out[1] = (rung_launch){"fixup", {{G * threads, 1}, {threads, 1}}};
    return 2;
}

/* Two slots of a whole tile per block of the wave; none without stream-K tiles. */
static size_t streamk_workspace(const int *p, const launch_shape *s)
{
    const streamk_schedule k = schedule(p, s);
    if (k.sk_tiles == 0)
        return 0;
    return (size_t)k.sk_blocks * 2 * (size_t)p[TSM] * (size_t)p[TSN];
}

const rung rungs_streamk[] = {
    {
        .number = 26, .id = "26-streamk", .name = "streamk",
        .title = "Stream-K: one wave shares out the last tiles' iterations",
        .idea = "rung 19's tiles; the tiles of the ragged last wave split evenly, by "
                "iterations, over one wave of blocks",
        .parent = 19,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        /* 128 x 128 tiles, 8 deep. The loop over a run's tiles keeps more values alive than
         * rung 19's one slice: compiled as ladder compiles it (NVRTC 13.0, sm_90), `gemm`
         * fills its 128 registers and spills nothing at TSK = 8, but 104 bytes at 16, some
         * reloaded inside the K loop. A version with one loop for each kind of block spilled
         * nothing at 16 either, but its K loop had 5% more instructions and ran 5-8%
         * slower on the H200 at both depths (results/h200-2026-11-29-streamk-2). */
        .params = {{"TSM", 128, 0, 8, 1024, "tile rows (M)", CHOICES(64, 128), PER_SHAPE},
                   {"TSN", 128, 0, 8, 1024, "tile columns (N)", CHOICES(64, 128),
                    PER_SHAPE},
                   {"TSK", 8, 0, 4, 256, "tile depth (K); an iteration is one tile deep",
                    TILE_DEPTHS},
                   {"WM", 64, 0, 8, 256, "warp tile rows (WN = 2048 / WM columns)",
                    CHOICES(16, 32, 64)},
                   {"SKW", 1, 0, 0, 1,
                    "whole waves of tiles shared out besides the last, ragged one",
                    CHOICES(0, 1), PER_SHAPE}},
        .validate = warptile_validate,
        .geometry = streamk_geometry,
        .launches = streamk_launches,
        .workspace_floats = streamk_workspace,
        .local_mem_bytes = blas_tiles,
        .only_backend = "cuda",
        .only_reason = "CUDA only: written for CUDA (its OpenCL version would be rung 19's "
                       "OpenCL kernel with this schedule)",
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_streamk_count = (int)(sizeof rungs_streamk / sizeof rungs_streamk[0]);
