#include "params/selection.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kernel_path.h"
#include "base/shapes.h"
#include "base/source_hash.h"
#include "params/tuning_db.h"

/* The fallback rule: a guess per class, made before measuring, for shapes no table has.
 * Big squares want the fastest tiles (17, then 18, which needs no helper kernels); short
 * sums the pipelined warp tiles of rung 13, which every table measured on the H100 and
 * the H200 chose there; long sums, skinny shapes (C less than a tile tall or wide) and
 * GEMV-like ones want the kernels made for them, split-K (rung 19) and the skinny kernel
 * (rung 20, which takes M or N up to 16 only, and which the rule runs on a GPU up to 8:
 * a wider skinny shape or long sum falls through to split-K), where they exist; the rest
 * take rung 15, the SGEMM both backends have. Each rung runs its tuned parameters for the size class (tuned_params.h), and a
 * rung with PER_SHAPE parameters sets them for the shape (rung.rule_params: split-K's
 * tile and slices, rung 20's loads in flight and work-group counts).
 *
 * Where 13, 17 and 18 are absent (OpenCL), squares and short sums on a GPU take rung 30,
 * rung 10 with single-float accumulators and stores of C. At its defaults (128 x 128 x 16
 * tiles of 8 x 8) on the H200 in NVIDIA's OpenCL it ran 5-22% faster than rung 11 at its
 * better depth, the rung this list named there before, at ten of the eleven shapes
 * measured (squares, odd sizes, LLM layers, short sums; level at 333 x 7777 x 555):
 * 4096^3 47.6k GFLOPS against 45.0k, 4099 x 3001 x 2999 43.9k against 37.1k, 8192 x 8192
 * x 32 24.3k against 19.9k (results/h200-2026-11-30-scalars/search). Where a 16-deep tile
 * would pad K by much (K = 8), its rule takes 8 (scalars_rule_params). It is a
 * RULE_OPENCL_GPU entry: on a CPU rung 27 comes first, and through PoCL rung 30 ran no
 * faster than rung 10 (results/pocl-epyc-2core-2026-11-30-scalars).
 *
 * The skinny rung comes first in its lists for every C of up to 16 rows or columns it
 * takes, but on a GPU only up to 8 (RULE_NARROW_ON_GPU). Every GPU table measured so far
 * chose rung 20 at the shapes of 1 to 8 and split-K at the one of 16, 11008 x 16 x 4096:
 * 1.29 to 1.42 times cuBLAS on the H100 and the H200 (split-K at 128 x 32 tiles, 16 or 32
 * slices), 2.5 times CLBlast in NVIDIA's OpenCL, where rung 20 by the rule ran 0.83 of
 * cuBLAS and 0.99 of CLBlast (results/h200-2026-11-29-rule-2). On the 2-core CPU it is
 * the other way round: split-K ran 16 x 1024 x 512 and 1024 x 16 x 512 at a fifth and a
 * ninth of rung 20's speed. No shape between 8 and 16 has been measured on a GPU, so the
 * line is at 8, the widest that rung 20 won there.
 *
 * On a CPU every list starts with rung 27, the kernel shaped for a CPU core (RULE_ON_CPU;
 * its rule sets the vector width for M: cpucore_rule_params). On the 2-core EPYC through
 * PoCL it ran every shape of shapes-cpu at 1.9 to 36 times CLBlast with its defaults
 * (fastest of three runs, before its stores became vectors), where the table's entries
 * ran 0.63 to 9.8 times, and at the
 * GEMV-like shapes of few rows, where its defaults waste most of each vector, with the
 * rule's width it ran 1 x 2048 x 512, 4 x 2048 x 512 and 1 x 1024 x 1024 at 20, 22 and 20
 * times CLBlast, rung 20 at 3.6, 2.1 and 4.7 (results/pocl-epyc-2core-2026-11-29-cpurung).
 * A GPU's lists are as they were: rung 27 leaves its work-groups' work-items idle as
 * parallelism and reads A and B without local memory, which a GPU needs. */
#define CPUCORE {"cpucore", RULE_ON_CPU}
#define SKINNY {"skinny", RULE_NARROW_ON_GPU}
#define SCALARS_ON_OPENCL_GPU {"scalars", RULE_OPENCL_GPU}
#define ANY(name) {name, RULE_ANYWHERE}
const rule_entry selection_fallback_rungs[SHAPE_RULE_CLASSES][RULE_LIST_MAX] = {
    [SHAPE_SQUARE] = {CPUCORE, ANY("banks"), ANY("scatter"), SCALARS_ON_OPENCL_GPU,
                      ANY("sgemm"), ANY("warptile"), ANY("edges")},
    [SHAPE_LONG_K] = {CPUCORE, SKINNY, ANY("splitk"), ANY("scatter"), ANY("sgemm"),
                      ANY("warptile"), ANY("edges")},
    [SHAPE_SMALL_K] = {CPUCORE, ANY("async"), ANY("banks"), ANY("scatter"),
                       SCALARS_ON_OPENCL_GPU, ANY("sgemm"), ANY("warptile"),
                       ANY("edges")},
    [SHAPE_SKINNY_M] = {CPUCORE, SKINNY, ANY("splitk"), ANY("scatter"), ANY("sgemm"),
                        ANY("warptile"), ANY("edges")},
    [SHAPE_SKINNY_N] = {CPUCORE, SKINNY, ANY("splitk"), ANY("scatter"), ANY("sgemm"),
                        ANY("warptile"), ANY("edges")},
    [SHAPE_GEMV] = {CPUCORE, SKINNY, ANY("splitk"), ANY("sgemm"), ANY("warptile"),
                    ANY("edges")},
};

/* The widest C (its fewer rows or columns) that RULE_NARROW_ON_GPU takes on a GPU. */
#define RULE_GPU_NARROW_MAX 8

const rung *selection_list_rung(const rule_entry *e, const gemm_size *s,
                                const device_info *dev)
{
    const long narrow = s->M < s->N ? s->M : s->N;
    if ((e->when == RULE_OPENCL_GPU && (!dev->is_gpu || strcmp(dev->backend, "opencl") != 0)) ||
        (e->when == RULE_NARROW_ON_GPU && dev->is_gpu && narrow > RULE_GPU_NARROW_MAX) ||
        (e->when == RULE_ON_CPU && dev->is_gpu))
        return NULL;
    return registry_find(e->rung);
}

/* The tile the rule counts a square's C in: the big squares' tile, 128 x 128. */
#define RULE_TILE 128

shape_class selection_rule_list(const gemm_size *s, const device_info *dev)
{
    shape_class cls = shape_rule_class(s);
    /* A square whose C has fewer 128 x 128 tiles than the device has compute units (512^3
     * makes 16 for 132 SMs) cannot fill it one tile per work-group: like a long sum, it
     * shares the K loop out (AutoGEMM's "small M x N" case). */
    long tiles = ((s->M + RULE_TILE - 1) / RULE_TILE) * ((s->N + RULE_TILE - 1) / RULE_TILE);
    if (cls == SHAPE_SQUARE && dev->compute_units > 0 && tiles < (long)dev->compute_units)
        return SHAPE_LONG_K;
    return cls;
}

int selection_rung_eligible(const rung *r)
{
    return r && r->kind == RUNG_KERNEL && !r->no_single_reason &&
           rung_unit_roundoff(r, PRECISION_SINGLE) <= 0x1p-24;
}

ladder_status selection_kernel(const char *backend, const rung *r, char *file, size_t size,
                               kernel_fingerprint *fp, char *msg)
{
    char path[1024];
    kernel_path(backend, r->id, path, sizeof path);
    const char *slash = strrchr(path, '/');
    snprintf(file, size, "%s", slash ? slash + 1 : path);
    return kernel_fingerprint_file(path, fp, msg);
}

void params_auto_string(const rung *r, const int *values, char *out, size_t size)
{
    char params[128];
    rung_params_string(r, values, params, sizeof params);
    snprintf(out, size, "rung=%d%s%s", r->number, params[0] ? " " : "", params);
}

/* ---- whether an entry can be used ---------------------------------------------------- */

/* The rung an entry names, when this ladder has it as an eligible kernel rung. */
static const rung *entry_rung(const selection_entry *e)
{
    char key[16];
    snprintf(key, sizeof key, "%d", e->rung);
    const rung *r = registry_find(key);
    return selection_rung_eligible(r) ? r : NULL;
}

/* Why the entry cannot be used on `dev` (its kernel as it is now, its rung, its
 * parameters), or NULL; its values in `values` when it can. */
static const char *entry_problem(const selection_entry *e, const device_info *dev,
                                 int *values, char *why, size_t size)
{
    char key[16], file[256], msg[LADDER_MSG];
    kernel_fingerprint fp;
    snprintf(key, sizeof key, "%d", e->rung);
    const rung *r = registry_find(key);
    if (!r || r->kind != RUNG_KERNEL)
        snprintf(why, size, "names rung %d, which this ladder does not have", e->rung);
    else if (!selection_rung_eligible(r))
        snprintf(why, size, "names rung %d, whose arithmetic is not float32's", e->rung);
    else if (!rung_on_backend(r, dev->backend))
        snprintf(why, size, "names rung %d, which %s does not have", e->rung, dev->backend);
    else if (selection_kernel(dev->backend, r, file, sizeof file, &fp, msg) != LADDER_OK)
        snprintf(why, size, "cannot be checked (%.300s)", msg);
    else if (!kernel_fingerprint_matches(&fp, e->kernel_fnv1a))
        snprintf(why, size, "was measured with another version of %s", file);
    else if (rung_params_parse(r, e->params, values, msg) != LADDER_OK ||
             rung_check_params(r, values, msg) != LADDER_OK ||
             rung_check_device(r, values, dev, PRECISION_SINGLE, msg) != LADDER_OK)
        snprintf(why, size, "has parameters rung %d cannot take here (%.300s)", e->rung, msg);
    else
        return NULL;
    return why;
}

/* Whether entry_problem's answer is a changed kernel file (the entry is stale). */
static int problem_is_stale(const char *problem)
{
    return problem && strncmp(problem, "was measured", 12) == 0;
}

/* 1 when the entry can be used on `dev`, its values in `values`; else 0, after a one-line
 * note the first time (a changed kernel file is said once for all its entries). */
static int entry_usable(selection_table *t, selection_entry *e, const device_info *dev,
                        int *values, const char *who)
{
    char why[LADDER_MSG];
    if (e->verdict < 0)
        return 0;
    const char *problem = entry_problem(e, dev, values, why, sizeof why);
    if (!problem) {
        e->verdict = 1;
        return 1;
    }
    int stale = problem_is_stale(problem);
    for (int i = 0; i < t->count; i++) {
        selection_entry *other = &t->entries[i];
        if (other == e || (stale && strcmp(other->backend, e->backend) == 0 &&
                           strcmp(other->device, e->device) == 0 && other->rung == e->rung &&
                           strcmp(other->kernel_fnv1a, e->kernel_fnv1a) == 0))
            other->verdict = -1;
    }
    if (stale)
        fprintf(stderr, "%s: note: the selection table's entries for rung %d were%s: auto "
                        "does not use them (ladder select --sizes stale --rungs %d measures "
                        "them again)\n", who, e->rung, problem + 3, e->rung);
    else
        fprintf(stderr, "%s: note: the selection for %ldx%ldx%ld %s: auto does not use it\n",
                who, e->M, e->N, e->K, problem);
    return 0;
}

int selection_stale_shapes(const selection_table *t, const device_info *dev, gemm_size *out,
                           int n)
{
    for (int i = 0; i < t->count; i++) {
        const selection_entry *e = &t->entries[i];
        char why[LADDER_MSG];
        int values[RUNG_MAX_PARAMS];
        if (strcmp(e->backend, dev->backend) != 0 || strcmp(e->device, dev->name) != 0 ||
            !problem_is_stale(entry_problem(e, dev, values, why, sizeof why)))
            continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = out[j].M == e->M && out[j].N == e->N && out[j].K == e->K;
        if (!seen)
            out[n++] = (gemm_size){e->M, e->N, e->K};
    }
    return n;
}

/* ---- the look-up --------------------------------------------------------------------- */

static double log_distance(const selection_entry *e, const gemm_size *s)
{
    double dm = log((double)e->M / s->M), dn = log((double)e->N / s->N),
           dk = log((double)e->K / s->K);
    return dm * dm + dn * dn + dk * dk;
}

typedef struct {
    selection_entry *e;
    double distance;
} neighbour;

static int by_distance(const void *a, const void *b)
{
    const neighbour *x = a, *y = b;
    return (x->distance > y->distance) - (x->distance < y->distance);
}

/* The table's choice: the usable entry of this device nearest to `s` among the shapes of
 * its class that fit `s`. Returns 1 with the rung and values, else 0. */
static int from_table(selection_table *t, const device_info *dev, const gemm_size *s,
                      const rung **chosen, int *values, const char *who)
{
    char device[sizeof dev->name];
    tuning_field(device, sizeof device, dev->name);
    shape_class cls = shape_rule_class(s);
    neighbour *near = malloc(((size_t)t->count + 1) * sizeof *near);
    int n = 0, found = 0;
    if (!near)
        return 0;
    for (int i = 0; i < t->count; i++) {
        selection_entry *e = &t->entries[i];
        gemm_size shape = {e->M, e->N, e->K};
        if (strcmp(e->backend, dev->backend) == 0 && strcmp(e->device, device) == 0 &&
            shape_rule_class(&shape) == cls)
            near[n++] = (neighbour){e, log_distance(e, s)};
    }
    qsort(near, (size_t)n, sizeof *near, by_distance);
    for (int i = 0; i < n && !found; i++) {
        char msg[LADDER_MSG];
        if (!entry_usable(t, near[i].e, dev, values, who))
            continue;
        const rung *r = entry_rung(near[i].e);
        if (rung_check_size(r, values, s, msg) != LADDER_OK)
            continue;
        *chosen = r;
        found = 1;
        if (near[i].distance > 0)
            fprintf(stderr, "%s: note: auto at %ldx%ldx%ld (%s) runs the selection of the "
                            "nearest measured %s shape, %ldx%ldx%ld\n", who, s->M, s->N, s->K,
                    shape_class_name(cls), shape_class_name(cls), near[i].e->M, near[i].e->N,
                    near[i].e->K);
    }
    free(near);
    return found;
}

/* The parameters ladder run gives rung r in the run's case (pol's precision and transpose
 * pair: its tuned entry for that case, else its defaults), checked against size s. --param
 * is for the rungs named in --rungs, not for auto. */
static ladder_status case_params(const param_policy *pol, const rung *r,
                                 const device_info *dev, const gemm_size *s, int *values,
                                 char *msg)
{
    param_policy plain = *pol;
    plain.overrides = NULL;
    plain.noverrides = 0;
    const char *source;
    ladder_status st = params_for_row(&plain, r, dev, s, values, &source, msg);
    if (st == LADDER_OK)
        st = rung_check_size(r, values, s, msg);
    return st;
}

/* The fallback rule's choice: the first rung of the shape's list that this device and
 * this size take, with the parameters ladder run would give it and its PER_SHAPE ones set
 * for the shape (rung.rule_params), unless this size refuses those. */
ladder_status selection_rule_choice(const param_policy *pol, const device_info *dev,
                                    const gemm_size *s, const rung **chosen, int *values,
                                    char *msg)
{
    const shape_class list_class = selection_rule_list(s, dev);
    const rule_entry *list = selection_fallback_rungs[list_class];
    char first[LADDER_MSG] = "";
    for (int i = 0; i < RULE_LIST_MAX && list[i].rung; i++) {
        const rung *r = selection_list_rung(&list[i], s, dev);
        if (!selection_rung_eligible(r) || !rung_on_backend(r, dev->backend))
            continue;
        if (case_params(pol, r, dev, s, values, msg) == LADDER_OK) {
            if (r->rule_params) {
                int shaped[RUNG_MAX_PARAMS];
                char why[LADDER_MSG];
                memcpy(shaped, values, sizeof shaped);
                r->rule_params(shaped, s, dev);
                if (rung_check_params(r, shaped, why) == LADDER_OK &&
                    rung_check_device(r, shaped, dev, pol->precision, why) == LADDER_OK &&
                    rung_check_size(r, shaped, s, why) == LADDER_OK)
                    memcpy(values, shaped, sizeof shaped);
            }
            *chosen = r;
            return LADDER_OK;
        }
        if (!first[0])
            snprintf(first, sizeof first, "rung %d: %.400s", r->number, msg);
    }
    return ladder_fail(msg, LADDER_UNSUPPORTED, "no rung of auto's %s list takes %ldx%ldx%ld "
                       "on this device%s%s", shape_class_name(list_class), s->M, s->N, s->K,
                       first[0] ? "; " : "", first);
}

/* For a case the choice cannot take (double, transposes, alpha and beta on a rung that
 * does not take them): the first BLAS-call rung, in the registry's order, that takes the
 * case, this device and this size, with the parameters ladder run would give it. */
static ladder_status for_case(const param_policy *pol, const device_info *dev,
                              const gemm_size *s, const gemm_case *kc, const rung **chosen,
                              int *values, char *msg)
{
    char first[LADDER_MSG] = "", label[96];
    int count;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++) {
        const rung *r = &all[i];
        if (!r->blas_args || !selection_rung_eligible(r) || !rung_on_backend(r, dev->backend))
            continue;
        ladder_status st = rung_check_case(r, kc, msg);
        if (st == LADDER_OK)
            st = case_params(pol, r, dev, s, values, msg);
        if (st == LADDER_OK) {
            *chosen = r;
            return LADDER_OK;
        }
        if (!first[0])
            snprintf(first, sizeof first, "; rung %d: %.400s", r->number, msg);
    }
    gemm_case_label(kc, 1, label, sizeof label);
    return ladder_fail(msg, LADDER_UNSUPPORTED, "auto's choices are for single NN: no BLAS-call "
                       "rung takes the case %s at %ldx%ldx%ld on this device%s", label, s->M,
                       s->N, s->K, first);
}

ladder_status params_for_auto(const param_policy *pol, const device_info *dev,
                              const gemm_size *s, const gemm_case *kc, const rung **chosen,
                              int *values, const char **source, char *msg)
{
    /* The table and the rule choose for single NN C = A B; a case the choice cannot take
     * goes to a BLAS-call rung that can. */
    char why[LADDER_MSG];
    if (pol->tuning && !pol->small_defaults &&
        from_table(&pol->tuning->selection, dev, s, chosen, values, pol->who)) {
        if (!kc) {
            *source = "selected";
            return LADDER_OK;
        }
        if (rung_check_case(*chosen, kc, why) == LADDER_OK) {
            /* A rung whose helpers transpose multiplies NN in every pair: the table's
             * parameters hold for each pair. */
            const gemm_case seen = rung_kernel_case(*chosen, kc);
            if (seen.precision == PRECISION_SINGLE && !seen.trans_a && !seen.trans_b) {
                *source = "selected";
                return LADDER_OK;
            }
            /* Another case on the chosen rung: the table's parameters were measured for
             * single NN (in double they may not even fit the local memory), so the rung
             * keeps the choice and takes the case's own parameters. */
            if (case_params(pol, *chosen, dev, s, values, why) == LADDER_OK) {
                *source = "selected-rung";
                return LADDER_OK;
            }
        }
    } else {
        /* The rule's parameters are already the case's: it asks params_for_row with pol. */
        ladder_status st = selection_rule_choice(pol, dev, s, chosen, values, msg);
        if (!kc || (st == LADDER_OK && rung_check_case(*chosen, kc, why) == LADDER_OK)) {
            *source = "fallback";
            return st;
        }
    }
    *source = "case-fallback";
    return for_case(pol, dev, s, kc, chosen, values, msg);
}

/* ---- the profiler's side ------------------------------------------------------------- */

ladder_status selection_offer(selection_table *t, const selection_entry *e, int raced,
                              selection_offer_result *what, selection_entry *old, char *msg)
{
    selection_entry *have = selection_table_find(t, e->backend, e->device, e->M, e->N, e->K);
    if (!have) {
        *what = SELECTION_ADDED;
        return selection_table_put(t, e, msg);
    }
    *old = *have;
    const rung *r = entry_rung(have);
    char file[256], why[LADDER_MSG];
    kernel_fingerprint fp;
    int current = r && rung_on_backend(r, have->backend) &&
                  selection_kernel(have->backend, r, file, sizeof file, &fp, why) ==
                      LADDER_OK &&
                  kernel_fingerprint_matches(&fp, have->kernel_fnv1a);
    if (!current)
        *what = SELECTION_REPLACED_STALE;
    else if (e->gflops > have->gflops ||
             (e->rung == have->rung && strcmp(e->params, have->params) == 0))
        *what = SELECTION_REPLACED;
    else if (raced)
        *what = SELECTION_REPLACED_RACED;
    else {
        *what = SELECTION_KEPT;
        return LADDER_OK;
    }
    *have = *e;
    return LADDER_OK;
}
