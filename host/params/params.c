#include "params/params.h"

#include <stdio.h>
#include <string.h>

#include "params/tuned_params.h"

/* The small-device defaults: fills `values` and returns LADDER_OK when they pass the rung's
 * checks, the device's limits and (when `s` is given) the size, else LADDER_UNSUPPORTED
 * with the reason in msg. */
static ladder_status small_defaults_fit(const rung *r, const device_info *dev,
                                        gemm_precision p, const gemm_size *s, int *values,
                                        char *msg)
{
    rung_defaults(r, 1, values);
    ladder_status st = rung_check_params(r, values, msg);
    if (st == LADDER_OK && dev)
        st = rung_check_device(r, values, dev, p, msg);
    if (st == LADDER_OK && s)
        st = rung_check_size(r, values, s, msg);
    return st == LADDER_OK ? LADDER_OK : LADDER_UNSUPPORTED;
}

ladder_status params_both_reasons(const char *first, char *msg)
{
    char second[LADDER_MSG];
    snprintf(second, sizeof second, "%s", msg);
    if (strcmp(first, second) == 0) /* a reason the parameters do not change */
        return ladder_fail(msg, LADDER_UNSUPPORTED, "%s", second);
    return ladder_fail(msg, LADDER_UNSUPPORTED, "%.400s (small-device defaults too: %.400s)",
                       first, second);
}

ladder_status params_resolve(const rung *r, const param_override *ov, int nov, int small,
                             const device_info *dev, gemm_precision prec, int *values,
                             const char **source, char *msg)
{
    int user = 0;
    rung_defaults(r, small, values);
    for (int i = 0; i < nov; i++) {
        if (ov[i].rung && ov[i].rung != r->number)
            continue;
        int p = rung_param_index(r, ov[i].name);
        if (p < 0)
            continue; /* the CLI checked that some selected rung has it */
        values[p] = ov[i].value;
        user = 1;
    }
    *source = user ? "user" : small ? "small-default" : "default";
    if (rung_check_params(r, values, msg) != LADDER_OK)
        return user ? LADDER_ERROR : LADDER_UNSUPPORTED;
    if (!dev || rung_check_device(r, values, dev, prec, msg) == LADDER_OK)
        return LADDER_OK;
    if (user || small)
        return LADDER_UNSUPPORTED; /* the user's own choice does not fit: say so, don't
                                      silently change it */
    /* The H100 defaults do not fit this device: try the small-device defaults. */
    char first[LADDER_MSG];
    snprintf(first, sizeof first, "%s", msg);
    *source = "small-default";
    if (small_defaults_fit(r, dev, prec, NULL, values, msg) == LADDER_OK)
        return LADDER_OK;
    return params_both_reasons(first, msg);
}

/* Whether the user set a parameter of this rung with --param. */
static int has_override(const param_policy *pol, const rung *r)
{
    for (int i = 0; i < pol->noverrides; i++) {
        const param_override *ov = &pol->overrides[i];
        if ((ov->rung == 0 || ov->rung == r->number) && rung_param_index(r, ov->name) >= 0)
            return 1;
    }
    return 0;
}

ladder_status params_for_row(const param_policy *pol, const rung *r, const device_info *dev,
                             const gemm_size *s, int *values, const char **source,
                             char *msg)
{
    ladder_status st = params_resolve(r, pol->overrides, pol->noverrides, pol->small_defaults,
                                      dev, pol->precision, values, source, msg);
    /* The device's tuned parameters replace the defaults, never the user's choice. */
    int tuned[RUNG_MAX_PARAMS] = {0};
    gemm_case run = GEMM_CASE_DEFAULT;
    run.precision = pol->precision;
    run.trans_a = pol->trans_a;
    run.trans_b = pol->trans_b;
    /* The entry of the case the kernel computes: NN for a rung whose helpers transpose. */
    const gemm_case kc = rung_kernel_case(r, &run);
    if (st != LADDER_ERROR && pol->tuning && !pol->small_defaults && !has_override(pol, r) &&
        tuned_params_find(pol->tuning, r, dev, &kc, s, tuned, pol->who)) {
        memcpy(values, tuned, sizeof tuned);
        *source = "tuned";
        st = LADDER_OK;
    }
    return st;
}

ladder_status params_small_fallback(const rung *r, const device_info *dev, gemm_precision p,
                                    const gemm_size *s, int *values, char *msg)
{
    int small[RUNG_MAX_PARAMS] = {0};
    if (small_defaults_fit(r, dev, p, s, small, msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    if (memcmp(small, values, sizeof small) == 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "the small-device defaults are the same");
    memcpy(values, small, sizeof small);
    return LADDER_OK;
}
