/* The reference and the error bound: a correct float32 product always passes (whatever
 * the summation order), and a wrong element, a NaN, an unwritten element or a wrong row
 * always fails, in full and in sampled mode. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/random.h"
#include "core/verify.h"

/* C = A*B in float32 with a chosen summation order: forwards, backwards or pairwise in
 * blocks, to show the bound holds for any order. */
static void float_gemm(const float *A, const float *B, float *C, long M, long N, long K,
                       int order)
{
    for (long j = 0; j < N; j++)
        for (long i = 0; i < M; i++) {
            float acc = 0;
            if (order == 0) {
                for (long k = 0; k < K; k++)
                    acc += A[i + k * M] * B[k + j * K];
            } else if (order == 1) {
                for (long k = K - 1; k >= 0; k--)
                    acc += A[i + k * M] * B[k + j * K];
            } else {
                for (long k0 = 0; k0 < K; k0 += 16) {
                    float part = 0;
                    for (long k = k0; k < K && k < k0 + 16; k++)
                        part = fmaf(A[i + k * M], B[k + j * K], part);
                    acc += part;
                }
            }
            C[i + j * M] = acc;
        }
}

static void run_case(long M, long N, long K, verify_mode mode)
{
    float *A = malloc(sizeof(float) * (size_t)(M * K));
    float *B = malloc(sizeof(float) * (size_t)(K * N));
    float *C = malloc(sizeof(float) * (size_t)(M * N));
    random_fill(A, (size_t)(M * K), 11);
    random_fill(B, (size_t)(K * N), 12);
    reference *ref;
    char msg[LADDER_MSG];
    const reference_problem problem = reference_plain(A, B, M, N, K);
    CHECK(reference_create(&problem, mode, 13, &ref, msg) == LADDER_OK);
    verify_outcome o;

    for (int order = 0; order < 3; order++) {
        float_gemm(A, B, C, M, N, K, order);
        verify_result(ref, C, 0x1p-24, &o);
        CHECK(o.passed);
        CHECK(o.error_ratio <= 1.0);
    }

    float_gemm(A, B, C, M, N, K, 0);
    long i = M / 2, j = N - 1 - N / 3;
    float saved = C[i + j * M];

    C[i + j * M] = NAN; /* an element never written */
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(!o.passed && strstr(o.detail, "NaN"));

    C[i + j * M] = INFINITY;
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(!o.passed);

    if (mode == VERIFY_FULL) {
        /* One element off by a little more than rounding can explain. */
        C[i + j * M] = saved + 0.05f;
        verify_result(ref, C, 0x1p-24, &o);
        CHECK(!o.passed && o.error_ratio > 1.0);
    }
    C[i + j * M] = saved;

    /* A whole row computed with a wrong index (row i uses row i+1 of A): the typical
     * indexing bug. Sampled mode catches it through the Freivalds tests. (With one row
     * there is no other row to confuse it with.) */
    for (long jj = 0; M > 1 && jj < N; jj++) {
        float acc = 0;
        for (long k = 0; k < K; k++)
            acc += A[(i + 1) % M + k * M] * B[k + jj * K];
        C[i + jj * M] = acc;
    }
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(M == 1 || !o.passed);

    /* The last column missing (an edge bug): zeros instead of values. */
    float_gemm(A, B, C, M, N, K, 0);
    for (long ii = 0; ii < M; ii++)
        C[ii + (N - 1) * M] = 0;
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(!o.passed);

    reference_free(ref);
    free(A);
    free(B);
    free(C);
}

/* Rung 16's arithmetic on the CPU: each float split into two TF32 parts (rounded to
 * nearest, ties away: the PTX cvt.rna.tf32.f32), three exact products per multiply-add,
 * summed 8 at a time into a float accumulator that is rounded toward zero (the worst the
 * tensor cores may do). */
static float tf32(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    b = (b + 0x1000u) & 0xffffe000u;
    memcpy(&x, &b, sizeof x);
    return x;
}
static float toward_zero(double s)
{
    float f = (float)s;
    if (fabs((double)f) > fabs(s))
        f = nextafterf(f, 0.0f);
    return f;
}
static void tf32x3_gemm(const float *A, const float *B, float *C, long M, long N, long K)
{
    for (long j = 0; j < N; j++)
        for (long i = 0; i < M; i++) {
            float acc = 0;
            for (long k0 = 0; k0 < K; k0 += 8)
                for (int term = 0; term < 3; term++) { /* small*big, big*small, big*big */
                    double s = acc;
                    for (long k = k0; k < K && k < k0 + 8; k++) {
                        float a = A[i + k * M], b = B[k + j * K];
                        float ab = tf32(a), as = tf32(a - ab), bb = tf32(b), bs = tf32(b - bb);
                        s += term == 0 ? (double)as * bb : term == 1 ? (double)ab * bs
                                                                   : (double)ab * bb;
                    }
                    acc = toward_zero(s);
                }
            C[i + j * M] = acc;
        }
}

/* Rung 16 is checked with u = 2^-20 (registry): needed, because its split loses float32's
 * last bits and float32's bound fails it at K = 1; and enough, at every K tried. */
static void tf32x3_case(long M, long N, long K, int fails_as_float32)
{
    float *A = malloc(sizeof(float) * (size_t)(M * K));
    float *B = malloc(sizeof(float) * (size_t)(K * N));
    float *C = malloc(sizeof(float) * (size_t)(M * N));
    random_fill(A, (size_t)(M * K), 21);
    random_fill(B, (size_t)(K * N), 22);
    reference *ref;
    char msg[LADDER_MSG];
    const reference_problem problem = reference_plain(A, B, M, N, K);
    CHECK(reference_create(&problem, VERIFY_FULL, 23, &ref, msg) == LADDER_OK);
    tf32x3_gemm(A, B, C, M, N, K);
    verify_outcome o;
    verify_result(ref, C, 0x1p-20, &o);
    CHECK(o.passed);
    if (fails_as_float32) {
        verify_result(ref, C, 0x1p-24, &o);
        CHECK(!o.passed);
    }
    reference_free(ref);
    free(A);
    free(B);
    free(C);
}

/* ---- every case ---------------------------------------------------------------------- */

/* Element (i, j) of a rows x cols matrix stored in `layout` with tight leading dimension,
 * written straight from the definition, not through gemm_case_colmajor. */
static size_t at(gemm_layout layout, long rows, long cols, long i, long j)
{
    return layout == LAYOUT_ROW ? (size_t)(i * cols + j) : (size_t)(i + j * rows);
}

/* op(A)(i, k) of the user's A as the case stores it (A is M x K, or K x M when
 * transposed). */
static double op_a(const gemm_case *c, const double *A, long M, long K, long i, long k)
{
    return c->trans_a ? A[at(c->layout, K, M, k, i)] : A[at(c->layout, M, K, i, k)];
}

static double op_b(const gemm_case *c, const double *B, long K, long N, long k, long j)
{
    return c->trans_b ? B[at(c->layout, N, K, j, k)] : B[at(c->layout, K, N, k, j)];
}

/* C = alpha op(A) op(B) + beta C0 in the case's storage: sums in double, or in float
 * (`float_sums`: the bug of a double kernel that accumulates in float), stored as the
 * case's precision into C (float or double). */
static void case_gemm(const gemm_case *c, const double *A, const double *B, const double *C0,
                      void *C, long M, long N, long K, int float_sums)
{
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) {
            double s = 0;
            float sf = 0;
            for (long k = 0; k < K; k++) {
                double p = op_a(c, A, M, K, i, k) * op_b(c, B, K, N, k, j);
                s += p;
                sf += (float)p;
            }
            size_t e = at(c->layout, M, N, i, j);
            double v = c->alpha * (float_sums ? (double)sf : s) + c->beta * C0[e];
            if (c->precision == PRECISION_DOUBLE)
                ((double *)C)[e] = v;
            else
                ((float *)C)[e] = (float)v;
        }
}

/* Every precision, transpose pair and layout, with alpha and beta: a right C passes, a
 * wrong element fails (full mode), and in double a C summed in float fails in both
 * modes. The inputs are drawn in the case's precision and kept as doubles for the
 * product above (exact for floats). */
static void every_case(long M, long N, long K, verify_mode mode)
{
    const size_t na = (size_t)(M * K), nb = (size_t)(K * N), nc = (size_t)(M * N);
    for (int p = 0; p < 2; p++)
        for (int tr = 0; tr < 4; tr++)
            for (int l = 0; l < 2; l++)
                for (int scaled = 0; scaled < 2; scaled++) {
                    gemm_case c = {p ? PRECISION_DOUBLE : PRECISION_SINGLE, tr >> 1, tr & 1,
                                   l ? LAYOUT_ROW : LAYOUT_COL, scaled ? -0.75 : 1.0,
                                   scaled ? 1.5 : 0.0};
                    const size_t elem = gemm_elem_bytes(c.precision);
                    void *a = malloc(na * elem), *b = malloc(nb * elem), *c0 = malloc(nc * elem);
                    void *C = malloc(nc * elem);
                    double *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B);
                    double *C0 = malloc(nc * sizeof *C0);
                    random_fill_elems(a, na, c.precision, 31);
                    random_fill_elems(b, nb, c.precision, 32);
                    random_fill_elems(c0, nc, c.precision, 33);
                    for (size_t e = 0; e < na; e++)
                        A[e] = p ? ((double *)a)[e] : ((float *)a)[e];
                    for (size_t e = 0; e < nb; e++)
                        B[e] = p ? ((double *)b)[e] : ((float *)b)[e];
                    for (size_t e = 0; e < nc; e++)
                        C0[e] = scaled ? (p ? ((double *)c0)[e] : ((float *)c0)[e]) : 0.0;

                    gemm_colmajor cm;
                    gemm_case_colmajor(&c, M, N, K, &cm);
                    reference_problem prob = reference_for_call(&cm, a, b, c0);
                    reference *ref;
                    char msg[LADDER_MSG];
                    CHECK(reference_create(&prob, mode, 34, &ref, msg) == LADDER_OK);
                    const double u = gemm_unit_roundoff(c.precision);
                    verify_outcome o;
                    case_gemm(&c, A, B, C0, C, M, N, K, 0);
                    verify_result(ref, C, u, &o);
                    if (!o.passed)
                        fprintf(stderr, "case p%d t%d l%d s%d %s: %s\n", p, tr, l, scaled,
                                verify_mode_name(mode), o.detail);
                    CHECK(o.passed);
                    if (mode == VERIFY_FULL) {
                        size_t e = at(c.layout, M, N, M / 2, N / 3);
                        if (p)
                            ((double *)C)[e] += 1e-6;
                        else
                            ((float *)C)[e] += 1e-2f;
                        verify_result(ref, C, u, &o);
                        CHECK(!o.passed);
                        /* The detail names the user's element, in either layout. */
                        char where[64];
                        snprintf(where, sizeof where, "(%ld,%ld)", M / 2, N / 3);
                        CHECK(strstr(o.detail, where) != NULL);
                    }
                    if (p) {
                        case_gemm(&c, A, B, C0, C, M, N, K, 1);
                        verify_result(ref, C, u, &o);
                        CHECK(!o.passed);
                    }
                    reference_free(ref);
                    free(a); free(b); free(c0); free(C); free(A); free(B); free(C0);
                }
}

int main(void)
{
    /* The bound's u: float's in single, double's in double. */
    CHECK(gemm_unit_roundoff(PRECISION_SINGLE) == 0x1p-24);
    CHECK(gemm_unit_roundoff(PRECISION_DOUBLE) == 0x1p-53);
    every_case(37, 29, 41, VERIFY_FULL);
    every_case(40, 33, 300, VERIFY_SAMPLED);
    every_case(1, 1, 7, VERIFY_FULL);

    CHECK(verify_gamma(1000, 0x1p-24) > 1000 * 0x1p-24);
    CHECK(isinf(verify_gamma(1L << 25, 0x1p-24)));

    run_case(37, 29, 41, VERIFY_FULL);
    run_case(64, 64, 1, VERIFY_FULL);
    run_case(1, 1, 300, VERIFY_FULL);
    run_case(200, 150, 333, VERIFY_FULL);
    run_case(200, 150, 333, VERIFY_SAMPLED);
    run_case(300, 17, 520, VERIFY_SAMPLED);

    tf32x3_case(64, 64, 1, 1);
    for (long K = 2; K <= 40; K += 7)
        tf32x3_case(32, 32, K, 0);
    tf32x3_case(50, 40, 1000, 0);
    return CHECK_DONE();
}
