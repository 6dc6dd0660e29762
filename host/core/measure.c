#include "core/measure.h"

#include <stdlib.h>
#include <string.h>

#include "backends/host_blas.h"

/* Warm-up: enough runs to bring the clocks up and finish lazy compilation, but short. */
#define WARMUP_MIN_RUNS 2
#define WARMUP_MS 100.0
#define MIN_TIMED_REPS 3

static ladder_status sync_work(const measure_job *j, char *msg)
{
    ladder_status st = j->work(j->ctx, msg);
    if (st == LADDER_OK && j->ops)
        st = j->ops->finish(j->session, msg);
    return st;
}

static ladder_status timed_once(const measure_job *j, double *ms, char *msg)
{
    if (!j->ops) {
        double t0 = host_now_ms();
        ladder_status st = j->work(j->ctx, msg);
        *ms = host_now_ms() - t0;
        return st;
    }
    ladder_status st = j->ops->timer_start(j->session, msg);
    if (st == LADDER_OK)
        st = j->work(j->ctx, msg);
    if (st == LADDER_OK)
        st = j->ops->timer_stop(j->session, ms, msg);
    return st;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

ladder_status measure(const measure_job *j, measure_result *out, char *msg)
{
    memset(out, 0, sizeof *out);
    out->check.passed = 1;

    double start = host_now_ms();
    for (int i = 0; i < WARMUP_MIN_RUNS || host_now_ms() - start < WARMUP_MS; i++) {
        ladder_status st = sync_work(j, msg);
        if (st != LADDER_OK)
            return st;
        if (host_now_ms() - start > 1000.0 * j->max_seconds)
            break; /* a slow kernel is warm after one long run */
    }

    if (j->ref) {
        ladder_status st = j->poison(j->ctx, msg);
        if (st == LADDER_OK)
            st = sync_work(j, msg);
        if (st == LADDER_OK)
            st = j->fetch(j->ctx, j->host_c, msg);
        if (st != LADDER_OK)
            return st;
        verify_result_products(j->ref, j->host_c, j->unit_roundoff, j->product_roundoff,
                               &out->check);
        out->verified = 1;
        if (!out->check.passed)
            return LADDER_OK; /* a wrong result gets no speed figure */
    }

    /* reps timed runs at most; max_seconds stops them earlier, but never before three (a
     * median of one is no median), unless fewer were asked for. */
    int cap = j->reps > 1 ? j->reps : 1;
    int least = cap < MIN_TIMED_REPS ? cap : MIN_TIMED_REPS;
    double *ms = malloc((size_t)cap * sizeof *ms);
    if (!ms)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    double total = 0;
    int n = 0;
    while (n < cap) {
        ladder_status st = timed_once(j, &ms[n], msg);
        if (st != LADDER_OK) {
            free(ms);
            return st;
        }
        total += ms[n++];
        if (n >= least && total > 1000.0 * j->max_seconds)
            break;
    }
    qsort(ms, (size_t)n, sizeof *ms, compare_doubles);
    out->reps = n;
    out->min_ms = ms[0];
    out->max_ms = ms[n - 1];
    out->median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    free(ms);
    return LADDER_OK;
}
