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

/* The inputs, the output and the reference of one test case. */
typedef struct {
    float *A, *B, *C;
    reference *ref;
} test_problem;

/* Random A (from `seed`) and B (seed + 1), room for C, and the reference (its sample from
 * seed + 2). */
static void case_open(test_problem *c, long M, long N, long K, verify_mode mode, uint64_t seed)
{
    c->A = malloc(sizeof(float) * (size_t)(M * K));
    c->B = malloc(sizeof(float) * (size_t)(K * N));
    c->C = malloc(sizeof(float) * (size_t)(M * N));
    random_fill(c->A, (size_t)(M * K), seed);
    random_fill(c->B, (size_t)(K * N), seed + 1);
    char msg[LADDER_MSG];
    const reference_problem problem = reference_plain(c->A, c->B, M, N, K);
    CHECK(reference_create(&problem, mode, seed + 2, &c->ref, msg) == LADDER_OK);
}

static void case_close(test_problem *c)
{
    reference_free(c->ref);
    free(c->A);
    free(c->B);
    free(c->C);
}

static void run_case(long M, long N, long K, verify_mode mode)
{
    test_problem c;
    case_open(&c, M, N, K, mode, 11);
    float *A = c.A, *B = c.B, *C = c.C;
    const reference *ref = c.ref;
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

    case_close(&c);
}

/* The tensor cores' arithmetic on the CPU. Rung 16 splits each float into two TF32 parts,
 * rounded to nearest, ties away (the PTX cvt.rna.tf32.f32); the accumulator is rounded
 * toward zero (the worst the tensor cores may do). */
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

/* cuBLAS in TF32 takes each input truncated to TF32 (it may read only the first 10
 * fraction bits). */
static float tf32_truncated(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    b &= 0xffffe000u;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* The tensor cores on the CPU: exact products of TF32 numbers, summed 8 at a time into a
 * float accumulator rounded toward zero. With `split` (rung 16), three products per
 * multiply-add (small*big, big*small, big*big, each summed by its own mma); without
 * (cuBLAS in TF32), one product of the truncated inputs. */
static void tensor_gemm(const float *A, const float *B, float *C, long M, long N, long K,
                        int split)
{
    for (long j = 0; j < N; j++)
        for (long i = 0; i < M; i++) {
            float acc = 0;
            for (long k0 = 0; k0 < K; k0 += 8)
                for (int term = 0; term < (split ? 3 : 1); term++) {
                    double s = acc;
                    for (long k = k0; k < K && k < k0 + 8; k++) {
                        float a = A[i + k * M], b = B[k + j * K];
                        float ab = tf32(a), as = tf32(a - ab), bb = tf32(b), bs = tf32(b - bb);
                        s += !split      ? (double)tf32_truncated(a) * tf32_truncated(b)
                             : term == 0 ? (double)as * bb
                             : term == 1 ? (double)ab * bs
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
    test_problem c;
    case_open(&c, M, N, K, VERIFY_FULL, 21);
    float *A = c.A, *B = c.B, *C = c.C;
    const reference *ref = c.ref;
    tensor_gemm(A, B, C, M, N, K, 1);
    verify_outcome o;
    verify_result(ref, C, 0x1p-20, &o);
    CHECK(o.passed);
    if (fails_as_float32) {
        verify_result(ref, C, 0x1p-24, &o);
        CHECK(!o.passed);
    }
    case_close(&c);
}

/* The cublas-tf32 baseline and rungs 21 and 24 (1xTF32 on wgmma) are checked with inputs rounded to u_in = 2^-10 and sums with
 * u = 2^-23 (registry): enough at every K tried, 1 to 4096; needed, since TF32's
 * round-to-nearest u_in = 2^-11 fails truncated inputs at K = 1, and float32's bound fails
 * them at small K. (TF32's u in gamma_K alone would check nothing from K = 2048 on.)
 * At large K the random-sign errors cancel so much that float32's worst-case bound, which
 * grows like K, passes TF32 too; rel_error still tells them apart: TF32's is hundreds of
 * times float32's at every K. */
static void tf32_case(long M, long N, long K, verify_mode mode)
{
    test_problem c;
    case_open(&c, M, N, K, mode, 31);
    float *A = c.A, *B = c.B, *C = c.C;
    const reference *ref = c.ref;
    tensor_gemm(A, B, C, M, N, K, 0);
    verify_outcome o;
    verify_result_rounded(ref, C, 0x1p-23, 0x1p-10, &o);
    CHECK(o.passed && o.rel_error <= 0x1p-9);
    double rel = o.rel_error;
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(K > 64 || !o.passed);
    CHECK(o.rel_error == rel); /* the measure does not depend on the bound */
    float_gemm(A, B, C, M, N, K, 0);
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(o.passed && rel > 100 * o.rel_error);
    tensor_gemm(A, B, C, M, N, K, 0);
    if (K == 1) {
        verify_result_rounded(ref, C, 0x1p-23, 0x1p-11, &o);
        CHECK(!o.passed);
    }
    /* Finite at every K, the bound still catches a wrong last column (off by a quarter of
     * its scale), where gamma_K of a u as large as 2^-9 would pass anything from K = 512. */
    for (long i = 0; i < M; i++)
        C[i + (N - 1) * M] += 0.25f * sqrtf((float)K);
    verify_result_rounded(ref, C, 0x1p-23, 0x1p-10, &o);
    CHECK(!o.passed);
    case_close(&c);
}

/* rel_error is the largest |c - r| / (|A||B|)_ij: an element put off by a known fraction
 * of its |A||B| sets it, in full and in sampled mode (the last column is always sampled). */
static void rel_error_case(verify_mode mode)
{
    const long M = 40, N = 30, K = 50;
    test_problem c;
    case_open(&c, M, N, K, mode, 41);
    float *A = c.A, *B = c.B, *C = c.C;
    const reference *ref = c.ref;
    float_gemm(A, B, C, M, N, K, 0);
    verify_outcome o;
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(o.passed && o.rel_error > 0 && o.rel_error <= verify_gamma(K, 0x1p-24));
    long i = 7, j = N - 1;
    double exact = 0, size = 0;
    for (long k = 0; k < K; k++) {
        exact += (double)A[i + k * M] * B[k + j * K];
        size += fabs((double)A[i + k * M] * B[k + j * K]);
    }
    C[i + j * M] = (float)(exact + 1e-3 * size);
    verify_result(ref, C, 0x1p-24, &o);
    CHECK(!o.passed && fabs(o.rel_error - 1e-3) < 1e-6);
    case_close(&c);
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

    for (long K = 1; K <= 4096; K *= 4)
        tf32_case(24, 20, K, VERIFY_FULL);
    tf32_case(24, 20, 2, VERIFY_FULL);
    tf32_case(60, 50, 3000, VERIFY_SAMPLED);
    CHECK(isinf(verify_gamma(4096, 0x1p-11)));

    rel_error_case(VERIFY_FULL);
    rel_error_case(VERIFY_SAMPLED);
    tf32_case(40, 30, 3000, VERIFY_FULL);
    tf32_case(200, 150, 2000, VERIFY_SAMPLED);
    return CHECK_DONE();
}
