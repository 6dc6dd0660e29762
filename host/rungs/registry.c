/* The registry: one table of every rung and baseline, and the helpers that read it. */
#include "rungs/registry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The vendor libraries and the host BLAS run through the same runner as the kernels, so
 * every table can show how far a rung is from the best library on the same device. */
static const rung baselines[] = {
    {.number = 0, .id = "cublas", .name = "cublas", .title = "cuBLAS SGEMM",
     .idea = "NVIDIA's library (FP32, no tensor cores): the bar for the CUDA rungs",
     .kind = RUNG_LIBRARY, .library_backend = "cuda"},
    /* TF32 keeps 10 of float's 23 fraction bits: the same call at several times the
     * speed, with errors about 2^13 times larger. It is a baseline of its own, so a rung
     * is never measured against arithmetic less precise than its own. cuBLAS reads only
     * the first 10 fraction bits of each input (truncation: relative error below 2^-10),
     * multiplies exactly and sums in float on the tensor cores (which may round toward
     * zero: 2^-23); tests/unit/test_verify.c shows the bound needs and holds these. */
    {.number = 0, .id = "cublas-tf32", .name = "cublas-tf32",
     .title = "cuBLAS SGEMM in TF32 (reduced precision)",
     .idea = "cuBLAS on the TF32 tensor cores: faster, about 3 digits instead of 7",
     .kind = RUNG_LIBRARY, .library_backend = "cuda", .library_call = LIBRARY_SGEMM_TF32,
     .unit_roundoff = 0x1p-23, .input_roundoff = 0x1p-10},
    {.number = 0, .id = "clblast", .name = "clblast", .title = "CLBlast SGEMM",
     .idea = "the portable tuned OpenCL library: the bar for the OpenCL rungs",
     .kind = RUNG_LIBRARY, .library_backend = "opencl"},
    {.number = 0, .id = "cpu", .name = "cpu", .title = "CPU BLAS SGEMM (CBLAS)",
     .idea = "the host's BLAS (OpenBLAS) on the CPU, timed with the host clock",
     .kind = RUNG_HOST},
};

/* Not a kernel of its own: for each shape, the rung and parameters that a profiler
 * measured fastest there (ladder select), or a rule's choice where it measured nothing. */
static const rung shape_aware = {
    .number = 0, .id = "auto", .name = "auto", .title = "Shape-aware SGEMM",
    .idea = "picks, per shape, the rung and parameters its selection table names",
    .kind = RUNG_AUTO};

#define REGISTRY_MAX 64

const rung *registry_all(int *count)
{
    /* Built once: the tables are constant, so this is the only state the registry keeps. */
    static rung table[REGISTRY_MAX];
    static int n = 0;
    if (n == 0) {
        for (int i = 0; i < rungs_basic_count; i++)
            table[n++] = rungs_basic[i];
        for (int i = 0; i < rungs_classic_count; i++)
            table[n++] = rungs_classic[i];
        for (int i = 0; i < rungs_modern_count; i++)
            table[n++] = rungs_modern[i];
        for (int i = 0; i < rungs_splitk_count; i++)
            table[n++] = rungs_splitk[i];
        for (int i = 0; i < rungs_skinny_count; i++)
            table[n++] = rungs_skinny[i];
        for (int i = 0; i < rungs_hopper_count; i++)
            table[n++] = rungs_hopper[i];
        for (int i = 0; i < rungs_dmma_count; i++)
            table[n++] = rungs_dmma[i];
        for (int i = 0; i < rungs_streamk_count; i++)
            table[n++] = rungs_streamk[i];
        for (int i = 0; i < rungs_cpucore_count; i++)
            table[n++] = rungs_cpucore[i];
        for (int i = 0; i < rungs_lastslice_count; i++)
            table[n++] = rungs_lastslice[i];
        for (int i = 0; i < rungs_unpadded_count; i++)
            table[n++] = rungs_unpadded[i];
        for (int i = 0; i < rungs_scalars_count; i++)
            table[n++] = rungs_scalars[i];
        table[n++] = shape_aware;
        for (size_t i = 0; i < sizeof baselines / sizeof baselines[0]; i++)
            table[n++] = baselines[i];
    }
    *count = n;
    return table;
}

const rung *registry_find(const char *key)
{
    int n;
    const rung *all = registry_all(&n);
    char *end;
    long number = strtol(key, &end, 10);
    int is_number = *key && *end == '\0';
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        if (is_number ? (r->kind == RUNG_KERNEL && r->number == number)
                      : (strcasecmp(key, r->name) == 0 || strcasecmp(key, r->id) == 0))
            return r;
    }
    return NULL;
}

const rung *registry_find_number(int number)
{
    int n;
    const rung *all = registry_all(&n);
    for (int i = 0; i < n; i++)
        if (all[i].kind == RUNG_KERNEL && all[i].number == number)
            return &all[i];
    return NULL;
}

const rung *rung_parent(const rung *r)
{
    return r->kind == RUNG_KERNEL && r->parent > 0 ? registry_find_number(r->parent) : NULL;
}

int rung_nearest_ancestor(int number, int (*ran)(int ancestor, const void *ctx),
                          const void *ctx)
{
    int n;
    registry_all(&n);
    const rung *r = registry_find_number(number);
    /* Parents are lower-numbered (tests/unit/test_registry.c checks it); the count of
     * steps only keeps a registry with a cycle from hanging the caller. */
    const rung *a = r ? rung_parent(r) : NULL;
    for (int steps = 0; a && steps < n; a = rung_parent(a), steps++)
        if (ran(a->number, ctx))
            return a->number;
    return 0;
}

int rung_param_index(const rung *r, const char *name)
{
    for (int i = 0; i < r->nparams; i++)
        if (strcmp(r->params[i].name, name) == 0)
            return i;
    return -1;
}

void rung_defaults(const rung *r, int small, int *values)
{
    for (int i = 0; i < r->nparams; i++) {
        const rung_param *p = &r->params[i];
        values[i] = (small && p->small_value) ? p->small_value : p->value;
    }
}

int rung_param_choices(const rung_param *p, int *out)
{
    int n = 0;
    if (p->choices) {
        for (int i = 0; i < p->nchoices && n < RUNG_MAX_CHOICES; i++)
            out[n++] = p->choices[i];
        return n;
    }
    if (p->min <= 0 && p->max >= 0)
        out[n++] = 0; /* a switch: 0 and 1 */
    for (long v = 1; v <= p->max && n < RUNG_MAX_CHOICES; v *= 2)
        if (v >= p->min)
            out[n++] = (int)v;
    return n;
}

ladder_status rung_need_divides(int divisor, int value, const char *what, char *msg)
{
    if (divisor <= 0 || value % divisor != 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "%s (%d does not divide %d)", what,
                           divisor, value);
    return LADDER_OK;
}

void rung_tile_multiples(const int *p, int mult[3])
{
    mult[0] = p[0];
    mult[1] = p[1];
    mult[2] = p[2];
}

size_t rung_ceil_div(size_t n, size_t d) { return (n + d - 1) / d; }

size_t rung_workspace(const rung *r, const int *values, const launch_shape *shape)
{
    if (!r->launches)
        return 0;
    /* An empty C launches nothing (rung_enqueue_blas returns at once, as BLAS does), but
     * a caller may size W first: one element, without asking the rung, whose sizes divide
     * by its count of tiles. */
    if (shape->M <= 0 || shape->N <= 0)
        return 1;
    size_t floats = r->workspace_floats ? r->workspace_floats(values, shape) : 0;
    return floats ? floats : 1;
}

void rung_workspace_fill(const rung *r, const int *values, const launch_shape *shape,
                         void *w, size_t elems, size_t elem_bytes)
{
    size_t counters = r->workspace_counters ? r->workspace_counters(values, shape) : 0;
    if (counters > elems)
        counters = elems;
    const size_t results = elems - counters;
    for (size_t i = 0; i < results; i++)
        if (elem_bytes == sizeof(double))
            ((double *)w)[i] = NAN;
        else
            ((float *)w)[i] = NAN;
    memset((char *)w + results * elem_bytes, 0, counters * elem_bytes);
}

ladder_status rung_check_params(const rung *r, const int *values, char *msg)
{
    for (int i = 0; i < r->nparams; i++) {
        const rung_param *p = &r->params[i];
        if (values[i] < p->min || values[i] > p->max)
            return ladder_fail(msg, LADDER_UNSUPPORTED,
                               "rung %d (%s): %s=%d is out of range [%d, %d] (%s)", r->number,
                               r->name, p->name, values[i], p->min, p->max, p->meaning);
    }
    if (r->validate) {
        char why[LADDER_MSG];
        if (r->validate(values, why) != LADDER_OK)
            return ladder_fail(msg, LADDER_UNSUPPORTED, "rung %d (%s): %s", r->number,
                               r->name, why);
    }
    return LADDER_OK;
}

/* "NAME=V NAME=V", each pair after `prefix`: the one format of tables and defines. */
static void format_params(const rung *r, const int *values, const char *prefix, char *out,
                          size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < r->nparams && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s%s=%d", i ? " " : "", prefix,
                                 r->params[i].name, values[i]);
}

void rung_params_string(const rung *r, const int *values, char *out, size_t size)
{
    format_params(r, values, "", out, size);
}

ladder_status rung_params_parse(const rung *r, const char *text, int *values, char *msg)
{
    int seen[RUNG_MAX_PARAMS] = {0};
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        const char *space = strchr(p, ' ');
        if (!eq || (space && space < eq))
            return ladder_fail(msg, LADDER_ERROR, "'%s' is not NAME=VALUE ...", text);
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(eq - p), p);
        int i = rung_param_index(r, name);
        if (i < 0)
            return ladder_fail(msg, LADDER_ERROR, "rung %d (%s) has no parameter %s",
                               r->number, r->name, name);
        char *end;
        long v = strtol(eq + 1, &end, 10);
        if (end == eq + 1 || (*end && *end != ' ') || v < -1000000 || v > 1000000)
            return ladder_fail(msg, LADDER_ERROR, "%s: '%.20s' is not an integer", name,
                               eq + 1);
        if (seen[i]++)
            return ladder_fail(msg, LADDER_ERROR, "%s is given twice", name);
        values[i] = (int)v;
        p = end;
    }
    for (int i = 0; i < r->nparams; i++)
        if (!seen[i])
            return ladder_fail(msg, LADDER_ERROR, "%s is missing", r->params[i].name);
    return LADDER_OK;
}

void rung_params_defines(const rung *r, const int *values, char *out, size_t size)
{
    format_params(r, values, "-D", out, size);
}

static int is_opencl(const device_info *dev) { return strcmp(dev->backend, "opencl") == 0; }

void rung_compile_options(const rung *r, const int *values, const device_info *dev,
                          const gemm_case *kc, char *out, size_t size)
{
    rung_params_defines(r, values, out, size);
    const gemm_case c = kc ? *kc : GEMM_CASE_DEFAULT;
    size_t used = strlen(out);
    if (c.precision == PRECISION_DOUBLE && used < size)
        used += (size_t)snprintf(out + used, size - used, "%s-DLADDER_DOUBLE=1",
                                 used ? " " : "");
    if (r->takes_transposes && used < size)
        used += (size_t)snprintf(out + used, size - used, "%s-DTRANS_A=%d -DTRANS_B=%d",
                                 used ? " " : "", c.trans_a, c.trans_b);
    if (r->aligns && used < size) /* the leading dimension the harness's copies have */
        snprintf(out + used, size - used, "%s-DCOLUMN=%d", used ? " " : "",
                 RUNG_ALIGNED_COLUMN);
    if (r->cuda_arch_specific && strcmp(dev->backend, "cuda") == 0 && used < size) {
        /* Compiled for the arch-specific target (the device is checked to be of exactly
         * that generation: rung_check_device). */
        used = strlen(out);
        snprintf(out + used, size - used, " --gpu-architecture=sm_%da", r->cuda_min_cc);
    }
    if (r->uses_subgroups && r->uses_subgroups(values) && is_opencl(dev)) {
        /* Sub-group functions exist from OpenCL C 2.0 on; a 3.0 device may leave 2.0 out,
         * so ask for the newest standard the device reports. */
        used = strlen(out);
        snprintf(out + used, size - used, " -cl-std=%s",
                 strstr(dev->driver, "OpenCL 2.") ? "CL2.0" : "CL3.0");
    }
}

void rung_call_options(const rung *r, const int *values, const device_info *dev,
                       const gemm_case *kc, const launch_shape *shape, char *out, size_t size)
{
    rung_compile_options(r, values, dev, kc, out, size);
    const size_t used = strlen(out);
    if (r->cuda_call_defines && strcmp(dev->backend, "cuda") == 0 && used + 1 < size) {
        out[used] = ' ';
        r->cuda_call_defines(values, shape, out + used + 1, size - used - 1);
        if (out[used + 1] == '\0')
            out[used] = '\0';
    }
}

int rung_on_backend(const rung *r, const char *backend)
{
    return !r->only_backend || strcmp(r->only_backend, backend) == 0;
}

ladder_status rung_check_device(const rung *r, const int *values, const device_info *dev,
                                gemm_precision p, char *msg)
{
    if (r->kind != RUNG_KERNEL)
        return LADDER_OK;
    if (!rung_on_backend(r, dev->backend))
        return ladder_fail(msg, LADDER_UNSUPPORTED, "%s", r->only_reason);
    /* A rung without double (or without single) says so before its tiles are weighed in
     * that precision. */
    gemm_case precision_only = GEMM_CASE_DEFAULT;
    precision_only.precision = p;
    if ((p == PRECISION_DOUBLE && !r->takes_double) ||
        (p == PRECISION_SINGLE && r->no_single_reason))
        return rung_check_case(r, &precision_only, msg);
    if (r->cuda_min_cc && strcmp(dev->backend, "cuda") == 0 &&
        dev->cc_major * 10 + dev->cc_minor < r->cuda_min_cc)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "needs compute capability %d.%d or newer, the device has %d.%d",
                           r->cuda_min_cc / 10, r->cuda_min_cc % 10, dev->cc_major,
                           dev->cc_minor);
    if (r->cuda_arch_specific && strcmp(dev->backend, "cuda") == 0 &&
        dev->cc_major * 10 + dev->cc_minor != r->cuda_min_cc)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "uses instructions of compute capability %d.%d alone (its "
                           "arch-specific target sm_%da), the device has %d.%d",
                           r->cuda_min_cc / 10, r->cuda_min_cc % 10, r->cuda_min_cc,
                           dev->cc_major, dev->cc_minor);
    if (r->uses_subgroups && r->uses_subgroups(values) && is_opencl(dev) && !dev->subgroups)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "these parameters use OpenCL sub-group functions, which this "
                           "device does not offer");
    launch_dims dims;
    /* Geometry at the smallest size the rung accepts gives the work-group shape. */
    int mult[3] = {1, 1, 1};
    if (r->multiples)
        r->multiples(values, mult);
    r->geometry(values, mult[0], mult[1], &dims);
    size_t items = dims.local[0] * dims.local[1];
    if (items > dev->max_work_group_size)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "needs %zu work-items per work-group, the device allows %zu",
                           items, dev->max_work_group_size);
    for (int d = 0; d < 2; d++)
        if (dev->max_work_item_sizes[d] && dims.local[d] > dev->max_work_item_sizes[d])
            return ladder_fail(msg, LADDER_UNSUPPORTED,
                               "needs %zu work-items in dimension %d, the device allows %zu",
                               dims.local[d], d, dev->max_work_item_sizes[d]);
    /* local_mem_bytes counts floats' bytes: a double tile of the same edge takes twice. */
    size_t local = r->local_mem_bytes ? r->local_mem_bytes(values) * gemm_elem_bytes(p) / 4
                                      : 0;
    /* Kernels that take dynamic shared memory may have up to the opt-in limit. */
    const int dynamic = r->cuda_arch_specific || r->cuda_dynamic_shared;
    size_t limit = dynamic && dev->local_mem_optin_bytes ? dev->local_mem_optin_bytes
                                                         : dev->local_mem_bytes;
    if (local > limit)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "needs %zu bytes of local memory%s, the device has %zu", local,
                           p == PRECISION_DOUBLE ? " in double" : "", limit);
    return LADDER_OK;
}

gemm_precision rung_own_precision(const rung *r)
{
    return r->no_single_reason ? PRECISION_DOUBLE : PRECISION_SINGLE;
}

double rung_unit_roundoff(const rung *r, gemm_precision p)
{
    if (p == PRECISION_DOUBLE)
        return gemm_unit_roundoff(p);
    return r->unit_roundoff > 0 ? r->unit_roundoff : gemm_unit_roundoff(p);
}

int rung_transposes_by_helpers(const rung *r)
{
    return r->kind == RUNG_KERNEL && !r->blas_args && (r->transposes_b || r->pads);
}

int rung_takes_pairs(const rung *r)
{
    return r->takes_transposes || rung_transposes_by_helpers(r);
}

gemm_case rung_kernel_case(const rung *r, const gemm_case *c)
{
    gemm_case k = *c;
    if (rung_transposes_by_helpers(r))
        k.trans_a = k.trans_b = 0;
    return k;
}

ladder_status rung_check_case(const rung *r, const gemm_case *c, char *msg)
{
    if (r->kind == RUNG_LIBRARY && r->library_call == LIBRARY_SGEMM_TF32 &&
        c->precision == PRECISION_DOUBLE)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "no double precision: TF32 is a rounding of float inputs (the "
                           "library's double GEMM is the baseline of its own name)");
    if (r->kind != RUNG_KERNEL)
        return LADDER_OK;
    if (c->precision == PRECISION_DOUBLE && !r->takes_double)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "no double precision: %s",
                           r->no_double_reason ? r->no_double_reason
                                               : "its kernel is written for float only");
    if (c->precision == PRECISION_SINGLE && r->no_single_reason)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "no single precision: %s",
                           r->no_single_reason);
    char trans[3];
    if (gemm_case_transposed(c) && !rung_takes_pairs(r))
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "no transposed operands (%s): only BLAS-call rungs that take "
                           "TRANS_A and TRANS_B, and rungs whose helper kernels rearrange "
                           "the operands, do (ladder list)",
                           gemm_trans_name(c->trans_a, c->trans_b, trans));
    if (gemm_case_scales(c) && !r->blas_args)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "computes C = A * B only: alpha = %g, beta = %g need a BLAS-call "
                           "rung (ladder list) or a baseline", c->alpha, c->beta);
    return LADDER_OK;
}

int rung_library_present(const rung *r, const backend_ops *ops)
{
    if (r->kind != RUNG_LIBRARY || !ops || strcmp(r->library_backend, ops->name) != 0)
        return 0;
    return r->library_call == LIBRARY_SGEMM_TF32 ? ops->library_gemm_tf32 != NULL
                                                 : ops->library_gemm != NULL;
}

int rung_float32_accurate(const rung *r)
{
    return rung_unit_roundoff(r, PRECISION_SINGLE) <= 0x1p-24 && r->input_roundoff == 0;
}

ladder_status rung_check_size(const rung *r, const int *values, const gemm_size *s,
                              char *msg)
{
    int mult[3] = {1, 1, 1};
    if (r->multiples)
        r->multiples(values, mult);
    if (!r->pads && (s->M % mult[0] || s->N % mult[1] || s->K % mult[2]))
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "needs M, N, K multiples of %d, %d, %d (rungs that pad run any "
                           "size)", mult[0], mult[1], mult[2]);
    if (r->check_size)
        return r->check_size(values, s, msg);
    return LADDER_OK;
}
