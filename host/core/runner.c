#include "core/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ladder_version.h"
#include "core/case_inputs.h"
#include "core/rung_exec.h"
#include "params/params.h"
#include "params/selection.h"

volatile sig_atomic_t runner_interrupted = 0;

/* ---- rows and the live table -------------------------------------------------------- */

void runner_row_identity(result_row *row, uint64_t seed, const run_target *t,
                         const rung *r, const gemm_size *s, const gemm_case *cs)
{
    memset(row, 0, sizeof *row);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(row->date, sizeof row->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    snprintf(row->version, sizeof row->version, "%s", LADDER_VERSION);
    if (gethostname(row->host, sizeof row->host) != 0)
        snprintf(row->host, sizeof row->host, "unknown");
    row->host[sizeof row->host - 1] = '\0';
    const device_info *d = &t->dev;
    snprintf(row->backend, sizeof row->backend, "%s", d->backend);
    snprintf(row->device, sizeof row->device, "%s", d->name);
    snprintf(row->vendor, sizeof row->vendor, "%s", d->vendor);
    snprintf(row->driver, sizeof row->driver, "%s", d->driver);
    row->compute_units = d->compute_units;
    row->clock_mhz = d->clock_mhz;
    row->peak_gflops = d->fp32_peak_gflops;
    row->rung = r->number;
    snprintf(row->rung_name, sizeof row->rung_name, "%s", r->name);
    row->M = s->M;
    row->N = s->N;
    row->K = s->K;
    row->seed = seed;
    row->error_ratio = -1;
    row->rel_error = -1;
    results_set_case(row, cs);
}

void runner_row_outcome(result_row *row, ladder_status st, const measure_result *m,
                        const char *msg)
{
    if (st == LADDER_UNSUPPORTED) {
        snprintf(row->status, sizeof row->status, "unsupported");
        snprintf(row->reason, sizeof row->reason, "%s", msg);
        return;
    }
    if (st != LADDER_OK) {
        snprintf(row->status, sizeof row->status, "error");
        snprintf(row->reason, sizeof row->reason, "%.*s", (int)sizeof row->reason - 1, msg);
        return;
    }
    row->error_ratio = m->verified ? m->check.error_ratio : -1;
    row->rel_error = m->verified ? m->check.rel_error : -1;
    if (m->verified && !m->check.passed) {
        snprintf(row->status, sizeof row->status, "FAILED");
        snprintf(row->reason, sizeof row->reason, "%s", m->check.detail);
        return;
    }
    snprintf(row->status, sizeof row->status, "ok");
    row->reps = m->reps;
    row->median_ms = m->median_ms;
    row->min_ms = m->min_ms;
    row->max_ms = m->max_ms;
    row->gflops = 2.0 * (double)row->M * (double)row->N * (double)row->K /
                  (m->median_ms * 1e6);
}

/* The live table. Its columns have fixed widths and the parameters, whose length has no
 * bound (rungs 5 and up list six or more), come last, so every other column stays
 * aligned; why a row is not ok goes on a line of its own under it. */
#define TABLE_ROW "%-7s %-14s %-16s %10s %10s %7s  %-32s %s\n"

static void print_header(void)
{
    printf(TABLE_ROW, "backend", "rung", "M x N x K", "ms", "GFLOPS", "vs lib", "check",
           "params");
}

static void print_row(const result_row *row)
{
    char name[48], size[64], ms[16] = "-", gf[16] = "-", vs[16] = "-", check[64];
    char params[160], line[512];
    /* Tuned parameters are marked, so nobody mistakes them for the rung's defaults. */
    snprintf(params, sizeof params, "%s%s", row->params,
             strcmp(row->param_source, "tuned") == 0 ? " [tuned]" : "");
    if (row->rung)
        snprintf(name, sizeof name, "%d %s", row->rung, row->rung_name);
    else
        snprintf(name, sizeof name, "%s", row->rung_name);
    snprintf(size, sizeof size, "%ldx%ldx%ld", row->M, row->N, row->K);
    if (row->median_ms > 0) {
        snprintf(ms, sizeof ms, "%.3f", row->median_ms);
        snprintf(gf, sizeof gf, "%.1f", row->gflops);
    }
    if (row->vs_library > 0)
        snprintf(vs, sizeof vs, "%.2f", row->vs_library);
    int ok = strcmp(row->status, "ok") == 0;
    if (ok && strcmp(row->verify, "off") == 0)
        snprintf(check, sizeof check, "ok (not verified)");
    else if (ok)
        snprintf(check, sizeof check, "ok (%s, err/bound %.2g)", row->verify,
                 row->error_ratio);
    else
        snprintf(check, sizeof check, "%s", row->status);
    snprintf(line, sizeof line, TABLE_ROW, row->backend, name, size, ms, gf, vs, check,
             params);
    /* A baseline has no parameters: no trailing blanks. */
    size_t end = strlen(line) - 1;
    while (end > 0 && line[end - 1] == ' ')
        end--;
    printf("%.*s\n", (int)end, line);
    if (!ok && row->reason[0])
        printf("        %s\n", row->reason);
    fflush(stdout);
}

/* Rungs that only another backend has are not run on a target; their rows go to the
 * result file as unsupported, but the live table says so once, at the end, rather than
 * on every size. */
static int only_elsewhere(const rung *r, const run_target *t)
{
    return t->ops && !rung_on_backend(r, t->dev.backend);
}

static const char *backend_title(const char *backend)
{
    return strcmp(backend, "cuda") == 0 ? "CUDA" : strcmp(backend, "opencl") == 0 ? "OpenCL"
                                                                                   : backend;
}

/* One line per target and other backend: "opencl:0 skipped rungs 13 async, 14 bigtile:
 * CUDA only (12 rows, in the result file as unsupported)". `rows` counts the rows of each
 * (target, rung). */
static void print_elsewhere(const run_plan *plan, const int *rows)
{
    for (int t = 0; t < plan->ntargets; t++) {
        const int *mine = rows + (size_t)t * (size_t)plan->nrungs;
        for (int first = 0; first < plan->nrungs; first++) {
            if (!mine[first])
                continue;
            const char *other = plan->rungs[first]->only_backend;
            int seen = 0, nlisted = 0, total = 0;
            for (int i = 0; i < plan->nrungs; i++) {
                if (!mine[i] || strcmp(plan->rungs[i]->only_backend, other) != 0)
                    continue;
                seen |= i < first; /* this backend's line was printed already */
                nlisted++;
            }
            if (seen)
                continue;
            const run_target *target = &plan->targets[t];
            printf("%s:%d skipped rung%s", target->dev.backend, target->dev.index,
                   nlisted == 1 ? "" : "s");
            for (int i = first, k = 0; i < plan->nrungs; i++) {
                if (!mine[i] || strcmp(plan->rungs[i]->only_backend, other) != 0)
                    continue;
                printf("%s %d %s", k++ ? "," : "", plan->rungs[i]->number,
                       plan->rungs[i]->name);
                total += mine[i];
            }
            int present = 0;
            for (int k = 0; k < plan->ntargets; k++)
                present |= plan->targets[k].ops &&
                           strcmp(plan->targets[k].dev.backend, other) == 0;
            printf(": %s only (%d row%s, in the result file as unsupported", backend_title(other),
                   total, total == 1 ? "" : "s");
            if (present)
                printf(")\n");
            else
                printf("; no %s device in this run: see ladder devices)\n",
                       backend_title(other));
        }
    }
}

/* Before each size's rows of a case, when the run is not just the default case: which
 * case they are ("case: double TN row-major alpha=1 beta=0"). */
static void print_case(const run_plan *plan, const gemm_case *cs)
{
    char label[128];
    gemm_case_label(cs, 0, label, sizeof label);
    if (plan->ncases == 1 && !label[0])
        return;
    char trans[3];
    printf("case: %s %s %s-major alpha=%g beta=%g\n", gemm_precision_name(cs->precision),
           gemm_trans_name(cs->trans_a, cs->trans_b, trans),
           cs->layout == LAYOUT_ROW ? "row" : "column", cs->alpha, cs->beta);
}

/* ---- the loop ------------------------------------------------------------------------ */

static int rung_runs_on(const rung *r, const run_target *t)
{
    switch (r->kind) {
    case RUNG_KERNEL:
    case RUNG_AUTO:
        return t->ops != NULL;
    case RUNG_LIBRARY:
        return rung_library_present(r, t->ops);
    case RUNG_HOST:
        return t->ops == NULL;
    }
    return 0;
}

static verify_mode mode_for(const run_plan *plan, const gemm_size *s, const gemm_case *cs)
{
    if (plan->verify != VERIFY_AUTO)
        return plan->verify;
    double work = (double)s->M * (double)s->N * (double)s->K;
    unsigned long long limit = plan->full_limit;
    if (!limit)
        limit = cs->precision == PRECISION_DOUBLE ? VERIFY_FULL_LIMIT_DOUBLE
                                                  : VERIFY_FULL_LIMIT_DEFAULT;
    return work <= (double)limit ? VERIFY_FULL : VERIFY_SAMPLED;
}

/* Library GFLOPS at this size on this target, to express each rung as a fraction of it. */
typedef struct {
    double gflops;
    char name[16];
} library_mark;

static void measure_row(const run_plan *plan, run_target *t, program_cache *pc,
                        size_context *sc, const rung *r, const gemm_size *s,
                        const reference *ref, library_mark *lib, result_row *row)
{
    char msg[LADDER_MSG];
    runner_row_identity(row, plan->seed, t, r, s, &sc->cs);
    snprintf(row->verify, sizeof row->verify, "%s",
             ref ? verify_mode_name(reference_mode(ref)) : "off");

    int values[RUNG_MAX_PARAMS] = {0};
    const char *source = "default";
    ladder_status st = LADDER_OK;
    /* The tuning database's entries go by the pair the kernel computes: the column-major
     * call's, which for a row-major case is the user's pair swapped. */
    param_policy pol = {plan->overrides, plan->noverrides, plan->small_defaults, plan->tuning,
                        "ladder run", sc->cs.precision, sc->cm.call.c.trans_a,
                        sc->cm.call.c.trans_b};
    /* Kernels see the column-major call: a row-major case's M and N swapped. Parameters,
     * sizes and the shape-aware entry's look-up go by its shape. */
    const gemm_size call = {sc->cm.call.M, sc->cm.call.N, sc->cm.call.K};
    if (r->kind == RUNG_AUTO) {
        /* The shape-aware entry: a table look-up picks a rung and its parameters, which
         * then run as that rung; the row keeps the name "auto" and says what it chose. */
        st = params_for_auto(&pol, &t->dev, &call, &sc->cs, &r, values, &source, msg);
        if (st == LADDER_OK)
            params_auto_string(r, values, row->params, sizeof row->params);
        snprintf(row->param_source, sizeof row->param_source, "%s", source);
    } else if (r->kind == RUNG_KERNEL) {
        st = params_for_row(&pol, r, &t->dev, &call, values, &source, msg);
        rung_params_string(r, values, row->params, sizeof row->params);
        snprintf(row->param_source, sizeof row->param_source, "%s", source);
    }
    measure_result m;
    measure_job defaults = {.ops = t->ops, .session = t->session, .ref = ref,
                            .host_c = sc->host_c, .reps = plan->reps,
                            .max_seconds = plan->max_seconds};
    /* A case or a size the rung cannot take is simply unsupported: no other parameters are
     * tried. */
    if (st == LADDER_OK)
        st = rung_check_case(r, &sc->cs, msg);
    if (st == LADDER_OK && r->kind == RUNG_KERNEL)
        st = rung_check_size(r, values, &call, msg);
    int size_refused = st == LADDER_UNSUPPORTED;
    if (st == LADDER_OK)
        st = exec_rung(sc, pc, r, values, &defaults, &m, msg);
    if (st == LADDER_UNSUPPORTED && !size_refused && strcmp(source, "default") == 0) {
        /* The compiled kernel refused the defaults (a driver may allow fewer work-items
         * than the device's maximum, e.g. for a kernel that uses many registers): the
         * small-device defaults are the fallback, as for devices known to be small. */
        char first[LADDER_MSG];
        snprintf(first, sizeof first, "%s", msg);
        if (params_small_fallback(r, &t->dev, sc->cs.precision, &call, values, msg) ==
            LADDER_OK) {
            rung_params_string(r, values, row->params, sizeof row->params);
            snprintf(row->param_source, sizeof row->param_source, "small-default");
            st = exec_rung(sc, pc, r, values, &defaults, &m, msg);
            if (st == LADDER_UNSUPPORTED)
                params_both_reasons(first, msg);
        } else {
            snprintf(msg, LADDER_MSG, "%s", first);
        }
    }
    runner_row_outcome(row, st, &m, msg);
    if (st != LADDER_OK && st != LADDER_UNSUPPORTED)
        /* The full message (a compiler log, say) goes to the terminal. */
        fprintf(stderr, "ladder: %s rung %s at %ldx%ldx%ld: %s\n", t->dev.backend, r->name,
                s->M, s->N, s->K, msg);
    if (strcmp(row->status, "ok") != 0)
        return;
    /* The bar is the library at float32's accuracy: a reduced-precision one (cuBLAS in
     * TF32) is itself measured against it, never the other way round. */
    if (r->kind == RUNG_LIBRARY && rung_float32_accurate(r)) {
        lib->gflops = row->gflops;
        snprintf(lib->name, sizeof lib->name, "%s", r->name);
    } else if (lib->gflops > 0) {
        row->vs_library = row->gflops / lib->gflops;
        snprintf(row->library, sizeof row->library, "%s", lib->name);
    }
}

static void count_row(run_summary *sum, const result_row *row)
{
    sum->rows++;
    if (strcmp(row->status, "ok") == 0) sum->ok++;
    else if (strcmp(row->status, "FAILED") == 0) sum->failed++;
    else if (strcmp(row->status, "unsupported") == 0) sum->unsupported++;
    else sum->errors++;
}

static ladder_status run_target_size(const run_plan *plan, run_target *t, program_cache *pc,
                                     const case_inputs *in, run_summary *sum,
                                     int *elsewhere_rows, char *msg)
{
    size_context sc;
    library_mark lib = {0};
    const gemm_size *s = &in->size;
    const reference *ref = in->ref;
    if (size_context_open(&sc, t, s, &in->cs, in->a, in->b, in->c0, in->scratch, msg) !=
        LADDER_OK) {
        /* Inputs do not fit: every rung of this device is unsupported at this size. */
        for (int i = 0; i < plan->nrungs; i++) {
            if (!rung_runs_on(plan->rungs[i], t))
                continue;
            result_row row;
            runner_row_identity(&row, plan->seed, t, plan->rungs[i], s, &in->cs);
            snprintf(row.status, sizeof row.status, "error");
            snprintf(row.reason, sizeof row.reason, "%.250s", msg);
            print_row(&row);
            count_row(sum, &row);
            if (results_append(plan->writer, &row, msg) != LADDER_OK)
                return LADDER_ERROR;
        }
        return LADDER_OK;
    }
    ladder_status st = LADDER_OK;
    for (int i = 0; i < plan->nrungs && st == LADDER_OK && !runner_interrupted; i++) {
        const rung *r = plan->rungs[i];
        if (!rung_runs_on(r, t))
            continue;
        result_row row;
        measure_row(plan, t, pc, &sc, r, s, ref, &lib, &row);
        if (only_elsewhere(r, t))
            elsewhere_rows[i]++;
        else
            print_row(&row);
        count_row(sum, &row);
        st = results_append(plan->writer, &row, msg);
    }
    size_context_close(&sc);
    return st;
}

ladder_status runner_run(const run_plan *plan, run_summary *sum, char *msg)
{
    memset(sum, 0, sizeof *sum);
    program_cache **caches = calloc((size_t)plan->ntargets, sizeof *caches);
    if (!caches)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    for (int t = 0; t < plan->ntargets; t++)
        if (!(caches[t] = program_cache_new()))
            return ladder_fail(msg, LADDER_ERROR, "out of host memory");

    int *elsewhere = calloc((size_t)plan->ntargets * (size_t)plan->nrungs + 1,
                            sizeof *elsewhere);
    if (!elsewhere)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    print_header();
    ladder_status st = LADDER_OK;
    for (int si = 0; si < plan->nsizes && st == LADDER_OK && !runner_interrupted; si++)
        for (int ci = 0; ci < plan->ncases && st == LADDER_OK && !runner_interrupted; ci++) {
            /* One reference serves every device and rung at this size and case. */
            const gemm_size *s = &plan->sizes[si];
            case_inputs in;
            print_case(plan, &plan->cases[ci]);
            st = case_inputs_open(&in, &plan->cases[ci], s, plan->seed,
                                  mode_for(plan, s, &plan->cases[ci]), msg);
            for (int t = 0; t < plan->ntargets && st == LADDER_OK && !runner_interrupted; t++)
                st = run_target_size(plan, &plan->targets[t], caches[t], &in, sum,
                                     elsewhere + (size_t)t * (size_t)plan->nrungs, msg);
            case_inputs_close(&in);
        }
    print_elsewhere(plan, elsewhere);
    free(elsewhere);
    for (int t = 0; t < plan->ntargets; t++)
        if (plan->targets[t].ops)
            program_cache_free(caches[t], plan->targets[t].ops);
        else
            free(caches[t]);
    free(caches);
    return st;
}
