#include "base/gemm_case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t gemm_elem_bytes(gemm_precision p) { return p == PRECISION_DOUBLE ? 8 : 4; }

double gemm_unit_roundoff(gemm_precision p) { return p == PRECISION_DOUBLE ? 0x1p-53 : 0x1p-24; }

const char *gemm_precision_name(gemm_precision p)
{
    return p == PRECISION_DOUBLE ? "double" : "single";
}

const char *gemm_trans_name(int trans_a, int trans_b, char *out)
{
    out[0] = trans_a ? 'T' : 'N';
    out[1] = trans_b ? 'T' : 'N';
    out[2] = '\0';
    return out;
}

const char *gemm_layout_name(gemm_layout l) { return l == LAYOUT_ROW ? "row" : "col"; }

ladder_status gemm_parse_precision(const char *text, gemm_precision *p, char *msg)
{
    if (strcmp(text, "single") == 0)
        *p = PRECISION_SINGLE;
    else if (strcmp(text, "double") == 0)
        *p = PRECISION_DOUBLE;
    else
        return ladder_fail(msg, LADDER_ERROR, "precision '%s': use single or double", text);
    return LADDER_OK;
}

ladder_status gemm_parse_trans(const char *text, int *trans_a, int *trans_b, char *msg)
{
    if (strlen(text) != 2 || !strchr("NT", text[0]) || !strchr("NT", text[1]))
        return ladder_fail(msg, LADDER_ERROR,
                           "transpose pair '%s': use NN, NT, TN or TT (op(A), then op(B))",
                           text);
    *trans_a = text[0] == 'T';
    *trans_b = text[1] == 'T';
    return LADDER_OK;
}

ladder_status gemm_parse_layout(const char *text, gemm_layout *l, char *msg)
{
    if (strcmp(text, "col") == 0)
        *l = LAYOUT_COL;
    else if (strcmp(text, "row") == 0)
        *l = LAYOUT_ROW;
    else
        return ladder_fail(msg, LADDER_ERROR,
                           "layout '%s': use col (column-major) or row (row-major)", text);
    return LADDER_OK;
}

ladder_status gemm_parse_scalar(const char *what, const char *text, double *value, char *msg)
{
    char *end = NULL;
    errno = 0;
    double v = *text ? strtod(text, &end) : 0;
    if (!*text || *end || errno || !isfinite(v))
        return ladder_fail(msg, LADDER_ERROR, "%s '%s': use a finite number such as 1, -0.5 "
                           "or 2e-3", what, text);
    *value = v;
    return LADDER_OK;
}

int gemm_case_scales(const gemm_case *c) { return c->alpha != 1.0 || c->beta != 0.0; }

int gemm_case_transposed(const gemm_case *c) { return c->trans_a || c->trans_b; }

void gemm_case_label(const gemm_case *c, int all, char *out, size_t size)
{
    char trans[3];
    size_t used = 0;
    out[0] = '\0';
#define ADD(...)                                                                          \
    do {                                                                                  \
        if (used < size)                                                                  \
            used += (size_t)snprintf(out + used, size - used, "%s", used ? " " : "");    \
        if (used < size)                                                                  \
            used += (size_t)snprintf(out + used, size - used, __VA_ARGS__);               \
    } while (0)
    if (all || c->precision != PRECISION_SINGLE)
        ADD("%s", gemm_precision_name(c->precision));
    if (all || gemm_case_transposed(c))
        ADD("%s", gemm_trans_name(c->trans_a, c->trans_b, trans));
    if (all || c->layout != LAYOUT_COL)
        ADD("%s", gemm_layout_name(c->layout));
    if (all || c->alpha != 1.0)
        ADD("alpha=%g", c->alpha);
    if (all || c->beta != 0.0)
        ADD("beta=%g", c->beta);
#undef ADD
}

/* The least leading dimensions of case `c`: column-major stores A (M x K) with M rows and
 * A^T (K x M) with K; row-major counts columns instead. */
static void least_leading(const gemm_case *c, long M, long N, long K, long *lda, long *ldb,
                          long *ldc)
{
    int row = c->layout == LAYOUT_ROW;
    *lda = (c->trans_a != row) ? K : M;
    *ldb = (c->trans_b != row) ? N : K;
    *ldc = row ? N : M;
}

static long at_least_one(long x) { return x > 1 ? x : 1; }

void gemm_call_tight(const gemm_case *c, long M, long N, long K, gemm_call *out)
{
    out->c = *c;
    out->M = M;
    out->N = N;
    out->K = K;
    least_leading(c, M, N, K, &out->lda, &out->ldb, &out->ldc);
    /* BLAS wants at least 1, even for an empty matrix. */
    out->lda = at_least_one(out->lda);
    out->ldb = at_least_one(out->ldb);
    out->ldc = at_least_one(out->ldc);
}

void gemm_case_colmajor(const gemm_case *c, long M, long N, long K, gemm_colmajor *out)
{
    gemm_case kc = *c;
    kc.layout = LAYOUT_COL;
    out->swapped = c->layout == LAYOUT_ROW;
    if (out->swapped) {
        /* C^T = op(B)^T op(A)^T: the user's B, read column-major, is B^T when B is not
         * transposed, so the call's first operand is B's buffer with B's flag. */
        kc.trans_a = c->trans_b;
        kc.trans_b = c->trans_a;
        gemm_call_tight(&kc, N, M, K, &out->call);
    } else {
        gemm_call_tight(&kc, M, N, K, &out->call);
    }
}

ladder_status gemm_check_call(const char *who, const gemm_call *g, char *msg)
{
    if (g->M < 0 || g->N < 0 || g->K < 0)
        return ladder_fail(msg, LADDER_ERROR, "%s: sizes %ldx%ldx%ld: none may be negative",
                           who, g->M, g->N, g->K);
    long min_a, min_b, min_c;
    least_leading(&g->c, g->M, g->N, g->K, &min_a, &min_b, &min_c);
    const char *order = g->c.layout == LAYOUT_ROW ? "row-major" : "column-major";
    if (g->lda < at_least_one(min_a))
        return ladder_fail(msg, LADDER_ERROR, "%s: lda %ld is below its minimum %ld (%s, "
                           "op(A) %s, M=%ld, K=%ld)", who, g->lda, at_least_one(min_a), order,
                           g->c.trans_a ? "T" : "N", g->M, g->K);
    if (g->ldb < at_least_one(min_b))
        return ladder_fail(msg, LADDER_ERROR, "%s: ldb %ld is below its minimum %ld (%s, "
                           "op(B) %s, K=%ld, N=%ld)", who, g->ldb, at_least_one(min_b), order,
                           g->c.trans_b ? "T" : "N", g->K, g->N);
    if (g->ldc < at_least_one(min_c))
        return ladder_fail(msg, LADDER_ERROR, "%s: ldc %ld is below its minimum %ld (%s, "
                           "M=%ld, N=%ld)", who, g->ldc, at_least_one(min_c), order, g->M,
                           g->N);
    return LADDER_OK;
}

void gemm_c_runs(const gemm_call *g, size_t *runs, size_t *length, size_t *stride)
{
    const int row = g->c.layout == LAYOUT_ROW;
    const size_t len = (size_t)(row ? g->N : g->M), lines = (size_t)(row ? g->M : g->N);
    const size_t ld = (size_t)g->ldc;
    *runs = ld == len ? 1 : lines;
    *length = ld == len ? len * lines : len;
    *stride = ld;
}
