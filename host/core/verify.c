#include "core/verify.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/random.h"

/* Random elements checked exactly in sampled mode, on top of the last row and column. */
#define SAMPLE_ELEMENTS 4096
/* Freivalds tests: independent random sign vectors, each tested on rows and columns. */
#define FREIVALDS_VECTORS 2
/* Hoeffding: a sum of N random-sign terms exceeds T times its root-sum-square with
 * probability at most 2 exp(-T^2 / 2); T = 12 gives 1e-31 per row: never a false alarm. */
#define FREIVALDS_T 12.0

/* The reference's own arithmetic: long double (a 64-bit significand on x86, more
 * elsewhere; never less than double's). */
typedef long double wide;
#define WIDE_U (LDBL_EPSILON / 2)

struct reference {
    verify_mode mode;
    long M, N, K;
    int dbl;         /* the result is double */
    int swapped;     /* failures name the user's (transposed) C */
    long kk;         /* roundings per element: K, and 2 more with alpha and beta */
    double ref_gamma; /* the reference's own relative error, per unit of |A||B| */
    double tiny;     /* the smallest normal number of the result's precision */
    /* full mode */
    double *ref;     /* alpha op(A) op(B) + beta C0, M x N */
    double *absprod; /* |alpha| |A||B| + |beta| |C0|, M x N */
    /* sampled mode */
    long nsamples;
    long *si, *sj;         /* sampled elements */
    wide *sref, *sabs;     /* their reference value and |A||B| entry */
    double *x[FREIVALDS_VECTORS];      /* random signs, length N (rows) */
    wide *y[FREIVALDS_VECTORS];        /* alpha A (B x) + beta C0 x, length M */
    double *xc[FREIVALDS_VECTORS];     /* random signs, length M (columns) */
    wide *yc[FREIVALDS_VECTORS];       /* alpha (xc^T A) B + beta xc^T C0, length N */
    double *rowsigma, *colsigma; /* l2 norms of the rows and columns of the element bounds'
                                    |A||B| part, bounded by Cauchy-Schwarz */
    double *rowabs;  /* (|alpha| |A| |B| + |beta| |C0|) 1: scale of the checks' own
                        rounding in the row tests */
    double *colabs;  /* 1^T (...) */
};

const char *verify_mode_name(verify_mode mode)
{
    switch (mode) {
    case VERIFY_FULL: return "full";
    case VERIFY_SAMPLED: return "sampled";
    case VERIFY_OFF: return "off";
    default: return "auto";
    }
}

double verify_gamma(long K, double u)
{
    double ku = (double)K * u;
    return ku < 1.0 ? ku / (1.0 - ku) : INFINITY;
}

/* The bound for one element: the result's rounding (gamma over kk roundings), the
 * reference's own (ref_gamma), and kk flushed subnormals (GPUs may flush them to zero). */
static double element_bound(const reference *r, double u, double absprod)
{
    return (verify_gamma(r->kk, u) + r->ref_gamma) * absprod + (double)r->kk * r->tiny;
}

reference_problem reference_plain(const float *A, const float *B, long M, long N, long K)
{
    return (reference_problem){.precision = PRECISION_SINGLE, .M = M, .N = N, .K = K,
                               .A = A, .lda = M, .B = B, .ldb = K, .alpha = 1.0};
}

reference_problem reference_for_call(const gemm_colmajor *cm, const void *A, const void *B,
                                     const void *C0)
{
    const gemm_call *g = &cm->call;
    return (reference_problem){
        .precision = g->c.precision, .M = g->M, .N = g->N, .K = g->K,
        .trans_a = g->c.trans_a, .trans_b = g->c.trans_b,
        .A = cm->swapped ? B : A, .lda = g->lda, .B = cm->swapped ? A : B, .ldb = g->ldb,
        .alpha = g->c.alpha, .beta = g->c.beta, .C0 = g->c.beta != 0.0 ? C0 : NULL,
        .swapped = cm->swapped};
}

/* Element `idx` of a float or double array. */
static wide elem_at(const void *x, int dbl, size_t idx)
{
    return dbl ? (wide)((const double *)x)[idx] : (wide)((const float *)x)[idx];
}

/* op(A)(i, k) and op(B)(k, j). */
static wide a_at(const reference_problem *p, long i, long k)
{
    size_t idx = p->trans_a ? (size_t)k + (size_t)i * p->lda : (size_t)i + (size_t)k * p->lda;
    return elem_at(p->A, p->precision == PRECISION_DOUBLE, idx);
}

static wide b_at(const reference_problem *p, long k, long j)
{
    size_t idx = p->trans_b ? (size_t)j + (size_t)k * p->ldb : (size_t)k + (size_t)j * p->ldb;
    return elem_at(p->B, p->precision == PRECISION_DOUBLE, idx);
}

/* C0(i, j), 0 when beta = 0 (C0 is then never read, as in BLAS). */
static wide c0_at(const reference_problem *p, long i, long j)
{
    if (!p->C0)
        return 0;
    return elem_at(p->C0, p->precision == PRECISION_DOUBLE, (size_t)i + (size_t)j * p->M);
}

verify_mode reference_mode(const reference *ref) { return ref->mode; }

void reference_free(reference *r)
{
    if (!r)
        return;
    free(r->ref);
    free(r->absprod);
    free(r->si);
    free(r->sj);
    free(r->sref);
    free(r->sabs);
    for (int v = 0; v < FREIVALDS_VECTORS; v++) {
        free(r->x[v]);
        free(r->y[v]);
        free(r->xc[v]);
        free(r->yc[v]);
    }
    free(r->rowsigma);
    free(r->colsigma);
    free(r->rowabs);
    free(r->colabs);
    free(r);
}

/* op(X) as a dense column-major double matrix of rows x cols (absolute values if asked). */
static double *dense_double(const reference_problem *p, int which_b, long rows, long cols,
                            int absolute)
{
    double *d = malloc((size_t)rows * (size_t)cols * sizeof *d);
    if (!d)
        return NULL;
    for (long j = 0; j < cols; j++)
        for (long i = 0; i < rows; i++) {
            double v = (double)(which_b ? b_at(p, i, j) : a_at(p, i, j));
            d[i + j * rows] = absolute ? fabs(v) : v;
        }
    return d;
}

/* Single precision: the products in double with the host BLAS (dgemm), fast and exact
 * enough (2^-53 against the result's 2^-24). */
static ladder_status full_by_dgemm(reference *r, const reference_problem *p)
{
    const long M = r->M, N = r->N, K = r->K;
    ladder_status st = LADDER_ERROR;
    double *a = NULL, *b = NULL;
    for (int absolute = 0; absolute < 2; absolute++) {
        a = dense_double(p, 0, M, K, absolute);
        b = dense_double(p, 1, K, N, absolute);
        if (!a || !b)
            goto done;
        if (K > 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)N, (int)K,
                        1.0, a, (int)M, b, (int)K, 0.0, absolute ? r->absprod : r->ref,
                        (int)M);
        else
            memset(absolute ? r->absprod : r->ref, 0, (size_t)M * N * sizeof(double));
        free(a);
        free(b);
        a = b = NULL;
    }
    st = LADDER_OK;
done:
    free(a);
    free(b);
    return st;
}

/* Double precision: every sum in long double, a column of C at a time. */
static ladder_status full_wide(reference *r, const reference_problem *p)
{
    const long M = r->M, N = r->N, K = r->K;
    wide *s = malloc((size_t)M * sizeof *s), *sa = malloc((size_t)M * sizeof *sa);
    wide *a = malloc((size_t)M * (size_t)K * sizeof *a + 1);
    if (!s || !sa || !a) {
        free(s);
        free(sa);
        free(a);
        return LADDER_ERROR;
    }
    for (long k = 0; k < K; k++)
        for (long i = 0; i < M; i++)
            a[i + k * M] = a_at(p, i, k);
    for (long j = 0; j < N; j++) {
        for (long i = 0; i < M; i++)
            s[i] = sa[i] = 0;
        for (long k = 0; k < K; k++) {
            const wide b = b_at(p, k, j), ab = fabsl(b);
            const wide *ak = a + k * M;
            for (long i = 0; i < M; i++) {
                s[i] += ak[i] * b;
                sa[i] += fabsl(ak[i]) * ab;
            }
        }
        for (long i = 0; i < M; i++) {
            r->ref[i + j * M] = (double)s[i];
            r->absprod[i + j * M] = (double)sa[i];
        }
    }
    free(s);
    free(sa);
    free(a);
    return LADDER_OK;
}

static ladder_status create_full(reference *r, const reference_problem *p, char *msg)
{
    const long M = r->M, N = r->N;
    size_t nc = (size_t)M * N;
    r->ref = malloc(nc * sizeof(double) + 1);
    r->absprod = malloc(nc * sizeof(double) + 1);
    if (!r->ref || !r->absprod ||
        (r->dbl ? full_wide(r, p) : full_by_dgemm(r, p)) != LADDER_OK)
        return ladder_fail(msg, LADDER_ERROR,
                           "out of host memory for the full reference of %ldx%ldx%ld: "
                           "use --verify sampled", M, N, r->K);
    /* alpha and beta, in the reference's precision. */
    for (long j = 0; j < N; j++)
        for (long i = 0; i < M; i++) {
            size_t e = (size_t)i + (size_t)j * M;
            wide c0 = c0_at(p, i, j);
            r->ref[e] = (double)((wide)p->alpha * r->ref[e] + (wide)p->beta * c0);
            r->absprod[e] = fabs(p->alpha) * r->absprod[e] + fabs(p->beta) * (double)fabsl(c0);
        }
    return LADDER_OK;
}

/* Exact reference of one element in long double, and its bound's |A||B| part. */
static void one_element(const reference_problem *p, long i, long j, wide *value,
                        wide *absval)
{
    wide s = 0, sa = 0;
    for (long k = 0; k < p->K; k++) {
        wide x = a_at(p, i, k) * b_at(p, k, j);
        s += x;
        sa += fabsl(x);
    }
    wide c0 = c0_at(p, i, j);
    *value = (wide)p->alpha * s + (wide)p->beta * c0;
    *absval = fabsl((wide)p->alpha) * sa + fabsl((wide)p->beta) * fabsl(c0);
}

static ladder_status create_sampled(reference *r, const reference_problem *p, uint64_t seed,
                                    char *msg)
{
    const long M = r->M, N = r->N, K = r->K;
    uint64_t state = seed ^ 0x5A5A5A5A12345678ull;
    const wide alpha = p->alpha, beta = p->beta;

    /* Elements: random ones, plus the last row and last column where edge bugs live. */
    r->nsamples = SAMPLE_ELEMENTS + M + N;
    r->si = malloc((size_t)r->nsamples * sizeof(long));
    r->sj = malloc((size_t)r->nsamples * sizeof(long));
    r->sref = malloc((size_t)r->nsamples * sizeof(wide));
    r->sabs = malloc((size_t)r->nsamples * sizeof(wide));
    double *rownorm = calloc((size_t)M, sizeof(double)); /* ||row i of A||^2 */
    double *colnorm = calloc((size_t)N, sizeof(double)); /* ||column j of B||^2 */
    double *c0row = calloc((size_t)M, sizeof(double));   /* ||row i of C0||^2 */
    double *c0col = calloc((size_t)N, sizeof(double));   /* ||column j of C0||^2 */
    wide *bx = malloc((size_t)K * sizeof(wide) + 1);
    wide *xa = malloc((size_t)K * sizeof(wide) + 1);
    double *absb1 = calloc((size_t)K + 1, sizeof(double));  /* |B| 1 */
    double *absa1 = calloc((size_t)K + 1, sizeof(double));  /* 1^T |A| */
    r->rowsigma = calloc((size_t)M, sizeof(double));
    r->colsigma = calloc((size_t)N, sizeof(double));
    r->rowabs = calloc((size_t)M, sizeof(double));
    r->colabs = calloc((size_t)N, sizeof(double));
    int ok = r->si && r->sj && r->sref && r->sabs && rownorm && colnorm && c0row && c0col &&
             bx && xa && absb1 && absa1 && r->rowsigma && r->colsigma && r->rowabs &&
             r->colabs;
    for (int v = 0; ok && v < FREIVALDS_VECTORS; v++) {
        r->x[v] = malloc((size_t)N * sizeof(double));
        r->y[v] = calloc((size_t)M, sizeof(wide));
        r->xc[v] = malloc((size_t)M * sizeof(double));
        r->yc[v] = calloc((size_t)N, sizeof(wide));
        ok = r->x[v] && r->y[v] && r->xc[v] && r->yc[v];
    }
    if (!ok) {
        free(rownorm); free(colnorm); free(c0row); free(c0col); free(bx); free(xa);
        free(absb1); free(absa1);
        return ladder_fail(msg, LADDER_ERROR, "out of host memory for the sampled reference");
    }

    long n = 0;
    for (long s = 0; s < SAMPLE_ELEMENTS; s++, n++) {
        r->si[n] = (long)random_below(&state, (uint64_t)M);
        r->sj[n] = (long)random_below(&state, (uint64_t)N);
    }
    for (long j = 0; j < N; j++, n++) {
        r->si[n] = M - 1;
        r->sj[n] = j;
    }
    for (long i = 0; i < M; i++, n++) {
        r->si[n] = i;
        r->sj[n] = N - 1;
    }
    for (long s = 0; s < n; s++)
        one_element(p, r->si[s], r->sj[s], &r->sref[s], &r->sabs[s]);

    /* Norms and absolute sums for the Freivalds bounds. */
    for (long k = 0; k < K; k++)
        for (long i = 0; i < M; i++) {
            double a = (double)a_at(p, i, k);
            rownorm[i] += a * a;
            absa1[k] += fabs(a);
        }
    for (long j = 0; j < N; j++)
        for (long k = 0; k < K; k++) {
            double b = (double)b_at(p, k, j);
            colnorm[j] += b * b;
            absb1[k] += fabs(b);
        }
    double sum_rownorm = 0, sum_colnorm = 0;
    for (long i = 0; i < M; i++)
        sum_rownorm += rownorm[i];
    for (long j = 0; j < N; j++)
        sum_colnorm += colnorm[j];
    for (long k = 0; k < K; k++)
        for (long i = 0; i < M; i++)
            r->rowabs[i] += fabs(p->alpha) * fabs((double)a_at(p, i, k)) * absb1[k];
    for (long j = 0; j < N; j++)
        for (long k = 0; k < K; k++)
            r->colabs[j] += fabs(p->alpha) * absa1[k] * fabs((double)b_at(p, k, j));
    for (long j = 0; p->C0 && j < N; j++)
        for (long i = 0; i < M; i++) {
            double c = (double)c0_at(p, i, j);
            c0row[i] += c * c;
            c0col[j] += c * c;
            r->rowabs[i] += fabs(p->beta) * fabs(c);
            r->colabs[j] += fabs(p->beta) * fabs(c);
        }
    /* sigma_i <= sqrt(sum_j bound_ij^2) <= g (|alpha| ||a_i|| sqrt(sum_j ||b_j||^2) +
     * |beta| ||c0_i||) + tiny sqrt(N), by Cauchy-Schwarz on (|A||B|)_ij <= ||a_i|| ||b_j||
     * and the triangle inequality; verify_sampled multiplies by g then. */
    for (long i = 0; i < M; i++)
        r->rowsigma[i] = fabs(p->alpha) * sqrt(rownorm[i] * sum_colnorm) +
                         fabs(p->beta) * sqrt(c0row[i]);
    for (long j = 0; j < N; j++)
        r->colsigma[j] = fabs(p->alpha) * sqrt(colnorm[j] * sum_rownorm) +
                         fabs(p->beta) * sqrt(c0col[j]);

    for (int v = 0; v < FREIVALDS_VECTORS; v++) {
        /* Rows: y = alpha A (B x) + beta C0 x. */
        for (long j = 0; j < N; j++)
            r->x[v][j] = (random_next(&state) & 1) ? 1.0 : -1.0;
        for (long k = 0; k < K; k++) {
            wide s = 0;
            for (long j = 0; j < N; j++)
                s += b_at(p, k, j) * r->x[v][j];
            bx[k] = s;
        }
        for (long k = 0; k < K; k++)
            for (long i = 0; i < M; i++)
                r->y[v][i] += alpha * a_at(p, i, k) * bx[k];
        for (long j = 0; p->C0 && j < N; j++)
            for (long i = 0; i < M; i++)
                r->y[v][i] += beta * c0_at(p, i, j) * r->x[v][j];
        /* Columns: yc = alpha (xc^T A) B + beta xc^T C0. */
        for (long i = 0; i < M; i++)
            r->xc[v][i] = (random_next(&state) & 1) ? 1.0 : -1.0;
        for (long k = 0; k < K; k++) {
            wide s = 0;
            for (long i = 0; i < M; i++)
                s += r->xc[v][i] * a_at(p, i, k);
            xa[k] = s;
        }
        for (long j = 0; j < N; j++) {
            wide s = 0, c = 0;
            for (long k = 0; k < K; k++)
                s += xa[k] * b_at(p, k, j);
            for (long i = 0; p->C0 && i < M; i++)
                c += r->xc[v][i] * c0_at(p, i, j);
            r->yc[v][j] = alpha * s + beta * c;
        }
    }
    free(rownorm); free(colnorm); free(c0row); free(c0col); free(bx); free(xa);
    free(absb1); free(absa1);
    return LADDER_OK;
}

ladder_status reference_create(const reference_problem *p, verify_mode mode, uint64_t seed,
                               reference **out, char *msg)
{
    reference *r = calloc(1, sizeof *r);
    if (!r)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    r->mode = mode;
    r->M = p->M;
    r->N = p->N;
    r->K = p->K;
    r->dbl = p->precision == PRECISION_DOUBLE;
    r->swapped = p->swapped;
    r->kk = p->K + ((p->alpha != 1.0 || p->beta != 0.0) ? 2 : 0);
    r->tiny = r->dbl ? DBL_MIN : FLT_MIN;
    /* The reference sums in double (single, full mode) or long double, and its values
     * are stored as double: one more rounding of 2^-53 where that is not exact. */
    double ref_u = (!r->dbl && mode == VERIFY_FULL) ? 0x1p-53 : (double)WIDE_U;
    r->ref_gamma = verify_gamma(r->kk, ref_u) + (r->dbl ? 0x1p-53 : 0.0);
    ladder_status st = mode == VERIFY_FULL ? create_full(r, p, msg)
                                           : create_sampled(r, p, seed, msg);
    if (st != LADDER_OK) {
        reference_free(r);
        return st;
    }
    *out = r;
    return LADDER_OK;
}

/* Records a check: error `err` against bound `bound` at (i, j) of the call's C (-1: a
 * whole row or column). Returns 0 if it failed. */
static int record(const reference *r, verify_outcome *o, double err, double bound,
                  const char *what, long i, long j, double got, double want)
{
    double ratio = err / bound;
    if (!(ratio <= 1.0)) { /* also catches NaN */
        if (o->passed) {
            /* A row-major case's C is the call's C transposed: name the user's place. */
            const char *name = what;
            const int digits = r->dbl ? 17 : 9;
            if (r->swapped) {
                long t = i;
                i = j;
                j = t;
                if (strstr(what, "row"))
                    name = "Freivalds column test at column";
                else if (strstr(what, "column"))
                    name = "Freivalds row test at row";
            }
            if (i >= 0 && j >= 0)
                snprintf(o->detail, sizeof o->detail,
                         "%s (%ld,%ld): got %.*g, expected %.*g, error %.3g exceeds bound "
                         "%.3g", name, i, j, digits, got, digits, want, err, bound);
            else
                snprintf(o->detail, sizeof o->detail,
                         "%s %ld: got %.*g, expected %.*g, error %.3g exceeds bound %.3g",
                         name, i >= 0 ? i : j, digits, got, digits, want, err, bound);
        }
        o->passed = 0;
        o->error_ratio = isnan(ratio) ? INFINITY : fmax(o->error_ratio, ratio);
        return 0;
    }
    o->error_ratio = fmax(o->error_ratio, ratio);
    return 1;
}

/* Element e of the result. */
static double c_at(const reference *r, const void *C, size_t e)
{
    return r->dbl ? ((const double *)C)[e] : (double)((const float *)C)[e];
}

static void verify_full(const reference *r, const void *C, double u, verify_outcome *o)
{
    size_t nc = (size_t)r->M * r->N;
    for (size_t e = 0; e < nc; e++) {
        double c = c_at(r, C, e);
        record(r, o, fabs(c - r->ref[e]), element_bound(r, u, r->absprod[e]), "element",
               (long)(e % (size_t)r->M), (long)(e / (size_t)r->M), c, r->ref[e]);
    }
    o->checked = (long)nc;
}

static void verify_sampled(const reference *r, const void *C, double u, verify_outcome *o)
{
    const long M = r->M, N = r->N;
    for (long s = 0; s < r->nsamples; s++) {
        double c = c_at(r, C, (size_t)r->si[s] + (size_t)r->sj[s] * M);
        record(r, o, (double)fabsl((wide)c - r->sref[s]),
               element_bound(r, u, (double)r->sabs[s]), "element", r->si[s], r->sj[s], c,
               (double)r->sref[s]);
    }
    /* The Freivalds sums are made in long double here and in the reference: their own
     * rounding is within dround times the sums of absolute values. */
    const double g = verify_gamma(r->kk, u) + r->ref_gamma;
    const double dround = (double)(M + N + r->K + 2) * (double)WIDE_U +
                          (r->dbl ? 0x1p-53 : 0.0);
    wide *z = malloc((size_t)M * sizeof(wide));
    double *absc = malloc((size_t)M * sizeof(double));
    if (!z || !absc) {
        free(z);
        free(absc);
        o->passed = 0;
        snprintf(o->detail, sizeof o->detail, "out of host memory for the Freivalds test");
        return;
    }
    for (int v = 0; v < FREIVALDS_VECTORS; v++) {
        /* z = C x, and the scale of its own rounding. */
        for (long i = 0; i < M; i++) {
            z[i] = 0;
            absc[i] = 0;
        }
        for (long j = 0; j < N; j++)
            for (long i = 0; i < M; i++) {
                double c = c_at(r, C, (size_t)i + (size_t)j * M);
                z[i] += (wide)c * r->x[v][j];
                absc[i] += fabs(c);
            }
        for (long i = 0; i < M; i++)
            record(r, o, (double)fabsl(z[i] - r->y[v][i]),
                   FREIVALDS_T * (g * r->rowsigma[i] + (double)r->kk * r->tiny *
                                  sqrt((double)N)) + dround * (absc[i] + r->rowabs[i]),
                   "Freivalds row test at row", i, -1, (double)z[i], (double)r->y[v][i]);
        /* Columns: z = xc^T C. */
        for (long j = 0; j < N; j++) {
            wide s = 0;
            double sa = 0;
            for (long i = 0; i < M; i++) {
                double c = c_at(r, C, (size_t)i + (size_t)j * M);
                s += r->xc[v][i] * (wide)c;
                sa += fabs(c);
            }
            record(r, o, (double)fabsl(s - r->yc[v][j]),
                   FREIVALDS_T * (g * r->colsigma[j] + (double)r->kk * r->tiny *
                                  sqrt((double)M)) + dround * (sa + r->colabs[j]),
                   "Freivalds column test at column", -1, j, (double)s, (double)r->yc[v][j]);
        }
    }
    free(z);
    free(absc);
    o->checked = r->nsamples + FREIVALDS_VECTORS * (M + N);
}

void verify_result(const reference *r, const void *C, double u, verify_outcome *o)
{
    o->passed = 1;
    o->error_ratio = 0;
    o->checked = 0;
    o->detail[0] = '\0';
    /* NaN or Inf anywhere fails, whatever the mode: the output was poisoned with NaN. */
    size_t nc = (size_t)r->M * r->N;
    for (size_t e = 0; e < nc; e++) {
        double c = c_at(r, C, e);
        if (!isfinite(c)) {
            long i = (long)(e % (size_t)r->M), j = (long)(e / (size_t)r->M);
            o->passed = 0;
            o->error_ratio = INFINITY;
            snprintf(o->detail, sizeof o->detail,
                     "element (%ld,%ld) is %s: never written, or overflowed",
                     r->swapped ? j : i, r->swapped ? i : j, isnan(c) ? "NaN" : "Inf");
            return;
        }
    }
    if (r->mode == VERIFY_FULL)
        verify_full(r, C, u, o);
    else
        verify_sampled(r, C, u, o);
}
