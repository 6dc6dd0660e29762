/* Registry entries for rungs 4-10, the rest of the classic ladder: vectors, transposed
 * input with rectangular tiles, 2D register blocking, wide loads, vendor features,
 * prefetching and padding. Kernel sources: kernels-opencl/NN-*.cl and kernels-cuda/NN-*.cu.
 *
 * Defaults: `value` was measured fastest on the H100 (kernels-notes.md has the sweeps);
 * `small_value` fits devices with 32 KiB of local memory and 256 work-items per
 * work-group. From rung 5 on the tile is 128 x 128 with 256 work-items in both.
 */
#include "rungs/registry.h"

/* ---- shared checks ------------------------------------------------------------------- */

static int is_vector_width(int w) { return w == 1 || w == 2 || w == 4 || w == 8; }

/* The tile loads of rungs 5-10: `threads` work-items load a TSM x TSK tile of A and a
 * TSN x TSK tile of B^T in vectors of WIDTH, each the same whole number of vectors. */
static ladder_status check_tile_loads(int tsm, int tsn, int tsk, int width, int threads,
                                      char *msg)
{
    if (!is_vector_width(width))
        return ladder_fail(msg, LADDER_UNSUPPORTED, "WIDTH=%d must be 1, 2, 4 or 8", width);
    if (rung_need_divides(width, tsm, "WIDTH must divide TSM", msg) ||
        rung_need_divides(width, tsn, "WIDTH must divide TSN", msg))
        return LADDER_UNSUPPORTED;
    if (rung_need_divides(threads, tsm / width * tsk,
                     "the work-group size must divide the vectors of an A tile "
                     "(TSM*TSK/WIDTH)", msg) ||
        rung_need_divides(threads, tsn / width * tsk,
                     "the work-group size must divide the vectors of a B tile "
                     "(TSN*TSK/WIDTH)", msg))
        return LADDER_UNSUPPORTED;
    return LADDER_OK;
}

/* ---- rung 4: wider data types --------------------------------------------------------- */
/* p[0] = TS, p[1] = WIDTH, p[2] = WPT. */
static ladder_status vectors_validate(const int *p, char *msg)
{
    if (!is_vector_width(p[1]))
        return ladder_fail(msg, LADDER_UNSUPPORTED, "WIDTH=%d must be 1, 2, 4 or 8", p[1]);
    if (rung_need_divides(p[1], p[0], "WIDTH must divide TS", msg) ||
        rung_need_divides(p[2], p[0], "WPT must divide TS", msg))
        return LADDER_UNSUPPORTED;
    return LADDER_OK;
}
static void vectors_multiples(const int *p, int mult[3])
{
    mult[0] = mult[1] = mult[2] = p[0];
}
static void vectors_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)(p[0] / p[1]);
    d->local[1] = (size_t)(p[0] / p[2]);
    d->global[0] = (size_t)(M / p[1]);
    d->global[1] = (size_t)(N / p[2]);
}
static size_t vectors_local_mem(const int *p)
{
    return 2 * (size_t)p[0] * (size_t)p[0] * sizeof(float);
}

/* ---- rung 5: transposed input and rectangular tiles ------------------------------------ */
/* p = TSM, TSN, TSK, WIDTH, WPTN. Work-group: TSM/WIDTH x TSN/WPTN. */
static ladder_status transpose_validate(const int *p, char *msg)
{
    if (!is_vector_width(p[3]))
        return ladder_fail(msg, LADDER_UNSUPPORTED, "WIDTH=%d must be 1, 2, 4 or 8", p[3]);
    if (rung_need_divides(p[3], p[0], "WIDTH must divide TSM", msg) ||
        rung_need_divides(p[4], p[1], "WPTN must divide TSN", msg))
        return LADDER_UNSUPPORTED;
    return check_tile_loads(p[0], p[1], p[2], p[3], (p[0] / p[3]) * (p[1] / p[4]), msg);
}
static void transpose_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)(p[0] / p[3]);
    d->local[1] = (size_t)(p[1] / p[4]);
    d->global[0] = (size_t)(M / p[3]);
    d->global[1] = (size_t)(N / p[4]);
}
static size_t single_tiles_local_mem(const int *p)
{
    return ((size_t)p[0] + (size_t)p[1]) * (size_t)p[2] * sizeof(float);
}

/* ---- rungs 6-10: 2D register blocking and what builds on it ----------------------------- */
/* p = TSM, TSN, TSK, WIDTH, WPTM, WPTN[, rung 8's switches]. Work-group: TSM/WPTM x
 * TSN/WPTN. `wide_b`: the columns come in vectors too (rung 7 on). */
static ladder_status blocked_check(const int *p, int wide_b, char *msg)
{
    if (!is_vector_width(p[3]))
        return ladder_fail(msg, LADDER_UNSUPPORTED, "WIDTH=%d must be 1, 2, 4 or 8", p[3]);
    if (rung_need_divides(p[4], p[0], "WPTM must divide TSM", msg) ||
        rung_need_divides(p[5], p[1], "WPTN must divide TSN", msg) ||
        rung_need_divides(p[3], p[4], "WIDTH must divide WPTM", msg) ||
        (wide_b && rung_need_divides(p[3], p[5], "WIDTH must divide WPTN", msg)))
        return LADDER_UNSUPPORTED;
    return check_tile_loads(p[0], p[1], p[2], p[3], (p[0] / p[4]) * (p[1] / p[5]), msg);
}
static ladder_status regblock_validate(const int *p, char *msg)
{
    return blocked_check(p, 0, msg);
}
static ladder_status wideloads_validate(const int *p, char *msg)
{
    return blocked_check(p, 1, msg);
}
/* Rung 8 adds p[6] = USE_LDG and p[7] = USE_SHUFFLE. Shuffles exchange B between the
 * RTSM = TSM/WPTM work-items that share a column group, which must sit inside one warp
 * (sub-group): RTSM a power of two up to 32, and whole warps of 32. */
/* OpenCL needs sub-groups (and an OpenCL C 2.0+ build) only for the shuffles. */
static int vendor_uses_subgroups(const int *p) { return p[7]; }

static ladder_status vendor_validate(const int *p, char *msg)
{
    if (blocked_check(p, 1, msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    const int rtsm = p[0] / p[4], threads = rtsm * (p[1] / p[5]);
    if (p[7] && (rtsm > 32 || (rtsm & (rtsm - 1)) != 0))
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "USE_SHUFFLE=1 needs TSM/WPTM (%d) to be a power of two up to 32",
                           rtsm);
    if (p[7] && threads % 32 != 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "USE_SHUFFLE=1 needs whole warps: %d work-items is not a "
                           "multiple of 32", threads);
    return LADDER_OK;
}
static void blocked_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)(p[0] / p[4]);
    d->local[1] = (size_t)(p[1] / p[5]);
    d->global[0] = (size_t)(M / p[4]);
    d->global[1] = (size_t)(N / p[5]);
}
size_t prefetch_tiles_local_mem(const int *p)
{
    return 2 * single_tiles_local_mem(p);
}

/* What `ladder tune` tries (CHOICES) from rung 5 on: tiles of 64 to 256 on a side and 8
 * to 32 deep, vectors of 2 to 8, register blocks of 4 to 16 on a side. Smaller tiles and
 * blocks leave a GPU's registers idle, and scalar loads are what rung 4 left behind. That
 * is 729 combinations for rungs 6, 7, 9 and 10, of which validate() and an H100 keep
 * 340 to 480 (rung 8's two switches make it 1782). The lists hold both sets of defaults,
 * so a search can start from them. TILE_EDGES and TILE_DEPTHS (registry.h) are shared
 * with rungs 11 and up. */
#define VECTOR_WIDTHS CHOICES(2, 4, 8)
#define BLOCK_EDGES CHOICES(4, 8, 16)
#define SWITCH CHOICES(0, 1)

/* The parameters rungs 6-10 share, in the order the functions above read them: a
 * 128 x 128 tile and 256 work-items of 8 x 8 on every device. The depth TSK is the one
 * thing that differs: 32 on the H100 for rungs 6-8 (half the barriers of 16, and the
 * fastest there in both backends), 16 for rungs 9-10, whose two buffers of each tile
 * must stay within 48 KiB; half of that on small devices, to stay well inside 32 KiB. */
#define TILE_PARAMS(tsk, tsk_small)                                                     \
    {"TSM", 128, 0, 1, 1024, "tile rows (M)", TILE_EDGES},                              \
    {"TSN", 128, 0, 1, 1024, "tile columns (N)", TILE_EDGES},                           \
    {"TSK", tsk, tsk_small, 1, 256, "tile depth (K)", TILE_DEPTHS},                      \
    {"WIDTH", 4, 0, 1, 8, "vector width: 1, 2, 4 or 8", VECTOR_WIDTHS},                  \
    {"WPTM", 8, 0, 1, 64, "rows of C per work-item", BLOCK_EDGES},                       \
    {"WPTN", 8, 0, 1, 64, "columns of C per work-item", BLOCK_EDGES}

const rung rungs_classic[] = {
    {
        .number = 4, .id = "04-vectors", .name = "vectors",
        .title = "Wider data types",
        .idea = "vectors of WIDTH floats for the loads, the stores and the arithmetic",
        .parent = 3,
        .kind = RUNG_KERNEL,
        .nparams = 3,
        .params = {{"TS", 32, 0, 2, 128, "tile edge (rung 3's, so only the vectors change)",
                    CHOICES(8, 16, 32, 64, 128)},
                   {"WIDTH", 4, 0, 1, 8, "vector width: 1, 2, 4 or 8 (divides TS)",
                    CHOICES(1, 2, 4, 8)},
                   {"WPT", 8, 0, 1, 64, "columns of C per work-item (divides TS)",
                    CHOICES(1, 2, 4, 8, 16, 32)}},
        .validate = vectors_validate,
        .multiples = vectors_multiples,
        .geometry = vectors_geometry,
        .local_mem_bytes = vectors_local_mem,
        .takes_double = 1,
    },
    {
        .number = 5, .id = "05-transpose", .name = "transpose",
        .title = "Transposed input and rectangular tiles",
        .idea = "B is transposed once so both tiles load alike; tiles TSM x TSN x TSK",
        .parent = 4,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        .params = {{"TSM", 128, 0, 1, 1024, "tile rows (M)", TILE_EDGES},
                   {"TSN", 128, 0, 1, 1024, "tile columns (N)", TILE_EDGES},
                   {"TSK", 32, 16, 1, 256, "tile depth (K)", TILE_DEPTHS},
                   {"WIDTH", 4, 0, 1, 8, "vector width: 1, 2, 4 or 8", VECTOR_WIDTHS},
                   {"WPTN", 16, 0, 1, 64, "columns of C per work-item",
                    CHOICES(4, 8, 16, 32)}},
        .validate = transpose_validate,
        .multiples = rung_tile_multiples,
        .transposes_b = 1,
        .geometry = transpose_geometry,
        .local_mem_bytes = single_tiles_local_mem,
        .takes_double = 1,
    },
    {
        .number = 6, .id = "06-regblock", .name = "regblock",
        .title = "2D register blocking",
        .idea = "each work-item computes a WPTM x WPTN block of C from fragments in registers",
        .parent = 5,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {TILE_PARAMS(32, 16)},
        .validate = regblock_validate,
        .multiples = rung_tile_multiples,
        .transposes_b = 1,
        .geometry = blocked_geometry,
        .local_mem_bytes = single_tiles_local_mem,
        .takes_double = 1,
    },
    {
        .number = 7, .id = "07-wideloads", .name = "wideloads",
        .title = "Wider loads with register blocking",
        .idea = "the fragments of B are read from local memory as vectors too",
        .parent = 6,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {TILE_PARAMS(32, 16)},
        .validate = wideloads_validate,
        .multiples = rung_tile_multiples,
        .transposes_b = 1,
        .geometry = blocked_geometry,
        .local_mem_bytes = single_tiles_local_mem,
        .takes_double = 1,
    },
    {
        .number = 8, .id = "08-vendor", .name = "vendor",
        .title = "Vendor-specific features",
        .idea = "read-only data path and warp shuffles, each switchable (OpenCL: restrict, "
                "sub-groups)",
        .parent = 7,
        .kind = RUNG_KERNEL,
        .nparams = 8,
        .params = {TILE_PARAMS(32, 16),
                   {"USE_LDG", 1, 0, 0, 1,
                    "1: const restrict pointers: the read-only path (CUDA ld.global.nc)", SWITCH},
                   {"USE_SHUFFLE", 0, 0, 0, 1,
                    "1: share B fragments by warp shuffles (OpenCL: sub-group shuffles)",
                    SWITCH}},
        .validate = vendor_validate,
        .uses_subgroups = vendor_uses_subgroups,
        .multiples = rung_tile_multiples,
        .transposes_b = 1,
        .geometry = blocked_geometry,
        .local_mem_bytes = single_tiles_local_mem,
        .takes_double = 1,
    },
    {
        .number = 9, .id = "09-prefetch", .name = "prefetch",
        .title = "Software prefetching",
        .idea = "double-buffered tiles: the next tiles load while the current ones compute",
        .parent = 8,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {TILE_PARAMS(16, 8)},
        .validate = wideloads_validate,
        .multiples = rung_tile_multiples,
        .transposes_b = 1,
        .geometry = blocked_geometry,
        .local_mem_bytes = prefetch_tiles_local_mem,
        .takes_double = 1,
    },
    {
        .number = 10, .id = "10-anysize", .name = "anysize",
        .title = "Incomplete tiles and arbitrary sizes",
        .idea = "A and B are padded with zeros to whole tiles and C stripped: every size runs",
        .parent = 9,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {TILE_PARAMS(16, 8)},
        .validate = wideloads_validate,
        .multiples = rung_tile_multiples,
        .pads = 1,
        .transposes_b = 1,
        .geometry = blocked_geometry,
        .local_mem_bytes = prefetch_tiles_local_mem,
        .takes_double = 1,
    },
};
const int rungs_classic_count = (int)(sizeof rungs_classic / sizeof rungs_classic[0]);
