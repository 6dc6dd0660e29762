/* The profiler of the shape-aware entry (`ladder select`): on one device, for every shape
 * of a set, the vendor library and every candidate measured as ladder run measures a row
 * (tune_measure.h: compiled, verified, timed), and the fastest candidate that passed kept
 * per shape. cli_select.c turns the picks into selection-table entries.
 *
 * The candidates of a shape, for every rung of the list that the backend has and that
 * takes the shape:
 *   - the parameters ladder run would give it there (tuned for the size class, else the
 *     defaults), and its small-device defaults when they differ;
 *   - from those, every combination of the choices of its PER_SHAPE parameters (split-K's
 *     tile and split count), whose best value depends on the shape more than on the
 *     device, in a shuffled order, leaving out those whose busiest kernel has fewer
 *     work-groups than half the device's compute units or, for a rung that writes partial
 *     sums to a workspace, whose lightest kernel has more than SELECT_MOST_WAVES per
 *     compute unit (counted in `implausible`).
 * Every rung's own parameters come first, the variants after. Combinations the rung, the
 * device or the shape refuse are left out before anything is compiled, and counted with
 * their first reason; so are candidates that an earlier search already measured at the
 * shape on this device (`earlier`, from the file that ladder select --append adds to),
 * so that a second search with the same budget measures the ones the first did not.
 *
 * A budget (of time or of candidates) is shared among the shapes: each gets an even share
 * of what is left when it starts, so every shape is measured, and a shape that uses less
 * leaves more for the rest.
 */
#ifndef LADDER_SELECT_PROFILE_H
#define LADDER_SELECT_PROFILE_H

#include "core/results.h"
#include "core/runner.h"
#include "params/selection_table.h"
#include "params/tuning_db.h"

#define SELECT_MAX_CANDIDATES 256
#define SELECT_MOST_WAVES 32
#define MAX_SELECT_RUNGS 64

typedef struct {
    const rung *r;
    int values[RUNG_MAX_PARAMS];
} select_candidate;

typedef struct {
    select_candidate items[SELECT_MAX_CANDIDATES];
    int count;
    int skipped;                /* combinations left out */
    int implausible;            /* variants left out for their count of work-groups */
    int earlier;                /* left out: measured in an earlier search (plan.earlier) */
    int rule;                   /* the fallback rule's choice among items, or -1 */
    int old;                    /* the table's entry for the shape among items, or -1 */
    char why_skipped[LADDER_MSG]; /* the first reason */
} select_candidates;

typedef struct {
    run_target *target;
    const gemm_size *shapes;
    int nshapes;
    const rung *const *rungs;   /* the candidate rungs */
    int nrungs;
    const rung *library;        /* the backend's vendor library, or NULL when absent */
    tuning_db *tuning;          /* where tuned parameters come from; NULL: defaults */
    long budget_configs;        /* most candidates to measure; 0 = no limit */
    double budget_seconds;      /* no candidate starts after this long; 0 = no limit */
                                /* (both shared among the shapes: see above) */
    int reps;
    double max_seconds;
    int rounds;                 /* > 0: the finalists measured again this many times (below) */
    selection_table *table;     /* the table the picks go to, or NULL: its entry for a shape
                                   is a candidate there, measured right after the rule's */
    uint64_t seed;
    results_writer *rows;       /* the library's row and every candidate's, per shape */
    const result_row *earlier;  /* rows of an earlier search (the --append file); a
                                   candidate with a verdict there is not measured again */
    int nearlier;
} select_plan;

/* What one shape got. */
typedef struct {
    int candidates;             /* how many it has */
    int measured;               /* how many were measured (fewer when the budget ran out) */
    const rung *best;           /* NULL: none passed */
    int values[RUNG_MAX_PARAMS];
    double gflops;
    double library_gflops;      /* 0: no library, or it did not pass */
    int rounds;                 /* rounds the pick was chosen by (0: one measurement each) */
    int raced_old;              /* the table's entry was a finalist of those rounds: the
                                   pick beat it (or is it) measured in the same rounds */
} select_pick;

typedef struct {
    select_pick *picks;         /* [nshapes]; free() it */
    int measured, ok, failed, unsupported, errors;
    int interrupted;            /* Ctrl-C ended it */
    int budget_spent;           /* the budget cut a shape short */
    double seconds;
} select_outcome;

/* Rounds (ladder select --rounds N). One measurement of a candidate on a shared device can
 * be taken while something else runs: on the 2-core CPU through PoCL, another process on
 * one core makes a kernel take its single-core time, about twice its own, for seconds or
 * minutes, so candidates measured once are compared in different states, and an entry
 * measured in a quiet moment keeps its place against every later one measured in a busy
 * one. With rounds, after every candidate of a shape is measured once, the
 * SELECT_FINALISTS fastest (and the fallback rule's choice and the table's entry for the
 * shape, when they passed) are measured again N times in turn, the library with them in
 * every round, and the pick is the finalist whose fastest round is the fastest: what
 * else runs only ever slows a kernel, so the fastest of several rounds is its speed on
 * the quiet device (a median would toss between the two states when the other process
 * runs half the time). A finalist that fails verification in any round is never picked.
 * Its GFLOPS and the library's are then their fastest rounds. */
#define SELECT_FINALISTS 6

/* The indices of the `most` fastest of n candidates (gflops[i] > 0: passed), fastest
 * first, then those of keep[0..nkeep) (indices, or -1) that passed and are not among them
 * yet: out holds most + nkeep. Returns how many. */
int select_finalists(const double *gflops, int n, const int *keep, int nkeep, int most,
                     int *out);

/* The finalist whose best score over its first `rounds` rounds is highest:
 * score[f * stride + r] is finalist f's GFLOPS in round r, <= 0 when it did not pass there
 * (then f is never chosen). Returns its index and its best score in *best, or -1 when
 * none passed every round (or rounds is 0: rounds cut short before one was whole). */
int select_round_winner(const double *score, int nfinal, int stride, int rounds,
                        double *best);

/* The candidates of shape `s` (see above). */
void select_candidates_build(const select_plan *p, const gemm_size *s, select_candidates *out);

/* Measures every shape in turn, the least work (M N K) first so that what a small shape
 * leaves of its share of a budget goes to the larger ones, printing a progress line per
 * candidate; `out->picks` stays in the plan's order of shapes. LADDER_ERROR only
 * when it cannot go on (the rows file cannot be written, no memory for a shape); what was
 * measured until then is in `out` either way. */
ladder_status select_run(const select_plan *p, select_outcome *out, char *msg);

#endif
