/* Where a rung's parameters come from, decided here and nowhere else.
 *
 * In order of priority:
 *   1. the user's --param values ("user");
 *   2. the tuning database's entry for this device, rung, size class, precision and
 *      transpose pair ("tuned"), unless the user set a parameter of the rung, asked for
 *      the small-device defaults or turned tuning off (--defaults); never an entry of
 *      another pair (tuned_params.h says why);
 *   3. the rung's defaults, tuned by hand on an H100 ("default"), or its small-device
 *      defaults with --small-defaults ("small-default");
 *   4. the small-device defaults when the defaults do not fit the device, or when the
 *      compiled kernel refuses them ("small-default"): params_small_fallback.
 * A user's choice that does not fit is never silently changed: it is reported.
 */
#ifndef LADDER_PARAMS_H
#define LADDER_PARAMS_H

#include "backends/backend.h"
#include "base/sizes.h"
#include "params/param_override.h"
#include "params/tuning_db.h"
#include "rungs/registry.h"

/* What a run says about parameters: the same for every row of the run. */
typedef struct {
    const param_override *overrides; /* --param */
    int noverrides;
    int small_defaults;              /* --small-defaults */
    tuning_db *tuning;               /* NULL with --defaults */
    const char *who;                 /* prefix of notes: "ladder run" */
    gemm_precision precision;        /* of the run's case: what the device checks and
                                        the tuning database's entries are for */
    int trans_a, trans_b;            /* the transpose pair of the column-major call:
                                        whose entries are used (NN's for a rung whose
                                        helpers transpose: rung_kernel_case) */
} param_policy;

/* Parameter values for rung `r` on `dev` (NULL: no device checks; else checked for
 * precision `p`, whose elements take the local memory) before any size is
 * known: defaults (the small-device ones if `small`), the user's overrides, or the
 * small-device defaults when the device cannot take the defaults. `source` gets
 * "default", "small-default" or "user". Returns LADDER_UNSUPPORTED (with the reason) when
 * no set fits the device, LADDER_ERROR when the user's values are invalid. */
ladder_status params_resolve(const rung *r, const param_override *ov, int nov, int small,
                             const device_info *dev, gemm_precision p, int *values,
                             const char **source, char *msg);

/* The parameters of one row (a kernel rung at size `s` on `dev`): params_resolve, then
 * the tuning database's entry where it applies. `source` as above, or "tuned". */
ladder_status params_for_row(const param_policy *pol, const rung *r, const device_info *dev,
                             const gemm_size *s, int *values, const char **source,
                             char *msg);

/* After the compiled kernel refused the defaults (a driver may allow fewer work-items than
 * the device's maximum): the small-device defaults, when they differ from `values` and fit
 * the device and the size. Returns LADDER_OK with them in `values`, else
 * LADDER_UNSUPPORTED (msg says why they do not fit). */
ladder_status params_small_fallback(const rung *r, const device_info *dev, gemm_precision p,
                                    const gemm_size *s, int *values, char *msg);

/* msg becomes "<first> (small-device defaults too: <msg>)": why neither set ran. Returns
 * LADDER_UNSUPPORTED. */
ladder_status params_both_reasons(const char *first, char *msg);

#endif
