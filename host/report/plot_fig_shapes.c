/* Figure 5, the shapes chart: for one device and backend, shape by shape and grouped by
 * class, the fastest rung and the shape-aware entry ("auto") as a fraction of the vendor
 * library at the same shape, on a log axis with a line at 1. The shapes where the ladder
 * loses stand out below the line, and the class gaps show which ideas are missing.
 */
#include "report/plot_figure.h"

#include <math.h>
#include <stdlib.h>

#include "base/shapes.h"
#include "report/plot_gnuplot.h"

/* Geometric mean and lowest of value / library over the points that have the value. */
static int summarize(const plot_shape_chart *c, int use_auto, double *mean, double *lowest)
{
    double log_sum = 0;
    int n = 0;
    *lowest = INFINITY;
    for (int i = 0; i < c->npoints; i++) {
        const plot_shape_point *p = &c->points[i];
        double v = use_auto ? p->autov : p->best;
        if (v <= 0)
            continue;
        double ratio = v / p->library;
        log_sum += log(ratio);
        *lowest = ratio < *lowest ? ratio : *lowest;
        n++;
    }
    *mean = n ? exp(log_sum / n) : 0;
    return n;
}

/* "fastest rung: geometric mean 0.34x cuBLAS, lowest 0.01x (23 shapes)" */
static void series_title(const char *what, const plot_shape_chart *c, int use_auto,
                         const char *library, char *out, size_t size)
{
    double mean, lowest;
    int n = summarize(c, use_auto, &mean, &lowest);
    if (n == 0)
        snprintf(out, size, "%s: not measured", what);
    else
        snprintf(out, size, "%s: geometric mean %.2fx %s, lowest %.2fx (%d shape%s)", what,
                 mean, library, lowest, n, n == 1 ? "" : "s");
}

static void write_data(plot_figure *fig, const plot_shape_chart *c, double *lo, double *hi)
{
    fprintf(fig->data, "# %s, %s: GFLOPS / the vendor library's (%s) at the same shape\n"
                       "# position, shape, class, fastest rung's ratio, its label, auto's "
                       "ratio, its label\n", c->device, plot_backend_label(c->backend),
            c->library);
    *lo = *hi = 1.0;
    for (int i = 0; i < c->npoints; i++) {
        const plot_shape_point *p = &c->points[i];
        char shape[64], best[16] = "", chosen[16] = "";
        double rb = p->best > 0 ? p->best / p->library : PLOT_MISSING;
        double ra = p->autov > 0 ? p->autov / p->library : PLOT_MISSING;
        snprintf(shape, sizeof shape, "%ldx%ldx%ld", p->M, p->N, p->K);
        if (rb > 0)
            snprintf(best, sizeof best, "%d", p->best_rung);
        if (ra > 0 && p->auto_rung > 0)
            snprintf(chosen, sizeof chosen, "%d", p->auto_rung);
        for (int k = 0; k < 2; k++) {
            double r = k ? ra : rb;
            if (r > 0) {
                *lo = r < *lo ? r : *lo;
                *hi = r > *hi ? r : *hi;
            }
        }
        fprintf(fig->data, "%d ", i);
        plot_data_label(fig->data, shape);
        fputc(' ', fig->data);
        plot_data_label(fig->data, shape_class_name((shape_class)p->label));
        plot_data_value(fig->data, rb);
        fputc(' ', fig->data);
        plot_data_label(fig->data, best);
        plot_data_value(fig->data, ra);
        fputc(' ', fig->data);
        plot_data_label(fig->data, chosen);
        fputc('\n', fig->data);
    }
}

/* The classes as runs of positions: a name over each run, a line between runs. */
static void write_classes(plot_figure *fig, const plot_shape_chart *c)
{
    int nclasses = 0;
    for (int i = 0; i < c->npoints; i++)
        nclasses += i == 0 || c->points[i].label != c->points[i - 1].label;
    gnuplot_set_number(fig->prelude, "n_classes", nclasses);
    fprintf(fig->prelude, "array class_name[%d]\narray class_first[%d]\narray class_last[%d]\n",
            nclasses, nclasses, nclasses);
    for (int i = 0, k = 0; i < c->npoints; i++) {
        if (i > 0 && c->points[i].label == c->points[i - 1].label)
            continue;
        int last = i;
        while (last + 1 < c->npoints && c->points[last + 1].label == c->points[i].label)
            last++;
        k++;
        fprintf(fig->prelude, "class_name[%d] = ", k);
        gnuplot_quote(fig->prelude, shape_class_name((shape_class)c->points[i].label));
        fprintf(fig->prelude, "\nclass_first[%d] = %d\nclass_last[%d] = %d\n", k, i, k, last);
    }
}

static ladder_status draw_chart(plot_job *job, const plot_shape_chart *c, char *msg)
{
    char slug[96], name[200];
    plot_slug(c->device, slug, sizeof slug);
    snprintf(name, sizeof name, "%s-%s-shapes", slug, c->backend);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK)
        return st;
    double lo, hi;
    write_data(&fig, c, &lo, &hi);
    const char *library = plot_library_label(c->library, c->backend);
    char title[512], best[256], chosen[256], line[128];
    snprintf(title, sizeof title, "%s, %s: every shape against %s", c->device,
             plot_backend_label(c->backend), library);
    series_title("fastest rung (its number above)", c, 0, library, best, sizeof best);
    series_title("auto (the rung it chose below)", c, 1, library, chosen, sizeof chosen);
    snprintf(line, sizeof line, "%s at the same shape", library);
    plot_figure_title(job, &fig, title);
    gnuplot_set_string(fig.prelude, "best_title", best);
    gnuplot_set_string(fig.prelude, "auto_title", chosen);
    gnuplot_set_string(fig.prelude, "library_title", line);
    char ylabel[160];
    snprintf(ylabel, sizeof ylabel, "GFLOPS / %s's GFLOPS  (log scale)", library);
    gnuplot_set_string(fig.prelude, "ylabel_text", ylabel);
    gnuplot_set_number(fig.prelude, "n_shapes", c->npoints);
    /* Whole powers of two around the data, with room for the labels. */
    gnuplot_set_number(fig.prelude, "y_min", pow(2.0, floor(log2(lo) - 0.5)));
    gnuplot_set_number(fig.prelude, "y_max", pow(2.0, ceil(log2(hi) + 0.5)));
    write_classes(&fig, c);
    return plot_figure_finish(job, &fig, "shapes.gp", msg);
}

ladder_status plot_fig_shapes(plot_job *job, char *msg)
{
    plot_shape_chart *charts;
    int n = plot_shape_charts(job->model, &charts);
    if (n < 0)
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the shapes chart");
    ladder_status st = LADDER_OK;
    for (int i = 0; i < n; i++) {
        char why[LADDER_MSG];
        if (draw_chart(job, &charts[i], why) != LADDER_OK) {
            snprintf(msg, LADDER_MSG, "%s", why);
            st = LADDER_ERROR;
        }
    }
    plot_shape_charts_free(charts, n);
    return st;
}
