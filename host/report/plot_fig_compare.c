/* Figure 4: the same rungs on several devices (other machines, other vendors, a CPU through
 * PoCL) on one chart. Raw GFLOPS would only say that a big GPU is faster than a CPU, so each
 * device and backend is normalised to its own reference at its own size: by default its
 * vendor library (cuBLAS, CLBlast, the host's CPU BLAS), falling back to its FP32 peak where
 * no library was measured; with --normalize peak, to the FP32 peak only. A device with
 * neither is left out, with a note: no reference is ever guessed.
 *
 * Drawn only when the results hold at least two devices.
 */
#include "report/plot_figure.h"

#include <stdlib.h>
#include <string.h>

#include "report/plot_gnuplot.h"

typedef struct {
    int group;
    long size;
    double reference;   /* GFLOPS that count as 100% */
    char key[400];      /* legend entry */
} compared;

/* Finds the reference of one group; returns 0 when it has none. */
static int find_reference(const plot_job *job, int group, compared *c)
{
    const plot_model *m = job->model;
    const plot_group *g = &m->groups[group];
    const plot_device *d = &m->devices[g->device];
    c->group = group;
    c->size = plot_device_size(m, g->device, job->size);
    if (c->size == 0)
        return 0;
    plot_baseline lib;
    if (!job->normalize_peak && plot_group_reference(m, group, &lib) == 0) {
        c->reference = plot_baseline_gflops(m, &lib, c->size);
        if (c->reference > 0.0) {
            snprintf(c->key, sizeof c->key, "%s, %s (%% of %s at %ld)", d->name,
                     plot_backend_label(g->backend), plot_library_label(lib.name, lib.backend),
                     c->size);
            return 1;
        }
    }
    if (d->peak_gflops > 0.0) {
        c->reference = d->peak_gflops;
        snprintf(c->key, sizeof c->key, "%s, %s (%% of FP32 peak at %ld)", d->name,
                 plot_backend_label(g->backend), c->size);
        return 1;
    }
    fprintf(stderr, "ladder plot: note: %s, %s left out of the cross-device chart: %s\n",
            d->name, plot_backend_label(g->backend),
            job->normalize_peak ? "its FP32 peak is unknown (give it with --peak)"
                                : "no vendor library at its size and its FP32 peak is unknown");
    return 0;
}

static int add_rung(int *rungs, int n, int rung)
{
    int j = 0;
    while (j < n && rungs[j] < rung)
        j++;
    if (j < n && rungs[j] == rung)
        return n;
    memmove(rungs + j + 1, rungs + j, (size_t)(n - j) * sizeof *rungs);
    rungs[j] = rung;
    return n + 1;
}

ladder_status plot_fig_compare(plot_job *job, char *msg)
{
    const plot_model *m = job->model;
    if (m->ndevices < 2)
        return LADDER_OK;

    compared *list = calloc((size_t)m->ngroups, sizeof *list);
    int *rungs = malloc((size_t)(m->nrows + 1) * sizeof *rungs);
    int nlist = 0, nrungs = 0;
    ladder_status st = LADDER_OK;
    if (!list || !rungs) {
        st = ladder_fail(msg, LADDER_ERROR, "out of memory preparing the cross-device chart");
        goto done;
    }
    for (int g = 0; g < m->ngroups; g++)
        if (find_reference(job, g, &list[nlist]))
            nlist++;
    int first_device = nlist ? m->groups[list[0].group].device : -1, several = 0;
    for (int i = 0; i < nlist; i++)
        several |= m->groups[list[i].group].device != first_device;
    if (!several) {
        fprintf(stderr, "ladder plot: note: fewer than two devices have a reference to "
                        "normalise to: no cross-device chart\n");
        goto done;
    }
    for (int i = 0; i < nlist; i++) {
        int *own = NULL;
        int k = plot_group_rungs(m, list[i].group, &own);
        for (int j = 0; j < k; j++)
            nrungs = add_rung(rungs, nrungs, own[j]);
        free(own);
    }

    plot_figure fig;
    st = plot_figure_begin(job, &fig, job->normalize_peak ? "compare-devices-peak"
                                                          : "compare-devices", msg);
    if (st != LADDER_OK)
        goto done;
    fprintf(fig.data, "# Each rung as a percentage of its device's reference (see the legend); "
                      "? = not measured\n");
    for (int r = 0; r < nrungs; r++) {
        char label[96];
        snprintf(label, sizeof label, "%d %s", rungs[r], plot_rung_name(m, rungs[r]));
        fprintf(fig.data, "%d ", r);
        plot_data_label(fig.data, label);
        for (int i = 0; i < nlist; i++) {
            const plot_group *g = &m->groups[list[i].group];
            double v = plot_gflops(m, m->devices[g->device].name, g->backend, rungs[r], NULL,
                                   list[i].size);
            plot_data_value(fig.data, v > 0.0 ? 100.0 * v / list[i].reference : PLOT_MISSING);
        }
        fputc('\n', fig.data);
    }

    plot_figure_title(job, &fig,
                       job->normalize_peak
                           ? "The ladder across devices: each rung as % of its device's FP32 peak"
                           : "The ladder across devices: each rung as % of its device's vendor "
                             "library");
    gnuplot_set_string(fig.prelude, "reference_text",
                       job->normalize_peak ? "FP32 peak" : "vendor library");
    gnuplot_set_number(fig.prelude, "n_rungs", nrungs);
    gnuplot_set_number(fig.prelude, "n_series", nlist);
    fprintf(fig.prelude, "array series_title[%d]\narray series_backend[%d]\n", nlist, nlist);
    for (int i = 0; i < nlist; i++) {
        fprintf(fig.prelude, "series_title[%d] = ", i + 1);
        gnuplot_quote(fig.prelude, list[i].key);
        fprintf(fig.prelude, "\nseries_backend[%d] = ", i + 1);
        gnuplot_quote(fig.prelude, m->groups[list[i].group].backend);
        fputc('\n', fig.prelude);
    }
    st = plot_figure_finish(job, &fig, "compare.gp", msg);

done:
    free(list);
    free(rungs);
    return st;
}
