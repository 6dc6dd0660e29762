/* The shape-aware entry ("auto", AutoGEMM's kernel selection): which rung, with which
 * parameters, runs a shape. Decided by a table look-up, never by measuring at call time:
 *
 *   1. the selection table's entry for this backend, device and shape ("selected");
 *   2. else the entry of the nearest shape of the same class (base/shapes.h's rule), by
 *      the distance of log M, log N, log K ("selected", with a note naming that shape);
 *   3. else the fallback rule: the first rung of the class's list below that the backend
 *      has and that takes the shape, with its tuned parameters for the size class, or its
 *      defaults, and its PER_SHAPE parameters set for the shape ("fallback"); a square
 *      too small to give every compute unit a 128 x 128 tile takes the long-k list.
 *
 * The tables are those ladder select wrote (params/tuning_paths.h says where they live).
 * An entry that cannot be used (its kernel file changed since, a rung this ladder or
 * backend does not have, parameters the rung or the device refuses) is skipped with a
 * one-line note, and the look-up goes on without it.
 *
 * Only rungs whose arithmetic is float32's take part (rung_unit_roundoff() = 2^-24):
 * "auto" is raced against the vendor library's SGEMM, so it must answer to SGEMM's error
 * bound; rung 16 (3xTF32) is checked against a looser one and is never chosen.
 */
#ifndef LADDER_SELECTION_H
#define LADDER_SELECTION_H

#include "backends/backend.h"
#include "base/sizes.h"
#include "params/params.h"
#include "params/selection_table.h"
#include "rungs/registry.h"

/* Where an entry of the fallback rule's lists applies (selection.c says why). */
typedef enum {
    RULE_ANYWHERE,
    RULE_OPENCL_GPU,    /* on an OpenCL GPU only */
    RULE_NARROW_ON_GPU, /* on a GPU only where C has at most 8 rows or columns */
    RULE_ON_CPU,        /* on a device that is not a GPU only */
} rule_when;

typedef struct {
    const char *rung; /* a rung's name; NULL ends a list */
    rule_when when;
} rule_entry;

/* The fallback rule, by rule class: rungs in order of preference (rungs the registry
 * lacks are passed over, so a list may name rungs still to come), at most
 * RULE_LIST_MAX - 1 of them: a NULL rung ends each list. */
#define RULE_LIST_MAX 10
extern const rule_entry selection_fallback_rungs[SHAPE_RULE_CLASSES][RULE_LIST_MAX];

/* The rung entry `e` names at size `s` on `dev`, or NULL: the registry lacks it, or the
 * entry does not apply there (its `when`). */
const rung *selection_list_rung(const rule_entry *e, const gemm_size *s,
                                const device_info *dev);

/* The class whose list of selection_fallback_rungs the rule takes at size `s` on `dev`:
 * the shape's class (base/shapes.h), except that a square whose C has fewer 128 x 128
 * tiles than the device has compute units takes the long-k list (split-K first). */
shape_class selection_rule_list(const gemm_size *s, const device_info *dev);

/* The fallback rule's choice at size `s` on `dev` (step 3 above): the first rung of the
 * list that is eligible, that the backend has and that takes the size with the
 * parameters params_for_row gives it under `pol`, its PER_SHAPE parameters then set for
 * the shape (rung.rule_params). ladder select measures it first at every shape, so that a
 * budget cut short never leaves a shape an entry slower than the rule. LADDER_UNSUPPORTED
 * (with the reason) when no rung of the list takes the size. */
ladder_status selection_rule_choice(const param_policy *pol, const device_info *dev,
                                    const gemm_size *s, const rung **chosen, int *values,
                                    char *msg);

/* 1 when `r` may be chosen by the shape-aware entry: a kernel rung with float32's unit
 * roundoff that takes single (auto chooses for single NN; a double-only rung never is its
 * choice, nor a candidate of ladder select). */
int selection_rung_eligible(const rung *r);

/* The rung and parameters of the shape-aware entry at size `s` on `dev`, for case `kc`
 * (`s` is the shape of the column-major call that computes it). Uses the tables
 * in pol->tuning->selection unless pol->tuning is NULL (--defaults) or pol->small_defaults
 * (then the fallback rule with those defaults); pol's --param overrides do not apply.
 * *source is "selected" or "fallback". The table and the rule are for single precision,
 * NN, C = A B (a row-major case looks up its column-major call's shape, M and N swapped):
 * for a case their choice cannot take (rung_check_case), the first BLAS-call rung that
 * takes it runs instead, and *source is "case-fallback"; a case other than single NN that
 * the choice takes keeps the rung with the parameters params_for_row gives it in that case
 * (*source "selected-rung"), except a single-precision pair on a rung whose helpers
 * transpose (rung_transposes_by_helpers): its kernel multiplies NN, so the table's
 * parameters stay (*source "selected"). `kc` NULL: the default case.
 * LADDER_UNSUPPORTED (with the reason) when no eligible rung of the backend takes the
 * shape (and the case). */
ladder_status params_for_auto(const param_policy *pol, const device_info *dev,
                              const gemm_size *s, const gemm_case *kc, const rung **chosen,
                              int *values, const char **source, char *msg);

/* "rung=15 TSM=128 TSN=128 TSK=8 WM=16": what the params column of an "auto" row says. */
void params_auto_string(const rung *r, const int *values, char *out, size_t size);

/* The kernel file of rung `r` on `backend` ("15-sgemm.cl") and its fingerprint. */
ladder_status selection_kernel(const char *backend, const rung *r, char *file, size_t size,
                               kernel_fingerprint *fp, char *msg);

/* Adds to out[0..n-1] the shapes, not there yet, of the entries of `t` for `dev` (its
 * backend and name) that were measured with another version of their rung's kernel file,
 * in the table's order, and returns the new count: what `ladder select --sizes stale`
 * measures again. `out` has room for n + t->count shapes. */
int selection_stale_shapes(const selection_table *t, const device_info *dev, gemm_size *out,
                           int n);

/* What selection_offer did. */
typedef enum {
    SELECTION_ADDED,          /* no entry had this shape */
    SELECTION_REPLACED_STALE, /* the old entry could not be used any more (kernel changed) */
    SELECTION_REPLACED,       /* the new entry is faster, or the same rung and parameters */
    SELECTION_REPLACED_RACED, /* the new entry beat the old in the same rounds (raced) */
    SELECTION_KEPT,           /* the old entry, still usable, is faster: it stays */
} selection_offer_result;

/* Adds a profiler's entry to the table, or updates the entry of its shape, as ladder tune
 * updates the tuning database. *old gets a copy of the previous entry, if any. `raced`:
 * the profiler measured the old entry's rung and parameters beside the new one, in the
 * same rounds (ladder select --rounds), and the new one won there: it replaces the old
 * one whatever their recorded GFLOPS (the old one's may have been measured while the
 * device was quieter). */
ladder_status selection_offer(selection_table *t, const selection_entry *e, int raced,
                              selection_offer_result *what, selection_entry *old, char *msg);

#endif
