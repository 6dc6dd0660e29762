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

struct reference {
    verify_mode mode;
    long M, N, K;
    /* full mode */
    double *ref;     /* A*B in double, MxN */
    double *absprod; /* |A|*|B| in double, MxN */
    /* sampled mode */
    long nsamples;
    long *si, *sj;         /* sampled elements */
    double *sref, *sabs;   /* their reference value and |A||B| entry */
    double *x[FREIVALDS_VECTORS];      /* random signs, length N (rows) */
    double *y[FREIVALDS_VECTORS];      /* A (B x), length M */
    double *rowbound[FREIVALDS_VECTORS];
    double *xc[FREIVALDS_VECTORS];     /* random signs, length M (columns) */
    double *yc[FREIVALDS_VECTORS];     /* (xc^T A) B, length N */
    double *colbound[FREIVALDS_VECTORS];
    double *rowabs;  /* (|A| |B| 1)_i: scale of double rounding in the row tests */
    double *colabs;  /* (1^T |A| |B|)_j */
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

/* The bound for one element, as a multiple of (|A||B|)_ij: the products' own error p
 * (inputs rounded to a narrower format: each product a b (1 + e), |e| <= p), the float
 * sums' rounding of those products (gamma_K (1 + p)) and the reference's own double
 * rounding (tiny). */
static double bound_factor(long K, double u, double p)
{
    return verify_gamma(K, u) * (1.0 + p) + p + verify_gamma(K, 0x1p-53);
}

/* The bound for one element: bound_factor, and K flushed subnormals (GPUs may flush them
 * to zero). */
static double element_bound(long K, double u, double p, double absprod)
{
    return bound_factor(K, u, p) * absprod + (double)K * FLT_MIN;
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
        free(r->rowbound[v]);
        free(r->xc[v]);
        free(r->yc[v]);
        free(r->colbound[v]);
    }
    free(r->rowabs);
    free(r->colabs);
    free(r);
}

static double *to_double(const float *src, size_t n, int absolute)
{
    double *d = malloc(n * sizeof *d);
    if (d)
        for (size_t i = 0; i < n; i++)
            d[i] = absolute ? fabs((double)src[i]) : (double)src[i];
    return d;
}

static ladder_status create_full(reference *r, const float *A, const float *B, char *msg)
{
    const long M = r->M, N = r->N, K = r->K;
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    double *a = to_double(A, na, 0), *b = to_double(B, nb, 0);
    r->ref = malloc(nc * sizeof(double));
    r->absprod = malloc(nc * sizeof(double));
    ladder_status st = LADDER_OK;
    if (!a || !b || !r->ref || !r->absprod) {
        st = ladder_fail(msg, LADDER_ERROR,
                         "out of host memory for the full reference of %ldx%ldx%ld: "
                         "use --verify sampled", M, N, K);
        goto done;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)N, (int)K, 1.0, a,
                (int)M, b, (int)K, 0.0, r->ref, (int)M);
    for (size_t i = 0; i < na; i++)
        a[i] = fabs(a[i]);
    for (size_t i = 0; i < nb; i++)
        b[i] = fabs(b[i]);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)N, (int)K, 1.0, a,
                (int)M, b, (int)K, 0.0, r->absprod, (int)M);
done:
    free(a);
    free(b);
    return st;
}

/* Exact reference of one element in double, and its |A||B| entry. */
static void one_element(const float *A, const float *B, long M, long K, long i, long j,
                        double *value, double *absval)
{
    double s = 0, sa = 0;
    for (long k = 0; k < K; k++) {
        double p = (double)A[i + k * M] * (double)B[k + j * K];
        s += p;
        sa += fabs(p);
    }
    *value = s;
    *absval = sa;
}

static ladder_status create_sampled(reference *r, const float *A, const float *B,
                                    uint64_t seed, char *msg)
{
    const long M = r->M, N = r->N, K = r->K;
    uint64_t state = seed ^ 0x5A5A5A5A12345678ull;

    /* Elements: random ones, plus the last row and last column where edge bugs live. */
    r->nsamples = SAMPLE_ELEMENTS + M + N;
    r->si = malloc((size_t)r->nsamples * sizeof(long));
    r->sj = malloc((size_t)r->nsamples * sizeof(long));
    r->sref = malloc((size_t)r->nsamples * sizeof(double));
    r->sabs = malloc((size_t)r->nsamples * sizeof(double));
    double *rownorm = calloc((size_t)M, sizeof(double)); /* ||row i of A||^2 */
    double *colnorm = calloc((size_t)N, sizeof(double)); /* ||column j of B||^2 */
    double *bx = malloc((size_t)K * sizeof(double));
    double *xa = malloc((size_t)K * sizeof(double));
    double *absb1 = calloc((size_t)K, sizeof(double));  /* |B| 1 */
    double *absa1 = calloc((size_t)K, sizeof(double));  /* 1^T |A| */
    r->rowabs = calloc((size_t)M, sizeof(double));
    r->colabs = calloc((size_t)N, sizeof(double));
    int ok = r->si && r->sj && r->sref && r->sabs && rownorm && colnorm && bx && xa &&
             absb1 && absa1 && r->rowabs && r->colabs;
    for (int v = 0; ok && v < FREIVALDS_VECTORS; v++) {
        r->x[v] = malloc((size_t)N * sizeof(double));
        r->y[v] = calloc((size_t)M, sizeof(double));
        r->rowbound[v] = malloc((size_t)M * sizeof(double));
        r->xc[v] = malloc((size_t)M * sizeof(double));
        r->yc[v] = calloc((size_t)N, sizeof(double));
        r->colbound[v] = malloc((size_t)N * sizeof(double));
        ok = r->x[v] && r->y[v] && r->rowbound[v] && r->xc[v] && r->yc[v] && r->colbound[v];
    }
    if (!ok) {
        free(rownorm); free(colnorm); free(bx); free(xa); free(absb1); free(absa1);
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
        one_element(A, B, M, K, r->si[s], r->sj[s], &r->sref[s], &r->sabs[s]);

    /* Norms and absolute sums for the Freivalds bounds. */
    for (long k = 0; k < K; k++)
        for (long i = 0; i < M; i++) {
            double a = A[i + k * M];
            rownorm[i] += a * a;
            absa1[k] += fabs(a);
        }
    for (long j = 0; j < N; j++)
        for (long k = 0; k < K; k++) {
            double b = B[k + j * K];
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
            r->rowabs[i] += fabs((double)A[i + k * M]) * absb1[k];
    for (long j = 0; j < N; j++)
        for (long k = 0; k < K; k++)
            r->colabs[j] += absa1[k] * fabs((double)B[k + j * K]);

    const double g = verify_gamma(K, 0x1p-24) + verify_gamma(K, 0x1p-53);
    const double tiny = (double)K * FLT_MIN;
    for (int v = 0; v < FREIVALDS_VECTORS; v++) {
        /* Rows: y = A (B x). */
        for (long j = 0; j < N; j++)
            r->x[v][j] = (random_next(&state) & 1) ? 1.0 : -1.0;
        for (long k = 0; k < K; k++) {
            double s = 0;
            for (long j = 0; j < N; j++)
                s += (double)B[k + j * K] * r->x[v][j];
            bx[k] = s;
        }
        for (long k = 0; k < K; k++)
            for (long i = 0; i < M; i++)
                r->y[v][i] += (double)A[i + k * M] * bx[k];
        /* sigma_i <= sqrt(sum_j bound_ij^2) <= g ||a_i|| sqrt(sum_j ||b_j||^2) + tiny sqrt(N),
         * by Cauchy-Schwarz on (|A||B|)_ij <= ||a_i|| ||b_j||. */
        for (long i = 0; i < M; i++)
            r->rowbound[v][i] = FREIVALDS_T * (g * sqrt(rownorm[i] * sum_colnorm) +
                                               tiny * sqrt((double)N));
        /* Columns: yc = (xc^T A) B. */
        for (long i = 0; i < M; i++)
            r->xc[v][i] = (random_next(&state) & 1) ? 1.0 : -1.0;
        for (long k = 0; k < K; k++) {
            double s = 0;
            for (long i = 0; i < M; i++)
                s += r->xc[v][i] * (double)A[i + k * M];
            xa[k] = s;
        }
        for (long j = 0; j < N; j++) {
            double s = 0;
            for (long k = 0; k < K; k++)
                s += xa[k] * (double)B[k + j * K];
            r->yc[v][j] = s;
        }
        for (long j = 0; j < N; j++)
            r->colbound[v][j] = FREIVALDS_T * (g * sqrt(colnorm[j] * sum_rownorm) +
                                               tiny * sqrt((double)M));
    }
    free(rownorm); free(colnorm); free(bx); free(xa); free(absb1); free(absa1);
    return LADDER_OK;
}

ladder_status reference_create(const float *A, const float *B, long M, long N, long K,
                               verify_mode mode, uint64_t seed, reference **out, char *msg)
{
    reference *r = calloc(1, sizeof *r);
    if (!r)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    r->mode = mode;
    r->M = M;
    r->N = N;
    r->K = K;
    ladder_status st = mode == VERIFY_FULL ? create_full(r, A, B, msg)
                                           : create_sampled(r, A, B, seed, msg);
    if (st != LADDER_OK) {
        reference_free(r);
        return st;
    }
    *out = r;
    return LADDER_OK;
}

/* Records a check: error `err` against bound `bound`. Returns 0 if it failed. */
static int record(verify_outcome *o, double err, double bound, const char *what, long i,
                  long j, double got, double want)
{
    double ratio = err / bound;
    if (!(ratio <= 1.0)) { /* also catches NaN */
        if (o->passed)
            snprintf(o->detail, sizeof o->detail,
                     "%s (%ld,%ld): got %.9g, expected %.9g, error %.3g exceeds bound %.3g",
                     what, i, j, got, want, err, bound);
        o->passed = 0;
        o->error_ratio = isnan(ratio) ? INFINITY : fmax(o->error_ratio, ratio);
        return 0;
    }
    o->error_ratio = fmax(o->error_ratio, ratio);
    return 1;
}

static void verify_full(const reference *r, const float *C, double u, double p,
                        verify_outcome *o)
{
    size_t nc = (size_t)r->M * r->N;
    for (size_t e = 0; e < nc; e++) {
        double c = C[e];
        record(o, fabs(c - r->ref[e]), element_bound(r->K, u, p, r->absprod[e]), "element",
               (long)(e % (size_t)r->M), (long)(e / (size_t)r->M), c, r->ref[e]);
    }
    o->checked = (long)nc;
}

static void verify_sampled(const reference *r, const float *C, double u, double p,
                           verify_outcome *o)
{
    const long M = r->M, N = r->N;
    for (long s = 0; s < r->nsamples; s++) {
        double c = C[r->si[s] + r->sj[s] * M];
        record(o, fabs(c - r->sref[s]), element_bound(r->K, u, p, r->sabs[s]), "element",
               r->si[s], r->sj[s], c, r->sref[s]);
    }
    /* The bounds above were built for u = 2^-24; scale them for other arithmetic. */
    const double scale = bound_factor(r->K, u, p) / bound_factor(r->K, 0x1p-24, 0.0);
    const double dround = (double)(M + N + r->K + 2) * 0x1p-53;
    double *z = malloc((size_t)(M > N ? M : N) * sizeof(double));
    if (!z) {
        o->passed = 0;
        snprintf(o->detail, sizeof o->detail, "out of host memory for the Freivalds test");
        return;
    }
    for (int v = 0; v < FREIVALDS_VECTORS; v++) {
        /* z = C x, and the scale of its own double rounding. */
        for (long i = 0; i < M; i++)
            z[i] = 0;
        double *absc = calloc((size_t)M, sizeof(double));
        if (!absc) {
            free(z);
            o->passed = 0;
            snprintf(o->detail, sizeof o->detail, "out of host memory");
            return;
        }
        for (long j = 0; j < N; j++)
            for (long i = 0; i < M; i++) {
                double c = C[i + j * M];
                z[i] += c * r->x[v][j];
                absc[i] += fabs(c);
            }
        for (long i = 0; i < M; i++)
            record(o, fabs(z[i] - r->y[v][i]),
                   scale * r->rowbound[v][i] + dround * (absc[i] + r->rowabs[i]),
                   "Freivalds row test at row", i, -1, z[i], r->y[v][i]);
        free(absc);
        /* Columns: z = xc^T C. */
        for (long j = 0; j < N; j++) {
            double s = 0, sa = 0;
            for (long i = 0; i < M; i++) {
                double c = C[i + j * M];
                s += r->xc[v][i] * c;
                sa += fabs(c);
            }
            record(o, fabs(s - r->yc[v][j]),
                   scale * r->colbound[v][j] + dround * (sa + r->colabs[j]),
                   "Freivalds column test at column", -1, j, s, r->yc[v][j]);
        }
    }
    free(z);
    o->checked = r->nsamples + FREIVALDS_VECTORS * (M + N);
}

void verify_result(const reference *r, const float *C, double u, verify_outcome *o)
{
    verify_result_products(r, C, u, 0.0, o);
}

void verify_result_products(const reference *r, const float *C, double u, double p,
                            verify_outcome *o)
{
    o->passed = 1;
    o->error_ratio = 0;
    o->checked = 0;
    o->detail[0] = '\0';
    /* NaN or Inf anywhere fails, whatever the mode: the output was poisoned with NaN. */
    size_t nc = (size_t)r->M * r->N;
    for (size_t e = 0; e < nc; e++)
        if (!isfinite(C[e])) {
            o->passed = 0;
            o->error_ratio = INFINITY;
            snprintf(o->detail, sizeof o->detail,
                     "element (%ld,%ld) is %s: never written, or overflowed",
                     (long)(e % (size_t)r->M), (long)(e / (size_t)r->M),
                     isnan(C[e]) ? "NaN" : "Inf");
            return;
        }
    if (r->mode == VERIFY_FULL)
        verify_full(r, C, u, p, o);
    else
        verify_sampled(r, C, u, p, o);
}
