#include "core/ceilings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kernel_path.h"

/* The FMA probe: each work-item runs `chains` independent chains (ceilings_chain_counts),
 * FMA_STEPS steps of each per loop trip (kernels-opencl/ceilings/fma.cl says why).
 * x = fma(x, m, c) with m = 1 - 2^-12 and c = 2^-12 moves x toward 1: exact in float and
 * double alike. */
const int ceilings_chain_counts[CEILINGS_CHAIN_COUNTS] = {8, 32, 128};
#define FMA_MAX_CHAINS 128
#define FMA_STEPS 16
#define FMA_M (1.0 - 1.0 / 4096)
#define FMA_C (1.0 / 4096)
/* One timed run of the FMA probe lasts about this long: the launch's own cost and the
 * timer's resolution vanish in it, and 20 repetitions still take under a second. */
#define FMA_TARGET_MS 20.0
/* Loop trips at most: bounds the host's check, which runs the recurrence again. */
#define FMA_MAX_TRIPS 65536

/* Work-groups of GROUP work-items, GROUPS_PER_UNIT of them per compute unit. The FMA probe
 * launches many waves of them (an NVIDIA SM holds 8 such groups at once): the last wave,
 * part full, is then a small part of the time. The read probe launches about one wave,
 * the usual size of a grid-stride loop: each work-item loops over many float4s. */
#define GROUP 256
#define FMA_GROUPS_PER_UNIT 64
#define READ_GROUPS_PER_UNIT 8

size_t ceilings_default_bytes(const device_info *d)
{
    size_t bytes = d->is_gpu ? (size_t)1 << 30 : (size_t)2 << 30;
    if (bytes > d->max_alloc_bytes)
        bytes = d->max_alloc_bytes;
    if (bytes > d->global_mem_bytes / 2)
        bytes = d->global_mem_bytes / 2;
    return bytes / 16 * 16;
}

void ceilings_fma_options(gemm_precision p, int chains, char *out, size_t size)
{
    snprintf(out, size, "-DCHAINS=%d -DSTEPS=%d%s", chains, FMA_STEPS,
             p == PRECISION_DOUBLE ? " -DLADDER_DOUBLE=1" : "");
}

/* A GPU's work-items read a grid apart, so that neighbours read neighbouring float4s at
 * once; a CPU's read runs of their own (kernels-opencl/ceilings/read.cl says why). */
const char *ceilings_read_options(const device_info *d)
{
    return d->is_gpu ? "" : "-DCONTIGUOUS=1";
}

/* One launch of a probe kernel: what measure() repeats and times. */
typedef struct {
    const run_target *t;
    gpu_program *program;
    const char *kernel;
    launch_dims dims;
    kernel_arg args[4];
    int nargs;
} probe_launch;

static ladder_status launch_probe(void *ctx, char *msg)
{
    const probe_launch *l = ctx;
    return l->t->ops->launch(l->t->session, l->program, l->kernel, &l->dims, l->args,
                             l->nargs, msg);
}

static launch_dims probe_grid(const device_info *d, size_t groups_per_unit)
{
    size_t local = GROUP;
    if (local > d->max_work_group_size)
        local = d->max_work_group_size;
    if (local > d->max_work_item_sizes[0])
        local = d->max_work_item_sizes[0];
    size_t units = d->compute_units > 0 ? (size_t)d->compute_units : 1;
    return (launch_dims){{units * groups_per_unit * local, 1}, {local, 1}};
}

static ladder_status time_once(probe_launch *l, double *ms, char *msg)
{
    const backend_ops *ops = l->t->ops;
    ladder_status st = ops->timer_start(l->t->session, msg);
    if (st == LADDER_OK)
        st = launch_probe(l, msg);
    if (st == LADDER_OK)
        st = ops->timer_stop(l->t->session, ms, msg);
    return st;
}

/* Warm-up, then timed runs, the median the figure: as ladder run times a rung. */
static ladder_status time_probe(probe_launch *l, const ceilings_plan *plan,
                                measure_result *r, char *msg)
{
    measure_job job = {.ops = l->t->ops, .session = l->t->session, .work = launch_probe,
                       .ctx = l, .reps = plan->reps, .max_seconds = plan->max_seconds};
    return measure(&job, r, msg);
}

/* Scales the trip count by target / ms, within [1, FMA_MAX_TRIPS]. */
static void scale_trips(int *trips, double ms)
{
    double scaled = ms > 0 ? *trips * FMA_TARGET_MS / ms : FMA_MAX_TRIPS;
    *trips = scaled < 1 ? 1 : scaled > FMA_MAX_TRIPS ? FMA_MAX_TRIPS : (int)scaled;
}

/* Sets the FMA probe's trip count (args[0]) so that one run takes about FMA_TARGET_MS:
 * grows it eightfold until a run takes an eighth of that, scales it, and scales it once
 * more from a run of that length (a short run's time is partly the launch's). The first
 * launch is not trusted: it may load the kernel (CUDA loads modules lazily). */
static ladder_status calibrate_trips(probe_launch *l, char *msg)
{
    int *trips = &l->args[0].i;
    double ms = 0;
    *trips = 16;
    ladder_status st = time_once(l, &ms, msg);
    while (st == LADDER_OK) {
        st = time_once(l, &ms, msg);
        if (st != LADDER_OK || ms >= FMA_TARGET_MS / 8 || *trips > FMA_MAX_TRIPS / 8)
            break;
        *trips *= 8;
    }
    if (st == LADDER_OK) {
        scale_trips(trips, ms);
        st = time_once(l, &ms, msg);
    }
    if (st == LADDER_OK)
        scale_trips(trips, ms);
    return st;
}

/* A double rounded to the precision's format: float arithmetic done in double and rounded
 * once is float arithmetic exactly here (an fma or a sum of two floats near 1 fits in a
 * double's 53 bits), so one routine checks both precisions. */
static double in_precision(gemm_precision p, double v)
{
    return p == PRECISION_SINGLE ? (double)(float)v : v;
}

/* What the FMA probe stores for a work-item whose index is k modulo 64, computed as the
 * kernel does: its chains, its steps, its sum in the same order. */
static double fma_probe_sum(gemm_precision p, int chains, int k, long steps)
{
    double x[FMA_MAX_CHAINS] = {0};
    for (int j = 0; j < chains; j++)
        x[j] = (double)((k + j) & 63) / 64;
    for (long s = 0; s < steps; s++)
        for (int j = 0; j < chains; j++)
            x[j] = in_precision(p, fma(x[j], FMA_M, FMA_C));
    double sum = x[0];
    for (int j = 1; j < chains; j++)
        sum = in_precision(p, sum + x[j]);
    return sum;
}

/* Every work-item's sum must be the recurrence's, exactly (IEEE fma and additions in a
 * fixed order): a kernel that skipped steps or chains gets no figure. */
static ladder_status check_fma(const probe_launch *l, gpu_buffer *sums, gemm_precision p,
                               int chains, char *msg)
{
    size_t n = l->dims.global[0], elem = gemm_elem_bytes(p);
    void *got = malloc(n * elem);
    if (!got)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory for the FMA probe's sums");
    ladder_status st = l->t->ops->download(l->t->session, got, sums, n * elem, msg);
    double want[64];
    for (int k = 0; k < 64 && st == LADDER_OK; k++)
        want[k] = fma_probe_sum(p, chains, k, (long)l->args[0].i * FMA_STEPS);
    for (size_t i = 0; i < n && st == LADDER_OK; i++) {
        double v = p == PRECISION_SINGLE ? ((float *)got)[i] : ((double *)got)[i];
        if (v != want[i % 64])
            st = ladder_fail(msg, LADDER_ERROR, "the %s FMA probe with %d chains is wrong: "
                             "work-item %zu stored %.17g, the recurrence gives %.17g (no "
                             "figure reported)", gemm_precision_name(p), chains, i, v,
                             want[i % 64]);
    }
    free(got);
    return st;
}

/* The FMA probe with one chain count: its figure into *out. */
static ladder_status fma_probe(const run_target *t, gemm_precision p, int chains,
                               const ceilings_plan *plan, ceiling_figure *out, char *msg)
{
    char path[4096], options[128];
    kernel_path(t->dev.backend, "ceilings/fma", path, sizeof path);
    ceilings_fma_options(p, chains, options, sizeof options);
    probe_launch l = {.t = t, .kernel = "fma_chains", .nargs = 4,
                      .dims = probe_grid(&t->dev, FMA_GROUPS_PER_UNIT)};
    gpu_buffer *sums = NULL;
    ladder_status st = t->ops->compile(t->session, path, options, &l.program, msg);
    if (st == LADDER_OK)
        st = t->ops->alloc(t->session, l.dims.global[0] * gemm_elem_bytes(p), &sums, msg);
    if (st == LADDER_OK) {
        l.args[0] = (kernel_arg){.kind = ARG_INT};
        if (p == PRECISION_SINGLE) {
            l.args[1] = (kernel_arg){.kind = ARG_FLOAT, .f = (float)FMA_M};
            l.args[2] = (kernel_arg){.kind = ARG_FLOAT, .f = (float)FMA_C};
        } else {
            l.args[1] = (kernel_arg){.kind = ARG_DOUBLE, .d = FMA_M};
            l.args[2] = (kernel_arg){.kind = ARG_DOUBLE, .d = FMA_C};
        }
        l.args[3] = (kernel_arg){.kind = ARG_BUFFER, .buffer = sums};
        st = calibrate_trips(&l, msg);
    }
    if (st == LADDER_OK)
        st = time_probe(&l, plan, &out->timing, msg);
    if (st == LADDER_OK)
        st = check_fma(&l, sums, p, chains, msg);
    if (st == LADDER_OK) {
        out->chains = chains;
        out->work = 2.0 * (double)l.dims.global[0] * l.args[0].i * FMA_STEPS * chains;
        out->value = out->work / (out->timing.median_ms * 1e6);
    }
    if (sums)
        t->ops->release(sums);
    if (l.program)
        t->ops->release_program(l.program);
    return st;
}

ladder_status ceiling_fma(const run_target *t, gemm_precision p, const ceilings_plan *plan,
                          ceiling_figure *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (p == PRECISION_DOUBLE && !t->dev.fp64) {
        out->status = LADDER_UNSUPPORTED;
        snprintf(out->why, sizeof out->why, "the device computes no double (no cl_khr_fp64)");
        return LADDER_OK;
    }
    for (int c = 0; c < CEILINGS_CHAIN_COUNTS; c++) {
        ceiling_figure one;
        memset(&one, 0, sizeof one);
        ladder_status st = fma_probe(t, p, ceilings_chain_counts[c], plan, &one, msg);
        if (st != LADDER_OK)
            return st;
        if (one.value > out->value)
            *out = one;
    }
    return LADDER_OK;
}

/* The sum of i mod 7 over i < n: the read probe's pattern, one component of its float4s. */
static double pattern_total(unsigned long long n)
{
    unsigned long long whole = n / 7, rest = n % 7;
    return 21.0 * (double)whole + (double)(rest * (rest - 1) / 2);
}

/* The sums must add up to the buffer's, exactly (whole numbers, far below 2^24 in each
 * work-item's float and 2^53 in the host's double): every float4 read exactly once. */
static ladder_status check_read(const probe_launch *l, gpu_buffer *sums, char *msg)
{
    size_t n = l->dims.global[0];
    float *got = malloc(n * sizeof *got);
    if (!got)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory for the read probe's sums");
    ladder_status st = l->t->ops->download(l->t->session, got, sums, n * sizeof *got, msg);
    double total = 0, want = 4 * pattern_total((unsigned long long)l->args[0].i);
    for (size_t i = 0; i < n && st == LADDER_OK; i++)
        total += got[i];
    if (st == LADDER_OK && total != want)
        st = ladder_fail(msg, LADDER_ERROR, "the read probe is wrong: its sums add up to "
                         "%.17g, the buffer's to %.17g (no figure reported)", total, want);
    free(got);
    return st;
}

ladder_status ceiling_read(const run_target *t, const ceilings_plan *plan,
                           ceiling_figure *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (plan->read_bytes < 16 || plan->read_bytes % 16 || plan->read_bytes > CEILINGS_MAX_BYTES)
        return ladder_fail(msg, LADDER_ERROR, "the read probe takes a multiple of 16 bytes "
                           "up to 16 GiB, not %zu", plan->read_bytes);
    char path[4096];
    kernel_path(t->dev.backend, "ceilings/read", path, sizeof path);
    const int n4 = (int)(plan->read_bytes / 16);
    probe_launch l = {.t = t, .kernel = "fill_pattern", .nargs = 2,
                      .dims = probe_grid(&t->dev, READ_GROUPS_PER_UNIT)};
    gpu_buffer *data = NULL, *sums = NULL;
    ladder_status st = t->ops->compile(t->session, path, ceilings_read_options(&t->dev),
                                       &l.program, msg);
    if (st == LADDER_OK)
        st = t->ops->alloc(t->session, plan->read_bytes, &data, msg);
    if (st == LADDER_OK)
        st = t->ops->alloc(t->session, l.dims.global[0] * sizeof(float), &sums, msg);
    l.args[0] = (kernel_arg){.kind = ARG_INT, .i = n4};
    l.args[1] = (kernel_arg){.kind = ARG_BUFFER, .buffer = data};
    if (st == LADDER_OK)
        st = launch_probe(&l, msg);
    if (st == LADDER_OK)
        st = t->ops->finish(t->session, msg);
    l.kernel = "read_sum";
    l.nargs = 3;
    l.args[2] = (kernel_arg){.kind = ARG_BUFFER, .buffer = sums};
    if (st == LADDER_OK)
        st = time_probe(&l, plan, &out->timing, msg);
    if (st == LADDER_OK)
        st = check_read(&l, sums, msg);
    if (st == LADDER_OK) {
        out->work = (double)plan->read_bytes;
        out->value = out->work / (out->timing.median_ms * 1e6);
    }
    if (sums)
        t->ops->release(sums);
    if (data)
        t->ops->release(data);
    if (l.program)
        t->ops->release_program(l.program);
    return st;
}
