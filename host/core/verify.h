/* Verification: is the GPU's C = A * B right, for any summation order?
 *
 * Each element c is compared with a double-precision reference r under the componentwise
 * bound |c - r| <= gamma_K * (|A||B|)_ij, gamma_K = K u / (1 - K u), u = 2^-24 (float32).
 * Every correct float32 GEMM meets it, whatever order it sums in, so it never fails a
 * correct kernel; an indexing bug misses it by orders of magnitude.
 *
 * full:    every element is checked against a reference computed by the CPU BLAS (dgemm).
 * sampled: for large sizes. Random elements plus the whole last row and last column are
 *          checked exactly, and two Freivalds tests cover every element: for random sign
 *          vectors x, C x must match A (B x) row by row, and x^T C must match (x^T A) B
 *          column by column (see verify.c for the bound and its false-alarm probability).
 * Any NaN or Inf in C fails, in every mode (C is filled with NaN before the run, so an
 * element the kernel never wrote is caught).
 */
#ifndef LADDER_VERIFY_H
#define LADDER_VERIFY_H

#include <stdint.h>
#include "base/status.h"

typedef enum { VERIFY_AUTO, VERIFY_FULL, VERIFY_SAMPLED, VERIFY_OFF } verify_mode;

/* Products M*N*K up to this are checked in full under VERIFY_AUTO. */
#define VERIFY_FULL_LIMIT_DEFAULT (1ull << 33)

typedef struct reference reference;

/* Prepares what checking needs for these inputs (computed once, reused by every rung at
 * this size). `mode` must be FULL or SAMPLED. */
ladder_status reference_create(const float *A, const float *B, long M, long N, long K,
                               verify_mode mode, uint64_t seed, reference **ref, char *msg);
void reference_free(reference *ref);
verify_mode reference_mode(const reference *ref);

typedef struct {
    int passed;
    double error_ratio; /* max over checks of |error| / bound: <= 1 passes */
    long checked;       /* elements (or Freivalds rows/columns) checked */
    char detail[256];   /* where the first failure is */
} verify_outcome;

/* Checks C (MxN, column-major) against the reference. `u` is the unit roundoff of the
 * arithmetic the kernel used (2^-24 for float32). */
void verify_result(const reference *ref, const float *C, double u, verify_outcome *out);

/* The same for a kernel whose products carry an error of their own: it multiplies inputs
 * rounded to a narrower format (TF32), so each product is a b (1 + e) with |e| <= p, and
 * sums them with unit roundoff u. The bound becomes
 *     |c - r| <= (gamma_K(u) (1 + p) + p) (|A||B|)_ij
 * (and the reference's tiny double rounding), which stays finite at every K where
 * gamma_K of a large u would not. p = 0 is verify_result. */
void verify_result_products(const reference *ref, const float *C, double u, double p,
                            verify_outcome *out);

/* The error bound of one element, exposed for tests. */
double verify_gamma(long K, double u);

const char *verify_mode_name(verify_mode mode);

#endif
