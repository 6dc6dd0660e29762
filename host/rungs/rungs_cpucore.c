/* Registry entry for rung 27: a kernel shaped for a CPU core (OpenCL only). Its parent is
 * rung 19 (split-K); kernel source: kernels-opencl/27-cpucore.cl.
 *
 * A work-item holds a VW x NR block of C in registers: VW rows as one vector, NR columns,
 * and runs the whole K loop (or its slice of K) with outer-product updates, no local
 * memory and no barriers. A work-group is LX x LY work-items, a (LX VW) x (LY NR) tile of
 * C. When C has too few tiles for the compute units (GPC work-groups each), K is split:
 * each slice writes its partial block into the workspace and a second kernel, `reduce`,
 * adds the slices in a fixed order (deterministic, as rung 19's ATOMIC=0). With a
 * transposed A and enough blocks of columns, a first kernel, `transpose_a`, copies A into
 * the workspace as the M x K matrix the GEMM reads fastest; `transpose_b` does the same
 * for a transposed B and enough blocks of rows.
 */
#include "rungs/registry.h"

#include <stddef.h>

/* p = VW, NR, LX, LY, GPC. */
enum { VW, NR, LX, LY, GPC };

/* Elements of W before the rest (W[0] = the slice count); the kernel's HEADER. */
#define HEADER_FLOATS 4
/* With TRANS_A, A is copied into W first when C has this many blocks of columns or more,
 * and with TRANS_B, B when it has this many blocks of rows (the kernel's PACK_TILES), TR
 * rows (depths) TD deep (columns) per work-item of `transpose_a` (`transpose_b`): the
 * kernel's TR and TD. */
#define PACK_TILES 4
#define TRANSPOSE_ROWS 16
/* Where the copies start in W, and what their leading dimensions are odd multiples of (the
 * kernel's COPY_AT and copy_ld: a cache line in float). */
#define COPY_AT 16
#define TRANSPOSE_DEPTH 256
/* The shortest slice of K worth a work-group of its own: below it, a slice's loop is
 * shorter than the work of writing and re-reading its partial block. (The kernel's slices
 * are floor(K / slices) or one more deep, so K / SLICE_MIN slices are never shorter.) */
#define SLICE_MIN 16

static void cpu_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)p[LX];
    d->local[1] = (size_t)p[LY];
    d->global[0] = rung_ceil_div((size_t)M, (size_t)p[LX] * p[VW]) * d->local[0];
    d->global[1] = rung_ceil_div((size_t)N, (size_t)p[LY] * p[NR]) * d->local[1];
}

/* The slices of K: one while the tiles of C give every compute unit GPC work-groups or
 * more; else as many as bring the work-groups nearest GPC per compute unit, none shorter
 * than SLICE_MIN. The kernels read the count from the grid (and `reduce` from W[0]). */
static long cpu_slices(const int *p, const launch_shape *s)
{
    const long tiles = (long)(rung_ceil_div((size_t)s->M, (size_t)p[LX] * p[VW]) *
                              rung_ceil_div((size_t)s->N, (size_t)p[LY] * p[NR]));
    const long target = (long)p[GPC] * (s->compute_units > 0 ? s->compute_units : 1);
    long slices = (target + tiles / 2) / tiles;
    const long most = s->K / SLICE_MIN;
    if (slices > most)
        slices = most;
    return slices < 1 ? 1 : slices;
}

/* Whether the call copies a transposed A into W before the GEMM (the kernel's packs_a):
 * when every block of rows of A is read by PACK_TILES blocks of columns or more, one pass
 * of gathers costs less than one per block of columns. The same for B^T and the blocks of
 * rows that read each of its blocks of columns (packs_b). */
static int cpu_packs_a(const int *p, const launch_shape *s)
{
    return s->trans_a && rung_ceil_div((size_t)s->N, (size_t)p[LY] * p[NR]) >= PACK_TILES;
}

static int cpu_packs_b(const int *p, const launch_shape *s)
{
    return s->trans_b && rung_ceil_div((size_t)s->M, (size_t)p[LX] * p[VW]) >= PACK_TILES;
}

/* The kernel's copy_ld: rows rounded up to an odd number of COPY_AT. */
static size_t copy_ld(int rows)
{
    const size_t lines = rung_ceil_div((size_t)rows, COPY_AT);
    return (lines % 2 ? lines : lines + 1) * COPY_AT;
}

/* `transpose_a` and `transpose_b` first when A or B is copied, then `gemm`, then
 * `reduce` when K is split. The slices go along dimension 1, after the tiles of N (group
 * tile_n + tiles_n * slice). */
static int cpu_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    const long slices = cpu_slices(p, s);
    int n = 0;
    if (cpu_packs_a(p, s) && s->K > 0)
        out[n++] = (rung_launch){"transpose_a",
                                 {{rung_ceil_div((size_t)s->M, TRANSPOSE_ROWS),
                                   rung_ceil_div((size_t)s->K, TRANSPOSE_DEPTH)},
                                  {1, 1}}};
    if (cpu_packs_b(p, s) && s->K > 0)
        out[n++] = (rung_launch){"transpose_b",
                                 {{rung_ceil_div((size_t)s->K, TRANSPOSE_ROWS),
                                   rung_ceil_div((size_t)s->N, TRANSPOSE_DEPTH)},
                                  {1, 1}}};
    out[n].kernel = "gemm";
    cpu_geometry(p, s->M, s->N, &out[n].dims);
    out[n++].dims.global[1] *= (size_t)slices;
    if (slices == 1)
        return n;
    /* The reduction: VW elements of C per work-item, in work-groups of LX. */
    const size_t items = rung_ceil_div((size_t)s->M * (size_t)s->N, (size_t)p[VW]);
    out[n++] = (rung_launch){"reduce", {{rung_ceil_div(items, (size_t)p[LX]) * p[LX], 1},
                                        {(size_t)p[LX], 1}}};
    return n;
}

/* W: its header, the copies of A and B (packs_a, packs_b: from COPY_AT on), the slices'
 * partial blocks (K split). */
static size_t cpu_workspace(const int *p, const launch_shape *s)
{
    const long slices = cpu_slices(p, s);
    const size_t parts = slices == 1 ? 0 : (size_t)slices * (size_t)s->M * (size_t)s->N;
    if (!cpu_packs_a(p, s) && !cpu_packs_b(p, s))
        return parts == 0 ? 0 : HEADER_FLOATS + parts;
    const size_t a = cpu_packs_a(p, s) ? copy_ld(s->M) * (size_t)s->K : 0;
    const size_t b = cpu_packs_b(p, s) ? copy_ld(s->K) * (size_t)s->N : 0;
    return COPY_AT + a + b + parts;
}

static ladder_status cpu_validate(const int *p, char *msg)
{
    const int vw = p[VW];
    if (vw != 1 && vw != 2 && vw != 4 && vw != 8 && vw != 16)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "VW=%d must be 1, 2, 4, 8 or 16 (an OpenCL vector's width)", vw);
    return LADDER_OK;
}

/* The fallback rule's parameters (rung.rule_params), for a shape no selection table has:
 * the widest vector whose rows M fills (16, 8, 4, 2 or 1), so that the vector loads of A
 * never take the slow path of a C of fewer rows than VW; the rest as tuned or the
 * defaults. On the 2-core EPYC (results/pocl-epyc-2core-2026-11-29-cpurung), with the
 * other defaults: at 1 x 2048 x 512 VW = 1 ran 0.105 ms and VW = 16 0.925; at 4 x 2048 x
 * 512 VW = 4 0.098 and VW = 16 0.930; at 8 x 2048 x 512 VW = 8 0.100, 16 0.928; at 16 x
 * 2048 x 512 VW = 16 0.159, 8 0.190 (fastest of three). The work-groups per core (GPC)
 * changed the time by 10% at most at six long or odd shapes, and the columns (NR = 1 to
 * 8) not at all at N of 1 and 2: both stay. */
static void cpucore_rule_params(int *p, const gemm_size *s, const device_info *dev)
{
    (void)dev; /* the rule runs this rung on a CPU only (selection.c) */
    p[VW] = 16;
    while (p[VW] > 1 && p[VW] > s->M)
        p[VW] /= 2;
}

const rung rungs_cpucore[] = {
    {
        .number = 27, .id = "27-cpucore", .name = "cpucore",
        .title = "A kernel shaped for a CPU core",
        .idea = "a CPU micro-kernel per work-item: vectors of A times broadcast B, no "
                "local memory",
        .parent = 19,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        .params = {{"VW", 16, 0, 1, 16, "rows of C per work-item, one vector",
                    CHOICES(1, 4, 8, 16), PER_SHAPE},
                   {"NR", 8, 0, 1, 32, "columns of C per work-item", CHOICES(4, 8, 16),
                    PER_SHAPE},
                   {"LX", 1, 0, 1, 256, "work-items of a work-group along M",
                    CHOICES(1, 16), PER_SHAPE},
                   {"LY", 1, 0, 1, 256, "work-items of a work-group along N",
                    CHOICES(1, 4), PER_SHAPE},
                   {"GPC", 2, 0, 1, 64, "work-groups per compute unit to aim for: K is "
                    "split when C's tiles are fewer", CHOICES(1, 2, 4), PER_SHAPE}},
        .validate = cpu_validate,
        .geometry = cpu_geometry,
        .launches = cpu_launches,
        .workspace_floats = cpu_workspace,
        .rule_params = cpucore_rule_params,
        .only_backend = "opencl",
        .only_reason = "OpenCL only: written for a CPU through PoCL, which runs a "
                       "work-group as one core's loop",
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_cpucore_count = (int)(sizeof rungs_cpucore / sizeof rungs_cpucore[0]);
