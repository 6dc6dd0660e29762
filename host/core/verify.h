/* Verification: is the GPU's C = alpha op(A) op(B) + beta C right, for any summation
 * order?
 *
 * Each element c is compared with a reference r under the componentwise bound
 * |c - r| <= gamma_K * (|A||B|)_ij, gamma_K = K u / (1 - K u), u = 2^-24 in single
 * precision and 2^-53 in double (with alpha and beta: gamma_(K+2) times
 * |alpha| (|A||B|)_ij + |beta| |C0_ij|, for the two more roundings). Every correct GEMM
 * meets it, whatever order it sums in, so it never fails a correct kernel; an indexing
 * bug misses it by orders of magnitude. The reference is markedly more precise than what
 * it checks: double sums for single precision, long double sums (64-bit significands on
 * x86) for double, and its own rounding is added to the bound.
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
#include "base/gemm_case.h"
#include "base/status.h"

typedef enum { VERIFY_AUTO, VERIFY_FULL, VERIFY_SAMPLED, VERIFY_OFF } verify_mode;

/* Products M*N*K up to this are checked in full under VERIFY_AUTO. */
#define VERIFY_FULL_LIMIT_DEFAULT (1ull << 33)

typedef struct reference reference;

/* The GEMM a reference checks: the column-major call (base/gemm_case.h) that computed C,
 * on the matrices as stored: C = alpha op(A) op(B) + beta C0, op(A) M x K, op(B) K x N, C
 * M x N with leading dimension M. A (and B) hold op(A)'s element (i, k) at A[i + k*lda],
 * or at A[k + i*lda] when trans_a. Elements are float or double, as `precision` says. */
typedef struct {
    gemm_precision precision;
    long M, N, K;
    int trans_a, trans_b;
    const void *A;
    long lda;
    const void *B;
    long ldb;
    double alpha, beta;
    const void *C0; /* C before the call, M x N; NULL when beta = 0 */
    int swapped;    /* the user's C is this C transposed (a row-major case): failures name
                       the user's rows and columns */
} reference_problem;

/* The default case: C = A * B in single precision, column-major, tight. */
reference_problem reference_plain(const float *A, const float *B, long M, long N, long K);

/* The problem of column-major call `cm` on the user's matrices A, B and C0. */
reference_problem reference_for_call(const gemm_colmajor *cm, const void *A, const void *B,
                                     const void *C0);

/* Prepares what checking needs for this problem (computed once, reused by every rung at
 * this size; the matrices are not kept). `mode` must be FULL or SAMPLED. */
ladder_status reference_create(const reference_problem *p, verify_mode mode, uint64_t seed,
                               reference **ref, char *msg);
void reference_free(reference *ref);
verify_mode reference_mode(const reference *ref);

typedef struct {
    int passed;
    double error_ratio; /* max over checks of |error| / bound: <= 1 passes */
    long checked;       /* elements (or Freivalds rows/columns) checked */
    char detail[256];   /* where the first failure is */
} verify_outcome;

/* Checks C (M x N, column-major, elements of the problem's precision) against the
 * reference. `u` is the unit roundoff of the arithmetic the kernel used (2^-24 for
 * float32, 2^-53 for double). */
void verify_result(const reference *ref, const void *C, double u, verify_outcome *out);

/* The error bound of one element, exposed for tests. */
double verify_gamma(long K, double u);

const char *verify_mode_name(verify_mode mode);

#endif
