#include "tune/select_profile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host_blas.h"
#include "base/shapes.h"
#include "params/params.h"
#include "params/selection.h"
#include "tune/tune_measure.h"

/* ---- the candidates of one shape ----------------------------------------------------- */

static void skip(select_candidates *c, const rung *r, const char *why)
{
    if (c->skipped++ == 0)
        snprintf(c->why_skipped, sizeof c->why_skipped, "rung %d: %.400s", r->number, why);
}

/* Shape s as the rung's launch callbacks see it on this device, in the case the profiler
 * measures (float, NN). */
static launch_shape shape_on(const device_info *dev, const gemm_size *s)
{
    return (launch_shape){(int)s->M, (int)s->N, (int)s->K, dev->compute_units,
                          (int)gemm_elem_bytes(PRECISION_SINGLE), 0, 0};
}

/* Whether two parameter sets of rung r make the same call at `shape`: equal in every
 * parameter the call reads (all of them, unless the rung says otherwise). */
static int same_call(const rung *r, const int *a, const int *b, const launch_shape *shape)
{
    for (int p = 0; p < r->nparams; p++)
        if (a[p] != b[p] && (!r->reads_param || r->reads_param(p, shape)))
            return 0;
    return 1;
}

/* Adds one combination, unless the rung, the device or the shape refuse it, or one that
 * makes the same call is there already. */
static void add(select_candidates *c, const rung *r, const int *values,
                const device_info *dev, const gemm_size *s)
{
    char why[LADDER_MSG];
    if (rung_check_params(r, values, why) != LADDER_OK ||
        rung_check_device(r, values, dev, PRECISION_SINGLE, why) != LADDER_OK ||
        rung_check_size(r, values, s, why) != LADDER_OK) {
        skip(c, r, why);
        return;
    }
    const launch_shape shape = shape_on(dev, s);
    for (int i = 0; i < c->count; i++)
        if (c->items[i].r == r && same_call(r, c->items[i].values, values, &shape))
            return;
    if (c->count == SELECT_MAX_CANDIDATES) {
        skip(c, r, "more candidates than one shape may have");
        return;
    }
    c->items[c->count].r = r;
    memcpy(c->items[c->count].values, values, sizeof c->items[c->count].values);
    c->count++;
}

/* The work-groups of the kernels of one call of rung r at shape s: the most and the
 * fewest that any one of them launches. */
static void launch_groups(const rung *r, const int *values, const device_info *dev,
                          const gemm_size *s, double *most, double *fewest)
{
    rung_launch l[RUNG_MAX_LAUNCHES];
    int n = 1;
    if (r->launches) {
        const launch_shape shape = shape_on(dev, s);
        n = r->launches(values, &shape, l);
    } else {
        r->geometry(values, (int)s->M, (int)s->N, &l[0].dims);
    }
    *most = 0;
    *fewest = 0;
    for (int i = 0; i < n && i < RUNG_MAX_LAUNCHES; i++) {
        const launch_dims *d = &l[i].dims;
        double groups = (double)(d->global[0] / d->local[0]) * (double)(d->global[1] / d->local[1]);
        if (groups > *most)
            *most = groups;
        if (i == 0 || groups < *fewest)
            *fewest = groups;
    }
}

/* Whether a variant is worth measuring on this device. Too few work-groups: even its
 * busiest kernel has fewer than half a work-group per compute unit, leaving most of the
 * device idle. Too many, for a rung that writes partial sums to a workspace (split-K, the
 * skinny kernel's K split, rung 27's): even its lightest kernel has more than
 * SELECT_MOST_WAVES per compute unit, so K is split so finely that the partial results
 * cost more than the parallelism gives. (Lightest, not busiest: split-K's reduction,
 * whose work-groups follow the size of C far more than the split, must not decide.) A
 * rung that only tiles C more finely is not held to that bound: its extra work-groups run
 * in more waves, each reading its tiles once more through the L2, and at a short sum
 * that can pay. Rung 30 at 8192 x 8192 x 32 in NVIDIA's OpenCL on an H200 ran 64 x 64
 * tiles, 124 work-groups per compute unit, at 29.4k GFLOPS against 24.3k at 128 x 128
 * (results/h200-2026-11-30-scalars), and the bound had kept them out of the search. The
 * rung's own parameters are always measured; this prunes only the variants, which would
 * otherwise be hundreds. */
static int plausible(const rung *r, const int *values, const device_info *dev,
                     const gemm_size *s)
{
    if (dev->compute_units <= 0)
        return 1;
    double most, fewest;
    launch_groups(r, values, dev, s, &most, &fewest);
    return most >= 0.5 * dev->compute_units &&
           (!r->workspace_floats || fewest <= (double)SELECT_MOST_WAVES * dev->compute_units);
}

/* `base` with every combination of the choices of the rung's PER_SHAPE parameters that
 * the rung, the device and the shape take and that are plausible, in a shuffled (but
 * fixed) order, so that a shape whose share of the budget runs out has sampled them all
 * rather than measured the first few choices of the first parameter. */
static void add_variants(select_candidates *c, const rung *r, const int *base,
                         const device_info *dev, const gemm_size *s)
{
    int which[RUNG_MAX_PARAMS], nchoices[RUNG_MAX_PARAMS];
    int choices[RUNG_MAX_PARAMS][RUNG_MAX_CHOICES];
    int n = 0;
    long combinations = 1;
    for (int p = 0; p < r->nparams; p++)
        if (r->params[p].per_shape) {
            which[n] = p;
            nchoices[n] = rung_param_choices(&r->params[p], choices[n]);
            combinations *= nchoices[n];
            n++;
        }
    if (n == 0)
        return;
    long *order = malloc((size_t)combinations * sizeof *order);
    if (!order)
        return; /* no variants: the rung's own parameters are measured all the same */
    for (long k = 0; k < combinations; k++)
        order[k] = k;
    uint64_t state = 0x9e3779b97f4a7c15u; /* Fisher-Yates with a fixed xorshift stream */
    for (long k = combinations - 1; k > 0; k--) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        long j = (long)(state % (uint64_t)(k + 1)), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    char why[LADDER_MSG];
    for (long k = 0; k < combinations; k++) {
        int values[RUNG_MAX_PARAMS];
        memcpy(values, base, sizeof values);
        long digits = order[k]; /* a mixed-radix number: one digit per PER_SHAPE parameter */
        for (int i = n - 1; i >= 0; i--) {
            values[which[i]] = choices[i][digits % nchoices[i]];
            digits /= nchoices[i];
        }
        if (rung_check_params(r, values, why) == LADDER_OK &&
            rung_check_device(r, values, dev, PRECISION_SINGLE, why) == LADDER_OK &&
            rung_check_size(r, values, s, why) == LADDER_OK && !plausible(r, values, dev, s)) {
            c->implausible++;
            continue;
        }
        add(c, r, values, dev, s);
    }
    free(order);
}

/* Whether an earlier search measured candidate k at shape s on this device: a row of the
 * same backend, device, shape, rung and parameters, in the case a search measures (single,
 * NN, column-major, C = A B), with a verdict: ok or FAILED. A row that could not run
 * (unsupported, error) may have been the device's or the build's state then, and is tried
 * again. */
static int measured_before(const select_plan *p, const gemm_size *s, const select_candidate *k)
{
    const device_info *dev = &p->target->dev;
    char params[sizeof p->earlier->params];
    rung_params_string(k->r, k->values, params, sizeof params);
    for (int i = 0; i < p->nearlier; i++) {
        const result_row *e = &p->earlier[i];
        gemm_case cs;
        char msg[LADDER_MSG];
        if (e->rung == k->r->number && e->M == s->M && e->N == s->N && e->K == s->K &&
            strcmp(e->params, params) == 0 && strcmp(e->backend, dev->backend) == 0 &&
            strcmp(e->device, dev->name) == 0 &&
            (strcmp(e->status, "ok") == 0 || strcmp(e->status, "FAILED") == 0) &&
            results_row_case(e, &cs, msg) == LADDER_OK && cs.precision == PRECISION_SINGLE &&
            cs.layout == LAYOUT_COL && !gemm_case_transposed(&cs) && !gemm_case_scales(&cs))
            return 1;
    }
    return 0;
}

/* Takes out of `c` the candidates an earlier search measured, keeping the order of the
 * rest. */
static void drop_measured(const select_plan *p, const gemm_size *s, select_candidates *c)
{
    int kept = 0;
    for (int i = 0; i < c->count; i++) {
        if (measured_before(p, s, &c->items[i]))
            c->earlier++;
        else
            c->items[kept++] = c->items[i];
    }
    c->count = kept;
}

/* The index among c's items of rung r with `values` (the same call at shape s), or -1
 * (r NULL, or not among them: refused, or measured in an earlier search). */
static int item_of(const select_candidates *c, const rung *r, const int *values,
                   const device_info *dev, const gemm_size *s)
{
    const launch_shape shape = shape_on(dev, s);
    for (int i = 0; r && i < c->count; i++)
        if (c->items[i].r == r && same_call(r, c->items[i].values, values, &shape))
            return i;
    return -1;
}

void select_candidates_build(const select_plan *p, const gemm_size *s, select_candidates *out)
{
    const device_info *dev = &p->target->dev;
    out->count = out->skipped = out->implausible = out->earlier = 0;
    out->why_skipped[0] = '\0';
    /* Tuned parameters as ladder run gives them; no --param (they are all measured). The
     * selection is for single NN, so those are the entries it reads. */
    param_policy pol = {.tuning = p->tuning, .who = "ladder select",
                        .precision = PRECISION_SINGLE, .trans_a = 0, .trans_b = 0};
    /* First what the fallback rule would run here, if it is a candidate rung: a shape
     * whose share of the budget runs out before the rungs made for it (rung 20 comes last
     * at a GEMV-like shape, where each candidate verifies for seconds) then still gets an
     * entry at least as fast as auto without one. */
    const rung *rule = NULL;
    int rule_values[RUNG_MAX_PARAMS] = {0};
    char rule_why[LADDER_MSG];
    if (selection_rule_choice(&pol, dev, s, &rule, rule_values, rule_why) == LADDER_OK)
        for (int i = 0; i < p->nrungs && i < MAX_SELECT_RUNGS; i++)
            if (p->rungs[i] == rule)
                add(out, rule, rule_values, dev, s);
    /* Then the table's entry for this shape, if its rung is a candidate: measured early,
     * and with rounds raced against the rest (it may have been a lucky measurement). */
    const rung *old = NULL;
    int old_values[RUNG_MAX_PARAMS] = {0};
    if (p->table) {
        char device[sizeof dev->name], why[LADDER_MSG];
        tuning_field(device, sizeof device, dev->name);
        const selection_entry *e =
            selection_table_find(p->table, dev->backend, device, s->M, s->N, s->K);
        for (int i = 0; e && !old && i < p->nrungs && i < MAX_SELECT_RUNGS; i++)
            if (p->rungs[i]->number == e->rung &&
                rung_params_parse(p->rungs[i], e->params, old_values, why) == LADDER_OK) {
                old = p->rungs[i];
                add(out, old, old_values, dev, s);
            }
    }
    int bases[2 * MAX_SELECT_RUNGS][RUNG_MAX_PARAMS];
    const rung *of[2 * MAX_SELECT_RUNGS];
    int nbases = 0;
    for (int i = 0; i < p->nrungs && i < MAX_SELECT_RUNGS; i++) {
        const rung *r = p->rungs[i];
        const char *source;
        char why[LADDER_MSG];
        if (!rung_on_backend(r, dev->backend)) {
            skip(out, r, r->only_reason);
            continue;
        }
        memset(bases[nbases], 0, sizeof bases[nbases]);
        if (params_for_row(&pol, r, dev, s, bases[nbases], &source, why) == LADDER_OK)
            of[nbases++] = r;
        else
            skip(out, r, why);
        memset(bases[nbases], 0, sizeof bases[nbases]);
        rung_defaults(r, 1, bases[nbases]);
        of[nbases++] = r;
    }
    /* Every rung's own parameters first, the variants after: a shape whose share of the
     * budget runs out has measured the likeliest candidates. */
    for (int b = 0; b < nbases; b++)
        add(out, of[b], bases[b], dev, s);
    for (int b = 0; b < nbases; b++) {
        int again = 0; /* small-device defaults the same as the defaults: vary them once */
        for (int e = 0; e < b; e++)
            again |= of[e] == of[b] && memcmp(bases[e], bases[b], sizeof bases[b]) == 0;
        if (!again)
            add_variants(out, of[b], bases[b], dev, s);
    }
    drop_measured(p, s, out);
    out->rule = item_of(out, rule, rule_values, dev, s);
    out->old = item_of(out, old, old_values, dev, s);
}

/* ---- measuring ----------------------------------------------------------------------- */

typedef struct {
    const select_plan *plan;
    select_outcome *out;
    program_cache *pc;
    double start_ms;
    long total;   /* candidates of every shape */
    /* The shape in flight's share of the budget: what was left when it started, divided
     * evenly among the shapes still to come, so that every shape is measured. */
    double shape_until_s;
    long shape_until_configs;
} profiler;

static double elapsed_s(const profiler *pf) { return (host_now_ms() - pf->start_ms) / 1000.0; }

/* Sets the share of the budget of the shape about to start, `left` shapes from the end. */
static void share_budget(profiler *pf, int left)
{
    const select_plan *p = pf->plan;
    double now = elapsed_s(pf);
    long configs_left = p->budget_configs - pf->out->measured;
    pf->shape_until_s = now + (p->budget_seconds - now) / left;
    pf->shape_until_configs = pf->out->measured + (configs_left + left - 1) / left;
}

/* Whether to measure no more at this shape: Ctrl-C (which ends the run), or the shape's
 * share of the budget is spent. */
static int must_stop(profiler *pf)
{
    const select_plan *p = pf->plan;
    if (runner_interrupted) {
        pf->out->interrupted = 1;
        return 1;
    }
    if ((p->budget_configs > 0 && pf->out->measured >= pf->shape_until_configs) ||
        (p->budget_seconds > 0 && elapsed_s(pf) >= pf->shape_until_s)) {
        pf->out->budget_spent = 1;
        return 1;
    }
    return 0;
}

static void count(select_outcome *out, const char *status)
{
    out->measured++;
    if (strcmp(status, "ok") == 0) out->ok++;
    else if (strcmp(status, "FAILED") == 0) out->failed++;
    else if (strcmp(status, "unsupported") == 0) out->unsupported++;
    else out->errors++;
}

/* "12.4 GFLOPS ok (1.21x clblast)", or the row's status and reason: how a progress line
 * ends. */
static void print_outcome(const result_row *row)
{
    if (strcmp(row->status, "ok") != 0)
        printf("%s: %.60s", row->status, row->reason);
    else if (row->vs_library > 0)
        printf("%.1f GFLOPS ok (%.2fx %s)", row->gflops, row->vs_library, row->library);
    else
        printf("%.1f GFLOPS ok", row->gflops);
}

/* "[12/130] 128x128x32768 long-k  rung 15 TSM=64 ... 352.1 GFLOPS ok (0.02x clblast) |
 *  best here: rung 15 (0.02x) | 1m20s left" */
static void progress(const profiler *pf, const gemm_size *s, const result_row *row,
                     const select_pick *pick)
{
    const select_plan *p = pf->plan;
    long done = pf->out->measured;
    double left = elapsed_s(pf) / (double)done * (double)(pf->total - done);
    if (p->budget_seconds > 0 && left > p->budget_seconds - elapsed_s(pf))
        left = p->budget_seconds - elapsed_s(pf);
    char when[32];
    tune_format_duration(left > 0 ? left : 0, when, sizeof when);
    printf("[%ld/%ld] %ldx%ldx%ld %s  rung %d %s  ", done, pf->total, s->M, s->N, s->K,
           shape_class_name(shape_label(s)), row->rung, row->params);
    print_outcome(row);
    if (pick->best && pick->library_gflops > 0)
        printf(" | best here: rung %d (%.2fx)", pick->best->number,
               pick->gflops / pick->library_gflops);
    else if (pick->best)
        printf(" | best here: rung %d", pick->best->number);
    printf(" | %s left\n", when);
    fflush(stdout);
}

/* ---- rounds: the finalists measured again ------------------------------------------ */

/* Whether v is among a[0..n). */
static int among(const int *a, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (a[i] == v)
            return 1;
    return 0;
}

int select_finalists(const double *gflops, int n, const int *keep, int nkeep, int most,
                     int *out)
{
    int count = 0;
    while (count < most) { /* the fastest passed candidate not chosen yet, each time */
        int fastest = -1;
        for (int i = 0; i < n; i++)
            if (gflops[i] > 0 && !among(out, count, i) &&
                (fastest < 0 || gflops[i] > gflops[fastest]))
                fastest = i;
        if (fastest < 0)
            break;
        out[count++] = fastest;
    }
    for (int k = 0; k < nkeep; k++)
        if (keep[k] >= 0 && keep[k] < n && gflops[keep[k]] > 0 && !among(out, count, keep[k]))
            out[count++] = keep[k];
    return count;
}

int select_round_winner(const double *score, int nfinal, int stride, int rounds,
                        double *best)
{
    int winner = -1;
    for (int f = 0; f < nfinal; f++) {
        const double *row = score + (size_t)f * (size_t)stride;
        int passed = rounds > 0;
        double top = 0;
        for (int r = 0; r < rounds; r++) {
            passed &= row[r] > 0;
            if (row[r] > top)
                top = row[r];
        }
        if (passed && (winner < 0 || top > *best)) {
            winner = f;
            *best = top;
        }
    }
    return winner;
}

/* "round 2/5 32x32x4096 long-k  rung 19 TSM=32 ...  12.4 GFLOPS ok (1.21x clblast)" */
static void round_progress(const select_plan *p, int round, const gemm_size *s,
                           const result_row *row)
{
    printf("round %d/%d %ldx%ldx%ld %s  rung %d %s  ", round, p->rounds, s->M, s->N, s->K,
           shape_class_name(shape_label(s)), row->rung, row->params);
    print_outcome(row);
    printf("\n");
    fflush(stdout);
}

/* After one measurement each (gflops[i]: candidate i's, 0 when it did not pass): the
 * finalists measured again in p->rounds rounds, the library first in each, in turn
 * forwards and backwards; the pick becomes the finalist whose fastest round is the
 * fastest (see select_profile.h). Rounds cut short by Ctrl-C or the budget count as far
 * as they went whole; with none whole, the one-measurement pick stands. */
static void measure_rounds(profiler *pf, tune_input *in, const gemm_size *s,
                           const select_candidates *c, const double *gflops,
                           select_pick *pick)
{
    const select_plan *p = pf->plan;
    int final[SELECT_FINALISTS + 2];
    const int keep[2] = {c->rule, c->old};
    const int nfinal = select_finalists(gflops, c->count, keep, 2, SELECT_FINALISTS, final);
    if (nfinal == 0)
        return;
    double *score = calloc((size_t)nfinal * (size_t)p->rounds, sizeof *score);
    double library = 0; /* its fastest round */
    int whole = 0;
    for (int r = 0; score && r < p->rounds && !must_stop(pf); r++) {
        result_row row;
        double lib = 0;
        if (p->library) {
            tune_measure(p->target, pf->pc, in, p->library, NULL, p->reps, p->max_seconds,
                         p->seed, "", &row);
            if (strcmp(row.status, "ok") == 0)
                lib = row.gflops;
            if (lib > library)
                library = lib;
        }
        for (int n = 0; n < nfinal && !must_stop(pf); n++) {
            const int f = r % 2 ? nfinal - 1 - n : n;
            const select_candidate *k = &c->items[final[f]];
            tune_measure(p->target, pf->pc, in, k->r, k->values, p->reps, p->max_seconds,
                         p->seed, "tune-candidate", &row);
            if (strcmp(row.status, "FAILED") == 0)
                pf->out->failed++;
            if (strcmp(row.status, "ok") == 0) {
                score[(size_t)f * p->rounds + r] = row.gflops;
                if (lib > 0) {
                    row.vs_library = row.gflops / lib;
                    snprintf(row.library, sizeof row.library, "%s", p->library->name);
                }
            }
            round_progress(p, r + 1, s, &row);
            if (n == nfinal - 1)
                whole = r + 1;
        }
    }
    double best = 0;
    const int winner = score ? select_round_winner(score, nfinal, p->rounds, whole, &best) : -1;
    if (winner >= 0) {
        const select_candidate *k = &c->items[final[winner]];
        pick->best = k->r;
        memcpy(pick->values, k->values, sizeof pick->values);
        pick->gflops = best;
        if (library > 0)
            pick->library_gflops = library;
        pick->rounds = whole;
        for (int f = 0; f < nfinal; f++)
            pick->raced_old |= c->old >= 0 && final[f] == c->old;
    }
    free(score);
}

/* One shape: the library first (every candidate's row says its fraction of it), then the
 * candidates while the budget lasts; with rounds, the finalists again. */
static ladder_status profile_shape(profiler *pf, const gemm_size *s,
                                   const select_candidates *c, select_pick *pick, char *msg)
{
    const select_plan *p = pf->plan;
    tune_input in;
    ladder_status st = tune_input_open(&in, p->target, s, &GEMM_CASE_DEFAULT, p->seed, msg);
    double *gflops = calloc((size_t)c->count + 1, sizeof *gflops);
    if (!gflops && st == LADDER_OK)
        st = ladder_fail(msg, LADDER_ERROR, "out of host memory");
    result_row row;
    if (st == LADDER_OK && p->library) {
        tune_measure(p->target, pf->pc, &in, p->library, NULL, p->reps, p->max_seconds,
                     p->seed, "", &row);
        if (strcmp(row.status, "ok") == 0)
            pick->library_gflops = row.gflops;
        st = results_append(p->rows, &row, msg);
    }
    for (int i = 0; i < c->count && st == LADDER_OK && !must_stop(pf); i++) {
        const select_candidate *k = &c->items[i];
        tune_measure(p->target, pf->pc, &in, k->r, k->values, p->reps, p->max_seconds,
                     p->seed, "tune-candidate", &row);
        if (strcmp(row.status, "ok") == 0 && pick->library_gflops > 0) {
            row.vs_library = row.gflops / pick->library_gflops;
            snprintf(row.library, sizeof row.library, "%s", p->library->name);
        }
        st = results_append(p->rows, &row, msg);
        pick->measured++;
        count(pf->out, row.status);
        if (strcmp(row.status, "ok") == 0) {
            gflops[i] = row.gflops;
            if (row.gflops > pick->gflops) {
                pick->best = k->r;
                memcpy(pick->values, k->values, sizeof pick->values);
                pick->gflops = row.gflops;
            }
        }
        progress(pf, s, &row, pick);
    }
    if (st == LADDER_OK && p->rounds > 0 && pick->best)
        measure_rounds(pf, &in, s, c, gflops, pick);
    free(gflops);
    tune_input_close(&in);
    return st;
}

/* The shapes in the order they are measured: the least work (M N K) first, ties in the
 * order given. A shape's share of a time budget is what is left divided among the shapes
 * to come; a small shape rarely needs all of it, so what it leaves goes to the larger
 * ones after it, which have the slower candidates. Measured in the order given, a large
 * shape listed first got no more than an even share (NVIDIA OpenCL at 3072^3: 6 of its 26
 * candidates in a 120-s search of 11 shapes, results/h100-2026-11-28-opencl). */
static void measuring_order(const select_plan *p, int *order)
{
    for (int i = 0; i < p->nshapes; i++) {
        int j = i;
        const gemm_size *s = &p->shapes[i];
        const double work = (double)s->M * s->N * s->K;
        for (; j > 0; j--) { /* insertion: stable, and shape sets are short */
            const gemm_size *t = &p->shapes[order[j - 1]];
            if ((double)t->M * t->N * t->K <= work)
                break;
            order[j] = order[j - 1];
        }
        order[j] = i;
    }
}

ladder_status select_run(const select_plan *p, select_outcome *out, char *msg)
{
    memset(out, 0, sizeof *out);
    out->picks = calloc((size_t)p->nshapes + 1, sizeof *out->picks);
    select_candidates *all = malloc(((size_t)p->nshapes + 1) * sizeof *all);
    int *order = malloc(((size_t)p->nshapes + 1) * sizeof *order);
    profiler pf = {.plan = p, .out = out, .pc = program_cache_new()};
    ladder_status st = LADDER_OK;
    if (!out->picks || !all || !order || !pf.pc)
        st = ladder_fail(msg, LADDER_ERROR, "out of host memory");
    else
        measuring_order(p, order);
    for (int i = 0; i < p->nshapes && st == LADDER_OK; i++) {
        select_candidates_build(p, &p->shapes[i], &all[i]);
        out->picks[i].candidates = all[i].count;
        pf.total += all[i].count;
    }
    pf.start_ms = host_now_ms();
    /* Compiled programs are kept across shapes: most candidates recur at every shape. */
    for (int n = 0; n < p->nshapes && st == LADDER_OK && !out->interrupted; n++) {
        const int i = order[n];
        share_budget(&pf, p->nshapes - n);
        if (!must_stop(&pf))
            st = profile_shape(&pf, &p->shapes[i], &all[i], &out->picks[i], msg);
    }
    out->seconds = pf.start_ms > 0 ? elapsed_s(&pf) : 0;
    if (pf.pc)
        program_cache_free(pf.pc, p->target->ops);
    free(all);
    free(order);
    return st;
}
