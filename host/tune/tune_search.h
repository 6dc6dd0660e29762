/* The search strategies of `ladder tune`: which candidate to measure next.
 *
 *   exhaustive  every point of the space in its fixed order
 *   random      every point in a random order (seeded, no point twice): a fair sample
 *               when the budget covers only part of the space
 *   greedy      start from the defaults and measure their neighbours (one parameter one
 *               step up or down its candidate list); move to the best neighbour while it
 *               is faster; at a point no neighbour beats, restart from a random point not
 *               yet measured. Few candidates reach a good point in a large space.
 *
 * Every strategy measures the start point (the defaults) first, so the best found is
 * never slower than the defaults as measured in the same search. The search knows
 * nothing of GPUs: it asks `measure` for a point's score, which also enforces the budget.
 */
#ifndef LADDER_TUNE_SEARCH_H
#define LADDER_TUNE_SEARCH_H

#include <stdint.h>
#include "tune/tune_space.h"

typedef enum { TUNE_EXHAUSTIVE, TUNE_RANDOM, TUNE_GREEDY } tune_strategy;

/* "exhaustive", "random", "greedy" */
const char *tune_strategy_name(tune_strategy s);
/* 0 on success, -1 for an unknown name. */
int tune_strategy_parse(const char *name, tune_strategy *out);

/* Score of a measured point: higher is faster. TUNE_FAILED for a candidate that did not
 * compile, run or verify (never chosen); TUNE_STOP to end the search without measuring
 * (the budget is spent, Ctrl-C was pressed, or an error ends the run). */
#define TUNE_FAILED 0.0
#define TUNE_STOP (-1.0)
#define TUNE_UNMEASURED (-2.0)

typedef double (*tune_measure_fn)(void *ctx, int point);

typedef struct {
    tune_strategy strategy;
    uint64_t seed;        /* for random orders and greedy restarts */
    int start;            /* the point measured first (the defaults); -1 for none */
    tune_measure_fn measure;
    void *ctx;
} tune_search;

/* Runs the search. scores[point] (npoints entries) gets each measured point's score and
 * TUNE_UNMEASURED for the rest. Returns the number of points measured. */
int tune_search_run(const tune_space *sp, const tune_search *s, double *scores);

#endif
