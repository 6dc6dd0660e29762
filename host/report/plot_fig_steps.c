/* Figure 3, the step gain: each rung's GFLOPS divided by its parent's, for one device and
 * backend at one size. Above 1 the new idea paid off on this device; below 1 it cost
 * time. This is the chart that shows a student which idea mattered here: the same idea can
 * be worth 2x on one GPU and nothing on another.
 *
 * The parent is the rung whose kernel this one changes (rungs/registry.h): after rung 10
 * the ladder branches, and rung 17 changes rung 9's kernel, not rung 16's. A label says
 * so whenever the base is not the rung just below ("17 banks (vs 9)"), and when a parent
 * has no ok row at this size the rung is compared with the nearest ancestor that has.
 */
#include "report/plot_figure.h"

#include <stdlib.h>

#include "report/plot_gnuplot.h"
#include "rungs/registry.h"

typedef struct {
    const plot_model *m;
    const plot_device *d;
    const char *backend;
    long n;
} step_query;

static int measured_there(int number, const void *ctx)
{
    const step_query *q = ctx;
    return plot_gflops(q->m, q->d->name, q->backend, number, NULL, q->n) > 0.0;
}

int plot_step_base(const plot_model *m, int group, int number, long n)
{
    const plot_group *g = &m->groups[group];
    const step_query q = {m, &m->devices[g->device], g->backend, n};
    return rung_nearest_ancestor(number, measured_there, &q);
}

/* Rung `number`'s GFLOPS over its base's (plot_step_base) at size n, with the base in
 * *base; 0 when the rung or every ancestor of it has no ok row there. */
static double step_ratio(const plot_model *m, int group, const plot_device *d,
                         const plot_group *g, int number, long n, int *base)
{
    double v = plot_gflops(m, d->name, g->backend, number, NULL, n);
    *base = plot_step_base(m, group, number, n);
    if (v <= 0.0 || *base == 0)
        return 0.0;
    return v / plot_gflops(m, d->name, g->backend, *base, NULL, n);
}

ladder_status plot_fig_steps(plot_job *job, int group, char *msg)
{
    const plot_model *m = job->model;
    const plot_group *g = &m->groups[group];
    const plot_device *d = &m->devices[g->device];
    long n = plot_device_size(m, g->device, job->size);
    if (n == 0)
        return LADDER_OK; /* the bar chart's note has said so */

    int *rungs = NULL;
    int nrungs = plot_group_rungs(m, group, &rungs);
    int nsteps = 0;
    double lowest = 1.0, highest = 1.0;
    for (int r = 0; r < nrungs; r++) {
        int base;
        double ratio = step_ratio(m, group, d, g, rungs[r], n, &base);
        if (ratio <= 0.0)
            continue;
        lowest = ratio < lowest ? ratio : lowest;
        highest = ratio > highest ? ratio : highest;
        nsteps++;
    }
    if (nsteps == 0) {
        fprintf(stderr, "ladder plot: note: %s, %s has no rung measured with its parent at "
                        "size %ld: no step-gain chart for it\n", d->name,
                plot_backend_label(g->backend), n);
        free(rungs);
        return LADDER_OK;
    }

    char name[200];
    snprintf(name, sizeof name, "%s-%s-steps-%ld", d->slug, g->backend, n);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK) {
        free(rungs);
        return st;
    }

    fprintf(fig.data, "# %s, %s at M = N = K = %ld: GFLOPS of each rung / GFLOPS of its "
                      "parent\n", d->name, plot_backend_label(g->backend), n);
    int step = 0;
    for (int r = 0; r < nrungs; r++) {
        int base;
        double ratio = step_ratio(m, group, d, g, rungs[r], n, &base);
        if (ratio <= 0.0)
            continue;
        char label[128], text[32];
        if (base == rungs[r] - 1)
            snprintf(label, sizeof label, "%d %s", rungs[r], plot_rung_name(m, rungs[r]));
        else
            snprintf(label, sizeof label, "%d %s (vs %d)", rungs[r],
                     plot_rung_name(m, rungs[r]), base);
        snprintf(text, sizeof text, "%.2fx", ratio);
        fprintf(fig.data, "%d ", step++);
        plot_data_label(fig.data, label);
        plot_data_value(fig.data, ratio);
        fputc(' ', fig.data);
        plot_data_label(fig.data, text);
        fputc('\n', fig.data);
    }

    char title[512];
    /* Short enough that a long device name (PoCL's) still fits the width. */
    snprintf(title, sizeof title, "%s, %s: each rung's gain over its parent, M = N = K = %ld",
             d->name, plot_backend_label(g->backend), n);
    plot_figure_title(job, &fig, title);
    gnuplot_set_number(fig.prelude, "n_steps", nsteps);
    /* A log scale makes a halving as tall as a doubling; leave room for the labels. */
    gnuplot_set_number(fig.prelude, "y_min", lowest < 0.5 ? lowest / 1.6 : 0.5 / 1.6);
    gnuplot_set_number(fig.prelude, "y_max", highest > 2.0 ? highest * 1.6 : 2.0 * 1.6);
    st = plot_figure_finish(job, &fig, "steps.gp", msg);
    free(rungs);
    return st;
}
