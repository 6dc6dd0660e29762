/* ladder run's side of tuning: the tuned parameters for one row, when the database has
 * parameters it can trust. */
#ifndef LADDER_TUNED_PARAMS_H
#define LADDER_TUNED_PARAMS_H

#include "backends/backend.h"
#include "rungs/registry.h"
#include "base/sizes.h"
#include "params/tuning_db.h"

/* Looks for the entry of (dev's backend and name, rung r, kc's precision and transpose
 * pair, the size class of s); the entry read last wins. `kc` is the case the kernel
 * computes: the column-major call (a row-major case's pair is swapped, base/gemm_case.h),
 * since that is what the parameters were measured with; its layout, alpha and beta do
 * not choose the entry. Returns 1 with its parameters in `values` when it was measured
 * with the kernel file as it is now and its parameters are the rung's and fit the device
 * and the size. Otherwise returns 0 (use the defaults); when an entry exists but cannot
 * be used, prints a one-line note saying why, once per entry, prefixed with `who`.
 *
 * An entry of another transpose pair is never used: parameters tuned on NN were measured
 * slower than the defaults on TN and TT (rung 18 on the H100, issue 19: 0.81x cuBLAS on TN
 * against the defaults' 0.93x), so a row without an entry of its own pair runs the
 * defaults, which are chosen by hand to serve every pair, and says "default" in
 * param_source; "tuned" always means tuned for the row's own case. A one-line note, once
 * per entry, says the rung has entries for other pairs (ladder tune --trans fills the
 * gap). */
int tuned_params_find(tuning_db *db, const rung *r, const device_info *dev,
                      const gemm_case *kc, const gemm_size *s, int *values, const char *who);

/* How many entries are for this device (backend and name). */
int tuned_params_count(const tuning_db *db, const device_info *dev);

#endif
