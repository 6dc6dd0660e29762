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
    CHECK(reference_create(A, B, M, N, K, mode, 13, &ref, msg) == LADDER_OK);
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
    CHECK(reference_create(A, B, M, N, K, VERIFY_FULL, 23, &ref, msg) == LADDER_OK);
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

/* Rung 21's arithmetic on the CPU: 1xTF32, each input cut to TF32 by dropping its low 13
 * bits (the worst the tensor cores may do), exact products summed 8 at a time, rounded
 * toward zero. */
static float tf32_cut(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    b &= 0xffffe000u;
    memcpy(&x, &b, sizeof x);
    return x;
}
static void tf32x1_gemm(const float *A, const float *B, float *C, long M, long N, long K)
{
    for (long j = 0; j < N; j++)
        for (long i = 0; i < M; i++) {
            float acc = 0;
            for (long k0 = 0; k0 < K; k0 += 8) {
                double s = acc;
                for (long k = k0; k < K && k < k0 + 8; k++)
                    s += (double)tf32_cut(A[i + k * M]) * tf32_cut(B[k + j * K]);
                acc = toward_zero(s);
            }
            C[i + j * M] = acc;
        }
}

/* Rung 21 is checked with the products' own error p = 2^-9 + 2^-20 and u = 2^-23: that
 * passes its arithmetic at every K (float32's bound does not, at K = 1), and, unlike a
 * bound K u with a large u, still fails a wrong element at large K (with u = 2^-9 the
 * bound is infinite from K = 512 on). */
static void tf32x1_case(long M, long N, long K, verify_mode mode)
{
    float *A = malloc(sizeof(float) * (size_t)(M * K));
    float *B = malloc(sizeof(float) * (size_t)(K * N));
    float *C = malloc(sizeof(float) * (size_t)(M * N));
    random_fill(A, (size_t)(M * K), 31);
    random_fill(B, (size_t)(K * N), 32);
    reference *ref;
    char msg[LADDER_MSG];
    CHECK(reference_create(A, B, M, N, K, mode, 33, &ref, msg) == LADDER_OK);
    tf32x1_gemm(A, B, C, M, N, K);
    const double p = 0x1p-9 + 0x1p-20;
    verify_outcome o;
    verify_result_products(ref, C, 0x1p-23, p, &o);
    CHECK(o.passed);
    if (K == 1) {
        verify_result(ref, C, 0x1p-24, &o);
        CHECK(!o.passed);
    }
    /* A wrong last column: off by a quarter of its scale. */
    for (long i = 0; i < M; i++)
        C[i + (N - 1) * M] += 0.25f * sqrtf((float)K);
    verify_result_products(ref, C, 0x1p-23, p, &o);
    CHECK(!o.passed);
    reference_free(ref);
    free(A);
    free(B);
    free(C);
}

int main(void)
{
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

    tf32x1_case(64, 64, 1, VERIFY_FULL);
    for (long K = 2; K <= 40; K += 7)
        tf32x1_case(32, 32, K, VERIFY_FULL);
    tf32x1_case(40, 30, 3000, VERIFY_FULL);
    tf32x1_case(200, 150, 2000, VERIFY_SAMPLED);
    return CHECK_DONE();
}
