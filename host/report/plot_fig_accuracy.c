/* Figure 7, accuracy against speed: from a K sweep (one C of M x N, many K: `ladder run
 * --sizes ksweep`), each method's error against its speed, one point per K, the points of
 * one method joined; beside it, the same errors against K.
 *
 * The error is the rows' rel_error, the largest |c - r| / (|A||B|)_ij over the checked
 * elements: the same measure for every method whatever its own bound, so the float32
 * rungs, rung 16 (3xTF32), cuBLAS SGEMM and cuBLAS in TF32 share one axis. A method
 * that is as fast and as accurate as another lies on top of it; trading accuracy for
 * speed moves a method right and up. Dotted lines mark the unit roundoff of float32
 * (2^-24) and of TF32 (2^-11), the two precisions the methods are built from.
 *
 * Only what the files hold is drawn: a method with no row at some K has no point there,
 * and rows without rel_error (files written before the column) are left out with a note.
 */
#include "report/plot_figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_gnuplot.h"

/* Fewest distinct K that make a sweep worth a figure. */
#define SWEEP_MIN_K 3

/* One K sweep: a device and backend, one C of M x N. */
typedef struct {
    char device[256];
    char backend[16];
    long M, N;
} sweep;

/* A row that can be a point: ok (the model keeps only those), one of the ladder's rungs or
 * a device's library (not auto, which repeats a rung; not the host's BLAS), measured
 * with rel_error. A rel_error of 0 (every checked element exact) has no place on a log
 * axis; the caller counts those rows. */
static int drawable(const result_row *r)
{
    return !plot_is_auto_row(r) && strcmp(r->backend, "cpu") != 0 && r->rel_error > 0;
}

static int in_sweep(const sweep *s, const result_row *r)
{
    return r->M == s->M && r->N == s->N && strcmp(r->device, s->device) == 0 &&
           strcmp(r->backend, s->backend) == 0;
}

/* plot_find_series's filter: the sweep's drawable rows. */
static int keep_row(const result_row *r, const void *ctx)
{
    return in_sweep(ctx, r) && drawable(r);
}

static int compare_longs(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The distinct K of the sweep's drawable rows, ascending, in *out (malloc'd; free it).
 * Returns how many, or -1 when out of memory. */
static int sweep_ks(const plot_model *m, const sweep *s, long **out)
{
    long *ks = malloc((size_t)(m->nshape_rows + 1) * sizeof *ks);
    *out = ks;
    if (!ks)
        return -1;
    int n = 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (!keep_row(r, s))
            continue;
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = ks[k] == r->K;
        if (!seen)
            ks[n++] = r->K;
    }
    qsort(ks, (size_t)n, sizeof *ks, compare_longs);
    return n;
}

static int compare_rows_by_k(const void *a, const void *b)
{
    const result_row *x = *(const result_row *const *)a, *y = *(const result_row *const *)b;
    return (x->K > y->K) - (x->K < y->K);
}

/* The method's points, by K, as one block of the data file (blocks are separated by two
 * blank lines: gnuplot's `index`). Widens the ranges to hold them. */
static ladder_status write_method(FILE *data, const plot_model *m, const sweep *s,
                                  const plot_series *me, double range[4], char *msg)
{
    const result_row **rows = malloc((size_t)(m->nshape_rows + 1) * sizeof *rows);
    if (!rows)
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the accuracy figure");
    int n = 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (keep_row(r, s) && plot_series_has(me, r))
            rows[n++] = r;
    }
    qsort(rows, (size_t)n, sizeof *rows, compare_rows_by_k);
    fprintf(data, "# %s\n", me->name);
    for (int i = 0; i < n; i++) {
        const result_row *r = rows[i];
        fprintf(data, "%ld %.6g %.6g\n", r->K, r->gflops, r->rel_error);
        range[0] = fmin(range[0], r->gflops);
        range[1] = fmax(range[1], r->gflops);
        range[2] = fmin(range[2], r->rel_error);
        range[3] = fmax(range[3], r->rel_error);
    }
    fprintf(data, "\n\n");
    free(rows);
    return LADDER_OK;
}

/* The arrays the script reads: each method's rung (0: a library) and its key, rungs first
 * (plot_find_series sorts them so). One entry more than the methods, as in the roofline:
 * gnuplot evaluates a loop's body once even when the loop is empty. */
static void write_methods(FILE *prelude, const plot_series *v, int n, const char *backend)
{
    int rungs = 0;
    for (int i = 0; i < n; i++)
        rungs += v[i].rung > 0;
    gnuplot_set_number(prelude, "n_rungs", rungs);
    gnuplot_set_number(prelude, "n_libraries", n - rungs);
    fprintf(prelude, "array method_rung[%d]\narray method_title[%d]\n"
                     "method_rung[%d] = 0\nmethod_title[%d] = ''\n", n + 1, n + 1, n + 1, n + 1);
    for (int i = 0; i < n; i++) {
        char key[96];
        if (v[i].rung > 0)
            snprintf(key, sizeof key, "%d %s", v[i].rung, v[i].name);
        else
            snprintf(key, sizeof key, "%s", plot_library_label(v[i].name, backend));
        fprintf(prelude, "method_rung[%d] = %d\nmethod_title[%d] = ", i + 1, v[i].rung, i + 1);
        gnuplot_quote(prelude, key);
        fputc('\n', prelude);
    }
}

/* The K axis's labels: every K measured, or every other one when there are more than 8,
 * so that the labels do not run into each other. */
static void write_k_tics(FILE *prelude, const long *ks, int n)
{
    fprintf(prelude, "k_tics = '");
    for (int i = 0; i < n; i += n > 8 ? 2 : 1)
        fprintf(prelude, "%s%ld", i ? " " : "", ks[i]);
    fprintf(prelude, "'\n");
}

static ladder_status draw_sweep(plot_job *job, const sweep *s, char *msg)
{
    const plot_model *m = job->model;
    plot_series *v = NULL; /* the methods: rungs ascending, then the libraries by name */
    long *ks = NULL;
    int n = plot_find_series(m, keep_row, s, &v), nk = sweep_ks(m, s, &ks);
    if (n <= 0 || nk <= 0) { /* a sweep has rows, so none means out of memory */
        free(v);
        free(ks);
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the accuracy figure");
    }
    char slug[96], name[240];
    plot_slug(s->device, slug, sizeof slug);
    snprintf(name, sizeof name, "%s-%s-accuracy-%ldx%ld", slug, s->backend, s->M, s->N);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK) {
        free(v);
        free(ks);
        return st;
    }
    fprintf(fig.data, "# %s, %s, C of %ld x %ld: one block per method (the prelude's "
                      "method_title), its rows K, GFLOPS, rel_error = max |c - r| / "
                      "(|A||B|)_ij\n", s->device, plot_backend_label(s->backend), s->M, s->N);
    double range[4] = {INFINITY, 0, INFINITY, 0}; /* GFLOPS low, high; error low, high */
    long k_lo = ks[0], k_hi = ks[nk - 1];
    for (int i = 0; i < n && st == LADDER_OK; i++)
        st = write_method(fig.data, m, s, &v[i], range, msg);
    if (st != LADDER_OK) {
        plot_figure_abandon(&fig);
        free(v);
        free(ks);
        return st;
    }
    char title[512];
    snprintf(title, sizeof title, "%s, %s: error against speed, C of %ld x %ld, K from %ld "
             "to %ld", s->device, plot_backend_label(s->backend), s->M, s->N, k_lo, k_hi);
    gnuplot_set_string(fig.prelude, "title_text", title);
    write_methods(fig.prelude, v, n, s->backend);
    /* Whole decades around the points, and room for both unit roundoffs' lines. */
    gnuplot_set_number(fig.prelude, "x_min", pow(10.0, floor(log10(range[0] / 1.5))));
    gnuplot_set_number(fig.prelude, "x_max", pow(10.0, ceil(log10(range[1] * 1.5))));
    gnuplot_set_number(fig.prelude, "y_min",
                       pow(10.0, floor(log10(fmin(range[2], 0x1p-24) / 1.5))));
    gnuplot_set_number(fig.prelude, "y_max",
                       pow(10.0, ceil(log10(fmax(range[3], 0x1p-11) * 1.5))));
    write_k_tics(fig.prelude, ks, nk);
    gnuplot_set_number(fig.prelude, "k_min", (double)k_lo);
    gnuplot_set_number(fig.prelude, "k_max", (double)k_hi);
    st = plot_figure_finish(job, &fig, "accuracy.gp", msg);
    free(v);
    free(ks);
    return st;
}

/* The sweeps of the rows, each at most once; -1 when out of memory. */
static int find_sweeps(const plot_model *m, sweep **out)
{
    sweep *v = malloc((size_t)(m->nshape_rows + 1) * sizeof *v);
    *out = v;
    if (!v)
        return -1;
    int n = 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (!drawable(r))
            continue;
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = in_sweep(&v[k], r);
        if (seen)
            continue;
        snprintf(v[n].device, sizeof v[n].device, "%s", r->device);
        snprintf(v[n].backend, sizeof v[n].backend, "%s", r->backend);
        v[n].M = r->M;
        v[n].N = r->N;
        long *ks;
        int k = sweep_ks(m, &v[n], &ks);
        free(ks);
        if (k < 0)
            return -1;
        if (k >= SWEEP_MIN_K)
            n++;
    }
    return n;
}

/* Says why rows were left out, and that nothing was drawn when no sweep was found. */
static void notes(const plot_model *m, int nsweeps)
{
    int unmeasured = 0, exact = 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (plot_is_auto_row(r) || strcmp(r->backend, "cpu") == 0)
            continue;
        unmeasured += r->rel_error < 0;
        exact += r->rel_error == 0;
    }
    if (nsweeps == 0)
        fprintf(stderr, "ladder plot: note: no K sweep in these files (one device, backend "
                        "and M x N at %d or more K, with rel_error): no accuracy figure; "
                        "ladder run --sizes ksweep measures one\n", SWEEP_MIN_K);
    else if (unmeasured > 0)
        fprintf(stderr, "ladder plot: note: %d rows have no rel_error (not verified, or "
                        "written before the column): not in the accuracy figure\n",
                unmeasured);
    if (nsweeps > 0 && exact > 0)
        fprintf(stderr, "ladder plot: note: %d rows had every checked element exact "
                        "(rel_error 0): no place on the accuracy figure's log axis\n", exact);
}

ladder_status plot_fig_accuracy(plot_job *job, char *msg)
{
    sweep *sweeps = NULL;
    int n = find_sweeps(job->model, &sweeps);
    if (n < 0) {
        free(sweeps);
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the accuracy figure");
    }
    notes(job->model, n);
    ladder_status st = LADDER_OK;
    for (int i = 0; i < n; i++) {
        char why[LADDER_MSG];
        if (draw_sweep(job, &sweeps[i], why) != LADDER_OK) {
            snprintf(msg, LADDER_MSG, "%s", why);
            st = LADDER_ERROR;
        }
    }
    free(sweeps);
    return st;
}
