/* The tuning loop: measures the candidates a search strategy picks, exactly as ladder run
 * measures a row (exec_rung with verification on: compile, warm up, a verified run on a
 * NaN-filled output, timed repetitions), writes one candidate row per size, prints a
 * progress line per candidate, and picks the best per size class.
 *
 * A candidate counts only when it is ok at every tuning size; one that fails to compile,
 * is refused by the device or fails verification is recorded with its status and never
 * picked. The score of a candidate is the geometric mean of its GFLOPS over the sizes, so
 * no single size dominates.
 */
#ifndef LADDER_TUNER_H
#define LADDER_TUNER_H

#include "core/results.h"
#include "core/runner.h"
#include "params/size_class.h"
#include "tune/tune_search.h"
#include "tune/tune_space.h"

typedef struct {
    run_target *target;
    const rung *r;
    const gemm_size *sizes;
    int nsizes;
    const tune_space *space;
    tune_strategy strategy;
    long budget_configs;    /* most candidates to measure; 0 = no limit */
    double budget_seconds;  /* no candidate starts after this long; 0 = no limit */
    int reps;               /* timed repetitions per candidate and size */
    double max_seconds;     /* stop repeating after this much timed time */
    uint64_t seed;          /* inputs, random order, greedy restarts */
    gemm_case tuned;        /* the case tuned: a precision and a transpose pair,
                               column-major, alpha 1, beta 0 */
    int start;              /* the point of the defaults, or -1 */
    results_writer *candidates; /* one row per candidate and size */
} tune_plan;

typedef struct {
    int point;       /* -1: no candidate was ok at every size */
    double gflops;   /* geometric mean over the tuning sizes of this class */
} tune_pick;

typedef struct {
    int measured, ok, failed, unsupported, errors;
    int interrupted;                     /* Ctrl-C ended the search */
    int present[SIZE_CLASS_COUNT];       /* some tuning size is of this class */
    tune_pick best[SIZE_CLASS_COUNT];
    tune_pick defaults[SIZE_CLASS_COUNT];/* the start point, when measured and ok */
    double seconds;                      /* the search's wall time */
} tune_outcome;

/* Runs the search. LADDER_ERROR only when tuning cannot go on (inputs do not fit, the
 * candidates file cannot be written); what was measured until then is still in `out`. */
ladder_status tuner_run(const tune_plan *plan, tune_outcome *out, char *msg);

#endif
