#include "tune/tune_space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rung_exec.h"

/* Combination numbers are mixed-radix numbers: digit p is the index into parameter p's
 * list, parameter 0 the most significant digit. */
static void digits_of(const tune_space *sp, long c, int *digit)
{
    for (int p = sp->nparams - 1; p >= 0; p--) {
        digit[p] = (int)(c % sp->nchoices[p]);
        c /= sp->nchoices[p];
    }
}

static long combination_of(const tune_space *sp, const int *digit)
{
    long c = 0;
    for (int p = 0; p < sp->nparams; p++)
        c = c * sp->nchoices[p] + digit[p];
    return c;
}

static void values_of(const tune_space *sp, long c, int *values)
{
    int digit[RUNG_MAX_PARAMS];
    digits_of(sp, c, digit);
    for (int p = 0; p < sp->nparams; p++)
        values[p] = sp->choices[p][digit[p]];
}

/* Counts a filtered combination and keeps the first reason of its kind. */
static void skip(long *count, char *why, const char *msg)
{
    if ((*count)++ == 0)
        snprintf(why, LADDER_MSG, "%s", msg);
}

static ladder_status set_lists(tune_space *sp, const rung *r, const param_override *pinned,
                               int npinned, char *msg)
{
    for (int p = 0; p < r->nparams; p++)
        sp->nchoices[p] = rung_param_choices(&r->params[p], sp->choices[p]);
    for (int i = 0; i < npinned; i++) {
        if (pinned[i].rung && pinned[i].rung != r->number)
            continue;
        int p = rung_param_index(r, pinned[i].name);
        if (p < 0)
            return ladder_fail(msg, LADDER_ERROR, "rung %d (%s) has no parameter %s (see "
                               "ladder list)", r->number, r->name, pinned[i].name);
        sp->choices[p][0] = pinned[i].value;
        sp->nchoices[p] = 1;
    }
    sp->ncombinations = 1;
    for (int p = 0; p < r->nparams; p++) {
        if (sp->nchoices[p] == 0)
            return ladder_fail(msg, LADDER_ERROR, "rung %d (%s): parameter %s has no "
                               "candidate values", r->number, r->name, r->params[p].name);
        sp->ncombinations *= sp->nchoices[p];
        if (sp->ncombinations > TUNE_MAX_COMBINATIONS)
            return ladder_fail(msg, LADDER_ERROR, "rung %d (%s): more than %ld "
                               "combinations to search: pin some parameters with --param",
                               r->number, r->name, TUNE_MAX_COMBINATIONS);
    }
    return LADDER_OK;
}

ladder_status tune_space_build(tune_space *sp, const rung *r, const param_override *pinned,
                               int npinned, const device_info *dev, gemm_precision p,
                               const gemm_size *sizes, int nsizes, char *msg)
{
    memset(sp, 0, sizeof *sp);
    sp->r = r;
    sp->nparams = r->nparams;
    if (set_lists(sp, r, pinned, npinned, msg) != LADDER_OK)
        return LADDER_ERROR;
    sp->point_of = malloc((size_t)sp->ncombinations * sizeof *sp->point_of);
    sp->combination = malloc((size_t)sp->ncombinations * sizeof *sp->combination);
    if (!sp->point_of || !sp->combination) {
        tune_space_free(sp);
        return ladder_fail(msg, LADDER_ERROR, "out of memory for %ld combinations",
                           sp->ncombinations);
    }
    for (long c = 0; c < sp->ncombinations; c++) {
        int values[RUNG_MAX_PARAMS];
        char why[LADDER_MSG];
        values_of(sp, c, values);
        sp->point_of[c] = -1;
        if (rung_check_params(r, values, why) != LADDER_OK) {
            skip(&sp->skipped_invalid, sp->why_invalid, why);
            continue;
        }
        if (dev && rung_check_device(r, values, dev, p, why) != LADDER_OK) {
            skip(&sp->skipped_device, sp->why_device, why);
            continue;
        }
        int fits = 1;
        for (int s = 0; s < nsizes && fits; s++)
            fits = rung_check_size(r, values, &sizes[s], why) == LADDER_OK;
        if (!fits) {
            skip(&sp->skipped_size, sp->why_size, why);
            continue;
        }
        sp->point_of[c] = sp->npoints;
        sp->combination[sp->npoints++] = c;
    }
    return LADDER_OK;
}

void tune_space_free(tune_space *sp)
{
    free(sp->point_of);
    free(sp->combination);
    sp->point_of = NULL;
    sp->combination = NULL;
    sp->npoints = 0;
}

void tune_space_values(const tune_space *sp, int point, int *values)
{
    values_of(sp, sp->combination[point], values);
}

int tune_space_find(const tune_space *sp, const int *values)
{
    int digit[RUNG_MAX_PARAMS];
    for (int p = 0; p < sp->nparams; p++) {
        digit[p] = -1;
        for (int i = 0; i < sp->nchoices[p]; i++)
            if (sp->choices[p][i] == values[p])
                digit[p] = i;
        if (digit[p] < 0)
            return -1;
    }
    return sp->point_of[combination_of(sp, digit)];
}

int tune_space_step(const tune_space *sp, int point, int p, int dir)
{
    int digit[RUNG_MAX_PARAMS];
    digits_of(sp, sp->combination[point], digit);
    for (digit[p] += dir; digit[p] >= 0 && digit[p] < sp->nchoices[p]; digit[p] += dir) {
        int next = sp->point_of[combination_of(sp, digit)];
        if (next >= 0)
            return next;
    }
    return -1;
}
