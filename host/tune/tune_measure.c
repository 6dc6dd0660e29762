#include "tune/tune_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


ladder_status tune_input_open(tune_input *in, run_target *t, const gemm_size *s,
                              const gemm_case *cs, uint64_t seed, char *msg)
{
    memset(in, 0, sizeof *in);
    in->size = *s;
    /* As ladder run --verify auto. */
    double work = (double)s->M * (double)s->N * (double)s->K;
    verify_mode mode = work <= (double)VERIFY_FULL_LIMIT_DEFAULT ? VERIFY_FULL : VERIFY_SAMPLED;
    if (case_inputs_open(&in->host, cs, s, seed, mode, msg) != LADDER_OK)
        return LADDER_ERROR;
    const case_inputs *h = &in->host;
    if (size_context_open(&in->sc, t, s, cs, h->a, h->b, h->c0, h->scratch, msg) != LADDER_OK)
        return LADDER_ERROR;
    in->opened = 1;
    return LADDER_OK;
}

void tune_input_close(tune_input *in)
{
    if (in->opened)
        size_context_close(&in->sc);
    case_inputs_close(&in->host);
    memset(in, 0, sizeof *in);
}

void tune_measure(run_target *t, program_cache *pc, tune_input *in, const rung *r,
                  const int *values, int reps, double max_seconds, uint64_t seed,
                  const char *source, result_row *row)
{
    char msg[LADDER_MSG];
    runner_row_identity(row, seed, t, r, &in->size, &in->sc.cs);
    if (r->kind == RUNG_KERNEL)
        rung_params_string(r, values, row->params, sizeof row->params);
    snprintf(row->param_source, sizeof row->param_source, "%s", source);
    snprintf(row->verify, sizeof row->verify, "%s",
             in->host.ref ? verify_mode_name(reference_mode(in->host.ref)) : "off");
    measure_job job = {.ops = t->ops, .session = t->session, .ref = in->host.ref,
                       .host_c = in->sc.host_c, .reps = reps, .max_seconds = max_seconds};
    measure_result m;
    ladder_status st = exec_rung(&in->sc, pc, r, values, &job, &m, msg);
    runner_row_outcome(row, st, &m, msg);
}

void tune_format_duration(double s, char *out, size_t size)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, size, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(out, size, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(out, size, "%lds", t);
}
