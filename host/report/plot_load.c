/* Reading result files for `ladder plot`: which rows can be drawn, and clear errors when a
 * file has nothing to draw.
 *
 * Only rows with status "ok" are drawn: a FAILED row's time belongs to a wrong answer and an
 * unsupported row has no time at all. Each file must contribute at least one such row, so a
 * file from a run where everything failed is reported rather than silently ignored.
 */
#include "report/plot_model.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many rows of each status a file had, for the "nothing to draw" message. */
typedef struct {
    int ok, failed, unsupported, error, other;
} status_counts;

static void count_status(status_counts *c, const char *status)
{
    if (strcmp(status, "ok") == 0)
        c->ok++;
    else if (strcmp(status, "FAILED") == 0)
        c->failed++;
    else if (strcmp(status, "unsupported") == 0)
        c->unsupported++;
    else if (strcmp(status, "error") == 0)
        c->error++;
    else
        c->other++;
}

/* "3 FAILED, 2 unsupported" (only the non-zero ones), or "no rows at all". */
static void describe_counts(const status_counts *c, char *out, size_t size)
{
    const struct { int n; const char *what; } parts[] = {
        {c->failed, "FAILED"}, {c->unsupported, "unsupported"},
        {c->error, "error"}, {c->other, "with another status"},
    };
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (parts[i].n == 0)
            continue;
        int w = snprintf(out + used, size - used, "%s%d %s", used ? ", " : "", parts[i].n,
                         parts[i].what);
        if (w < 0 || (size_t)w >= size - used)
            return;
        used += (size_t)w;
    }
    if (used == 0)
        snprintf(out, size, "it has a header and no rows");
}

/* An ok row must carry a real measurement; anything else means the file was edited or
 * written by something that does not follow the schema. */
static ladder_status check_ok_row(const result_row *r, const char *path, int index, char *msg)
{
    const char *problem = NULL;
    if (r->device[0] == '\0')
        problem = "the device name is empty";
    else if (r->backend[0] == '\0')
        problem = "the backend is empty";
    else if (r->rung_name[0] == '\0')
        problem = "the rung name is empty";
    else if (r->rung < 0)
        problem = "the rung number is negative";
    else if (r->M <= 0 || r->N <= 0 || r->K <= 0)
        problem = "a matrix size is not positive";
    else if (!isfinite(r->gflops) || r->gflops <= 0.0)
        problem = "GFLOPS is not a positive number";
    if (problem)
        return ladder_fail(msg, LADDER_ERROR, "%s: data row %d (rung %d %s): status ok but %s",
                           path, index, r->rung, r->rung_name, problem);
    return LADDER_OK;
}

static int same_measurement(const result_row *a, const result_row *b)
{
    return a->rung == b->rung && a->M == b->M && a->N == b->N && a->K == b->K &&
           strcmp(a->device, b->device) == 0 && strcmp(a->backend, b->backend) == 0 &&
           strcmp(a->rung_name, b->rung_name) == 0 && results_same_case(a, b);
}

/* Keeps `r` in *rows; a second measurement of the same thing replaces the first, so a
 * later file (a rerun after editing a kernel) wins over an earlier one. */
static ladder_status keep_row(result_row **rows, int *nrows, const result_row *r,
                              int *replaced, char *msg)
{
    for (int i = 0; i < *nrows; i++) {
        if (same_measurement(&(*rows)[i], r)) {
            (*rows)[i] = *r;
            (*replaced)++;
            return LADDER_OK;
        }
    }
    result_row *grown = realloc(*rows, (size_t)(*nrows + 1) * sizeof *grown);
    if (!grown)
        return ladder_fail(msg, LADDER_ERROR, "out of memory keeping result rows");
    *rows = grown;
    (*rows)[(*nrows)++] = *r;
    return LADDER_OK;
}

/* The device's FP32 peak as the backends measured it: the largest value any of its rows
 * carries (an OpenCL row may not know the peak that the CUDA row of the same GPU knows). */
static void take_peaks(plot_model *m, const result_row *all, int nall)
{
    for (int d = 0; d < m->ndevices; d++)
        for (int i = 0; i < nall; i++)
            if (strcmp(all[i].device, m->devices[d].name) == 0 &&
                isfinite(all[i].peak_gflops) && all[i].peak_gflops > m->devices[d].peak_gflops)
                m->devices[d].peak_gflops = all[i].peak_gflops;
}

ladder_status plot_model_load(plot_model *m, char *const *paths, int npaths,
                              const results_case_filter *filter, char *msg)
{
    memset(m, 0, sizeof *m);
    result_row *all = NULL;
    int nall = 0, non_square = 0, replaced = 0, replaced_shapes = 0, other_cases = 0;
    ladder_status st = LADDER_OK;

    for (int f = 0; f < npaths && st == LADDER_OK; f++) {
        int first = nall;
        st = results_read(paths[f], &all, &nall, msg);
        if (st != LADDER_OK)
            break;
        status_counts counts = {0};
        for (int i = first; i < nall && st == LADDER_OK; i++) {
            count_status(&counts, all[i].status);
            if (strcmp(all[i].status, "ok") != 0)
                continue;
            if (!results_case_filter_matches(filter, &all[i])) {
                other_cases++;
                continue;
            }
            st = check_ok_row(&all[i], paths[f], i - first + 1, msg);
            if (st == LADDER_OK)
                st = keep_row(&m->shape_rows, &m->nshape_rows, &all[i], &replaced_shapes, msg);
            if (st != LADDER_OK)
                break;
            if (plot_is_auto_row(&all[i]))
                continue; /* not a library: only the shapes chart draws it */
            if (all[i].M != all[i].N || all[i].N != all[i].K) {
                non_square++; /* the charts have one size axis */
                continue;
            }
            st = keep_row(&m->rows, &m->nrows, &all[i], &replaced, msg);
        }
        if (st == LADDER_OK && counts.ok == 0) {
            char what[160];
            describe_counts(&counts, what, sizeof what);
            st = ladder_fail(msg, LADDER_ERROR, "%s: no rows with status ok (%s): nothing to draw",
                             paths[f], what);
        }
    }
    /* One case per figure: double beside single, or TN beside NN, would be unlike
     * numbers on one axis. */
    if (st == LADDER_OK && m->nshape_rows == 0)
        st = ladder_fail(msg, LADDER_ERROR, "no ok rows of the case --precision, --trans and "
                                            "--case-layout select (%d of other cases)",
                         other_cases);
    if (st == LADDER_OK)
        st = results_check_one_case(NULL, m->shape_rows, m->nshape_rows, msg);
    if (st == LADDER_OK) {
        results_case_label(&m->shape_rows[0], 0, m->case_label, sizeof m->case_label);
        if (m->case_label[0] || other_cases)
            fprintf(stderr, "ladder plot: note: drawing the case %s%s\n",
                    m->case_label[0] ? m->case_label : "single NN col (C = A B)",
                    other_cases ? " (rows of other cases left out)" : "");
    }
    if (st == LADDER_OK && non_square > 0)
        fprintf(stderr, "ladder plot: note: %d rows with M, N, K not all equal were left out "
                        "of the charts by size (the shapes chart draws them)\n", non_square);
    if (st == LADDER_OK && replaced > 0)
        fprintf(stderr, "ladder plot: note: %d rows measured the same device, backend, rung and "
                        "size as an earlier row; the later one is drawn\n", replaced);
    if (st == LADDER_OK)
        st = plot_model_index(m, msg);
    if (st == LADDER_OK && m->ngroups == 0 && !plot_shapes_drawable(m))
        st = ladder_fail(msg, LADDER_ERROR, "no rung (only vendor libraries) has a square size "
                                            "with status ok: nothing to draw");
    if (st == LADDER_OK)
        take_peaks(m, all, nall);
    free(all);
    if (st != LADDER_OK)
        plot_model_free(m);
    return st;
}

int plot_name_matches(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] &&
               tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

ladder_status plot_peak_parse(const char *spec, char *needle, size_t size, double *gflops,
                              char *msg)
{
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec)
        return ladder_fail(msg, LADDER_ERROR, "--peak '%s': expected DEVICE-SUBSTRING=GFLOPS, "
                                              "for example --peak 'H100=66900'", spec);
    char *end = NULL;
    *gflops = strtod(eq + 1, &end);
    if (end == eq + 1 || *end != '\0' || !isfinite(*gflops) || *gflops <= 0.0)
        return ladder_fail(msg, LADDER_ERROR, "--peak '%s': '%s' is not a positive number of "
                                              "GFLOPS", spec, eq + 1);
    snprintf(needle, size, "%.*s", (int)(eq - spec), spec);
    return LADDER_OK;
}

ladder_status plot_model_set_peak(plot_model *m, const char *spec, char *msg)
{
    char needle[256];
    double gflops;
    if (plot_peak_parse(spec, needle, sizeof needle, &gflops, msg) != LADDER_OK)
        return LADDER_ERROR;
    int matched = 0;
    for (int d = 0; d < m->ndevices; d++) {
        if (plot_name_matches(m->devices[d].name, needle)) {
            m->devices[d].peak_gflops = gflops;
            m->devices[d].peak_from_user = 1;
            matched++;
        }
    }
    if (matched == 0)
        return ladder_fail(msg, LADDER_ERROR, "--peak '%s': no device name contains '%s'",
                           spec, needle);
    return LADDER_OK;
}

void plot_model_free(plot_model *m)
{
    free(m->rows);
    free(m->shape_rows);
    free(m->devices);
    free(m->groups);
    memset(m, 0, sizeof *m);
}
