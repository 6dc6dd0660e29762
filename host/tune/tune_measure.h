/* Measuring one candidate at one size exactly as ladder run measures a row: compiled,
 * warmed up, run once on a NaN-filled output and verified (every element up to
 * M*N*K = 2^33, sampled elements and Freivalds products above), then timed with device
 * events. ladder tune (tuner.c) and ladder select (select_profile.c) both measure this way.
 */
#ifndef LADDER_TUNE_MEASURE_H
#define LADDER_TUNE_MEASURE_H

#include "core/case_inputs.h"
#include "core/results.h"
#include "core/rung_exec.h"
#include "core/runner.h"
#include "core/verify.h"

/* One size's inputs, their reference and the device's buffers, kept while candidates run
 * there. The inputs are ladder run's for the seed, so the figures compare with its rows. */
typedef struct {
    gemm_size size;
    case_inputs host;
    size_context sc;
    int opened; /* sc holds device buffers */
} tune_input;

/* Opens `in` for size `s` and case `cs` on target `t`. LADDER_ERROR (with the reason) when
 * the host or the device has no room; tune_input_close is still needed. */
ladder_status tune_input_open(tune_input *in, run_target *t, const gemm_size *s,
                              const gemm_case *cs, uint64_t seed, char *msg);
void tune_input_close(tune_input *in);

/* Measures entry `r` with parameter `values` on `in` (a library ignores them): fills `row`
 * (identity, params, `source` as its param_source, status, timing). reps and max_seconds
 * as ladder run's options. */
void tune_measure(run_target *t, program_cache *pc, tune_input *in, const rung *r,
                  const int *values, int reps, double max_seconds, uint64_t seed,
                  const char *source, result_row *row);

/* "45s", "2m05s", "1h02m": the time left, in progress lines. */
void tune_format_duration(double seconds, char *out, size_t size);

#endif
