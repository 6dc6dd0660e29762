/* ladder run's side of tuning: the tuned parameters for one row, when the database has
 * parameters it can trust. */
#ifndef LADDER_TUNED_PARAMS_H
#define LADDER_TUNED_PARAMS_H

#include "backends/backend.h"
#include "rungs/registry.h"
#include "base/sizes.h"
#include "params/tuning_db.h"

/* Looks for the entry of (dev's backend and name, rung r, precision p, the size class of
 * s); the entry read last wins. Returns 1 with its parameters in `values` when it was measured with the
 * kernel file as it is now and its parameters are the rung's and fit the device and the
 * size. Otherwise returns 0 (use the defaults); when an entry exists but cannot be used,
 * prints a one-line note saying why, once per entry, prefixed with `who`. */
int tuned_params_find(tuning_db *db, const rung *r, const device_info *dev,
                      gemm_precision p, const gemm_size *s, int *values, const char *who);

/* How many entries are for this device (backend and name). */
int tuned_params_count(const tuning_db *db, const device_info *dev);

#endif
