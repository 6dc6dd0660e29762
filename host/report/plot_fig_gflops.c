/* Figure 1, the classic chart: GFLOPS against matrix size, one line per rung, for one device
 * and backend; the vendor libraries as dashed reference lines and the FP32 peak as the
 * ceiling when it is known (never guessed).
 *
 * The data file is a table a student can read: one row per size, one column per rung, then
 * one per library, then the peak; "?" where a rung was not measured at that size.
 */
#include "report/plot_figure.h"

#include <stdlib.h>

#include "report/plot_gnuplot.h"

/* A reference line this many times above the fastest rung switches the y axis to log. */
#define LOG_SCALE_SPREAD 8.0

static int is_power_of_two(long n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

static int close_sizes(long a, long b)
{
    double ratio = (double)a / (double)b;
    return ratio < 1.2 && ratio > 1.0 / 1.2;
}

/* Tic labels of close sizes (1000 and 1024) would print over each other on the log axis.
 * Powers of two always get a label; another size only when it is at least 20% away from
 * every labelled size. The points are drawn either way. */
static void choose_size_labels(const long *sizes, int n, int *labelled)
{
    for (int i = 0; i < n; i++)
        labelled[i] = is_power_of_two(sizes[i]);
    for (int i = 0; i < n; i++) {
        if (labelled[i])
            continue;
        int clear = 1;
        for (int j = 0; j < n; j++)
            if (labelled[j] && close_sizes(sizes[i], sizes[j]))
                clear = 0;
        labelled[i] = clear;
    }
}

ladder_status plot_fig_gflops(plot_job *job, int group, char *msg)
{
    const plot_model *m = job->model;
    const plot_group *g = &m->groups[group];
    const plot_device *d = &m->devices[g->device];
    long *sizes = NULL;
    int *rungs = NULL;
    plot_baseline *libs = NULL;
    int nsizes = plot_group_sizes(m, group, &sizes);
    int nrungs = plot_group_rungs(m, group, &rungs);
    int nlibs = plot_device_baselines(m, g->device, &libs);
    int has_peak = d->peak_gflops > 0.0;

    char name[200];
    snprintf(name, sizeof name, "%s-%s-gflops", d->slug, g->backend);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, name, msg);
    if (st != LADDER_OK)
        goto done;

    /* The table: header line (gnuplot's column heads become the legend), then the sizes. */
    fprintf(fig.data, "# %s, %s: GFLOPS by square size; ? = not measured\nsize", d->name,
            plot_backend_label(g->backend));
    for (int r = 0; r < nrungs; r++) {
        char label[96];
        snprintf(label, sizeof label, "%d %s", rungs[r], plot_rung_name(m, rungs[r]));
        fputc(' ', fig.data);
        plot_data_label(fig.data, label);
    }
    for (int b = 0; b < nlibs; b++) {
        fputc(' ', fig.data);
        plot_data_label(fig.data, plot_library_label(libs[b].name, libs[b].backend));
    }
    if (has_peak) {
        char peak[64], label[128];
        plot_format_gflops(d->peak_gflops, peak, sizeof peak);
        snprintf(label, sizeof label, "FP32 peak, %s GFLOPS%s", peak,
                 d->peak_from_user ? " (given)" : "");
        fputc(' ', fig.data);
        plot_data_label(fig.data, label);
    }
    fputc('\n', fig.data);
    double top_rung = 0.0, top = has_peak ? d->peak_gflops : 0.0;
    for (int s = 0; s < nsizes; s++) {
        fprintf(fig.data, "%ld", sizes[s]);
        for (int r = 0; r < nrungs; r++) {
            double v = plot_gflops(m, d->name, g->backend, rungs[r], NULL, sizes[s]);
            top_rung = v > top_rung ? v : top_rung;
            plot_data_value(fig.data, v);
        }
        for (int b = 0; b < nlibs; b++) {
            double v = plot_baseline_gflops(m, &libs[b], sizes[s]);
            top = v > top ? v : top;
            plot_data_value(fig.data, v);
        }
        if (has_peak)
            plot_data_value(fig.data, d->peak_gflops);
        fputc('\n', fig.data);
    }

    char title[512];
    snprintf(title, sizeof title, "%s, %s: GFLOPS of each rung by matrix size", d->name,
             plot_backend_label(g->backend));
    plot_figure_title(job, &fig, title);
    gnuplot_set_number(fig.prelude, "n_rungs", nrungs);
    gnuplot_set_number(fig.prelude, "n_libraries", nlibs);
    gnuplot_set_number(fig.prelude, "has_peak", has_peak);
    /* When a reference line is far above every rung (a CPU BLAS against PoCL), a linear axis
     * flattens the rungs into one line at the bottom; a log axis keeps them apart. */
    gnuplot_set_number(fig.prelude, "log_y", top > LOG_SCALE_SPREAD * top_rung);
    /* Rung N is drawn in line type N in every figure, so it keeps its colour. */
    fprintf(fig.prelude, "array rung_number[%d] = [", nrungs);
    for (int r = 0; r < nrungs; r++)
        fprintf(fig.prelude, "%s%d", r ? ", " : "", rungs[r]);
    int *labelled = calloc((size_t)nsizes + 1, sizeof *labelled);
    if (labelled)
        choose_size_labels(sizes, nsizes, labelled);
    fprintf(fig.prelude, "]\nsize_list = '");
    for (int s = 0, first = 1; s < nsizes; s++) {
        if (labelled && !labelled[s])
            continue;
        fprintf(fig.prelude, "%s%ld", first ? "" : " ", sizes[s]);
        first = 0;
    }
    fprintf(fig.prelude, "'\n");
    free(labelled);
    st = plot_figure_finish(job, &fig, "gflops.gp", msg);

done:
    free(sizes);
    free(rungs);
    free(libs);
    return st;
}
