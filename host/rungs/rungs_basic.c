/* Registry entries for rungs 1-3: naive, tiling in local memory, more work per thread.
 * Kernel sources: kernels-opencl/0N-*.cl and kernels-cuda/0N-*.cu. */
#include "rungs/registry.h"

static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

/* ---- rung 1: naive ---------------------------------------------------------------- */
/* p[0] = TS, the work-group edge. The kernel guards its indices, so any size runs. */
static void naive_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)p[0];
    d->local[1] = (size_t)p[0];
    d->global[0] = round_up((size_t)M, (size_t)p[0]);
    d->global[1] = round_up((size_t)N, (size_t)p[0]);
}

/* ---- rung 2: tiling in local memory ----------------------------------------------- */
static void tiling_multiples(const int *p, int mult[3])
{
    mult[0] = mult[1] = mult[2] = p[0];
}
static void tiling_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = d->local[1] = (size_t)p[0];
    d->global[0] = (size_t)M;
    d->global[1] = (size_t)N;
}
static size_t tiling_local_mem(const int *p)
{
    return 2 * (size_t)p[0] * (size_t)p[0] * sizeof(float); /* one tile of A, one of B */
}

/* ---- rung 3: more work per thread --------------------------------------------------- */
/* p[0] = TS, p[1] = WPT. */
static ladder_status wpt_validate(const int *p, char *msg)
{
    if (p[0] % p[1] != 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "WPT=%d must divide TS=%d", p[1], p[0]);
    return LADDER_OK;
}
static void wpt_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)p[0];
    d->local[1] = (size_t)(p[0] / p[1]);
    d->global[0] = (size_t)M;
    d->global[1] = (size_t)(N / p[1]);
}

const rung rungs_basic[] = {
    {
        .number = 1, .id = "01-naive", .name = "naive",
        .title = "Naive: one work-item per element of C",
        .idea = "each work-item computes one element of C straight from global memory",
        .parent = 0, /* the first rung */
        .kind = RUNG_KERNEL,
        .nparams = 1,
        .params = {{"TS", 32, 16, 1, 1024, "work-group edge (TS x TS work-items)",
                    CHOICES(4, 8, 16, 32)}},
        .geometry = naive_geometry,
        .takes_double = 1,
    },
    {
        .number = 2, .id = "02-tiling", .name = "tiling",
        .title = "Tiling in local memory",
        .idea = "a work-group loads TSxTS tiles of A and B into local memory and reuses them",
        .parent = 1,
        .kind = RUNG_KERNEL,
        .nparams = 1,
        .params = {{"TS", 32, 16, 2, 64, "tile edge (TS x TS work-items, TS x TS tiles)",
                    CHOICES(4, 8, 16, 32, 64)}},
        .multiples = tiling_multiples,
        .geometry = tiling_geometry,
        .local_mem_bytes = tiling_local_mem,
        .takes_double = 1,
    },
    {
        .number = 3, .id = "03-wpt", .name = "wpt",
        .title = "More work per thread",
        .idea = "each work-item computes WPT elements of C, reusing each value of A it loads",
        .parent = 2,
        .kind = RUNG_KERNEL,
        .nparams = 2,
        .params = {{"TS", 32, 32, 2, 128, "tile edge", CHOICES(8, 16, 32, 64, 128)},
                   {"WPT", 8, 8, 1, 64, "elements of C per work-item (divides TS)",
                    CHOICES(1, 2, 4, 8, 16, 32)}},
        .validate = wpt_validate,
        .multiples = tiling_multiples,
        .geometry = wpt_geometry,
        .local_mem_bytes = tiling_local_mem,
        .takes_double = 1,
    },
};
const int rungs_basic_count = (int)(sizeof rungs_basic / sizeof rungs_basic[0]);
