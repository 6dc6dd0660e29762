/* BLAS semantics, as the reference BLAS defines them, for every BLAS call the ladder makes:
 * the rungs with a BLAS call's arguments (registry flag blas_args: 15 and up), the vendor
 * library (CLBlast on OpenCL, cuBLAS on CUDA) and the CPU's BLAS. The argument names what
 * to test: opencl or cuda (the rungs that backend has, then its library) or cpu (the host
 * BLAS, through host_gemm).
 *
 * Each is called as C = alpha * op(A) * op(B) + beta * C, in every case it takes: single
 * and double precision (a rung: when it sets takes_double), the four transpose pairs (a
 * rung: when it sets takes_transposes), column- and row-major (a rung always: the harness
 * runs a row-major case as the column-major call with the operands swapped, which is what
 * is launched here). So coverage grows by itself as rungs gain precisions and transposes.
 * Each case checks:
 *
 *   - alpha and beta of either sign, beta = 0, K = 0 (C = beta * C);
 *   - alpha = 0 never reads A or B: they are full of NaN, and C must come out beta * C;
 *   - beta = 0 never reads C: it starts as NaN and must come out finite;
 *   - leading dimensions above their minimum, on both load paths (multiples of 4 or not),
 *     with edge tiles in M, N and K; nothing outside op(A)'s and op(B)'s stored corners is
 *     read (their padding is NaN, which would poison any sum it entered) and nothing
 *     outside C's corner is written (its padding must come back exactly);
 *   - a long K (4099), which split-K shares out in slices of several K tiles;
 *   - M = 0 or N = 0 returns at once, C untouched;
 *   - a leading dimension below its minimum is an error naming it, before any work.
 *
 * A rung runs every case whose shape it accepts (rung_check_size: rung 20 takes only M or
 * N up to 16, so the skinny cases are there for it; the others run them too), and must
 * accept at least one, at the parameters a run would use and again with each of its
 * switches flipped (split-K's ATOMIC). A rung of several kernels (rung.launches) is
 * launched as the harness launches it (rung_enqueue_blas), its workspace full of NaN, each
 * case twice: as on a device of one compute unit and as on one of 132 (an H100), since
 * such rungs size their grids to the device.
 *
 * The reference sums in long double; an element passes when
 * |c - r| <= gamma_(K+2) * (|alpha| (|A||B|)_ij + |beta| |C0_ij|), the bound of verify.h
 * with two more roundings (the scaling by alpha, and adding beta * C0; split-K's sums of
 * slices fit in the same count, since a slice's own sum is shorter by as many terms as
 * there are other slices), gamma built from the unit roundoff of the arithmetic
 * (rung_unit_roundoff: 2^-24, 2^-20 for rung 16, 2^-53 in double), plus the reference's
 * own rounding.
 *
 * With --large (opencl or cuda) it runs, instead, three single-precision NN column-major
 * cases on the rungs whose leading dimension times a column number passes 2^31 (lda, then
 * ldb, then ldc of 2^26 + a few, 33 columns): a kernel that computes column offsets in
 * 32-bit ints reads or writes the wrong place. The harness never makes such matrices (it
 * keeps each under 2^31 elements), a BLAS call may. Each case needs one buffer of about
 * 8.9 GB on the device and two of them in host memory, so --large runs only on a GPU that
 * can allocate one (it exits 77, saying why, on any other device); ctest runs it as
 * blas_semantics_cuda_large and blas_semantics_opencl_large.
 *
 * Parameters: a rung runs with those `ladder run` would give it on this device in each
 * precision (params_resolve, without a tuning database): the defaults, or the
 * small-device defaults where the defaults do not fit, as in double, whose tiles take
 * twice the local memory. So every rung that takes double is tested in double; one with
 * no parameters that fit is reported NOT TESTED, loudly, in its line and the last one.
 *
 * Output: one line per failure (the call, and its first wrong element), and one summary
 * line per subject and case (precision, transpose pair, layout): the shapes it took, the
 * calls made, the edge checks, the worst error as a fraction of its bound.
 *
 * `--rungs LIST` (opencl or cuda) tests only the rungs named (numbers or names, comma-
 * separated) and, when LIST names it, the library ("library", or its name: cublas,
 * clblast); tools/gpu/check-semantics.sh runs one rung per process this way, after
 * `--list`, which prints the numbers of the backend's BLAS-call rungs and opens no device.
 *
 * Exits 77 (ctest's "skipped") when the backend has no device here, 2 for bad usage.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host_blas.h"
#include "base/random.h"
#include "rungs/registry.h"
#include "params/params.h"
#include "core/rung_exec.h"
#include "core/runner.h"
#include "core/targets.h"
#include "core/verify.h"

/* A call's sizes, leading dimensions (for single, NN, column-major: other cases keep each
 * leading dimension's excess over the minimum) and scalars. */
typedef struct {
    int M, N, K, lda, ldb, ldc;
    double alpha, beta;
} blas_case;

static const blas_case cases[] = {
    /* leading dimensions not multiples of 4: the single-element loads */
    {67, 45, 33, 70, 37, 71, -0.75, 0.5},
    {1, 1, 1, 1, 1, 1, 0.5, 0.0},
    {129, 131, 17, 131, 19, 133, 1.0, 0.0},
    /* multiples of 4: the vector loads, with edges in every direction */
    {130, 67, 36, 132, 40, 136, 2.0, -1.0},
    {100, 37, 13, 104, 16, 101, -1.0, 0.0},
    {256, 128, 64, 256, 64, 256, 1.0, 0.0},
    /* alpha = 0: C = beta * C exactly, A and B never read (they are all NaN) */
    {64, 64, 32, 68, 36, 64, 0.0, 3.0},
    /* a long K: split-K's slices of several K tiles, the last one short */
    {96, 40, 4099, 100, 4100, 97, 0.5, 2.0},
    /* skinny, N <= 16 (rung 20's tall path): lda not a multiple of 4, then vector rows
     * with an edge (M = 1001) and N = 3; K = 1 with N at the cap; K = 0 */
    {1000, 1, 999, 1003, 1001, 1002, -0.75, 0.5},
    {1001, 3, 517, 1004, 520, 1001, 1.0, 0.0},
    {64, 16, 1, 64, 1, 64, 2.0, -1.0},
    {300, 5, 0, 300, 1, 301, 1.0, 2.0},
    {37, 8, 2000, 40, 2000, 37, 0.0, 0.5},
    /* skinny, M <= 16 (the wide path): ldb not a multiple of 4, then vector depths with
     * an edge (K = 1001); K = 1 with M at the cap; K = 0; a long prime K */
    {1, 1000, 999, 1, 1001, 1, -0.75, 0.5},
    {3, 517, 1001, 4, 1004, 5, 1.0, 0.0},
    {16, 64, 1, 16, 4, 17, 2.0, -1.0},
    {5, 300, 0, 5, 1, 7, 1.0, 2.0},
    {7, 33, 4099, 8, 4100, 7, 1.0, 0.0},
    /* both small: 1 x 1 with a prime K, and 16 x 16 */
    {1, 1, 997, 1, 997, 1, 1.0, 0.0},
    {16, 16, 97, 17, 100, 16, -1.0, 0.25},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* --large: a leading dimension of 2^26 + 4 (or + 1) times column 32 passes 2^31. Corners
 * of 16 or 64 rows and 16 or 33 columns, so that every rung (rung 20 too) takes them. */
#define LARGE_LD (1 << 26)
#define LARGE_COLS 33
static const size_t large_bytes = (size_t)(LARGE_LD + 4) * LARGE_COLS * sizeof(float);
static const blas_case large_cases[] = {
    /* lda: A's column 32 starts 2^31 + 128 floats in (vector loads: all ld % 4 == 0) */
    {64, 16, LARGE_COLS, LARGE_LD + 4, 36, 64, 1.0, 0.0},
    /* ldb, not a multiple of 4 (single-float loads): B's column 32 at 2^31 + 32 */
    {16, LARGE_COLS, 64, 16, LARGE_LD + 1, 16, -0.5, 0.0},
    /* ldc, with C read (beta != 0) and written in column 32 at 2^31 + 128 */
    {16, LARGE_COLS, 64, 16, 68, LARGE_LD + 4, 1.0, 0.5},
};

static int failures = 0;
static int untested = 0; /* rungs and precisions no parameters fit: NOT TESTED */

/* What one subject did in one case (precision, pair, layout): the summary line. */
typedef struct {
    int calls, wrong;        /* calls made, and those with a wrong result or an error */
    int edges, edges_wrong;  /* run_edges' checks, and those that failed */
    double worst;            /* the largest error / bound of a passing element */
} tally;

/* ---- matrices as a BLAS call stores them --------------------------------------------- */

/* A rows x cols matrix stored in `layout` with leading dimension ld, elements of the
 * case's precision; `at` gives element (i, j)'s index. */
typedef struct {
    void *x;
    size_t elems; /* ld times the lines it stores, at least 1 */
    int rows, cols, ld;
    gemm_layout layout;
    int dbl;
} stored;

static size_t at(const stored *s, long i, long j)
{
    return s->layout == LAYOUT_ROW ? (size_t)i * s->ld + (size_t)j
                                   : (size_t)i + (size_t)j * s->ld;
}

static double get(const stored *s, size_t e)
{
    return s->dbl ? ((const double *)s->x)[e] : (double)((const float *)s->x)[e];
}

static void put(stored *s, size_t e, double v)
{
    if (s->dbl)
        ((double *)s->x)[e] = v;
    else
        ((float *)s->x)[e] = (float)v;
}

/* Random inside (the harness's inputs, in [-1, 1]), `pad` outside. Each matrix gets the
 * next seed and each of its lines a seed of its own, so that only the inside is drawn
 * (--large pads billions of elements). `all_pad`: the inside too (a matrix never read). */
static stored make_matrix(const gemm_case *c, int rows, int cols, int ld, double pad,
                          int all_pad, uint64_t *seed)
{
    stored s = {NULL, 0, rows, cols, ld, c->layout, c->precision == PRECISION_DOUBLE};
    const size_t elem = gemm_elem_bytes(c->precision);
    const int lines = c->layout == LAYOUT_ROW ? rows : cols;
    const int len = c->layout == LAYOUT_ROW ? cols : rows;
    s.elems = (size_t)ld * lines + 1; /* with K = 0, A and B are empty: a buffer must exist */
    s.x = malloc(s.elems * elem);
    if (!s.x) {
        fprintf(stderr, "FAIL: out of host memory for a %d x %d matrix with ld %d\n", rows,
                cols, ld);
        exit(1);
    }
    const uint64_t base = (*seed)++;
    put(&s, s.elems - 1, pad);
    for (int l = 0; l < lines; l++) {
        void *line = (char *)s.x + (size_t)l * ld * elem;
        if (!all_pad)
            random_fill_elems(line, (size_t)len, c->precision,
                              base * 0x9E3779B97F4A7C15u + (uint64_t)l);
        for (int i = all_pad ? 0 : len; i < ld; i++)
            put(&s, (size_t)l * ld + (size_t)i, pad);
    }
    return s;
}

/* ---- what is tested ------------------------------------------------------------------ */

/* One of the BLAS calls: a rung (its program compiled for the case), the library of a
 * backend, or the host's BLAS. */
typedef struct {
    const char *name;
    run_target *t;          /* NULL: the host BLAS */
    const rung *r;          /* NULL: a baseline */
    const int *values;
    program_cache *pc;
    int units;              /* compute units a rung of several kernels sizes itself for */
} subject;

static gpu_buffer *device_copy(run_target *t, const stored *s)
{
    char msg[LADDER_MSG];
    gpu_buffer *b = NULL;
    const size_t bytes = s->elems * (s->dbl ? sizeof(double) : sizeof(float));
    if (t->ops->alloc(t->session, bytes, &b, msg) != LADDER_OK ||
        t->ops->upload(t->session, b, s->x, bytes, msg) != LADDER_OK) {
        fprintf(stderr, "FAIL device buffer: %s\n", msg);
        exit(1);
    }
    return b;
}

/* The rung's workspace as the harness prepares it (NULL for none): full of NaN, so that a
 * kernel that reads a partial result no kernel wrote carries the NaN into C, but for the
 * counters a rung keeps there (zeros). */
static gpu_buffer *nan_workspace(const subject *sub, const gemm_case *c,
                                 const launch_shape *shape)
{
    const size_t elems = rung_workspace(sub->r, sub->values, shape);
    if (elems == 0)
        return NULL;
    stored w = {NULL, elems, 1, (int)elems, 1, LAYOUT_COL, c->precision == PRECISION_DOUBLE};
    w.x = malloc(elems * gemm_elem_bytes(c->precision));
    if (!w.x) {
        fprintf(stderr, "FAIL: out of host memory for a workspace of %zu elements\n", elems);
        exit(1);
    }
    rung_workspace_fill(sub->r, sub->values, shape, w.x, elems, gemm_elem_bytes(c->precision));
    gpu_buffer *b = device_copy(sub->t, &w);
    free(w.x);
    return b;
}

/* A rung's call: the column-major call the harness makes (a row-major case swaps the
 * operands, M and N and the transpose flags), compiled for the case. */
static ladder_status call_rung(const subject *sub, const gemm_call *g, gpu_buffer *dA,
                               gpu_buffer *dB, gpu_buffer *dC, char *msg)
{
    run_target *t = sub->t;
    const int row = g->c.layout == LAYOUT_ROW;
    gemm_case kc = g->c;
    kc.layout = LAYOUT_COL;
    kc.trans_a = row ? g->c.trans_b : g->c.trans_a;
    kc.trans_b = row ? g->c.trans_a : g->c.trans_b;
    char options[256];
    gpu_program *prog;
    rung_compile_options(sub->r, sub->values, &t->dev, &kc, options, sizeof options);
    ladder_status st = program_cache_get(sub->pc, t, sub->r->id, options, &prog, msg);
    if (st != LADDER_OK)
        return st;
    const blas_call call = {(int)(row ? g->N : g->M), (int)(row ? g->M : g->N), (int)g->K,
                            g->c.alpha, row ? dB : dA, (int)(row ? g->ldb : g->lda),
                            row ? dA : dB, (int)(row ? g->lda : g->ldb), g->c.beta, dC,
                            (int)g->ldc, kc.trans_a, kc.trans_b, g->c.precision};
    const launch_shape shape = {call.M, call.N, call.K, sub->units,
                                (int)gemm_elem_bytes(g->c.precision),
                                sub->r->takes_transposes && kc.trans_a,
                                sub->r->takes_transposes && kc.trans_b};
    gpu_buffer *dW = nan_workspace(sub, &g->c, &shape);
    st = rung_enqueue_blas(t, prog, sub->r, sub->values, &call, sub->units, dW, msg);
    if (st == LADDER_OK)
        st = t->ops->finish(t->session, msg);
    if (dW)
        t->ops->release(dW);
    return st;
}

/* Runs call `g` on the subject: A, B and C are the host matrices; C is updated in place.
 * Returns what the call returned. */
static ladder_status run_call(const subject *sub, const gemm_call *g, const stored *A,
                              const stored *B, stored *C, char *msg)
{
    if (!sub->t)
        return host_gemm(g, A->x, B->x, C->x, msg);
    run_target *t = sub->t;
    gpu_buffer *dA = device_copy(t, A), *dB = device_copy(t, B), *dC = device_copy(t, C);
    ladder_status st;
    if (sub->r) {
        st = call_rung(sub, g, dA, dB, dC, msg);
    } else {
        st = t->ops->library_gemm(t->session, g, dA, dB, dC, msg);
        if (st == LADDER_OK)
            st = t->ops->finish(t->session, msg);
    }
    char why[LADDER_MSG];
    if (st == LADDER_OK &&
        t->ops->download(t->session, C->x, dC,
                         C->elems * (C->dbl ? sizeof(double) : sizeof(float)), why) !=
            LADDER_OK) {
        fprintf(stderr, "FAIL download: %s\n", why);
        exit(1);
    }
    t->ops->release(dA);
    t->ops->release(dB);
    t->ops->release(dC);
    return st;
}

/* ---- one case ------------------------------------------------------------------------ */

/* The call of case `bc` in case `c`: each leading dimension keeps its excess over the
 * minimum of single NN column-major. */
static gemm_call make_call(const gemm_case *c, const blas_case *bc)
{
    gemm_call g;
    gemm_call_tight(c, bc->M, bc->N, bc->K, &g);
    g.c.alpha = bc->alpha;
    g.c.beta = bc->beta;
    g.lda += bc->lda - bc->M;
    g.ldb += bc->ldb - bc->K;
    g.ldc += bc->ldc - bc->M;
    return g;
}

static void case_name(const gemm_call *g, char *out, size_t size)
{
    char trans[3];
    snprintf(out, size, "%s %s %s %ldx%ldx%ld lda %ld ldb %ld ldc %ld alpha %g beta %g",
             gemm_precision_name(g->c.precision),
             gemm_trans_name(g->c.trans_a, g->c.trans_b, trans),
             gemm_layout_name(g->c.layout), g->M, g->N, g->K, g->lda, g->ldb, g->ldc,
             g->c.alpha, g->c.beta);
}

/* Runs call `g` and checks every element of C, inside and outside; counts it in `tl`. A
 * wrong call is one line: the call, how many elements are wrong and the first of them. */
static void run_case(const subject *sub, const gemm_call *g, double u, uint64_t *seed,
                     tally *tl)
{
    char msg[LADDER_MSG], name[192], first[192] = "", device[32] = "";
    const gemm_case *c = &g->c;
    const int M = (int)g->M, N = (int)g->N, K = (int)g->K;
    const double pad_c = 777.0; /* C's padding must come back exactly as it was */
    const int no_ab = c->alpha == 0.0; /* A and B must not be read at all */
    stored A = c->trans_a ? make_matrix(c, K, M, (int)g->lda, NAN, no_ab, seed)
                          : make_matrix(c, M, K, (int)g->lda, NAN, no_ab, seed);
    stored B = c->trans_b ? make_matrix(c, N, K, (int)g->ldb, NAN, no_ab, seed)
                          : make_matrix(c, K, N, (int)g->ldb, NAN, no_ab, seed);
    stored C0 = make_matrix(c, M, N, (int)g->ldc, pad_c, 0, seed);
    if (c->beta == 0.0) /* C must not be read: any read would make the result NaN */
        for (int j = 0; j < N; j++)
            for (int i = 0; i < M; i++)
                put(&C0, at(&C0, i, j), NAN);
    stored C = C0;
    const size_t bytes = C0.elems * gemm_elem_bytes(c->precision);
    C.x = malloc(bytes);
    if (!C.x) {
        fprintf(stderr, "FAIL: out of host memory\n");
        exit(1);
    }
    memcpy(C.x, C0.x, bytes);
    case_name(g, name, sizeof name);
    if (sub->r && sub->r->launches)
        snprintf(device, sizeof device, ", %d units", sub->units);
    tl->calls++;
    if (run_call(sub, g, &A, &B, &C, msg) != LADDER_OK) {
        printf("FAIL %s %s%s: %s\n", sub->name, name, device, msg);
        failures++;
        tl->wrong++;
        goto done;
    }

    /* Inputs rounded to a narrower format first (TF32 rungs: rung.input_roundoff) add
     * their products' error to the sums' (core/verify.h, verify_result_rounded). */
    const double u_in = sub->r ? sub->r->input_roundoff : 0.0;
    const double inputs = 2.0 * u_in + u_in * u_in, sums = verify_gamma(K + 2, u);
    const double gamma = inputs + sums + inputs * sums + verify_gamma(K + 2, LDBL_EPSILON / 2);
    const double tiny = (double)(K + 2) * (c->precision == PRECISION_DOUBLE ? DBL_MIN : FLT_MIN);
    long bad = 0;
    double worst = 0.0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            long double ref = 0, abs = 0;
            for (int k = 0; k < K && !no_ab; k++) {
                const long double p =
                    (long double)get(&A, c->trans_a ? at(&A, k, i) : at(&A, i, k)) *
                    get(&B, c->trans_b ? at(&B, j, k) : at(&B, k, j));
                ref += p;
                abs += fabsl(p);
            }
            ref *= c->alpha;
            abs *= fabs(c->alpha);
            const size_t e = at(&C, i, j);
            if (c->beta != 0.0) {
                ref += (long double)c->beta * get(&C0, e);
                abs += fabsl((long double)c->beta * get(&C0, e));
            }
            const double got = get(&C, e);
            const double err = (double)fabsl(got - ref), bound = gamma * (double)abs + tiny;
            if (!isfinite(got) || err > bound) {
                if (bad++ == 0)
                    snprintf(first, sizeof first, "C(%d,%d) = %.17g, expected %.17g (bound "
                             "%.3g)", i, j, got, (double)ref, bound);
            } else if (bound > 0 && err / bound > worst) {
                worst = err / bound;
            }
        }
    /* The padding of C: every element outside the M x N corner. */
    for (size_t e = 0; e < C.elems; e++) {
        long line = (long)(e / (size_t)C.ld), pos = (long)(e % (size_t)C.ld);
        int inside = e + 1 < C.elems &&
                     (C.layout == LAYOUT_ROW ? pos < N && line < M : pos < M && line < N);
        if (!inside && get(&C, e) != pad_c && bad++ == 0)
            snprintf(first, sizeof first, "C's element %zu, outside the %dx%d result, was "
                     "written: %g", e, M, N, get(&C, e));
    }
    if (bad)
        printf("FAIL %s %s%s: %ld wrong element(s); the first: %s\n", sub->name, name,
               device, bad, first);
    failures += bad != 0;
    tl->wrong += bad != 0;
    if (worst > tl->worst)
        tl->worst = worst;
done:
    free(A.x);
    free(B.x);
    free(C0.x);
    free(C.x);
}

/* M = 0 or N = 0 returns at once with C untouched; a leading dimension below its minimum
 * is an error naming it, with C untouched. Rungs get the column-major calls the harness
 * makes (their leading dimensions are checked there), the libraries every layout. */
static void run_edges(const subject *sub, const gemm_case *c, uint64_t *seed, tally *tl)
{
    const blas_case base = {33, 21, 17, 33, 17, 33, 1.0, 0.5};
    for (int which = 0; which < 5; which++) {
        gemm_call g = make_call(c, &base);
        const char *expect = NULL, *what;
        if (which == 0) {
            g.M = 0;
            what = "M = 0";
        } else if (which == 1) {
            g.N = 0;
            what = "N = 0";
        } else {
            long *ld = which == 2 ? &g.lda : which == 3 ? &g.ldb : &g.ldc;
            expect = which == 2 ? "lda" : which == 3 ? "ldb" : "ldc";
            if (sub->r && c->layout == LAYOUT_ROW) /* the swap renames lda and ldb */
                expect = which == 2 ? "ldb" : which == 3 ? "lda" : "ldc";
            (*ld)--; /* tight before: now one below the minimum */
            what = which == 2 ? "lda too small" : which == 3 ? "ldb too small"
                                                             : "ldc too small";
        }
        /* Matrices as large as the call's full sizes, C all padding. */
        const gemm_call full = make_call(c, &base);
        stored A = c->trans_a ? make_matrix(c, base.K, base.M, (int)full.lda, NAN, 0, seed)
                              : make_matrix(c, base.M, base.K, (int)full.lda, NAN, 0, seed);
        stored B = c->trans_b ? make_matrix(c, base.N, base.K, (int)full.ldb, NAN, 0, seed)
                              : make_matrix(c, base.K, base.N, (int)full.ldb, NAN, 0, seed);
        stored C = make_matrix(c, base.M, base.N, (int)full.ldc, 555.0, 1, seed);
        char msg[LADDER_MSG] = "";
        ladder_status st = run_call(sub, &g, &A, &B, &C, msg);
        int untouched = 1;
        for (size_t e = 0; e < C.elems; e++)
            untouched &= get(&C, e) == 555.0;
        int ok = untouched && (expect ? st == LADDER_ERROR && strstr(msg, expect) != NULL
                                      : st == LADDER_OK);
        char trans[3];
        if (!ok)
            printf("FAIL %s %s %s %s %s: expected %s%s, got %s%s\n", sub->name,
                   gemm_precision_name(c->precision),
                   gemm_trans_name(c->trans_a, c->trans_b, trans), gemm_layout_name(c->layout),
                   what, expect ? "an error naming " : "a return", expect ? expect : "",
                   st == LADDER_OK ? "a return" : msg, untouched ? "" : " (C was written)");
        failures += !ok;
        tl->edges++;
        tl->edges_wrong += !ok;
        free(A.x);
        free(B.x);
        free(C.x);
    }
}

/* 1 when the column-major call's sizes and leading dimensions are multiples of what the
 * rung needs (rung.multiples), as after the harness's padding. */
static int at_its_multiples(const rung *r, const int *values, const gemm_call *g,
                            const gemm_size *shape)
{
    int mult[3] = {1, 1, 1};
    if (r->multiples)
        r->multiples(values, mult);
    const int row = g->c.layout == LAYOUT_ROW;
    const long lda = row ? g->ldb : g->lda, ldb = row ? g->lda : g->ldb;
    return shape->M % mult[0] == 0 && shape->N % mult[1] == 0 && shape->K % mult[2] == 0 &&
           lda % mult[0] == 0 && ldb % mult[2] == 0 && g->ldc % mult[0] == 0;
}

/* Every case of `list` the subject takes in `c`, each once or (rungs of several kernels)
 * as on 1 and on 132 compute units, counted in `tl`. Returns how many cases ran. */
static int run_cases(subject *sub, const gemm_case *c, const blas_case *list, size_t n,
                     double u, uint64_t *seed, tally *tl)
{
    char msg[LADDER_MSG];
    int accepted = 0;
    const int units[2] = {1, 132};
    for (size_t i = 0; i < n; i++) {
        const gemm_call g = make_call(c, &list[i]);
        /* A rung sees the column-major call's shape. */
        const int row = c->layout == LAYOUT_ROW;
        const gemm_size shape = {row ? g.N : g.M, row ? g.M : g.N, g.K};
        if (sub->r && rung_check_size(sub->r, sub->values, &shape, msg) != LADDER_OK)
            continue;
        /* A rung that pads (the TMA rungs) is called by the harness only on its padded
         * copies: sizes and leading dimensions that are multiples of its tiles' needs. */
        if (sub->r && sub->r->pads && !at_its_multiples(sub->r, sub->values, &g, &shape))
            continue;
        accepted++;
        for (int k = 0; k < (sub->r && sub->r->launches ? 2 : 1); k++) {
            sub->units = units[k];
            run_case(sub, &g, u, seed, tl);
        }
    }
    return accepted;
}

/* The cases of a subject in precision `p`: every transpose pair and layout it takes, one
 * summary line each. */
static void test_subject(subject *sub, gemm_precision p, int large)
{
    uint64_t seed = 12345u + 1000u * (uint64_t)p;
    for (int tr = 0; tr < 4; tr++)
        for (int l = 0; l < 2; l++) {
            gemm_case c = {p, tr >> 1, tr & 1, l ? LAYOUT_ROW : LAYOUT_COL, 1.0, 0.0};
            if (large && (p != PRECISION_SINGLE || tr || l))
                continue;
            char msg[LADDER_MSG], label[64], trans[3];
            if (sub->r && rung_check_case(sub->r, &c, msg) != LADDER_OK)
                continue;
            snprintf(label, sizeof label, "%s %s %s", gemm_precision_name(p),
                     gemm_trans_name(c.trans_a, c.trans_b, trans), gemm_layout_name(c.layout));
            const double u = sub->r ? rung_unit_roundoff(sub->r, c.precision)
                                    : gemm_unit_roundoff(c.precision);
            tally tl = {0};
            int n = large ? run_cases(sub, &c, large_cases, 3, u, &seed, &tl)
                          : run_cases(sub, &c, cases, NCASES, u, &seed, &tl);
            if (n == 0) {
                printf("FAIL %s %s: accepts none of the cases\n", sub->name, label);
                failures++;
            }
            if (!large)
                run_edges(sub, &c, &seed, &tl);
            int bad = n == 0 || tl.wrong || tl.edges_wrong;
            printf("%s %s %s: %d shapes, %d calls (%d wrong), %d edge checks (%d wrong); "
                   "worst error/bound %.3f\n", bad ? "FAIL" : "ok  ", sub->name, label, n,
                   tl.calls, tl.wrong, tl.edges, tl.edges_wrong, tl.worst);
        }
}

/* The parameters `ladder run` gives rung r on this device in precision p (no tuning
 * database): the defaults, or the small-device defaults where they do not fit. 0, or -1
 * with the reason in msg. */
static int run_params(run_target *t, const rung *r, gemm_precision p, int *values,
                      const char **source, char *msg)
{
    return params_resolve(r, NULL, 0, 0, &t->dev, p, values, source, msg) == LADDER_OK ? 0
                                                                                       : -1;
}

/* Rung r in precision p, with the parameters a run would use there, then again with each
 * switch (a parameter of range 0..1, such as split-K's ATOMIC) flipped, since a switch
 * chooses another path through the kernels. */
static void test_rung_in(run_target *t, program_cache *pc, const rung *r, gemm_precision p,
                         const int *values, const char *source, int large)
{
    char msg[LADDER_MSG], params[96], name[64];
    for (int k = -1; k < r->nparams; k++) {
        int v[RUNG_MAX_PARAMS];
        memcpy(v, values, sizeof v);
        if (k >= 0) {
            if (r->params[k].min != 0 || r->params[k].max != 1)
                continue;
            v[k] = !values[k];
            if (rung_check_params(r, v, msg) != LADDER_OK ||
                rung_check_device(r, v, &t->dev, p, msg) != LADDER_OK) {
                printf("rung %d (%s) in %s with %s=%d cannot run on %s: that path is not "
                       "tested (%s)\n", r->number, r->name, gemm_precision_name(p),
                       r->params[k].name, v[k], t->dev.name, msg);
                continue;
            }
        }
        rung_params_string(r, v, params, sizeof params);
        printf("rung %d (%s) in %s: %s (%s) on %s\n", r->number, r->name,
               gemm_precision_name(p), params, k < 0 ? source : "a switch flipped",
               t->dev.name);
        snprintf(name, sizeof name, "rung %d (%s)", r->number, r->name);
        subject sub = {name, t, r, v, pc, 1};
        test_subject(&sub, p, large);
    }
}

/* Rung r in each precision it takes. Returns 1 when it ran, 0 when it cannot run on this
 * device at all (another backend, a compute capability it needs). */
static int test_rung(run_target *t, program_cache *pc, const rung *r, int large)
{
    char msg[LADDER_MSG];
    int values[RUNG_MAX_PARAMS];
    const char *source;
    /* Its own precision first (double for a double-only rung): if that cannot run here,
     * the rung cannot. */
    const gemm_precision own = rung_own_precision(r);
    if (run_params(t, r, own, values, &source, msg) != 0) {
        printf("rung %d (%s) cannot run on %s: not tested here (%s)\n", r->number, r->name,
               t->dev.name, msg);
        return 0;
    }
    test_rung_in(t, pc, r, own, values, source, large);
    gemm_case other = GEMM_CASE_DEFAULT;
    other.precision = own == PRECISION_SINGLE ? PRECISION_DOUBLE : PRECISION_SINGLE;
    if (large || rung_check_case(r, &other, msg) != LADDER_OK)
        return 1; /* not the other precision, by design (the registry says why) */
    /* It takes the other precision and runs here: it must run in it too, with the
     * parameters a run would use. None fitting is no pass: it is said loudly. */
    if (run_params(t, r, other.precision, values, &source, msg) != 0) {
        printf("NOT TESTED: rung %d (%s) in %s: no parameters fit %s (%s)\n", r->number,
               r->name, gemm_precision_name(other.precision), t->dev.name, msg);
        untested++;
        return 1;
    }
    test_rung_in(t, pc, r, other.precision, values, source, large);
    return 1;
}

/* --rungs LIST: marks the rungs named (want[i] for registry entry i) and the library.
 * 0, or 2 after a one-line usage error. */
static int parse_rungs(const char *list, const char *backend, int *want, int *want_library)
{
    int count;
    const rung *all = registry_all(&count);
    char copy[256];
    int named = 0;
    char *save = NULL;
    if (snprintf(copy, sizeof copy, "%s", list) >= (int)sizeof copy)
        copy[0] = '\0'; /* an overlong list names nothing this ladder has */
    for (char *key = strtok_r(copy, ",", &save); key; key = strtok_r(NULL, ",", &save)) {
        named++;
        const rung *r = strcmp(key, "library") == 0 ? NULL : registry_find(key);
        if (strcmp(key, "library") == 0 ||
            (r && r->kind == RUNG_LIBRARY && r->library_backend &&
             strcmp(r->library_backend, backend) == 0)) {
            *want_library = 1;
            continue;
        }
        if (!r || !r->blas_args) {
            fprintf(stderr, "test_blas_semantics: --rungs: '%s' is %s: name BLAS-call rungs "
                            "(blas_args) or 'library'\n", key,
                    r ? "not a BLAS-call rung" : "no rung");
            return 2;
        }
        want[r - all] = 1;
    }
    if (named == 0) {
        fprintf(stderr, "test_blas_semantics: --rungs '%s': give a list such as 18,20 or "
                        "15,library\n", list);
        return 2;
    }
    return 0;
}

static int usage(const char *self)
{
    fprintf(stderr, "usage: %s opencl|cuda [--large] [--rungs LIST] | opencl|cuda --list | "
                    "cpu\n", self);
    return 2;
}

/* --list: the numbers of the backend's BLAS-call rungs, one a line. */
static int list_rungs(const char *backend)
{
    int count;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++)
        if (all[i].blas_args && rung_on_backend(&all[i], backend))
            printf("%d\n", all[i].number);
    return 0;
}

int main(int argc, char **argv)
{
    int large = 0, count, want_library = 1;
    const char *rungs = NULL;
    if (argc < 2)
        return usage(argv[0]);
    const char *backend = argv[1];
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--large") == 0)
            large = 1;
        else if (strcmp(argv[i], "--list") == 0 && argc == 3)
            continue; /* handled below, once the backend is known to be one */
        else if (strcmp(argv[i], "--rungs") == 0 && i + 1 < argc)
            rungs = argv[++i];
        else
            return usage(argv[0]);
    }
    if (strcmp(backend, "cpu") == 0) {
        if (argc != 2)
            return usage(argv[0]);
        subject sub = {"the host BLAS", NULL, NULL, NULL, NULL, 1};
        printf("the host BLAS (host_gemm)\n");
        test_subject(&sub, PRECISION_SINGLE, 0);
        test_subject(&sub, PRECISION_DOUBLE, 0);
        printf("%s: %d case(s) failed\n", failures ? "FAILED" : "PASSED", failures);
        return failures ? 1 : 0;
    }
    if (strcmp(backend, "opencl") != 0 && strcmp(backend, "cuda") != 0)
        return usage(argv[0]);
    if (argc == 3 && strcmp(argv[2], "--list") == 0)
        return list_rungs(backend);
    const rung *all = registry_all(&count);
    int *want = calloc((size_t)count, sizeof *want);
    if (!want) {
        fprintf(stderr, "FAIL: out of memory\n");
        return 1;
    }
    for (int i = 0; i < count && !rungs; i++)
        want[i] = all[i].blas_args;
    if (rungs) {
        want_library = 0;
        int bad = parse_rungs(rungs, backend, want, &want_library);
        if (bad) {
            free(want);
            return bad;
        }
    }
    char msg[LADDER_MSG];
    run_target *targets = NULL;
    int ntargets = 0;
    if (targets_open(backend, NULL, 0, &targets, &ntargets, msg) != LADDER_OK ||
        ntargets == 0) {
        printf("no %s device: skipped (%s)\n", backend, msg);
        free(want);
        return 77;
    }
    run_target *t = &targets[0];
    const device_info *dev = &t->dev;
    if (large && (!dev->is_gpu || dev->max_alloc_bytes < large_bytes)) {
        printf("--large: skipped on %s: the cases need a GPU that can allocate one buffer of "
               "%.1f GB (this device: %s, largest buffer %.1f GB)\n", dev->name,
               large_bytes / 1e9, dev->is_gpu ? "a GPU" : "not a GPU",
               dev->max_alloc_bytes / 1e9);
        targets_close(targets, ntargets);
        free(want);
        return 77;
    }
    program_cache *pc = program_cache_new();
    if (!pc) {
        fprintf(stderr, "FAIL: out of memory\n");
        targets_close(targets, ntargets);
        free(want);
        return 1;
    }
    int chosen = 0, tested = 0;
    for (int i = 0; i < count; i++)
        if (want[i]) {
            chosen++;
            tested += test_rung(t, pc, &all[i], large);
        }
    free(want);
    /* The vendor library of the backend, when it was built with it. */
    int library = !large && want_library && t->ops->library_gemm;
    if (library) {
        printf("%s on %s\n", t->ops->library_name, dev->name);
        subject sub = {t->ops->library_name, t, NULL, NULL, pc, 1};
        test_subject(&sub, PRECISION_SINGLE, 0);
        test_subject(&sub, PRECISION_DOUBLE, 0);
    } else if (!large && want_library) {
        printf("%s: built without %s: its cases are skipped\n", backend,
               t->ops->library_name);
    }
    program_cache_free(pc, t->ops);
    targets_close(targets, ntargets);
    if (!rungs && chosen == 0) {
        fprintf(stderr, "FAIL: no rung with blas_args in the registry\n");
        return 1;
    }
    if (tested == 0 && !library) {
        printf("none of the %d rung(s) chosen runs on this %s device%s: skipped\n", chosen,
               backend, want_library ? ", and there is no library" : "");
        return 77;
    }
    char also[96] = "";
    if (untested)
        snprintf(also, sizeof also, "; %d rung(s) NOT TESTED in double: no parameters fit",
                 untested);
    printf("%s: %d case(s) failed on %d rung(s)%s%s\n", failures ? "FAILED" : "PASSED",
           failures, tested, library ? " and the library" : "", also);
    return failures ? 1 : 0;
}
