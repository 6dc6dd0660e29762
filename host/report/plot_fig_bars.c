/* Figure 2: every rung of one device at one size as bars, its backends side by side, the
 * vendor libraries as horizontal lines, and on each bar the fraction of its backend's
 * library it reached ("62%": how far this idea got towards cuBLAS).
 *
 * A library far above every bar (the host's CPU BLAS beside PoCL: 150 GFLOPS against 15)
 * would squeeze the bars into the bottom tenth of the axis. Such a line is drawn at the
 * top of the axis instead, with a label that gives its value and says it is above.
 *
 * A rung that has no ok row at this size in a backend (not run, failed, unsupported) gets
 * "n/a" at the foot of its place instead of a bar, so a missing bar is never mistaken for a
 * slow one.
 */
#include "report/plot_figure.h"

#include <stdlib.h>
#include <string.h>

#include "report/plot_gnuplot.h"

/* A library line more than this many times the tallest bar is drawn off the scale. */
#define OFF_SCALE_SPREAD 4.0

/* The rungs measured by any of the device's groups, ascending; count returned. */
static int device_rungs(const plot_model *m, int device, int **out)
{
    int *all = malloc((size_t)(m->nrows + 1) * sizeof *all);
    int n = 0;
    *out = all;
    if (!all)
        return 0;
    for (int g = 0; g < m->ngroups; g++) {
        if (m->groups[g].device != device)
            continue;
        int *rungs = NULL;
        int k = plot_group_rungs(m, g, &rungs);
        for (int i = 0; i < k; i++) {
            int j = 0;
            while (j < n && all[j] < rungs[i])
                j++;
            if (j < n && all[j] == rungs[i])
                continue;
            memmove(all + j + 1, all + j, (size_t)(n - j) * sizeof *all);
            all[j] = rungs[i];
            n++;
        }
        free(rungs);
    }
    return n;
}

ladder_status plot_fig_bars(plot_job *job, int device, char *msg)
{
    const plot_model *m = job->model;
    const plot_device *d = &m->devices[device];
    long n = plot_device_size(m, device, job->size);
    if (n == 0) {
        fprintf(stderr, "ladder plot: note: %s has no rung measured at size %ld: no bar chart "
                        "for it\n", d->name, job->size);
        return LADDER_OK;
    }

    /* The device's groups, one bar each per rung, with their reference libraries. */
    int groups[8], ngroups = 0;
    plot_baseline refs[8];
    int has_ref[8];
    double ref_gflops[8];
    for (int g = 0; g < m->ngroups && ngroups < 8; g++) {
        if (m->groups[g].device != device)
            continue;
        groups[ngroups] = g;
        has_ref[ngroups] = plot_group_reference(m, g, &refs[ngroups]) == 0;
        ref_gflops[ngroups] =
            has_ref[ngroups] ? plot_baseline_gflops(m, &refs[ngroups], n) : PLOT_MISSING;
        has_ref[ngroups] = has_ref[ngroups] && ref_gflops[ngroups] > 0.0;
        ngroups++;
    }
    int *rungs = NULL;
    int nrungs = device_rungs(m, device, &rungs);
    plot_baseline *libs = NULL;
    int nlibs = plot_device_baselines(m, device, &libs);

    char name[200];
    snprintf(name, sizeof name, "%s-bars-%ld", d->slug, n);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK)
        goto done;

    /* One row per rung: position, tic label, then for each backend the GFLOPS, the height
     * of the bar's label and the label. */
    fprintf(fig.data, "# %s at M = N = K = %ld: GFLOPS of each rung per backend, with the "
                      "fraction of the backend's vendor library\n", d->name, n);
    for (int r = 0; r < nrungs; r++) {
        char label[96];
        snprintf(label, sizeof label, "%d %s", rungs[r], plot_rung_name(m, rungs[r]));
        fprintf(fig.data, "%d ", r);
        plot_data_label(fig.data, label);
        for (int k = 0; k < ngroups; k++) {
            const char *backend = m->groups[groups[k]].backend;
            double v = plot_gflops(m, d->name, backend, rungs[r], NULL, n);
            char text[32] = "n/a";
            if (v > 0.0 && has_ref[k])
                snprintf(text, sizeof text, "%.0f%%", 100.0 * v / ref_gflops[k]);
            else if (v > 0.0)
                text[0] = '\0';
            /* value, where its label sits (the foot for "n/a"), the label */
            plot_data_value(fig.data, v);
            plot_data_value(fig.data, v > 0.0 ? v : 0.0);
            fputc(' ', fig.data);
            plot_data_label(fig.data, text);
        }
        fputc('\n', fig.data);
    }

    char title[512];
    snprintf(title, sizeof title, "%s: every rung at M = N = K = %ld", d->name, n);
    gnuplot_set_string(fig.prelude, "title_text", title);
    gnuplot_set_number(fig.prelude, "n_rungs", nrungs);
    gnuplot_set_number(fig.prelude, "n_backends", ngroups);
    fprintf(fig.prelude, "array backend_name[%d]\narray backend_title[%d]\n", ngroups, ngroups);
    for (int k = 0; k < ngroups; k++) {
        const char *backend = m->groups[groups[k]].backend;
        char key[160];
        if (has_ref[k])
            snprintf(key, sizeof key, "%s (on each bar: %% of %s)", plot_backend_label(backend),
                     plot_library_label(refs[k].name, refs[k].backend));
        else
            snprintf(key, sizeof key, "%s (no vendor library at this size)",
                     plot_backend_label(backend));
        fprintf(fig.prelude, "backend_name[%d] = ", k + 1);
        gnuplot_quote(fig.prelude, backend);
        fprintf(fig.prelude, "\nbackend_title[%d] = ", k + 1);
        gnuplot_quote(fig.prelude, key);
        fputc('\n', fig.prelude);
    }
    /* Libraries measured at this size become horizontal lines; one far above the bars is
     * drawn at the top of an axis that ends just above the bars and the other lines. */
    double top_bar = 0.0, top_shown = 0.0;
    for (int r = 0; r < nrungs; r++)
        for (int k = 0; k < ngroups; k++) {
            double v = plot_gflops(m, d->name, m->groups[groups[k]].backend, rungs[r], NULL, n);
            top_bar = v > top_bar ? v : top_bar;
        }
    top_shown = top_bar;
    int shown = 0, off_scale = 0;
    for (int b = 0; b < nlibs; b++) {
        double v = plot_baseline_gflops(m, &libs[b], n);
        if (v <= 0.0)
            continue;
        shown++;
        if (top_bar > 0.0 && v > OFF_SCALE_SPREAD * top_bar)
            off_scale++;
        else if (v > top_shown)
            top_shown = v;
    }
    gnuplot_set_number(fig.prelude, "n_libraries", shown);
    /* 0: the axis ends where gnuplot chooses; else here, above every bar and line on it. */
    fprintf(fig.prelude, "y_top = %.6g\n", off_scale ? 1.15 * top_shown : 0.0);
    fprintf(fig.prelude, "array library_gflops[%d]\narray library_title[%d]\n"
                         "array library_off_scale[%d]\n", shown ? shown : 1, shown ? shown : 1,
            shown ? shown : 1);
    if (!shown) /* gnuplot evaluates the plot expression even when the loop is empty */
        fprintf(fig.prelude, "library_gflops[1] = 0\nlibrary_off_scale[1] = 0\n");
    for (int b = 0, i = 0; b < nlibs; b++) {
        double v = plot_baseline_gflops(m, &libs[b], n);
        if (v <= 0.0)
            continue;
        int off = top_bar > 0.0 && v > OFF_SCALE_SPREAD * top_bar;
        char gflops[32], key[200];
        plot_format_gflops(v, gflops, sizeof gflops);
        if (off)
            snprintf(key, sizeof key, "%s, %s GFLOPS (%.0fx the tallest bar: above the axis)",
                     plot_library_label(libs[b].name, libs[b].backend), gflops, v / top_bar);
        else
            snprintf(key, sizeof key, "%s, %s GFLOPS",
                     plot_library_label(libs[b].name, libs[b].backend), gflops);
        i++;
        fprintf(fig.prelude, "library_gflops[%d] = %.6g\nlibrary_off_scale[%d] = %d\n"
                             "library_title[%d] = ", i, v, i, off, i);
        gnuplot_quote(fig.prelude, key);
        fputc('\n', fig.prelude);
    }
    st = plot_figure_finish(job, &fig, "bars.gp", msg);

done:
    free(rungs);
    free(libs);
    return st;
}
