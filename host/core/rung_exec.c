#include "core/rung_exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host_blas.h"
#include "base/kernel_path.h"
#include "core/operand_route.h"

/* ---- compiled programs ----------------------------------------------------------------- */

/* Up to PROGRAM_CACHE_MAX programs; when it is full, the one used longest ago is released to make
 * room (ladder select compiles hundreds of variants over a shape set, most of them again
 * at the next shape). */
struct program_cache {
    int n;
    char key[PROGRAM_CACHE_MAX][256]; /* "<file stem> <defines>" */
    gpu_program *program[PROGRAM_CACHE_MAX];
    unsigned long used[PROGRAM_CACHE_MAX]; /* when each was last asked for */
    unsigned long clock;
};

/* Removes entry i; the last entry fills the gap. */
static void cache_remove(program_cache *pc, const backend_ops *ops, int i)
{
    ops->release_program(pc->program[i]);
    pc->n--;
    if (i != pc->n) {
        memcpy(pc->key[i], pc->key[pc->n], sizeof pc->key[i]);
        pc->program[i] = pc->program[pc->n];
        pc->used[i] = pc->used[pc->n];
    }
}

program_cache *program_cache_new(void) { return calloc(1, sizeof(program_cache)); }

void program_cache_free(program_cache *pc, const backend_ops *ops)
{
    if (!pc)
        return;
    for (int i = 0; i < pc->n; i++)
        ops->release_program(pc->program[i]);
    free(pc);
}

void program_cache_drop(program_cache *pc, const run_target *t, const rung *r,
                        const int *values, const gemm_case *kc)
{
    char defines[256], key[256];
    rung_compile_options(r, values, &t->dev, kc, defines, sizeof defines);
    snprintf(key, sizeof key, "%s %s", r->id, defines); /* as program_cache_get makes it */
    /* Every shape's program of these parameters: a call's options may end with its
     * shape's defines (rung_call_options). */
    const size_t n = strlen(key);
    for (int i = pc->n - 1; i >= 0; i--)
        if (strncmp(pc->key[i], key, n) == 0 && (pc->key[i][n] == '\0' || pc->key[i][n] == ' '))
            cache_remove(pc, t->ops, i);
}

ladder_status program_cache_get(program_cache *pc, const run_target *t, const char *stem,
                                    const char *defines, gpu_program **out, char *msg)
{
    char key[256];
    snprintf(key, sizeof key, "%s %s", stem, defines);
    pc->clock++;
    for (int i = 0; i < pc->n; i++)
        if (strcmp(pc->key[i], key) == 0) {
            *out = pc->program[i];
            pc->used[i] = pc->clock;
            return LADDER_OK;
        }
    if (pc->n == PROGRAM_CACHE_MAX) { /* full: release the program used longest ago */
        int oldest = 0;
        for (int i = 1; i < pc->n; i++)
            if (pc->used[i] < pc->used[oldest])
                oldest = i;
        cache_remove(pc, t->ops, oldest);
    }
    char path[1024];
    kernel_path(t->ops->name, stem, path, sizeof path);
    ladder_status st = t->ops->compile(t->session, path, defines, out, msg);
    if (st != LADDER_OK)
        return st;
    snprintf(pc->key[pc->n], sizeof pc->key[0], "%s", key);
    pc->used[pc->n] = pc->clock;
    pc->program[pc->n++] = *out;
    return LADDER_OK;
}

/* ---- per-size buffers -------------------------------------------------------------- */

static ladder_status alloc_upload(run_target *t, gpu_buffer **buf, const void *src,
                                  size_t bytes, char *msg)
{
    ladder_status st = t->ops->alloc(t->session, bytes, buf, msg);
    if (st == LADDER_OK && src)
        st = t->ops->upload(t->session, *buf, src, bytes, msg);
    return st;
}

ladder_status size_context_open(size_context *sc, run_target *t, const gemm_size *s,
                                const gemm_case *cs, const void *A, const void *B,
                                const void *C0, void *scratch, char *msg)
{
    memset(sc, 0, sizeof *sc);
    sc->target = t;
    sc->cs = *cs;
    sc->M = s->M;
    sc->N = s->N;
    sc->K = s->K;
    gemm_case_colmajor(cs, s->M, s->N, s->K, &sc->cm);
    sc->elem = gemm_elem_bytes(cs->precision);
    sc->host_a = A;
    sc->host_b = B;
    sc->host_c0 = cs->beta != 0.0 ? C0 : NULL;
    sc->host_c = scratch;
    if (!t->ops)
        return LADDER_OK;
    ladder_status st = alloc_upload(t, &sc->a, A, (size_t)s->M * s->K * sc->elem, msg);
    if (st == LADDER_OK)
        st = alloc_upload(t, &sc->b, B, (size_t)s->K * s->N * sc->elem, msg);
    if (st == LADDER_OK)
        st = alloc_upload(t, &sc->c, NULL, (size_t)s->M * s->N * sc->elem, msg);
    if (st != LADDER_OK)
        size_context_close(sc);
    return st;
}

void size_context_close(size_context *sc)
{
    if (!sc->target || !sc->target->ops)
        return;
    const backend_ops *ops = sc->target->ops;
    if (sc->a) ops->release(sc->a);
    if (sc->b) ops->release(sc->b);
    if (sc->c) ops->release(sc->c);
    sc->a = sc->b = sc->c = NULL;
}

/* Uploads NaN into a device buffer of `elems` elements of `elem` bytes. */
static ladder_status poison_buffer(run_target *t, gpu_buffer *buf, size_t elems, size_t elem,
                                   char *msg)
{
    void *nan_fill = malloc(elems * elem);
    if (!nan_fill)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    for (size_t i = 0; i < elems; i++)
        if (elem == sizeof(double))
            ((double *)nan_fill)[i] = NAN;
        else
            ((float *)nan_fill)[i] = NAN;
    ladder_status st = t->ops->upload(t->session, buf, nan_fill, elems * elem, msg);
    free(nan_fill);
    return st;
}

/* Before the verified run, C holds what the call must not read (NaN) when beta = 0, and
 * C's start when it must (beta != 0). */
static ladder_status prepare_c(size_context *sc, char *msg)
{
    const size_t n = (size_t)sc->M * sc->N;
    if (!sc->host_c0)
        return poison_buffer(sc->target, sc->c, n, sc->elem, msg);
    return sc->target->ops->upload(sc->target->session, sc->c, sc->host_c0, n * sc->elem,
                                   msg);
}

/* ---- one kernel rung ---------------------------------------------------------------- */

/* Everything one kernel rung needs at one size. */
typedef struct {
    size_context *sc;
    const rung *r;
    const int *values;
    long M, N, K;          /* the column-major call's sizes (sc->cm) */
    gpu_buffer *opa, *opb; /* its first and second operand: A and B, or B and A */
    gpu_program *gemm, *helpers;
    long Mp, Np, Kp;       /* the sizes the kernel sees */
    int padded;            /* A, B and C go through padded copies */
    operand_route route_a, route_b;
    gpu_buffer *ap, *bp;   /* the copies of A and B the helpers write, if routed */
    gpu_buffer *cp;        /* the padded C, if padded */
    gpu_buffer *w;         /* the workspace of a rung of several kernels */
    size_t w_floats;       /* its size in elements (at least 1) */
    launch_shape shape;    /* what those kernels see */
} kernel_ctx;

/* The routes of A and B at this size (operand_route.h). */
static void route_operands(kernel_ctx *k, int trans_a, int trans_b)
{
    const route_request q = {k->M, k->N, k->K, k->Mp, k->Np, k->Kp, k->padded, trans_a,
                             trans_b};
    operand_routes(k->r, &q, &k->route_a, &k->route_b);
}

static ladder_status launch_helper(kernel_ctx *k, const char *name, long src_rows,
                                   long src_cols, gpu_buffer *src, long dst_rows,
                                   long dst_cols, gpu_buffer *dst, char *msg)
{
    const launch_dims d = helper_dims(dst_rows, dst_cols);
    kernel_arg args[6] = {
        {.kind = ARG_INT, .i = (int)src_rows}, {.kind = ARG_INT, .i = (int)src_cols},
        {.kind = ARG_BUFFER, .buffer = src},   {.kind = ARG_INT, .i = (int)dst_rows},
        {.kind = ARG_INT, .i = (int)dst_cols}, {.kind = ARG_BUFFER, .buffer = dst},
    };
    run_target *t = k->sc->target;
    return t->ops->launch(t->session, k->helpers, name, &d, args, 6, msg);
}

/* route_pair's arguments for one route: its kind, then a helper's six. */
static void pair_args(const operand_route *r, gpu_buffer *src, gpu_buffer *dst,
                      kernel_arg out[7])
{
    out[0] = (kernel_arg){.kind = ARG_INT, .i = route_kind(r)};
    out[1] = (kernel_arg){.kind = ARG_INT, .i = (int)r->src_rows};
    out[2] = (kernel_arg){.kind = ARG_INT, .i = (int)r->src_cols};
    out[3] = (kernel_arg){.kind = ARG_BUFFER, .buffer = src};
    out[4] = (kernel_arg){.kind = ARG_INT, .i = (int)r->dst_rows};
    out[5] = (kernel_arg){.kind = ARG_INT, .i = (int)r->dst_cols};
    out[6] = (kernel_arg){.kind = ARG_BUFFER, .buffer = dst};
}

/* The copies of A and B the kernel reads, in one launch (plan_helper_launch): one route's
 * helper, or route_pair making both, so that the GEMM waits for one small kernel, not
 * two. */
static ladder_status launch_routes(kernel_ctx *k, char *msg)
{
    const operand_route *route[2] = {&k->route_a, &k->route_b};
    gpu_buffer *src[2] = {k->opa, k->opb}, *dst[2] = {k->ap, k->bp};
    helper_launch h;
    if (!plan_helper_launch(route[0], route[1], &h))
        return LADDER_OK;
    const int first = h.operand[0], second = h.operand[1];
    const operand_route *r = route[first];
    if (h.routes == 1)
        return launch_helper(k, r->helper, r->src_rows, r->src_cols, src[first], r->dst_rows,
                             r->dst_cols, dst[first], msg);
    kernel_arg args[14];
    pair_args(r, src[first], dst[first], &args[0]);
    pair_args(route[second], src[second], dst[second], &args[7]);
    run_target *t = k->sc->target;
    return t->ops->launch(t->session, k->helpers, h.kernel, &h.dims, args, 14, msg);
}

/* alpha or beta as the kernel takes it: a float, or a double under -DLADDER_DOUBLE. */
static kernel_arg scalar_arg(gemm_precision p, double v)
{
    if (p == PRECISION_DOUBLE)
        return (kernel_arg){.kind = ARG_DOUBLE, .d = v};
    return (kernel_arg){.kind = ARG_FLOAT, .f = (float)v};
}

ladder_status rung_enqueue_blas(const run_target *t, gpu_program *prog, const rung *r,
                                const int *values, const blas_call *call, int compute_units,
                                gpu_buffer *w, char *msg)
{
    gemm_call g = {.c = GEMM_CASE_DEFAULT, .M = call->M, .N = call->N, .K = call->K,
                   .lda = call->lda, .ldb = call->ldb, .ldc = call->ldc};
    g.c.trans_a = call->trans_a;
    g.c.trans_b = call->trans_b;
    char who[64];
    snprintf(who, sizeof who, "rung %d (%s)", r->number, r->name);
    ladder_status st = gemm_check_call(who, &g, msg);
    if (st != LADDER_OK || call->M == 0 || call->N == 0)
        return st; /* an empty C: nothing to do, as in BLAS */
    /* alpha = 0 never reads A or B (BLAS): the kernel then gets K = 0, a product of nothing,
     * and computes C = beta * C. */
    const int K = call->alpha == 0.0 ? 0 : call->K;
    kernel_arg args[13] = {
        {.kind = ARG_INT, .i = call->M},        {.kind = ARG_INT, .i = call->N},
        {.kind = ARG_INT, .i = K},              scalar_arg(call->precision, call->alpha),
        {.kind = ARG_BUFFER, .buffer = call->A}, {.kind = ARG_INT, .i = call->lda},
        {.kind = ARG_BUFFER, .buffer = call->B}, {.kind = ARG_INT, .i = call->ldb},
        scalar_arg(call->precision, call->beta), {.kind = ARG_BUFFER, .buffer = call->C},
        {.kind = ARG_INT, .i = call->ldc},      {.kind = ARG_BUFFER, .buffer = w},
    };
    int nargs = r->launches ? 12 : 11;
    if (r->tma_boxes) {
        /* The tensor maps of A and B take the places after ldc (a TMA rung has one
         * kernel, so no workspace; its check_size refuses K = 0, which has no map). */
        rung_tma_boxes box;
        r->tma_boxes(values, &box);
        args[11] = (kernel_arg){.kind = ARG_TENSOR_MAP,
                                .tensor_map = {call->A, call->M, call->K, call->lda,
                                               box.a_rows, box.a_cols, box.swizzle_bytes}};
        args[12] = (kernel_arg){.kind = ARG_TENSOR_MAP,
                                .tensor_map = {call->B, call->K, call->N, call->ldb,
                                               box.b_rows, box.b_cols, box.swizzle_bytes}};
        nargs = 13;
    }
    rung_launch l[RUNG_MAX_LAUNCHES];
    int n = 1;
    if (r->launches) {
        const launch_shape shape = {call->M, call->N, K, compute_units,
                                    (int)gemm_elem_bytes(call->precision),
                                    r->takes_transposes && call->trans_a,
                                    r->takes_transposes && call->trans_b};
        n = r->launches(values, &shape, l);
        if (n < 1 || n > RUNG_MAX_LAUNCHES)
            return ladder_fail(msg, LADDER_ERROR, "rung %d (%s) lists %d launches (1 to %d)",
                               r->number, r->name, n, RUNG_MAX_LAUNCHES);
    } else {
        l[0].kernel = "gemm";
        r->geometry(values, call->M, call->N, &l[0].dims);
    }
    for (int i = 0; i < n && st == LADDER_OK; i++)
        st = t->ops->launch(t->session, prog, l[i].kernel, &l[i].dims, args, nargs, msg);
    return st;
}

/* The work a user waits for: helper kernels, then the GEMM, then stripping C. */
static ladder_status kernel_work(void *ctx, char *msg)
{
    kernel_ctx *k = ctx;
    size_context *sc = k->sc;
    run_target *t = sc->target;
    ladder_status st = launch_routes(k, msg);
    if (st != LADDER_OK)
        return st;
    /* The kernel reads the helpers' copies where there are copies. */
    gpu_buffer *a = k->route_a.helper ? k->ap : k->opa;
    gpu_buffer *b = k->route_b.helper ? k->bp : k->opb;
    gpu_buffer *c = k->padded ? k->cp : sc->c;

    if (k->r->blas_args) {
        /* The case's call with tight leading dimensions: what the libraries get; for a
         * rung that pads (the TMA rungs), the padded copies' (exec_kernel refuses beta != 0
         * there, since the padded C does not hold C). */
        const gemm_call *g = &sc->cm.call;
        const int lda = k->padded ? (int)k->Mp : (int)g->lda;
        const int ldb = k->padded ? (int)k->Kp : (int)g->ldb;
        const int ldc = k->padded ? (int)k->Mp : (int)g->ldc;
        const blas_call call = {(int)k->Mp, (int)k->Np, (int)k->Kp, g->c.alpha, a, lda,
                                b, ldb, g->c.beta, c, ldc, g->c.trans_a,
                                g->c.trans_b, g->c.precision};
        st = rung_enqueue_blas(t, k->gemm, k->r, k->values, &call, k->shape.compute_units,
                               k->w, msg);
    } else {
        launch_dims d;
        k->r->geometry(k->values, (int)k->Mp, (int)k->Np, &d);
        kernel_arg args[6] = {
            {.kind = ARG_INT, .i = (int)k->Mp}, {.kind = ARG_INT, .i = (int)k->Np},
            {.kind = ARG_INT, .i = (int)k->Kp}, {.kind = ARG_BUFFER, .buffer = a},
            {.kind = ARG_BUFFER, .buffer = b},  {.kind = ARG_BUFFER, .buffer = c},
        };
        st = t->ops->launch(t->session, k->gemm, "gemm", &d, args, 6, msg);
    }
    if (st == LADDER_OK && k->padded)
        st = launch_helper(k, "pad_copy", k->Mp, k->Np, k->cp, k->M, k->N, sc->c, msg);
    return st;
}

/* W as a call must find it: NaN, but for the counters a rung keeps there (zeros). */
static ladder_status prepare_workspace(kernel_ctx *k, char *msg)
{
    const size_t elem = k->sc->elem;
    void *fill = malloc(k->w_floats * elem);
    if (!fill)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    rung_workspace_fill(k->r, k->values, &k->shape, fill, k->w_floats, elem);
    run_target *t = k->sc->target;
    ladder_status st = t->ops->upload(t->session, k->w, fill, k->w_floats * elem, msg);
    free(fill);
    return st;
}

static ladder_status kernel_poison(void *ctx, char *msg)
{
    kernel_ctx *k = ctx;
    size_context *sc = k->sc;
    ladder_status st = prepare_c(sc, msg);
    if (st == LADDER_OK && k->padded)
        st = poison_buffer(sc->target, k->cp, (size_t)k->Mp * k->Np, sc->elem, msg);
    if (st == LADDER_OK && k->w)
        st = prepare_workspace(k, msg);
    return st;
}

/* Copies C of this size to the host; the ctx of the library's work is the size_context. */
static ladder_status device_fetch(void *ctx, void *C, char *msg)
{
    size_context *sc = ctx;
    return sc->target->ops->download(sc->target->session, C, sc->c,
                                     (size_t)sc->M * sc->N * sc->elem, msg);
}

static ladder_status kernel_fetch(void *ctx, void *C, char *msg)
{
    return device_fetch(((kernel_ctx *)ctx)->sc, C, msg);
}

static long round_up_long(long x, int m) { return (x + m - 1) / m * m; }

static void release_kernel_buffers(kernel_ctx *k)
{
    const backend_ops *ops = k->sc->target->ops;
    gpu_buffer *bufs[4] = {k->ap, k->bp, k->cp, k->w};
    for (int i = 0; i < 4; i++)
        if (bufs[i])
            ops->release(bufs[i]);
}

static ladder_status exec_kernel(size_context *sc, program_cache *pc, const rung *r,
                                 const int *values, const measure_job *defaults,
                                 measure_result *out, char *msg)
{
    run_target *t = sc->target;
    const size_t elem = sc->elem;
    kernel_ctx k = {.sc = sc, .r = r, .values = values, .M = sc->cm.call.M,
                    .N = sc->cm.call.N, .K = sc->cm.call.K,
                    .opa = sc->cm.swapped ? sc->b : sc->a,
                    .opb = sc->cm.swapped ? sc->a : sc->b};
    int mult[3] = {1, 1, 1};
    if (r->multiples)
        r->multiples(values, mult);
    gemm_size size = {k.M, k.N, k.K};
    ladder_status st = rung_check_size(r, values, &size, msg);
    if (st != LADDER_OK)
        return st;
    k.Mp = round_up_long(k.M, mult[0]);
    k.Np = round_up_long(k.N, mult[1]);
    k.Kp = round_up_long(k.K, mult[2]);
    k.padded = r->pads && (k.Mp != k.M || k.Np != k.N || k.Kp != k.K);
    if (k.padded && r->blas_args && sc->cm.call.c.beta != 0.0)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "beta = %g at a size off its multiples (%d, %d, %d): this rung pads "
                           "its operands, and its padded C would not hold C", sc->cm.call.c.beta,
                           mult[0], mult[1], mult[2]);

    /* A kernel that takes TRANS_A and TRANS_B reads the operands as they are stored. */
    const int helpers_transpose = rung_transposes_by_helpers(r);
    route_operands(&k, helpers_transpose && sc->cm.call.c.trans_a,
                   helpers_transpose && sc->cm.call.c.trans_b);
    /* The matrices the kernel reads (a route's copy, or the operand as it is, at the sizes
     * the kernel sees) must fit in 32-bit indices, and so must C; then in the device's
     * memory. */
    if (routed_elements(&k.route_a) >= 2147483648.0 ||
        routed_elements(&k.route_b) >= 2147483648.0 || (double)k.Mp * k.Np >= 2147483648.0)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "the matrices the kernel reads exceed 32-bit indices");
    double extra = 0;
    if (k.route_a.helper)
        extra += routed_elements(&k.route_a);
    if (k.route_b.helper)
        extra += routed_elements(&k.route_b);
    if (k.padded)
        extra += (double)k.Mp * k.Np;
    k.shape = (launch_shape){(int)k.Mp, (int)k.Np, (int)k.Kp, t->dev.compute_units,
                             (int)elem, r->takes_transposes && sc->cm.call.c.trans_a,
                             r->takes_transposes && sc->cm.call.c.trans_b};
    if (r->launches) {
        k.w_floats = rung_workspace(r, values, &k.shape);
        extra += (double)k.w_floats;
        if (t->dev.max_alloc_bytes && k.w_floats * elem > t->dev.max_alloc_bytes)
            return ladder_fail(msg, LADDER_UNSUPPORTED,
                               "needs a workspace of %.0f MiB, the device allocates at most "
                               "%.0f MiB at once", (double)(k.w_floats * elem) / 1048576.0,
                               (double)t->dev.max_alloc_bytes / 1048576.0);
    }
    double total = (double)elem * ((double)k.M * k.K + (double)k.K * k.N +
                                   (double)k.M * k.N + extra);
    if (total > (double)t->dev.global_mem_bytes)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "needs %.0f MiB of device memory (with padded copies), the device "
                           "has %.0f MiB", total / 1048576.0,
                           (double)t->dev.global_mem_bytes / 1048576.0);

    char defines[256];
    rung_call_options(r, values, &t->dev, &sc->cm.call.c, &k.shape, defines, sizeof defines);
    st = program_cache_get(pc, t, r->id, defines, &k.gemm, msg);
    /* The helpers move elements of the case's precision, through the same switch. */
    const char *helper_defines = sc->cs.precision == PRECISION_DOUBLE ? "-DLADDER_DOUBLE=1"
                                                                      : "";
    if (st == LADDER_OK && (k.route_a.helper || k.route_b.helper || k.padded))
        st = program_cache_get(pc, t, "helpers", helper_defines, &k.helpers, msg);
    if (st == LADDER_OK && k.route_b.helper)
        st = t->ops->alloc(t->session, (size_t)routed_elements(&k.route_b) * elem, &k.bp, msg);
    if (st == LADDER_OK && k.route_a.helper)
        st = t->ops->alloc(t->session, (size_t)routed_elements(&k.route_a) * elem, &k.ap, msg);
    if (st == LADDER_OK && k.padded)
        st = t->ops->alloc(t->session, (size_t)k.Mp * k.Np * elem, &k.cp, msg);
    if (st == LADDER_OK && r->launches)
        st = t->ops->alloc(t->session, k.w_floats * elem, &k.w, msg);
    /* Counters in W must be zero from the first call on, warm-up and timed runs included
     * (the verified run's preparation comes only after the warm-up, and not at all
     * without verification). */
    if (st == LADDER_OK && k.w && r->workspace_counters)
        st = prepare_workspace(&k, msg);
    if (st == LADDER_OK) {
        measure_job job = *defaults;
        job.work = kernel_work;
        job.poison = kernel_poison;
        job.fetch = kernel_fetch;
        job.ctx = &k;
        st = measure(&job, out, msg);
    }
    release_kernel_buffers(&k);
    return st;
}

/* ---- the vendor library ------------------------------------------------------------- */

typedef struct {
    size_context *sc;
    library_call call; /* which of the library's calls (rung.library_call) */
} library_ctx;

/* The libraries get the case as the user wrote it, in its own layout (cuBLAS swaps the
 * operands of a row-major call itself): verification, which reads the column-major call,
 * checks that the two agree. */
static ladder_status library_work(void *ctx, char *msg)
{
    library_ctx *l = ctx;
    size_context *sc = l->sc;
    run_target *t = sc->target;
    gemm_call g;
    gemm_call_tight(&sc->cs, sc->M, sc->N, sc->K, &g);
    if (l->call == LIBRARY_SGEMM_TF32)
        return t->ops->library_gemm_tf32(t->session, &g, sc->a, sc->b, sc->c, msg);
    return t->ops->library_gemm(t->session, &g, sc->a, sc->b, sc->c, msg);
}

static ladder_status library_poison(void *ctx, char *msg)
{
    library_ctx *l = ctx;
    return prepare_c(l->sc, msg);
}

static ladder_status library_fetch(void *ctx, void *C, char *msg)
{
    library_ctx *l = ctx;
    return device_fetch(l->sc, C, msg);
}

/* ---- the host BLAS ------------------------------------------------------------------ */

typedef struct {
    size_context *sc;
    void *c;
} host_ctx;

static ladder_status host_work(void *ctx, char *msg)
{
    host_ctx *h = ctx;
    gemm_call g;
    gemm_call_tight(&h->sc->cs, h->sc->M, h->sc->N, h->sc->K, &g);
    return host_gemm(&g, h->sc->host_a, h->sc->host_b, h->c, msg);
}

static ladder_status host_poison(void *ctx, char *msg)
{
    host_ctx *h = ctx;
    size_t n = (size_t)h->sc->M * h->sc->N;
    if (h->sc->host_c0)
        memcpy(h->c, h->sc->host_c0, n * h->sc->elem);
    else if (h->sc->elem == sizeof(double))
        for (size_t i = 0; i < n; i++)
            ((double *)h->c)[i] = NAN;
    else
        for (size_t i = 0; i < n; i++)
            ((float *)h->c)[i] = NAN;
    return LADDER_OK;
}

static ladder_status host_fetch(void *ctx, void *C, char *msg)
{
    host_ctx *h = ctx;
    memcpy(C, h->c, (size_t)h->sc->M * h->sc->N * h->sc->elem);
    return LADDER_OK;
}

ladder_status exec_rung(size_context *sc, program_cache *pc, const rung *r, const int *values,
                        const measure_job *defaults, measure_result *out, char *msg)
{
    measure_job job = *defaults;
    /* the bound verification checks against */
    job.unit_roundoff = rung_unit_roundoff(r, sc->cs.precision);
    job.input_roundoff = r->input_roundoff;
    ladder_status st = rung_check_case(r, &sc->cs, msg);
    if (st != LADDER_OK)
        return st;
    switch (r->kind) {
    case RUNG_KERNEL:
        return exec_kernel(sc, pc, r, values, &job, out, msg);
    case RUNG_LIBRARY: {
        if (!rung_library_present(r, sc->target->ops))
            return ladder_fail(msg, LADDER_UNSUPPORTED, "this build's %s backend has no %s",
                               r->library_backend, r->title);
        library_ctx l = {sc, r->library_call};
        job.work = library_work;
        job.poison = library_poison;
        job.fetch = library_fetch;
        job.ctx = &l;
        return measure(&job, out, msg);
    }
    case RUNG_HOST: {
        host_ctx h = {sc, malloc((size_t)sc->M * sc->N * sc->elem)};
        if (!h.c)
            return ladder_fail(msg, LADDER_ERROR, "out of host memory");
        job.work = host_work;
        job.poison = host_poison;
        job.fetch = host_fetch;
        job.ctx = &h;
        st = measure(&job, out, msg);
        free(h.c);
        return st;
    }
    case RUNG_AUTO: /* the runner turns it into the rung it chooses before it gets here */
        break;
    }
    return ladder_fail(msg, LADDER_ERROR, "unknown rung kind");
}
