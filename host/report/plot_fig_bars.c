/* Figure 2: every rung of one device at one size as bars, its backends side by side, the
 * vendor libraries as horizontal lines, and on each bar the fraction of its backend's
 * library it reached ("62%": how far this idea got towards cuBLAS).
 *
 * The same chart measured against the hardware instead (plot_fig_peak): each bar as a
 * percentage of the device's FP32 peak, the libraries too, and the measured FMA ceiling
 * (--ceilings) as a line, so a student sees how much of the machine each idea uses and
 * that even the vendor's library leaves some of it unused.
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

/* What the bars measure: GFLOPS, or a percentage of the device's FP32 peak. */
typedef struct {
    int of_peak;
    double peak;        /* GFLOPS that make 100% (of_peak only) */
} bar_scale;

static double scaled(const bar_scale *s, double gflops)
{
    return s->of_peak && gflops > 0.0 ? 100.0 * gflops / s->peak : gflops;
}

/* A horizontal line across the bars: a library, or the measured FMA ceiling. */
typedef struct {
    double value;       /* in the bars' unit */
    int off_scale;      /* 1: far above the bars, drawn at the top of the axis */
    char key[200];
} bar_line;

#define MAX_BAR_LINES 8

/* The lines of the chart: the libraries measured at size n and, on the peak chart, the
 * measured FMA ceiling. On the GFLOPS chart a library far above every bar is marked off
 * the scale. Returns how many; *top gets where the axis should end (0: gnuplot chooses). */
static int bar_lines(const plot_model *m, int device, const bar_scale *scale, long n,
                     double top_bar, bar_line *lines, double *top)
{
    const plot_device *d = &m->devices[device];
    plot_baseline *libs = NULL;
    int nlibs = plot_device_baselines(m, device, &libs), count = 0;
    double top_shown = top_bar;
    int off_scale = 0;
    for (int b = 0; b < nlibs && count < MAX_BAR_LINES; b++) {
        double v = plot_baseline_gflops(m, &libs[b], n);
        if (v <= 0.0)
            continue;
        bar_line *l = &lines[count++];
        char gflops[32];
        const char *label = plot_library_label(libs[b].name, libs[b].backend);
        plot_format_gflops(v, gflops, sizeof gflops);
        l->value = scaled(scale, v);
        l->off_scale = !scale->of_peak && top_bar > 0.0 && v > OFF_SCALE_SPREAD * top_bar;
        if (scale->of_peak)
            snprintf(l->key, sizeof l->key, "%s, %s GFLOPS: %.0f%% of peak", label, gflops,
                     l->value);
        else if (l->off_scale)
            snprintf(l->key, sizeof l->key, "%s, %s GFLOPS (%.0fx the tallest bar: above the "
                     "axis)", label, gflops, v / top_bar);
        else
            snprintf(l->key, sizeof l->key, "%s, %s GFLOPS", label, gflops);
        off_scale |= l->off_scale;
        if (!l->off_scale && l->value > top_shown)
            top_shown = l->value;
    }
    free(libs);
    if (scale->of_peak && d->fma_gflops > 0.0 && count < MAX_BAR_LINES) {
        bar_line *l = &lines[count++];
        char gflops[32];
        plot_format_gflops(d->fma_gflops, gflops, sizeof gflops);
        l->value = scaled(scale, d->fma_gflops);
        l->off_scale = 0;
        snprintf(l->key, sizeof l->key, "FP32 FMA ceiling, %s GFLOPS (measured %s): %.0f%% of "
                 "peak", gflops, d->ceilings_date, l->value);
        top_shown = l->value > top_shown ? l->value : top_shown;
    }
    /* The peak chart ends at 100% unless something passed it; the GFLOPS chart only when a
     * library is off the scale, just above every bar and line on it. */
    if (scale->of_peak)
        *top = top_shown > 100.0 ? 1.1 * top_shown : 100.0;
    else
        *top = off_scale ? 1.15 * top_shown : 0.0;
    return count;
}

static ladder_status draw_bars(plot_job *job, int device, const bar_scale *scale, char *msg)
{
    const plot_model *m = job->model;
    const plot_device *d = &m->devices[device];
    long n = plot_device_size(m, device, job->size);
    if (n == 0) {
        if (!scale->of_peak) /* one note is enough for both charts */
            fprintf(stderr, "ladder plot: note: %s has no rung measured at size %ld: no bar "
                            "chart for it\n", d->name, job->size);
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
    int nrungs = plot_device_rungs(m, device, &rungs);

    char name[200];
    snprintf(name, sizeof name, "%s-%s-%ld", d->slug, scale->of_peak ? "peak" : "bars", n);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK)
        goto done;

    /* One row per rung: position, tic label, then for each backend the bar's height, the
     * height of its label and the label. */
    if (scale->of_peak)
        fprintf(fig.data, "# %s at M = N = K = %ld: each rung per backend as %% of the FP32 "
                          "peak, %.6g GFLOPS\n", d->name, n, scale->peak);
    else
        fprintf(fig.data, "# %s at M = N = K = %ld: GFLOPS of each rung per backend, with the "
                          "fraction of the backend's vendor library\n", d->name, n);
    double top_bar = 0.0;
    for (int r = 0; r < nrungs; r++) {
        char label[96];
        snprintf(label, sizeof label, "%d %s", rungs[r], plot_rung_name(m, rungs[r]));
        fprintf(fig.data, "%d ", r);
        plot_data_label(fig.data, label);
        for (int k = 0; k < ngroups; k++) {
            const char *backend = m->groups[groups[k]].backend;
            double v = plot_gflops(m, d->name, backend, rungs[r], NULL, n);
            char text[32] = "n/a";
            if (v > 0.0 && scale->of_peak)
                snprintf(text, sizeof text, "%.0f%%", scaled(scale, v));
            else if (v > 0.0 && has_ref[k])
                snprintf(text, sizeof text, "%.0f%%", 100.0 * v / ref_gflops[k]);
            else if (v > 0.0)
                text[0] = '\0';
            /* value, where its label sits (the foot for "n/a"), the label */
            plot_data_value(fig.data, scaled(scale, v));
            plot_data_value(fig.data, v > 0.0 ? scaled(scale, v) : 0.0);
            fputc(' ', fig.data);
            plot_data_label(fig.data, text);
            top_bar = scaled(scale, v) > top_bar ? scaled(scale, v) : top_bar;
        }
        fputc('\n', fig.data);
    }

    char title[512], axis[200], gflops[32];
    plot_format_gflops(scale->peak, gflops, sizeof gflops);
    if (scale->of_peak) {
        snprintf(title, sizeof title, "%s: every rung at M = N = K = %ld as a fraction of the "
                 "FP32 peak", d->name, n);
        snprintf(axis, sizeof axis, "%% of the FP32 peak, %s GFLOPS (%s)", gflops,
                 d->peak_from_user ? "given" : "nominal");
    } else {
        snprintf(title, sizeof title, "%s: every rung at M = N = K = %ld", d->name, n);
        snprintf(axis, sizeof axis, "GFLOPS  (higher is better)");
    }
    plot_figure_title(job, &fig, title);
    gnuplot_set_string(fig.prelude, "y_label_text", axis);
    gnuplot_set_number(fig.prelude, "n_rungs", nrungs);
    gnuplot_set_number(fig.prelude, "n_backends", ngroups);
    fprintf(fig.prelude, "array backend_name[%d]\narray backend_title[%d]\n", ngroups, ngroups);
    for (int k = 0; k < ngroups; k++) {
        const char *backend = m->groups[groups[k]].backend;
        char key[160];
        if (scale->of_peak)
            snprintf(key, sizeof key, "%s (on each bar: %% of peak)", plot_backend_label(backend));
        else if (has_ref[k])
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

    bar_line lines[MAX_BAR_LINES];
    double top;
    int shown = bar_lines(m, device, scale, n, top_bar, lines, &top);
    gnuplot_set_number(fig.prelude, "n_libraries", shown);
    /* 0: the axis ends where gnuplot chooses; else here. */
    fprintf(fig.prelude, "y_top = %.6g\n", top);
    fprintf(fig.prelude, "array library_gflops[%d]\narray library_title[%d]\n"
                         "array library_off_scale[%d]\n", shown ? shown : 1, shown ? shown : 1,
            shown ? shown : 1);
    if (!shown) /* gnuplot evaluates the plot expression even when the loop is empty */
        fprintf(fig.prelude, "library_gflops[1] = 0\nlibrary_off_scale[1] = 0\n");
    for (int i = 1; i <= shown; i++) {
        fprintf(fig.prelude, "library_gflops[%d] = %.6g\nlibrary_off_scale[%d] = %d\n"
                             "library_title[%d] = ", i, lines[i - 1].value, i,
                lines[i - 1].off_scale, i);
        gnuplot_quote(fig.prelude, lines[i - 1].key);
        fputc('\n', fig.prelude);
    }
    st = plot_figure_finish(job, &fig, "bars.gp", msg);

done:
    free(rungs);
    return st;
}

ladder_status plot_fig_bars(plot_job *job, int device, char *msg)
{
    const bar_scale gflops = {0, 0.0};
    return draw_bars(job, device, &gflops, msg);
}

/* The fraction-of-peak chart: drawn for a device whose FP32 peak is known (from its rows,
 * or --peak); never against a guessed one. */
ladder_status plot_fig_peak(plot_job *job, int device, char *msg)
{
    const plot_device *d = &job->model->devices[device];
    if (d->peak_gflops <= 0.0) {
        fprintf(stderr, "ladder plot: note: the FP32 peak of %s is unknown: no fraction-of-peak "
                        "chart for it (give it with --peak)\n", d->name);
        return LADDER_OK;
    }
    const bar_scale peak = {1, d->peak_gflops};
    return draw_bars(job, device, &peak, msg);
}
