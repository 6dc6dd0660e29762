/* Registry entry for rung 20: skinny and GEMV-like shapes, where M or N is 1 to 16.
 * Kernel sources: kernels-opencl/20-skinny.cl, kernels-cuda/20-skinny.cu.
 *
 * Such a product reads one big matrix once and does 2 flops per float of it per column
 * (or row) of the small one: memory bandwidth bounds it, not the multiply-adds. The rung
 * has two paths, chosen per call from M and N, each a family of kernels by how many
 * columns (rows) of the small matrix it holds:
 *
 *   tall (N <= 16, C has few columns)  tall_n1, tall_n2, tall_n4, tall_n8, tall_n16:
 *       each work-item streams float4s of 4 rows of A down a share of K; B's few columns
 *       wait in local memory; the work-group sums its shares of K in local memory.
 *   wide (M <= 16, C has few rows)     wide_m1 ... wide_m16:
 *       KL work-items stream float4s of 4 depths down each of WC columns of B; A's few
 *       rows wait in local memory; the KL lanes sum their shares across lanes.
 *
 * A kernel for 1, 2, 4, 8 or 16 columns (rows) keeps exactly that many sums in registers;
 * N = 3 takes the 4 kernel and ignores the fourth. When the rows (columns) alone make too
 * few work-groups for the device, K is also split across work-groups (S slices): each
 * writes its partial sums into the workspace and a second kernel, `reduce`, adds the S
 * partials in a fixed order (deterministic, as split-K's reduction) and applies alpha and
 * beta. With S = 1 the one kernel writes C itself.
 */
#include "rungs/registry.h"

#include <stddef.h>
#include <stdio.h>

/* The rung is designed for M or N up to this; its kernels hold that many sums. */
#define SKINNY_CAP 16

/* Parameter positions. */
enum { P_WG, P_RX, P_TQ, P_KL, P_WC, P_WU, P_PF, P_GPC };

/* Floats at the head of the workspace before the partial sums (the slice count, padded
 * so that the partials start 16-byte aligned); the kernels use the same number. */
#define HEADER_FLOATS 4

static long ceil_div(long a, long b) { return (a + b - 1) / b; }

/* The tall path serves C with few columns, the wide path C with few rows; a C small both
 * ways takes the path along its longer side. */
static int is_tall(int M, int N) { return N <= SKINNY_CAP && (M > SKINNY_CAP || N <= M); }

/* 0, 1, 2, 3, 4 for a kernel of 1, 2, 4, 8, 16 columns (rows): the smallest that holds n. */
static int bucket(int n)
{
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

/* The bucket of the kernel a call launches: tall_n<2^b> for C's N columns (tall), else
 * wide_m<2^b> for its M rows; skinny_launches names it, skinny_call_defines compiles it. */
static int launched_bucket(const launch_shape *s)
{
    return bucket(is_tall(s->M, s->N) ? s->N : s->M);
}

/* Work-groups along M (tall) or N (wide), and the depths of K one round of a work-group
 * covers. */
static long groups_across(const int *p, int M, int N)
{
    if (is_tall(M, N))
        return ceil_div(M, 4L * p[P_RX]);
    return ceil_div(N, (long)(p[P_WG] / p[P_KL]) * p[P_WC]);
}
static long round_depth(const int *p, int M, int N)
{
    if (is_tall(M, N))
        return (long)(p[P_WG] / p[P_RX]) * 4 * p[P_TQ];
    return 4L * p[P_KL] * p[P_WU];
}

/* The slices of K: as many as bring the work-groups nearest to GPC per compute unit, at
 * least 1, and no more than K has rounds (every slice then has work). */
static long k_slices(const int *p, const launch_shape *s)
{
    const long across = groups_across(p, s->M, s->N);
    const long target = (long)p[P_GPC] * (s->compute_units > 0 ? s->compute_units : 1);
    long slices = (target + across / 2) / across;
    const long rounds = ceil_div(s->K, round_depth(p, s->M, s->N));
    if (slices > rounds)
        slices = rounds;
    return slices < 1 ? 1 : slices;
}

static void skinny_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)p[P_WG];
    d->local[1] = 1;
    d->global[0] = (size_t)groups_across(p, M, N) * d->local[0];
    d->global[1] = 1;
}

static int skinny_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    static const char *const tall[] = {"tall_n1", "tall_n2", "tall_n4", "tall_n8", "tall_n16"};
    static const char *const wide[] = {"wide_m1", "wide_m2", "wide_m4", "wide_m8", "wide_m16"};
    const int t = is_tall(s->M, s->N);
    out[0].kernel = (t ? tall : wide)[launched_bucket(s)];
    skinny_geometry(p, s->M, s->N, &out[0].dims);
    const long slices = k_slices(p, s);
    out[0].dims.global[1] = (size_t)slices;
    if (slices == 1)
        return 1;
    /* One work-item per element of C adds the slices' partial sums. */
    out[1].kernel = "reduce";
    out[1].dims.local[0] = (size_t)p[P_WG];
    out[1].dims.local[1] = 1;
    out[1].dims.global[0] = (size_t)ceil_div((long)s->M * s->N, p[P_WG]) * (size_t)p[P_WG];
    out[1].dims.global[1] = 1;
    return 2;
}

/* The kernel a call launches, for the CUDA compiler: -DONLY_TALL=n for tall_n<n>,
 * -DONLY_WIDE=m for wide_m<m> (kernels-cuda/20-skinny.cu compiles only its body). */
static void skinny_call_defines(const int *p, const launch_shape *s, char *out, size_t size)
{
    (void)p;
    snprintf(out, size, "-DONLY_%s=%d", is_tall(s->M, s->N) ? "TALL" : "WIDE",
             1 << launched_bucket(s));
}

static size_t skinny_workspace(const int *p, const launch_shape *s)
{
    const long slices = k_slices(p, s);
    if (slices == 1)
        return 0;
    return HEADER_FLOATS + (size_t)slices * (size_t)s->M * (size_t)s->N;
}

/* A tall call launches tall_n* (and reduce), which read RX and TQ but not KL, WC and
 * WU; a wide call the other way round. WG, PF and GPC count for both. */
static int skinny_reads_param(int param, const launch_shape *s)
{
    switch (param) {
    case P_RX:
    case P_TQ:
        return is_tall(s->M, s->N);
    case P_KL:
    case P_WC:
    case P_WU:
        return !is_tall(s->M, s->N);
    default:
        return 1;
    }
}

static ladder_status skinny_check_size(const int *p, const gemm_size *s, char *msg)
{
    (void)p;
    if (s->M > SKINNY_CAP && s->N > SKINNY_CAP)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "designed for M or N up to %d (this is %ldx%ldx%ld); use rungs "
                           "15-19", SKINNY_CAP, s->M, s->N, s->K);
    return LADDER_OK;
}

static int is_power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

static ladder_status skinny_validate(const int *p, char *msg)
{
    if (!is_power_of_two(p[P_WG]) || !is_power_of_two(p[P_RX]) || !is_power_of_two(p[P_KL]))
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "WG=%d, RX=%d and KL=%d must be powers of two (the sums across a "
                           "work-group are halving trees)", p[P_WG], p[P_RX], p[P_KL]);
    if (p[P_RX] > p[P_WG] || p[P_KL] > p[P_WG])
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "RX=%d and KL=%d must not exceed the work-group (WG=%d)", p[P_RX],
                           p[P_KL], p[P_WG]);
    return LADDER_OK;
}

/* Local memory of the largest kernels (16 columns or rows): the bigger of the staged
 * slab of the small matrix and the buffer of the sums across the work-group. The kernels
 * compute the same sizes (TALL_FLOATS, WIDE_FLOATS there). */
static size_t tall_floats(const int *p, int nb)
{
    const size_t slab = (size_t)nb * (p[P_WG] / p[P_RX]) * 4 * p[P_TQ];
    const size_t sums = 4 * (size_t)(nb < 4 ? nb : 4) * p[P_WG];
    return slab > sums ? slab : sums;
}
static size_t wide_floats(const int *p, int mb)
{
    const size_t slab = (size_t)mb * (4 * p[P_KL] * p[P_WU] + 4);
    const int values = mb * p[P_WC];
    const size_t sums = (size_t)(values < 16 ? values : 16) * p[P_WG];
    return slab > sums ? slab : sums;
}
static size_t skinny_local_mem(const int *p)
{
    size_t most = 0;
    for (int b = 0; b <= bucket(SKINNY_CAP); b++) {
        const size_t t = tall_floats(p, 1 << b), w = wide_floats(p, 1 << b);
        if (t > most)
            most = t;
        if (w > most)
            most = w;
    }
    return most * sizeof(float);
}

/* The fallback rule's parameters (rung.rule_params), for a shape no selection table has.
 * What the tables measured so far chose for rung 20 (tuning/selection: the H100 in CUDA
 * and in OpenCL, the H200, the 2-core CPU through PoCL; 20 entries) comes down to three
 * things; the rest stays as tuned or the defaults (WG, PF, WC; on a GPU RX = 8, as at all
 * six tall GPU entries, and KL = 32, as at five of the six wide ones).
 * - Loads in flight: 16 float4s of the big matrix per work-item (4 TQ (1 + PF) tall,
 *   WC WU (1 + PF) wide) at 15 of the 20 entries, 8 at two and 32 (the defaults') at
 *   three. At 16384 x 4 x 4096 on the H200 this alone (TQ 4 -> 2: that shape's rows
 *   make 3.9 work-groups per SM, K unsplit whatever GPC) took rung 20 from 0.66 to 1.21
 *   of cuBLAS (results/h200-2026-11-29-shapes). TQ and WU are set for 16 with PF as it
 *   is; WC stays (below 4, a transposed B is read in single floats).
 * - On a GPU, K split (GPC) for about 1024 work-items per compute unit, 32 warps an SM:
 *   the count at five of the nine GPU entries where GPC changes the slices (the H200's
 *   three, 8 x 8192 x 8192 on the H100 in both backends); at the 4096-long GEMVs the H100
 *   took about 512 in CUDA and 256 in OpenCL, where the H200 took 1024. Several
 *   work-groups per SM keep loading while one waits at its round's barriers (chapter 20).
 * - On a CPU, where PoCL runs a work-group's work-items as one core's loop, the
 *   work-items that share a sum (WG / RX along K, tall; KL, wide) add no parallelism and
 *   cost a reduction through local memory: RX the largest choice whose 4 RX rows M still
 *   fills, KL the smallest. The CPU table has RX = 32 at 688 x 16 x 256 (2.3 times
 *   CLBlast where the defaults ran 0.76) and 2048 x 2 x 512, KL = 16 at 16 x 1024 x 512;
 *   its RX = 8 at 1024 x 16 x 512 and 1024 x 1 x 1024 ran 0.6-0.8 times RX = 32 there
 *   (medians of seven runs), and at M = 16 (16 x 16 x 8192) RX = 32 ran 0.4 times RX = 8.
 *   When K is split, one work-group per core (a core runs one at a time): at 16 x 16 x
 *   8192, the one CPU shape where GPC changes the slices, GPC = 1 ran 1.15 times GPC = 2
 *   and 1.26 times the table's GPC = 4 (medians of 15 runs). */
#define RULE_LOADS_IN_FLIGHT 16
#define RULE_ITEMS_PER_GPU_UNIT 1024
#define RULE_GROUPS_PER_CPU_UNIT 1
static void skinny_rule_params(int *p, const gemm_size *s, const device_info *dev)
{
    if (dev->compute_units <= 0)
        return; /* the device's size unknown: the tuned or default parameters stand */
    const int rounds_held = 1 + p[P_PF]; /* with PF, the next round's loads too */
    p[P_TQ] = RULE_LOADS_IN_FLIGHT / (4 * rounds_held);
    p[P_WU] = RULE_LOADS_IN_FLIGHT / (p[P_WC] * rounds_held);
    if (dev->is_gpu) {
        const int groups = RULE_ITEMS_PER_GPU_UNIT / p[P_WG];
        p[P_GPC] = groups > 1 ? groups : 1;
        return;
    }
    const rung_param *rx = &rungs_skinny[0].params[P_RX], *kl = &rungs_skinny[0].params[P_KL];
    p[P_RX] = rx->choices[0];
    for (int i = 1; i < rx->nchoices; i++)
        if (4L * rx->choices[i] <= s->M)
            p[P_RX] = rx->choices[i];
    p[P_KL] = kl->choices[0];
    p[P_GPC] = RULE_GROUPS_PER_CPU_UNIT;
}

const rung rungs_skinny[] = {
    {
        .number = 20, .id = "20-skinny", .name = "skinny",
        .title = "Skinny and GEMV-like shapes",
        .idea = "M or N up to 16: stream the big matrix with float4s, bound by bandwidth",
        .parent = 15, .second_parent = 19,
        .kind = RUNG_KERNEL,
        .nparams = 8,
        /* H100 defaults, from counting (kernels-cuda/20-skinny.cu says how): 256
         * work-items with 16 float4 loads in flight each, 64 KiB per work-group, and
         * about one work-group per SM before K is split; with PF the next round's 64 KiB
         * are in flight while a round's sums are made, so one work-group keeps its SM's
         * memory busy. Small devices keep half the loads in flight (and half the local
         * memory: 16 KiB), no second set of registers, and split K further. */
        /* What `ladder tune` tries: 864 combinations, the values around the defaults that
         * change how many loads are in flight and how many work-groups there are. Those
         * that set how many work-groups a shape gets or fit on an SM (WG, RX, TQ, KL, WC,
         * WU, PF, GPC) are PER_SHAPE: the profiler of the shape-aware entry tries them on
         * every shape (each path's only where it runs: reads_param). KL joined them after
         * an H100 sweep: at 8x8192x8192, KL=16 WC=2 PF=0 GPC=4 ran 1.12x the profiler's
         * pick, which had never tried KL (results/h100-2026-11-28-gemv). WU joined them
         * when the fallback rule began to set it (skinny_rule_params); the profiler had
         * tried both its values at every shape already, from the defaults (4) and the
         * small-device defaults (2), so its candidates stay the same. */
        .params = {
            {"WG", 256, 0, 32, 1024, "work-items per work-group (every kernel)",
             CHOICES(128, 256, 512), PER_SHAPE},
            {"RX", 8, 0, 1, 256, "tall: work-items along M, 4 rows each",
             CHOICES(8, 16, 32), PER_SHAPE},
            {"TQ", 4, 2, 1, 8, "tall: groups of 4 depths per work-item per round (4*TQ "
             "float4 loads of A in flight)", CHOICES(2, 4), PER_SHAPE},
            {"KL", 32, 0, 1, 32, "wide: work-items along K per column of B (a warp or less)",
             CHOICES(16, 32), PER_SHAPE},
            {"WC", 4, 0, 1, 8, "wide: columns of B per work-item", CHOICES(2, 4), PER_SHAPE},
            {"WU", 4, 2, 1, 8, "wide: float4s per column per work-item per round (WC*WU "
             "loads of B in flight)", CHOICES(2, 4), PER_SHAPE},
            {"PF", 1, 0, 0, 1, "the next round's loads of the big matrix issued before "
             "this round's sums (loads in flight across rounds; twice the registers)",
             CHOICES(0, 1), PER_SHAPE},
            {"GPC", 1, 4, 1, 64, "work-groups per compute unit to aim for when K is split "
             "across work-groups", CHOICES(1, 2, 4), PER_SHAPE},
        },
        .validate = skinny_validate,
        .check_size = skinny_check_size,
        .sizes = "M or N from 1 to 16 (GEMV-like and skinny products), any K >= 1",
        .blas_args = 1,
        .geometry = skinny_geometry,
        .launches = skinny_launches,
        .workspace_floats = skinny_workspace,
        .cuda_call_defines = skinny_call_defines,
        .reads_param = skinny_reads_param,
        .rule_params = skinny_rule_params,
        .local_mem_bytes = skinny_local_mem,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_skinny_count = (int)(sizeof rungs_skinny / sizeof rungs_skinny[0]);
