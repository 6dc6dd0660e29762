/* The rungs with a BLAS call's arguments (15 and up: registry flag blas_args) as a BLAS
 * call: C = alpha * A * B + beta * C with leading dimensions, on a real device of one
 * backend (the argument: opencl or cuda); every such rung the backend has is tested, at
 * the parameters a run would use and again with each of its switches flipped (split-K's
 * ATOMIC). A call is launched as the harness launches it (rung_enqueue_blas: every
 * kernel of a rung of several, with a workspace full of NaN, so that a partial result
 * read before it is written shows). The harness only ever times them with alpha = 1,
 * beta = 0 and tight leading dimensions; this test checks the rest:
 *
 *   - alpha and beta of either sign, alpha = 0, beta = 0, K = 0 (C = beta * C);
 *   - lda > M, ldb > K, ldc > M, on both load paths (leading dimensions multiples of 4 or
 *     not) and with edge tiles in M, N and K;
 *   - C is not read when beta = 0: it starts as NaN and must come out finite;
 *   - nothing outside the M x N corner of C is written, and nothing outside A's and B's
 *     corners is read: their padding is NaN, which would poison any sum it entered;
 *   - a long K (4099), which split-K shares out in slices of several K tiles.
 *
 * Each rung runs every case whose shape it accepts (rung_check_size: rung 20 takes only
 * M or N up to 16, so the skinny cases are there for it; the others run them too), and
 * must accept at least one. A rung of several kernels (rung.launches) is launched as the
 * harness launches it, its workspace full of NaN, each case twice: as on a device of one
 * compute unit and as on one of 132 (an H100), since such rungs size their grids to the
 * device (rung 20 then adds the slices of K in a second kernel, or does not).
 *
 * The reference is computed in double precision; an element passes when
 * |c - r| <= gamma_(K+2) * (|alpha| (|A||B|)_ij + |beta| |C0_ij|), the bound of verify.h
 * with two more roundings (the scaling by alpha, and adding beta * C0; split-K's sums of
 * slices fit in the same count, since a slice's own sum is shorter by as many terms as
 * there are other slices), gamma built from the rung's unit roundoff
 * (rung_unit_roundoff: 2^-24, or 2^-20 for rung 16).
 *
 * With --large it runs, instead, three cases whose leading dimension times a column number
 * passes 2^31 (lda, then ldb, then ldc of 2^26 + a few, 33 columns): a kernel that
 * computes column offsets in 32-bit ints reads or writes the wrong place. The harness never
 * makes such matrices (it keeps each under 2^31 elements), a BLAS call may. Each case needs
 * one buffer of about 8.9 GB on the device and two of them in host memory, so --large runs
 * only on a GPU that can allocate one (it exits 77, saying why, on any other device);
 * ctest runs it as blas_semantics_cuda_large and blas_semantics_opencl_large.
 *
 * Exits 77 (ctest's "skipped") when the backend has no device here, or when none of the
 * rungs can run on it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kernel_path.h"
#include "base/random.h"
#include "rungs/registry.h"
#include "params/params.h"
#include "core/rung_exec.h"
#include "core/runner.h"
#include "core/targets.h"
#include "core/verify.h"

typedef struct {
    int M, N, K, lda, ldb, ldc;
    float alpha, beta;
} blas_case;

static int failures = 0;

/* --large: a leading dimension of 2^26 + 4 (or + 1) times column 32 passes 2^31. */
#define LARGE_LD (1 << 26)
#define LARGE_COLS 33
static const size_t large_bytes = (size_t)(LARGE_LD + 4) * LARGE_COLS * sizeof(float);


/* A rows x cols matrix with leading dimension ld: random inside (the harness's inputs,
 * in [-1, 1]), `pad` outside. Each matrix gets the next seed, each of its columns a seed
 * of its own, so that only the inside is drawn (--large pads billions of floats). */
static float *make_matrix(int rows, int cols, int ld, float pad, uint64_t *seed)
{
    /* At least one float: with K = 0, A and B are empty, yet a buffer must exist. */
    float *x = malloc(((size_t)ld * cols + 1) * sizeof(float));
    if (!x) {
        fprintf(stderr, "FAIL: out of host memory for a %d x %d matrix with ld %d\n", rows,
                cols, ld);
        exit(1);
    }
    x[(size_t)ld * cols] = pad;
    const uint64_t base = (*seed)++;
    for (int j = 0; j < cols; j++) {
        float *col = x + (size_t)j * ld;
        random_fill(col, (size_t)rows, base * 0x9E3779B97F4A7C15u + (uint64_t)j);
        for (int i = rows; i < ld; i++)
            col[i] = pad;
    }
    return x;
}

static gpu_buffer *upload(run_target *t, const float *x, size_t n)
{
    char msg[LADDER_MSG];
    gpu_buffer *b = NULL;
    if (n == 0) /* an empty matrix (K = 0): a buffer of one float that is never read */
        n = 1;
    if (t->ops->alloc(t->session, n * sizeof(float), &b, msg) != LADDER_OK ||
        t->ops->upload(t->session, b, x, n * sizeof(float), msg) != LADDER_OK) {
        fprintf(stderr, "FAIL device buffer: %s\n", msg);
        exit(1);
    }
    return b;
}

/* A workspace of `floats` floats full of NaN (NULL for none): a kernel that reads a
 * partial result no kernel wrote carries the NaN into C. */
static gpu_buffer *nan_workspace(run_target *t, size_t floats)
{
    if (floats == 0)
        return NULL;
    float *nan_fill = malloc(floats * sizeof(float));
    if (!nan_fill) {
        fprintf(stderr, "FAIL: out of host memory for a workspace of %zu floats\n", floats);
        exit(1);
    }
    for (size_t i = 0; i < floats; i++)
        nan_fill[i] = NAN;
    gpu_buffer *w = upload(t, nan_fill, floats);
    free(nan_fill);
    return w;
}

/* Runs one case on the device and checks every element of C, inside and outside. */
static void run_case(run_target *t, gpu_program *prog, const rung *r, const int *values,
                     const blas_case *c, int units, uint64_t *state)
{
    char msg[LADDER_MSG];
    const float pad_c = 777.0f; /* C's padding must come back exactly as it was */
    float *A = make_matrix(c->M, c->K, c->lda, NAN, state);
    float *B = make_matrix(c->K, c->N, c->ldb, NAN, state);
    float *C0 = make_matrix(c->M, c->N, c->ldc, pad_c, state);
    if (c->beta == 0.0f) /* C must not be read: any read would make the result NaN */
        for (int j = 0; j < c->N; j++)
            for (int i = 0; i < c->M; i++)
                C0[i + (size_t)j * c->ldc] = NAN;
    size_t nc = (size_t)c->ldc * c->N;
    gpu_buffer *dA = upload(t, A, (size_t)c->lda * c->K);
    gpu_buffer *dB = upload(t, B, (size_t)c->ldb * c->N);
    gpu_buffer *dC = upload(t, C0, nc);
    const launch_shape shape = {c->M, c->N, c->K, units};
    gpu_buffer *dW = nan_workspace(t, rung_workspace(r, values, &shape));

    const blas_call call = {c->M, c->N, c->K, c->alpha, dA, c->lda, dB, c->ldb,
                            c->beta, dC, c->ldc, 0, 0, PRECISION_SINGLE};
    float *C = malloc(nc * sizeof(float));
    if (!C || rung_enqueue_blas(t, prog, r, values, &call, units, dW, msg) != LADDER_OK ||
        t->ops->finish(t->session, msg) != LADDER_OK ||
        t->ops->download(t->session, C, dC, nc * sizeof(float), msg) != LADDER_OK) {
        fprintf(stderr, "FAIL %dx%dx%d: %s\n", c->M, c->N, c->K, msg);
        exit(1);
    }

    const double gamma = verify_gamma(c->K + 2, rung_unit_roundoff(r, PRECISION_SINGLE));
    long bad = 0;
    double worst = 0.0;
    for (int j = 0; j < c->N; j++)
        for (int i = 0; i < c->ldc; i++) {
            const size_t at = i + (size_t)j * c->ldc;
            if (i >= c->M) { /* padding: untouched */
                if (C[at] != pad_c && bad++ == 0)
                    fprintf(stderr, "  C(%d,%d) outside the %dx%d result was written: %g\n",
                            i, j, c->M, c->N, C[at]);
                continue;
            }
            double ref = 0.0, abs = 0.0;
            for (int k = 0; k < c->K; k++) {
                const double p = (double)A[i + (size_t)k * c->lda] * B[k + (size_t)j * c->ldb];
                ref += p;
                abs += fabs(p);
            }
            ref *= c->alpha;
            abs *= fabs(c->alpha);
            if (c->beta != 0.0f) {
                ref += (double)c->beta * C0[at];
                abs += fabs((double)c->beta * C0[at]);
            }
            const double err = fabs(C[at] - ref), bound = gamma * abs;
            if (!isfinite(C[at]) || err > bound) {
                if (bad++ == 0)
                    fprintf(stderr, "  C(%d,%d) = %.9g, expected %.9g (bound %.3g)\n", i, j,
                            C[at], ref, bound);
            } else if (bound > 0 && err / bound > worst) {
                worst = err / bound;
            }
        }
    char device[32] = "";
    if (r->launches)
        snprintf(device, sizeof device, ", %3d units", units);
    printf("%s %4dx%-4dx%-4d lda %-4d ldb %-4d ldc %-4d alpha %5.2f beta %5.2f%s: %s "
           "(worst error/bound %.3f)\n", bad ? "FAIL" : "ok  ", c->M, c->N, c->K, c->lda,
           c->ldb, c->ldc, c->alpha, c->beta, device,
           bad ? "wrong elements" : "every element right", worst);
    failures += bad != 0;
    t->ops->release(dA);
    t->ops->release(dB);
    t->ops->release(dC);
    if (dW)
        t->ops->release(dW);
    free(A);
    free(B);
    free(C0);
    free(C);
}

/* Every case on rung r with parameters `values`: compiled, then each case run and
 * checked. */
static void test_params(run_target *t, const char *backend, const rung *r,
                        const int *values, int large)
{
    char msg[LADDER_MSG];
    char options[256], path[1024];
    rung_compile_options(r, values, &t->dev, NULL, options, sizeof options);
    kernel_path(backend, r->id, path, sizeof path);
    gpu_program *prog = NULL;
    if (t->ops->compile(t->session, path, options, &prog, msg) != LADDER_OK) {
        fprintf(stderr, "FAIL compiling %s %s:\n%s\n", path, options, msg);
        failures++;
        return;
    }
    printf("rung %d (%s) %s on %s\n", r->number, r->name, options, t->dev.name);

    const blas_case cases[] = {
        /* leading dimensions not multiples of 4: the single-float loads */
        {67, 45, 33, 70, 37, 71, -0.75f, 0.5f},
        {1, 1, 1, 1, 1, 1, 0.5f, 0.0f},
        {129, 131, 17, 131, 19, 133, 1.0f, 0.0f},
        /* multiples of 4: the float4 loads, with edges in every direction */
        {130, 67, 36, 132, 40, 136, 2.0f, -1.0f},
        {100, 37, 13, 104, 16, 101, -1.0f, 0.0f},
        {256, 128, 64, 256, 64, 256, 1.0f, 0.0f},
        /* alpha = 0: C = beta * C exactly */
        {64, 64, 32, 68, 36, 64, 0.0f, 3.0f},
        /* a long K: split-K's slices of several K tiles, the last one short */
        {96, 40, 4099, 100, 4100, 97, 0.5f, 2.0f},
        /* skinny, N <= 16 (rung 20's tall path): lda not a multiple of 4, then float4
         * rows with an edge (M = 1001) and N = 3; K = 1 with N at the cap; K = 0 */
        {1000, 1, 999, 1003, 1001, 1002, -0.75f, 0.5f},
        {1001, 3, 517, 1004, 520, 1001, 1.0f, 0.0f},
        {64, 16, 1, 64, 1, 64, 2.0f, -1.0f},
        {300, 5, 0, 300, 1, 301, 1.0f, 2.0f},
        {37, 8, 2000, 40, 2000, 37, 0.0f, 0.5f},
        /* skinny, M <= 16 (the wide path): ldb not a multiple of 4, then float4 depths
         * with an edge (K = 1001); K = 1 with M at the cap; K = 0; a long prime K */
        {1, 1000, 999, 1, 1001, 1, -0.75f, 0.5f},
        {3, 517, 1001, 4, 1004, 5, 1.0f, 0.0f},
        {16, 64, 1, 16, 4, 17, 2.0f, -1.0f},
        {5, 300, 0, 5, 1, 7, 1.0f, 2.0f},
        {7, 33, 4099, 8, 4100, 7, 1.0f, 0.0f},
        /* both small: 1 x 1 with a prime K, and 16 x 16 */
        {1, 1, 997, 1, 997, 1, 1.0f, 0.0f},
        {16, 16, 97, 17, 100, 16, -1.0f, 0.25f},
    };
    /* Corners of 16 or 64 rows and 16 or 33 columns, so that every rung (rung 20 too)
     * takes them. */
    const blas_case large_cases[] = {
        /* lda: A's column 32 starts 2^31 + 128 floats in (float4 loads: all ld % 4 == 0) */
        {64, 16, LARGE_COLS, LARGE_LD + 4, 36, 64, 1.0f, 0.0f},
        /* ldb, not a multiple of 4 (single-float loads): B's column 32 at 2^31 + 32 */
        {16, LARGE_COLS, 64, 16, LARGE_LD + 1, 16, -0.5f, 0.0f},
        /* ldc, with C read (beta != 0) and written in column 32 at 2^31 + 128 */
        {16, LARGE_COLS, 64, 16, 68, LARGE_LD + 4, 1.0f, 0.5f},
    };
    const blas_case *run = large ? large_cases : cases;
    const size_t count = large ? sizeof large_cases / sizeof large_cases[0]
                               : sizeof cases / sizeof cases[0];
    /* As on a device of one compute unit and on an H100's 132 (rungs that size their grid
     * to the device); once for the others. */
    const int units[2] = {1, 132};
    uint64_t state = 12345u;
    int accepted = 0;
    for (size_t i = 0; i < count; i++) {
        const gemm_size size = {run[i].M, run[i].N, run[i].K};
        if (rung_check_size(r, values, &size, msg) != LADDER_OK)
            continue;
        accepted++;
        for (int u = 0; u < (r->launches ? 2 : 1); u++)
            run_case(t, prog, r, values, &run[i], units[u], &state);
    }
    if (accepted == 0) {
        fprintf(stderr, "FAIL rung %d (%s) accepts none of the %zu cases\n", r->number,
                r->name, count);
        failures++;
    }
    t->ops->release_program(prog);
}

/* Every case on rung r with the parameters a run would use, then again with each switch
 * (a parameter of range 0..1, such as split-K's ATOMIC) flipped, since a switch chooses
 * another path through the kernels. Returns 1 when it ran, 0 when the rung cannot run
 * here. */
static int test_rung(run_target *t, const char *backend, const rung *r, int large)
{
    char msg[LADDER_MSG];
    int values[RUNG_MAX_PARAMS];
    const char *source;
    if (params_resolve(r, NULL, 0, 0, &t->dev, PRECISION_SINGLE, values, &source, msg) != LADDER_OK) {
        printf("rung %d cannot run on %s: skipped (%s)\n", r->number, t->dev.name, msg);
        return 0;
    }
    test_params(t, backend, r, values, large);
    for (int p = 0; p < r->nparams; p++) {
        if (r->params[p].min != 0 || r->params[p].max != 1)
            continue;
        int flipped[RUNG_MAX_PARAMS];
        memcpy(flipped, values, sizeof flipped);
        flipped[p] = !values[p];
        if (rung_check_params(r, flipped, msg) != LADDER_OK ||
            rung_check_device(r, flipped, &t->dev, PRECISION_SINGLE, msg) != LADDER_OK) {
            printf("rung %d with %s=%d cannot run on %s: skipped (%s)\n", r->number,
                   r->params[p].name, flipped[p], t->dev.name, msg);
            continue;
        }
        test_params(t, backend, r, flipped, large);
    }
    return 1;
}

int main(int argc, char **argv)
{
    const int large = argc == 3 && strcmp(argv[2], "--large") == 0;
    if ((argc != 2 && !large) ||
        (strcmp(argv[1], "opencl") != 0 && strcmp(argv[1], "cuda") != 0)) {
        fprintf(stderr, "usage: %s opencl|cuda [--large]\n", argv[0]);
        return 2;
    }
    const char *backend = argv[1];
    char msg[LADDER_MSG];
    run_target *targets = NULL;
    int ntargets = 0;
    if (targets_open(backend, NULL, 0, &targets, &ntargets, msg) != LADDER_OK ||
        ntargets == 0) {
        printf("no %s device: skipped (%s)\n", backend, msg);
        return 77;
    }
    const device_info *dev = &targets[0].dev;
    if (large && (!dev->is_gpu || dev->max_alloc_bytes < large_bytes)) {
        printf("--large: skipped on %s: the cases need a GPU that can allocate one buffer of "
               "%.1f GB (this device: %s, largest buffer %.1f GB)\n", dev->name,
               large_bytes / 1e9, dev->is_gpu ? "a GPU" : "not a GPU",
               dev->max_alloc_bytes / 1e9);
        targets_close(targets, ntargets);
        return 77;
    }
    int count = 0, blas_rungs = 0, tested = 0;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++)
        if (all[i].blas_args) {
            blas_rungs++;
            tested += test_rung(&targets[0], backend, &all[i], large);
        }
    targets_close(targets, ntargets);
    if (blas_rungs == 0) {
        fprintf(stderr, "FAIL: no rung with blas_args in the registry\n");
        return 1;
    }
    if (tested == 0) {
        printf("none of the %d rungs with blas_args runs on this %s device: skipped\n",
               blas_rungs, backend);
        return 77;
    }
    printf("%s: %d case(s) failed on %d rung(s)\n", failures ? "FAILED" : "PASSED", failures,
           tested);
    return failures ? 1 : 0;
}
