/* Figure 6, the roofline: every measured size and shape of one device and backend as a
 * point, GFLOPS against arithmetic intensity, under the device's two measured ceilings.
 *
 * Arithmetic intensity is the flops of the product over the bytes it must move at least:
 * 2MNK / (4 (MK + KN + MN)), A and B read once and C written once. No kernel can pass
 * read bandwidth x intensity (the memory slope) or the FMA ceiling (the flat roof); they
 * meet at the ridge. A GEMV-like shape (0.5 flops per byte) sits on the slope whatever its
 * kernel, a big square (hundreds of flops per byte) under the roof, so the chart says for
 * each point which limit it could reach and how far it is from it.
 *
 * The ceilings are measurements given with --ceilings (plot_ceilings.c); a device without
 * them has no roofline. The shape-aware entry's rows are left out: each repeats the row
 * of the rung it ran.
 */
#include "report/plot_figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_gnuplot.h"

/* One series of points: a rung, or a vendor library (rung 0, by name). */
typedef struct {
    int rung;
    char name[32];      /* as the rows name it: "tiling", "cublas" */
} roof_series;

static double intensity(const result_row *r)
{
    double m = (double)r->M, n = (double)r->N, k = (double)r->K;
    return 2.0 * m * n * k / (4.0 * (m * k + k * n + m * n));
}

static int in_chart(const result_row *r, const plot_device *d, const char *backend)
{
    return strcmp(r->device, d->name) == 0 && strcmp(r->backend, backend) == 0 &&
           !plot_is_auto_row(r);
}

static int same_series(const roof_series *s, const result_row *r)
{
    return s->rung == r->rung && (r->rung > 0 || strcmp(s->name, r->rung_name) == 0);
}

/* Rungs ascending, then the libraries by name. */
static int compare_series(const void *a, const void *b)
{
    const roof_series *x = a, *y = b;
    if ((x->rung > 0) != (y->rung > 0))
        return x->rung > 0 ? -1 : 1;
    if (x->rung != y->rung)
        return x->rung < y->rung ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The series of the chart's rows; returns how many (malloc'd in *out), -1 out of memory. */
static int find_series(const plot_model *m, const plot_device *d, const char *backend,
                       roof_series **out)
{
    roof_series *s = malloc((size_t)(m->nshape_rows + 1) * sizeof *s);
    *out = s;
    if (!s)
        return -1;
    int n = 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (!in_chart(r, d, backend))
            continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = same_series(&s[j], r);
        if (seen)
            continue;
        s[n].rung = r->rung;
        snprintf(s[n].name, sizeof s[n].name, "%s", r->rung_name);
        n++;
    }
    qsort(s, (size_t)n, sizeof *s, compare_series);
    return n;
}

/* Short key entries: the key sits beside the chart, and the date goes in the title. */
static void ceiling_titles(plot_figure *fig, const plot_device *d)
{
    char value[32], title[256];
    plot_format_gflops(d->fma_gflops, value, sizeof value);
    snprintf(title, sizeof title, "FP32 FMA ceiling, %s GFLOPS", value);
    gnuplot_set_string(fig->prelude, "fma_title", title);
    plot_format_gflops(d->read_gbps, value, sizeof value);
    snprintf(title, sizeof title, "read bandwidth, %s GB/s", value);
    gnuplot_set_string(fig->prelude, "bw_title", title);
    title[0] = '\0';
    if (d->peak_gflops > 0.0) {
        plot_format_gflops(d->peak_gflops, value, sizeof value);
        snprintf(title, sizeof title, "FP32 peak, %s (%s)", value,
                 d->peak_from_user ? "given" : "nominal");
    }
    gnuplot_set_string(fig->prelude, "peak_title", title);
    gnuplot_set_number(fig->prelude, "fma", d->fma_gflops);
    gnuplot_set_number(fig->prelude, "bw", d->read_gbps);
    gnuplot_set_number(fig->prelude, "peak", d->peak_gflops);
}

ladder_status plot_fig_roofline(plot_job *job, int group, char *msg)
{
    const plot_model *m = job->model;
    const plot_group *g = &m->groups[group];
    const plot_device *d = &m->devices[g->device];
    if (d->fma_gflops <= 0.0 || d->read_gbps <= 0.0) {
        if (job->ceilings_given)
            fprintf(stderr, "ladder plot: note: the --ceilings file has no ceilings for %s: "
                            "no roofline for it\n", d->name);
        return LADDER_OK;
    }
    roof_series *series = NULL;
    int nseries = find_series(m, d, g->backend, &series);
    if (nseries <= 0) { /* a group has rows, so none means out of memory */
        free(series);
        return ladder_fail(msg, LADDER_ERROR, "out of memory preparing the roofline");
    }

    char name[200];
    snprintf(name, sizeof name, "%s-%s-roofline", d->slug, g->backend);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK) {
        free(series);
        return st;
    }
    fprintf(fig.data, "# %s, %s: flops per byte (2MNK / (4 (MK + KN + MN))), GFLOPS, series "
                      "(1..%d, in the order of the key), M, N, K\n",
            d->name, plot_backend_label(g->backend), nseries);
    double x_lo = d->fma_gflops / d->read_gbps, x_hi = x_lo, y_lo = d->fma_gflops;
    int nrungs = 0;
    for (int s = 0; s < nseries; s++)
        nrungs += series[s].rung > 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (!in_chart(r, d, g->backend))
            continue;
        int s = 0;
        while (!same_series(&series[s], r))
            s++;
        double x = intensity(r);
        x_lo = x < x_lo ? x : x_lo;
        x_hi = x > x_hi ? x : x_hi;
        y_lo = r->gflops < y_lo ? r->gflops : y_lo;
        fprintf(fig.data, "%.6g %.6g %d %ld %ld %ld\n", x, r->gflops, s + 1, r->M, r->N, r->K);
    }

    char title[512];
    snprintf(title, sizeof title, "%s, %s: every size and shape under the ceilings measured %s",
             d->name, plot_backend_label(g->backend), d->ceilings_date);
    plot_figure_title(job, &fig, title);
    ceiling_titles(&fig, d);
    /* Whole decades around the points and both ceilings, so the axis reads easily. */
    gnuplot_set_number(fig.prelude, "x_min", pow(10.0, floor(log10(x_lo / 1.5))));
    gnuplot_set_number(fig.prelude, "x_max", pow(10.0, ceil(log10(x_hi * 1.5))));
    gnuplot_set_number(fig.prelude, "y_min", pow(10.0, floor(log10(y_lo / 1.5))));
    gnuplot_set_number(fig.prelude, "y_max", 3.0 * fmax(d->fma_gflops, d->peak_gflops));
    gnuplot_set_number(fig.prelude, "n_rungs", nrungs);
    gnuplot_set_number(fig.prelude, "n_libraries", nseries - nrungs);
    /* One entry more than the series: gnuplot evaluates a plot loop's expression once even
     * when the loop is empty (no library), and the index must then exist. */
    fprintf(fig.prelude, "array series_rung[%d]\narray series_title[%d]\n"
                         "series_rung[%d] = 0\nseries_title[%d] = ''\n",
            nseries + 1, nseries + 1, nseries + 1, nseries + 1);
    for (int s = 0; s < nseries; s++) {
        char key[96];
        if (series[s].rung > 0)
            snprintf(key, sizeof key, "%d %s", series[s].rung, series[s].name);
        else
            snprintf(key, sizeof key, "%s", plot_library_label(series[s].name, g->backend));
        fprintf(fig.prelude, "series_rung[%d] = %d\nseries_title[%d] = ", s + 1, series[s].rung,
                s + 1);
        gnuplot_quote(fig.prelude, key);
        fputc('\n', fig.prelude);
    }
    st = plot_figure_finish(job, &fig, "roofline.gp", msg);
    free(series);
    return st;
}
