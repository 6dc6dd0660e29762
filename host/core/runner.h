/* The runner: every (size, device, rung) of a plan, measured, verified and written. */
#ifndef LADDER_RUNNER_H
#define LADDER_RUNNER_H

#include <signal.h>
#include <stdint.h>
#include "backends/backend.h"
#include "core/measure.h"
#include "rungs/registry.h"
#include "core/results.h"
#include "core/targets.h"
#include "params/param_override.h"
#include "base/sizes.h"
#include "params/tuning_db.h"
#include "core/verify.h"

typedef struct {
    run_target *targets;
    int ntargets;
    const rung **rungs;
    int nrungs;
    const gemm_size *sizes;
    int nsizes;
    const gemm_case *cases; /* each size runs each case, in order */
    int ncases;
    const param_override *overrides;
    int noverrides;
    int reps;               /* most timed repetitions per row */
    double max_seconds;     /* stop repeating once this much time was timed (>= 3 reps) */
    verify_mode verify;
    unsigned long long full_limit; /* VERIFY_AUTO: full checks up to this M*N*K */
    uint64_t seed;
    results_writer *writer;
    int small_defaults;     /* start from the small-device defaults */
    tuning_db *tuning;      /* tuned parameters to use where they apply; NULL: defaults
                               only (--defaults) */
} run_plan;

typedef struct {
    int rows, ok, failed, unsupported, errors;
} run_summary;

/* Set by the signal handler (cli_catch_interrupts) to the number of the signal that asked
 * the run to stop: the runner stops after the row in progress. */
extern volatile sig_atomic_t runner_interrupted;

/* Runs the plan, printing the live table. Returns LADDER_ERROR only when the run could not
 * go on (e.g. the result file cannot be written); per-row failures are counted in
 * `summary` and recorded in the result file. */
ladder_status runner_run(const run_plan *plan, run_summary *summary, char *msg);

/* The columns of a row that say what ran where: date, version, host, device, rung, size,
 * case, seed. The tuner writes its candidate rows with the same two helpers. */
void runner_row_identity(result_row *row, uint64_t seed, const run_target *t,
                         const rung *r, const gemm_size *s, const gemm_case *cs);

/* The columns that say how it went, from what exec_rung returned: status and reason,
 * and the timing and GFLOPS of a verified (or unverified) run. */
void runner_row_outcome(result_row *row, ladder_status st, const measure_result *m,
                        const char *msg);

#endif
