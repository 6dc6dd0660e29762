/* The case of a GEMM: everything of a BLAS call beyond its sizes.
 *
 *   C = alpha * op(A) * op(B) + beta * C,   op(X) = X or X^T,
 *
 * in single or double precision, with matrices stored column-major (BLAS's own order) or
 * row-major (C's). The ladder's default case is single, NN, column-major, alpha = 1,
 * beta = 0: what every rung computes and what older result files measured.
 *
 * No kernel sees row-major: a row-major C = op(A) op(B) is, read column-major, the matrix
 * C^T = op(B)^T op(A)^T. So the harness swaps the operands (A's buffer becomes the first
 * operand, B's the second, M and N change places, and so do the transpose flags) and makes
 * a column-major call: gemm_case_colmajor below. BLAS wrappers do the same.
 */
#ifndef LADDER_GEMM_CASE_H
#define LADDER_GEMM_CASE_H

#include <stddef.h>
#include "base/status.h"

typedef enum { PRECISION_SINGLE, PRECISION_DOUBLE } gemm_precision;
typedef enum { LAYOUT_COL, LAYOUT_ROW } gemm_layout;

typedef struct {
    gemm_precision precision;
    int trans_a, trans_b; /* 1: op(A) = A^T, op(B) = B^T */
    gemm_layout layout;
    double alpha, beta;
} gemm_case;

/* single, NN, column-major, alpha 1, beta 0. */
#define GEMM_CASE_DEFAULT ((gemm_case){PRECISION_SINGLE, 0, 0, LAYOUT_COL, 1.0, 0.0})

/* Bytes of one matrix element: 4 or 8. */
size_t gemm_elem_bytes(gemm_precision p);
/* Unit roundoff of the precision's arithmetic: 2^-24 or 2^-53. */
double gemm_unit_roundoff(gemm_precision p);

/* The words of result files and options: "single" / "double", "NN" ... "TT",
 * "col" / "row". gemm_trans_name writes into `out` (at least 3 bytes) and returns it. */
const char *gemm_precision_name(gemm_precision p);
const char *gemm_trans_name(int trans_a, int trans_b, char *out);
const char *gemm_layout_name(gemm_layout l);

/* Parsers of those words (and of alpha and beta: finite decimal numbers): LADDER_OK, or
 * LADDER_ERROR with a message saying what is accepted. */
ladder_status gemm_parse_precision(const char *text, gemm_precision *p, char *msg);
ladder_status gemm_parse_trans(const char *text, int *trans_a, int *trans_b, char *msg);
ladder_status gemm_parse_layout(const char *text, gemm_layout *l, char *msg);
ladder_status gemm_parse_scalar(const char *what, const char *text, double *value, char *msg);

/* 1 when the case takes alpha != 1 or beta != 0. */
int gemm_case_scales(const gemm_case *c);
/* 1 when either operand is transposed. */
int gemm_case_transposed(const gemm_case *c);

/* "double TN row alpha=2 beta=0.5". With `all` 0, what is the default is left out ("" for
 * the default case). For messages and captions. */
void gemm_case_label(const gemm_case *c, int all, char *out, size_t size);

/* A BLAS call's description: its case, sizes and leading dimensions (what a library
 * gets besides the three matrices). */
typedef struct {
    gemm_case c;
    long M, N, K;
    long lda, ldb, ldc;
} gemm_call;

/* The call of case `c` at M x N x K with tight leading dimensions, in the case's own
 * layout: what the libraries that take a layout (CLBlast, CBLAS) get. */
void gemm_call_tight(const gemm_case *c, long M, long N, long K, gemm_call *out);

/* The column-major call that computes the same case, as a kernel or a column-major
 * library gets it (tight leading dimensions). */
typedef struct {
    gemm_call call;    /* layout col; for a row-major case M and N and the transpose
                          flags swapped */
    int swapped;       /* 1: the call's first operand is the user's B, its second the
                          user's A, and its C is the user's C transposed */
} gemm_colmajor;

void gemm_case_colmajor(const gemm_case *c, long M, long N, long K, gemm_colmajor *out);

/* C of a call as runs of contiguous elements: `runs` runs of `length` elements, `stride`
 * elements apart (a column each, or a row in row-major; all of C as one run when the
 * leading dimension leaves no gap). The baselines' C = beta * C (K = 0 or alpha = 0)
 * scales each run with their library's scal. */
void gemm_c_runs(const gemm_call *g, size_t *runs, size_t *length, size_t *stride);

/* The checks a BLAS makes of a call: M, N, K not negative, each leading dimension at
 * least its minimum (the rows of the stored matrix in the call's layout, and at least 1).
 * LADDER_ERROR naming the argument otherwise, prefixed with `who` ("cublasDgemm"). */
ladder_status gemm_check_call(const char *who, const gemm_call *call, char *msg);

#endif
