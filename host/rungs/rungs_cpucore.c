/* Registry entry for rung 27: a kernel shaped for a CPU core (OpenCL only). Its parent is
 * rung 19 (split-K); kernel source: kernels-opencl/27-cpucore.cl.
 *
 * A work-item holds a VW x NR block of C in registers: VW rows as one vector, NR columns,
 * and runs the whole K loop (or its slice of K) with outer-product updates, no local
 * memory and no barriers. A work-group is LX x LY work-items, a (LX VW) x (LY NR) tile of
 * C. When K is split (SPLITS), each slice writes its partial block into the workspace
 * and a second kernel, `reduce`, adds the slices in a fixed order (deterministic, as
 * rung 19's ATOMIC=0).
 */
#include "rungs/registry.h"

#include <stddef.h>

/* p = VW, NR, LX, LY, SPLITS. */
enum { VW, NR, LX, LY, SPLITS };

/* Work-items of the reduction's work-groups (any count works; the kernel guards). */
#define REDUCE_ITEMS 64

static size_t ceil_div(size_t n, size_t d) { return (n + d - 1) / d; }

/* How K is shared out, exactly as the kernel computes it (slice_len, slice_count in
 * 27-cpucore.cl): every slice but the last ceil(K / SPLITS) deep, none empty. */
static int slice_len(const int *p, int K)
{
    const int per = (K + p[SPLITS] - 1) / p[SPLITS];
    return per > 0 ? per : 1;
}
static int slice_count(const int *p, int K)
{
    const int n = (K + slice_len(p, K) - 1) / slice_len(p, K);
    return n > 0 ? n : 1;
}

static void cpu_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)p[LX];
    d->local[1] = (size_t)p[LY];
    d->global[0] = ceil_div((size_t)M, (size_t)p[LX] * p[VW]) * d->local[0];
    d->global[1] = ceil_div((size_t)N, (size_t)p[LY] * p[NR]) * d->local[1];
}

/* The slices go along dimension 1, after the tiles of N (group tile_n + tiles_n * slice). */
static int cpu_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    const int slices = slice_count(p, s->K);
    out[0].kernel = "gemm";
    cpu_geometry(p, s->M, s->N, &out[0].dims);
    out[0].dims.global[1] *= (size_t)slices;
    if (slices == 1)
        return 1;
    const size_t elements = (size_t)s->M * (size_t)s->N;
    out[1] = (rung_launch){"reduce", {{ceil_div(elements, REDUCE_ITEMS) * REDUCE_ITEMS, 1},
                                      {REDUCE_ITEMS, 1}}};
    return 2;
}

static size_t cpu_workspace(const int *p, const launch_shape *s)
{
    const int slices = slice_count(p, s->K);
    return slices == 1 ? 0 : (size_t)slices * (size_t)s->M * (size_t)s->N;
}

static ladder_status cpu_validate(const int *p, char *msg)
{
    const int vw = p[VW];
    if (vw != 1 && vw != 2 && vw != 4 && vw != 8 && vw != 16)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "VW=%d must be 1, 2, 4, 8 or 16 (an OpenCL vector's width)", vw);
    return LADDER_OK;
}

const rung rungs_cpucore[] = {
    {
        .number = 27, .id = "27-cpucore", .name = "cpucore",
        .title = "A kernel shaped for a CPU core",
        .idea = "a register block of C per work-item, vectors along M, no local memory or "
                "barriers; K split only when C is too small for the cores",
        .parent = 19,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        .params = {{"VW", 16, 0, 1, 16, "rows of C per work-item, one vector",
                    CHOICES(4, 8, 16), PER_SHAPE},
                   {"NR", 8, 0, 1, 32, "columns of C per work-item", CHOICES(4, 8, 12, 16),
                    PER_SHAPE},
                   {"LX", 1, 0, 1, 256, "work-items of a work-group along M",
                    CHOICES(1, 2, 4, 8), PER_SHAPE},
                   {"LY", 1, 0, 1, 256, "work-items of a work-group along N",
                    CHOICES(1, 2, 4, 8), PER_SHAPE},
                   {"SPLITS", 1, 0, 1, 4096, "most slices of K (fewer when K is shorter)",
                    CHOICES(1, 2, 4, 8, 16, 32), PER_SHAPE}},
        .validate = cpu_validate,
        .geometry = cpu_geometry,
        .launches = cpu_launches,
        .workspace_floats = cpu_workspace,
        .only_backend = "opencl",
        .only_reason = "OpenCL only: written for a CPU through PoCL, which runs a "
                       "work-group as one core's loop",
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_cpucore_count = (int)(sizeof rungs_cpucore / sizeof rungs_cpucore[0]);
