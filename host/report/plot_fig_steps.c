/* Figure 3, the step gain: each rung's GFLOPS divided by the rung before it, for one device
 * and backend at one size. Above 1 the new idea paid off on this device; below 1 it cost
 * time. This is the chart that shows a student which idea mattered here: the same idea can
 * be worth 2x on one GPU and nothing on another.
 *
 * When a rung has no ok row at this size, the next rung is compared with the last one that
 * has, and its label says which ("6 register-2d (vs 4)").
 */
#include "report/plot_figure.h"

#include <stdlib.h>

#include "report/plot_gnuplot.h"

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
    int previous = -1, nsteps = 0;
    double prev_gflops = 0.0, lowest = 1.0, highest = 1.0;
    for (int r = 0; r < nrungs; r++) {
        double v = plot_gflops(m, d->name, g->backend, rungs[r], NULL, n);
        if (v <= 0.0)
            continue;
        if (previous >= 0) {
            double ratio = v / prev_gflops;
            lowest = ratio < lowest ? ratio : lowest;
            highest = ratio > highest ? ratio : highest;
            nsteps++;
        }
        previous = rungs[r];
        prev_gflops = v;
    }
    if (nsteps == 0) {
        fprintf(stderr, "ladder plot: note: %s, %s has fewer than two rungs at size %ld: no "
                        "step-gain chart for it\n", d->name, plot_backend_label(g->backend), n);
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

    fprintf(fig.data, "# %s, %s at M = N = K = %ld: GFLOPS of each rung / GFLOPS of the rung "
                      "before it\n", d->name, plot_backend_label(g->backend), n);
    previous = -1;
    int step = 0;
    for (int r = 0; r < nrungs; r++) {
        double v = plot_gflops(m, d->name, g->backend, rungs[r], NULL, n);
        if (v <= 0.0)
            continue;
        if (previous >= 0) {
            char label[128], text[32];
            if (previous == rungs[r] - 1)
                snprintf(label, sizeof label, "%d %s", rungs[r], plot_rung_name(m, rungs[r]));
            else
                snprintf(label, sizeof label, "%d %s (vs %d)", rungs[r],
                         plot_rung_name(m, rungs[r]), previous);
            snprintf(text, sizeof text, "%.2fx", v / prev_gflops);
            fprintf(fig.data, "%d ", step++);
            plot_data_label(fig.data, label);
            plot_data_value(fig.data, v / prev_gflops);
            fputc(' ', fig.data);
            plot_data_label(fig.data, text);
            fputc('\n', fig.data);
        }
        previous = rungs[r];
        prev_gflops = v;
    }

    char title[512];
    /* Short enough that a long device name (PoCL's) still fits the width. */
    snprintf(title, sizeof title, "%s, %s: each rung's gain over the one before, M = N = K = %ld",
             d->name, plot_backend_label(g->backend), n);
    gnuplot_set_string(fig.prelude, "title_text", title);
    gnuplot_set_number(fig.prelude, "n_steps", nsteps);
    /* A log scale makes a halving as tall as a doubling; leave room for the labels. */
    gnuplot_set_number(fig.prelude, "y_min", lowest < 0.5 ? lowest / 1.6 : 0.5 / 1.6);
    gnuplot_set_number(fig.prelude, "y_max", highest > 2.0 ? highest * 1.6 : 2.0 * 1.6);
    st = plot_figure_finish(job, &fig, "steps.gp", msg);
    free(rungs);
    return st;
}
