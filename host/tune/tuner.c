#include "tune/tuner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host_blas.h"
#include "core/rung_exec.h"
#include "tune/tune_measure.h"

/* Everything the measuring callback needs. */
typedef struct {
    const tune_plan *plan;
    tune_outcome *out;
    program_cache *pc;
    tune_input *in;         /* [nsizes] */
    gemm_case cs;           /* the case tuned (tune_plan.tuned) */
    double *gflops;         /* [npoints][nsizes]: a candidate's figure, 0 if not ok */
    double start_ms;
    long total;             /* candidates the progress line counts to */
    double best_score;
    char best_params[128];
    char fatal[LADDER_MSG]; /* set when tuning cannot go on */
} tuner;

static double elapsed_s(const tuner *tu) { return (host_now_ms() - tu->start_ms) / 1000.0; }

static int budget_spent(const tuner *tu)
{
    const tune_plan *p = tu->plan;
    return (p->budget_configs > 0 && tu->out->measured >= p->budget_configs) ||
           (p->budget_seconds > 0 && elapsed_s(tu) >= p->budget_seconds);
}

/* "[12/96] TS=16 WPT=4  12.3 GFLOPS ok | best 14.1 (TS=32 WPT=8) | 1m23s left" */
static void progress(const tuner *tu, const char *params, double score, const char *status,
                     const char *reason)
{
    const tune_plan *p = tu->plan;
    long done = tu->out->measured;
    double left;
    if (p->budget_seconds > 0)
        left = p->budget_seconds - elapsed_s(tu);
    else
        left = elapsed_s(tu) / (double)done * (double)(tu->total - done);
    char when[32], result[128];
    tune_format_duration(left > 0 ? left : 0, when, sizeof when);
    if (strcmp(status, "ok") == 0)
        snprintf(result, sizeof result, "%.1f GFLOPS ok", score);
    else
        snprintf(result, sizeof result, "%s: %.60s", status, reason);
    printf("[%ld/%ld] %s  %s | ", done, tu->total, params, result);
    if (tu->best_score > 0)
        printf("best %.1f (%s)", tu->best_score, tu->best_params);
    else
        printf("no candidate passed yet");
    printf(" | %s left\n", when);
    fflush(stdout);
}

static void count(tune_outcome *out, const char *status)
{
    if (strcmp(status, "ok") == 0) out->ok++;
    else if (strcmp(status, "FAILED") == 0) out->failed++;
    else if (strcmp(status, "unsupported") == 0) out->unsupported++;
    else out->errors++;
}

/* The search's callback: measures one candidate at every size. */
static double measure_point(void *ctx, int point)
{
    tuner *tu = ctx;
    const tune_plan *p = tu->plan;
    if (runner_interrupted) {
        tu->out->interrupted = 1;
        return TUNE_STOP;
    }
    if (tu->fatal[0] || budget_spent(tu))
        return TUNE_STOP;
    int values[RUNG_MAX_PARAMS] = {0};
    char params[128], status[16] = "ok", reason[256] = "";
    tune_space_values(p->space, point, values);
    rung_params_string(p->r, values, params, sizeof params);
    double log_sum = 0;
    for (int s = 0; s < p->nsizes; s++) {
        result_row row;
        tune_measure(p->target, tu->pc, &tu->in[s], p->r, values, p->reps, p->max_seconds,
                     p->seed, "tune-candidate", &row);
        if (results_append(p->candidates, &row, tu->fatal) != LADDER_OK)
            return TUNE_STOP;
        if (strcmp(row.status, "ok") != 0) {
            snprintf(status, sizeof status, "%s", row.status);
            snprintf(reason, sizeof reason, "%s", row.reason);
            break; /* failed at one size: the other sizes cannot save it */
        }
        tu->gflops[(size_t)point * p->nsizes + s] = row.gflops;
        log_sum += log(row.gflops);
    }
    program_cache_drop(tu->pc, p->target, p->r, values, &tu->cs);
    tu->out->measured++;
    count(tu->out, status);
    double score = strcmp(status, "ok") == 0 ? exp(log_sum / p->nsizes) : TUNE_FAILED;
    if (score > tu->best_score) {
        tu->best_score = score;
        snprintf(tu->best_params, sizeof tu->best_params, "%s", params);
    }
    progress(tu, params, score, status, reason);
    return score;
}

/* The geometric mean of a candidate's GFLOPS over the sizes of one class; 0 if it was not
 * ok at every size. */
static double class_score(const tuner *tu, int point, size_class cls, const double *scores)
{
    const tune_plan *p = tu->plan;
    if (point < 0 || scores[point] <= 0)
        return 0;
    double log_sum = 0;
    int n = 0;
    for (int s = 0; s < p->nsizes; s++)
        if (size_class_of(&p->sizes[s]) == cls) {
            log_sum += log(tu->gflops[(size_t)point * p->nsizes + s]);
            n++;
        }
    return n ? exp(log_sum / n) : 0;
}

static void pick_best(const tuner *tu, const double *scores)
{
    const tune_plan *p = tu->plan;
    tune_outcome *out = tu->out;
    for (int c = 0; c < SIZE_CLASS_COUNT; c++) {
        out->best[c] = (tune_pick){-1, 0};
        out->defaults[c] = (tune_pick){-1, 0};
        for (int s = 0; s < p->nsizes; s++)
            if (size_class_of(&p->sizes[s]) == (size_class)c)
                out->present[c] = 1;
        if (!out->present[c])
            continue;
        for (int point = 0; point < p->space->npoints; point++) {
            double g = class_score(tu, point, (size_class)c, scores);
            if (g > out->best[c].gflops)
                out->best[c] = (tune_pick){point, g};
        }
        double g = class_score(tu, p->start, (size_class)c, scores);
        if (g > 0)
            out->defaults[c] = (tune_pick){p->start, g};
    }
}

/* Inputs, references and device buffers for every tuning size, kept for the search. */
static ladder_status open_sizes(tuner *tu, char *msg)
{
    const tune_plan *p = tu->plan;
    for (int s = 0; s < p->nsizes; s++)
        if (tune_input_open(&tu->in[s], p->target, &p->sizes[s], &tu->cs, p->seed, msg) != LADDER_OK)
            return LADDER_ERROR;
    return LADDER_OK;
}

ladder_status tuner_run(const tune_plan *plan, tune_outcome *out, char *msg)
{
    memset(out, 0, sizeof *out);
    int n = plan->space->npoints;
    tuner tu = {.plan = plan, .out = out, .cs = plan->tuned};
    tu.in = calloc((size_t)plan->nsizes, sizeof *tu.in);
    tu.gflops = calloc((size_t)n * (size_t)plan->nsizes + 1, sizeof *tu.gflops);
    double *scores = malloc(((size_t)n + 1) * sizeof *scores);
    tu.pc = program_cache_new();
    ladder_status st = LADDER_OK;
    if (!tu.in || !tu.gflops || !scores || !tu.pc)
        st = ladder_fail(msg, LADDER_ERROR, "out of host memory");
    if (st == LADDER_OK)
        st = open_sizes(&tu, msg);
    if (st == LADDER_OK) {
        tu.total = n;
        if (plan->budget_configs > 0 && plan->budget_configs < n)
            tu.total = plan->budget_configs;
        tu.start_ms = host_now_ms();
        tune_search search = {.strategy = plan->strategy, .seed = plan->seed,
                              .start = plan->start, .measure = measure_point, .ctx = &tu};
        tune_search_run(plan->space, &search, scores);
        out->seconds = elapsed_s(&tu);
        pick_best(&tu, scores);
        if (tu.fatal[0])
            st = ladder_fail(msg, LADDER_ERROR, "%s", tu.fatal);
    }
    for (int s = 0; tu.in && s < plan->nsizes; s++)
        tune_input_close(&tu.in[s]);
    if (tu.pc)
        program_cache_free(tu.pc, plan->target->ops);
    free(scores);
    free(tu.gflops);
    free(tu.in);
    return st;
}
