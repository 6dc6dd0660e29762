/* Timing one piece of work the honest way: warm-up, a verified run on a poisoned output,
 * then repetitions timed with device events (host clock for the CPU baseline); the median
 * is the figure, min and max are kept. */
#ifndef LADDER_MEASURE_H
#define LADDER_MEASURE_H

#include "backends/backend.h"
#include "core/verify.h"

/* The work to time: enqueues everything a user would wait for (helper kernels too). */
typedef ladder_status (*work_fn)(void *ctx, char *msg);
/* Fills the output with NaN before the verified run. */
typedef ladder_status (*poison_fn)(void *ctx, char *msg);
/* Copies the result to the host for checking. */
typedef ladder_status (*fetch_fn)(void *ctx, float *C, char *msg);

typedef struct {
    const backend_ops *ops;   /* NULL: host work, timed with the host clock */
    backend_session *session;
    work_fn work;
    poison_fn poison;
    fetch_fn fetch;
    void *ctx;
    const reference *ref;     /* NULL: no verification */
    double unit_roundoff;     /* of the arithmetic checked against ref (exec_rung sets it:
                                 rung_unit_roundoff) */
    double product_roundoff;  /* the products' own relative error (rung.product_roundoff) */
    float *host_c;            /* M x N scratch for the fetched result */
    int reps;
    double max_seconds;
} measure_job;

typedef struct {
    int reps;
    double median_ms, min_ms, max_ms;
    verify_outcome check;
    int verified;             /* 0 when verification is off */
} measure_result;

/* LADDER_OK when measured (check.passed tells whether it was right), LADDER_UNSUPPORTED or
 * LADDER_ERROR when the work could not run (msg says why). Failed rows are not timed. */
ladder_status measure(const measure_job *job, measure_result *out, char *msg);

#endif
