/* `ladder table`: the selected rows arranged as one of the four layouts, or one value.
 *
 *   rows      one row per (backend, rung) at one size: what a chapter shows about its step
 *   sizes     one row per (backend, rung), a GFLOPS column per size: the classic chart
 *   backends  one row per rung, OpenCL and CUDA side by side at one size
 *   summary   one row per rung: its parent and idea (from the registry), and per backend
 *             its best GFLOPS over the sizes, where, and its fraction of the library there
 *
 * The rows arrive sorted and checked (table_select.c); this file only decides which figure
 * goes in which cell.
 */
#include "report/table.h"

#include <stdlib.h>
#include <string.h>

#include "rungs/registry.h"

/* ---- cells shared by the layouts ----------------------------------------------------- */

static int is_ok(const result_row *r)
{
    return strcmp(r->status, "ok") == 0;
}

static void rung_cell(const result_row *r, char *out, size_t size)
{
    if (r->rung > 0)
        snprintf(out, size, "%d", r->rung);
    else
        snprintf(out, size, "%s", TABLE_MISSING);
}

/* The figure a table shows of an ok row: GFLOPS, or GB/s with --metric gbps. */
static double value_of(const table_options *o, const result_row *r)
{
    return o->gbps ? row_gbps(r) : r->gflops;
}

/* A row that did not run shows its status where its GFLOPS (or GB/s) would be. */
static void gflops_cell(const table_options *o, const result_row *r, char *out, size_t size)
{
    if (is_ok(r))
        fmt_gflops(value_of(o, r), out, size);
    else
        snprintf(out, size, "%s", r->status);
}

/* The name of that figure in headers and captions. */
static const char *metric_name(const table_options *o) { return o->gbps ? "GB/s" : "GFLOPS"; }

/* The fraction of the vendor library: the run computed it, except for the library's own
 * row, which is 1 by definition. Returns 0 when the row has none. */
static int library_fraction(const table_data *d, const result_row *r, double *f)
{
    if (table_is_library(d, r)) {
        *f = 1.0;
        return 1;
    }
    *f = r->vs_library;
    return is_ok(r) && r->vs_library > 0;
}

static void library_cell(const table_data *d, const result_row *r, char *out, size_t size)
{
    double f;
    if (library_fraction(d, r, &f))
        fmt_fraction(f, out, size);
    else
        snprintf(out, size, "%s", TABLE_MISSING);
}

/* The gain over the rung's parent, or its nearest ancestor that ran; "(vs 9)" says which
 * when that is not the rung just below: a branch of the ladder (rung 17 changes rung 9's
 * kernel, not 16's), or a FAILED or unsupported parent, which is never hidden. */
static void step_cell(const table_data *d, const result_row *r, char *out, size_t size)
{
    const result_row *prev = table_previous_rung(d, r);
    if (!prev) {
        snprintf(out, size, "%s", TABLE_MISSING);
        return;
    }
    char gain[32];
    fmt_gain(r->gflops / prev->gflops, gain, sizeof gain);
    if (prev->rung == r->rung - 1)
        snprintf(out, size, "%s", gain);
    else
        snprintf(out, size, "%s (vs %d)", gain, prev->rung);
}

/* "CUDA rung 2 tiling at 256", "CUDA cuBLAS at 256": a row named in a message. */
static void describe_row(const result_row *r, char *out, size_t size)
{
    char shape[64];
    fmt_shape(r->M, r->N, r->K, shape, sizeof shape);
    if (r->rung > 0)
        snprintf(out, size, "%s rung %d %s at %s", display_backend(r->backend), r->rung,
                 r->rung_name, shape);
    else
        snprintf(out, size, "%s %s at %s", display_backend(r->backend),
                 display_rung_name(r->rung_name), shape);
}

/* ---- --layout rows --------------------------------------------------------------------- */

static md_table *build_rows(const table_options *o, const table_data *d)
{
    const struct { const char *name; int right; } cols[] = {
        {"rung", 1}, {"name", 0}, {"backend", 0}, {"params", 0}, {"ms", 1},
        {metric_name(o), 1}, {"vs library", 1}, {"step gain", 1},
    };
    md_table *t = md_table_new(8);
    if (!t)
        return NULL;
    for (int c = 0; c < 8; c++)
        md_table_header(t, c, cols[c].name, cols[c].right);
    for (int i = 0; i < d->nshown; i++) {
        const result_row *r = d->shown[i];
        int row = md_table_add_row(t);
        if (row < 0) {
            md_table_free(t);
            return NULL;
        }
        char cell[TABLE_CELL];
        rung_cell(r, cell, sizeof cell);
        md_table_set(t, row, 0, cell);
        md_table_set(t, row, 1, display_rung_name(r->rung_name));
        md_table_set(t, row, 2, display_backend(r->backend));
        if (r->params[0])
            md_table_set(t, row, 3, r->params);
        if (is_ok(r)) {
            fmt_ms(r->median_ms, cell, sizeof cell);
            md_table_set(t, row, 4, cell);
        }
        gflops_cell(o, r, cell, sizeof cell);
        md_table_set(t, row, 5, cell);
        library_cell(d, r, cell, sizeof cell);
        md_table_set(t, row, 6, cell);
        step_cell(d, r, cell, sizeof cell);
        md_table_set(t, row, 7, cell);
    }
    return t;
}

/* ---- --layout sizes -------------------------------------------------------------------- */

/* Rows arrive sorted by backend and rung, so one table row per run of equal keys. */
static int same_rung(const result_row *a, const result_row *b)
{
    return a->rung == b->rung && strcmp(a->rung_name, b->rung_name) == 0 &&
           strcmp(a->backend, b->backend) == 0;
}

static md_table *build_sizes(const table_options *o, const table_data *d)
{
    int nshapes;
    gemm_size *shapes = table_shapes(d, &nshapes);
    if (!shapes)
        return NULL;
    md_table *t = md_table_new(3 + nshapes);
    if (!t) {
        free(shapes);
        return NULL;
    }
    md_table_header(t, 0, "rung", 1);
    md_table_header(t, 1, "name", 0);
    md_table_header(t, 2, "backend", 0);
    for (int s = 0; s < nshapes; s++) {
        char head[64];
        fmt_shape(shapes[s].M, shapes[s].N, shapes[s].K, head, sizeof head);
        md_table_header(t, 3 + s, head, 1);
    }
    int row = -1;
    for (int i = 0; i < d->nshown; i++) {
        const result_row *r = d->shown[i];
        char cell[TABLE_CELL];
        if (i == 0 || !same_rung(d->shown[i - 1], r)) {
            row = md_table_add_row(t);
            if (row < 0) {
                md_table_free(t);
                free(shapes);
                return NULL;
            }
            rung_cell(r, cell, sizeof cell);
            md_table_set(t, row, 0, cell);
            md_table_set(t, row, 1, display_rung_name(r->rung_name));
            md_table_set(t, row, 2, display_backend(r->backend));
        }
        gemm_size s = {r->M, r->N, r->K};
        for (int k = 0; k < nshapes; k++)
            if (table_compare_shapes(&shapes[k], &s) == 0) {
                gflops_cell(o, r, cell, sizeof cell);
                md_table_set(t, row, 3 + k, cell);
            }
    }
    free(shapes);
    return t;
}

/* ---- --layout backends ----------------------------------------------------------------- */

/* Kernels by number, then baselines by name: the order of a rung regardless of backend. */
static int compare_rungs(const void *pa, const void *pb)
{
    const result_row *a = *(const result_row *const *)pa;
    const result_row *b = *(const result_row *const *)pb;
    int c = (a->rung == 0) - (b->rung == 0);
    if (c == 0)
        c = (a->rung > b->rung) - (a->rung < b->rung);
    if (c == 0)
        c = strcmp(a->rung_name, b->rung_name);
    return c;
}

/* One representative row per rung of the shown rows, whichever backend it came from, in
 * rung order: a new array (free() it), its length in *count; NULL when out of memory. */
static const result_row **rung_keys(const table_data *d, int *count)
{
    const result_row **keys = calloc((size_t)d->nshown + 1, sizeof *keys);
    if (!keys)
        return NULL;
    int nkeys = 0;
    for (int i = 0; i < d->nshown; i++) {
        int k = 0;
        while (k < nkeys && compare_rungs(&keys[k], &d->shown[i]) != 0)
            k++;
        if (k == nkeys)
            keys[nkeys++] = d->shown[i];
    }
    qsort(keys, (size_t)nkeys, sizeof *keys, compare_rungs);
    *count = nkeys;
    return keys;
}

static md_table *build_backends(const table_options *o, const table_data *d)
{
    static const char *const backends[] = {"opencl", "cuda"};
    int nkeys = 0;
    const result_row **keys = rung_keys(d, &nkeys);
    md_table *t = md_table_new(6);
    if (!keys || !t) {
        free(keys);
        md_table_free(t);
        return NULL;
    }

    md_table_header(t, 0, "rung", 1);
    md_table_header(t, 1, "name", 0);
    for (int b = 0; b < 2; b++) {
        char head[64];
        snprintf(head, sizeof head, "%s %s", display_backend(backends[b]), metric_name(o));
        md_table_header(t, 2 + 2 * b, head, 1);
        snprintf(head, sizeof head, "%s vs library", display_backend(backends[b]));
        md_table_header(t, 3 + 2 * b, head, 1);
    }
    for (int k = 0; k < nkeys; k++) {
        int row = md_table_add_row(t);
        if (row < 0) {
            md_table_free(t);
            free(keys);
            return NULL;
        }
        char cell[TABLE_CELL];
        rung_cell(keys[k], cell, sizeof cell);
        md_table_set(t, row, 0, cell);
        md_table_set(t, row, 1, display_rung_name(keys[k]->rung_name));
        for (int i = 0; i < d->nshown; i++) {
            const result_row *r = d->shown[i];
            if (compare_rungs(&keys[k], &r) != 0)
                continue;
            int b = strcmp(r->backend, "cuda") == 0; /* only OpenCL and CUDA are selected */
            gflops_cell(o, r, cell, sizeof cell);
            md_table_set(t, row, 2 + 2 * b, cell);
            library_cell(d, r, cell, sizeof cell);
            md_table_set(t, row, 3 + 2 * b, cell);
        }
    }
    free(keys);
    return t;
}

/* ---- --layout summary ------------------------------------------------------------------ */

/* A registry text in a cell: Markdown's emphasis characters escaped ("alpha*A*B"). */
static void markdown_cell(const char *text, char *out, size_t size)
{
    size_t used = 0;
    for (; *text && used + 3 < size; text++) {
        if (*text == '*' || *text == '_' || *text == '`')
            out[used++] = '\\';
        out[used++] = *text;
    }
    out[used] = '\0';
}

/* "9", or "9 (also 13)" for a rung with a second parent; "–" for rung 1 and baselines. */
static void parent_cell(const rung *r, char *out, size_t size)
{
    if (!r || r->parent == 0)
        snprintf(out, size, "%s", TABLE_MISSING);
    else if (r->second_parent)
        snprintf(out, size, "%d (also %d)", r->parent, r->second_parent);
    else
        snprintf(out, size, "%d", r->parent);
}

/* The registry entry of a row: kernels by number, baselines by name; NULL if none. */
static const rung *registry_entry(const result_row *r)
{
    return r->rung > 0 ? registry_find_number(r->rung) : registry_find(r->rung_name);
}

static md_table *build_summary(const table_options *o, const table_data *d)
{
    /* The backends present, in table order, and the library each compares with. */
    const char *backends[4];
    const char *libraries[4] = {NULL, NULL, NULL, NULL};
    int nbackends = 0;
    for (int i = 0; i < d->nshown; i++) {
        const result_row *r = d->shown[i];
        int b = 0;
        while (b < nbackends && strcmp(backends[b], r->backend) != 0)
            b++;
        if (b == nbackends) {
            if (nbackends == 4)
                continue; /* table_select allows opencl, cuda and cpu only */
            backends[nbackends++] = r->backend;
        }
        if (!libraries[b] && r->library[0])
            libraries[b] = r->library;
    }
    for (int a = 0; a < nbackends; a++) /* few: insertion sort by table order */
        for (int b = a; b > 0 && table_backend_order(backends[b]) <
                                     table_backend_order(backends[b - 1]); b--) {
            const char *t = backends[b];
            backends[b] = backends[b - 1];
            backends[b - 1] = t;
            t = libraries[b];
            libraries[b] = libraries[b - 1];
            libraries[b - 1] = t;
        }
    /* One row per rung, whichever backends measured it. */
    int nkeys = 0;
    const result_row **keys = rung_keys(d, &nkeys);
    md_table *t = md_table_new(4 + 3 * nbackends);
    if (!keys || !t) {
        free(keys);
        md_table_free(t);
        return NULL;
    }

    md_table_header(t, 0, "rung", 1);
    md_table_header(t, 1, "name", 0);
    md_table_header(t, 2, "parent", 0);
    md_table_header(t, 3, "idea", 0);
    for (int b = 0; b < nbackends; b++) {
        char head[64];
        snprintf(head, sizeof head, "%s best %s", display_backend(backends[b]),
                 metric_name(o));
        md_table_header(t, 4 + 3 * b, head, 1);
        md_table_header(t, 5 + 3 * b, "at", 1);
        snprintf(head, sizeof head, "vs %s",
                 libraries[b] ? display_rung_name(libraries[b]) : "library");
        md_table_header(t, 6 + 3 * b, head, 1);
    }
    for (int k = 0; k < nkeys; k++) {
        int row = md_table_add_row(t);
        if (row < 0) {
            md_table_free(t);
            free(keys);
            return NULL;
        }
        const rung *entry = registry_entry(keys[k]);
        char cell[TABLE_CELL];
        rung_cell(keys[k], cell, sizeof cell);
        md_table_set(t, row, 0, cell);
        md_table_set(t, row, 1, display_rung_name(keys[k]->rung_name));
        parent_cell(entry, cell, sizeof cell);
        md_table_set(t, row, 2, cell);
        markdown_cell(entry ? entry->idea : TABLE_MISSING, cell, sizeof cell);
        md_table_set(t, row, 3, cell);
        for (int b = 0; b < nbackends; b++) {
            /* The rung's fastest ok row on this backend, any size. */
            const result_row *best = NULL;
            for (int i = 0; i < d->nshown; i++) {
                const result_row *r = d->shown[i];
                if (compare_rungs(&keys[k], &r) == 0 && strcmp(r->backend, backends[b]) == 0 &&
                    is_ok(r) && (!best || value_of(o, r) > value_of(o, best)))
                    best = r;
            }
            if (!best)
                continue; /* the cells stay "–" */
            gflops_cell(o, best, cell, sizeof cell);
            md_table_set(t, row, 4 + 3 * b, cell);
            fmt_shape(best->M, best->N, best->K, cell, sizeof cell);
            md_table_set(t, row, 5 + 3 * b, cell);
            library_cell(d, best, cell, sizeof cell);
            md_table_set(t, row, 6 + 3 * b, cell);
        }
    }
    free(keys);
    return t;
}

/* ---- the caption ----------------------------------------------------------------------- */

/* Text for an emphasised caption: Markdown's emphasis and code characters escaped. */
static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strchr("*_`\\|[]<>", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* "*Measured on Fixture GPU (OpenCL, CUDA) at size 256. Source: `a.csv`.*" */
static void print_caption(const table_options *o, const table_data *d, FILE *out)
{
    if (o->layout == TABLE_SIZES)
        fprintf(out, "\n*%s by size, measured on ", metric_name(o));
    else if (o->layout == TABLE_SUMMARY)
        fprintf(out, "\n*Each rung's best %s over the sizes measured on ", metric_name(o));
    else
        fprintf(out, "\n*Measured on ");
    /* Each device once, with its backends, in table order. */
    for (int i = 0; i < d->nshown; i++) {
        const result_row *r = d->shown[i];
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = strcmp(d->shown[k]->device, r->device) == 0;
        if (seen)
            continue;
        if (i > 0)
            fprintf(out, "; ");
        put_escaped(out, r->device);
        fprintf(out, " (");
        const char *last = NULL;
        for (int k = i; k < d->nshown; k++) {
            const result_row *s = d->shown[k];
            if (strcmp(s->device, r->device) != 0 || (last && strcmp(last, s->backend) == 0))
                continue;
            fprintf(out, "%s%s", last ? ", " : "", display_backend(s->backend));
            last = s->backend;
        }
        fprintf(out, ")");
    }
    if (o->layout != TABLE_SIZES && o->layout != TABLE_SUMMARY) {
        char shape[64];
        fmt_shape(d->shown[0]->M, d->shown[0]->N, d->shown[0]->K, shape, sizeof shape);
        fprintf(out, " at size %s", shape);
    }
    /* The case, when it is not the ladder's default (single, NN, column-major, C = A B). */
    char label[96];
    results_case_label(d->shown[0], 0, label, sizeof label);
    if (label[0]) {
        fprintf(out, ", case ");
        put_escaped(out, label);
    }
    fprintf(out, ". Source: ");
    for (int f = 0; f < o->nfiles; f++)
        fprintf(out, "%s`%s`", f ? ", " : "", o->files[f]);
    fprintf(out, ".*\n");
}

/* ---- entry points ---------------------------------------------------------------------- */

ladder_status table_print(const table_options *o, const table_data *d, FILE *out, char *msg)
{
    md_table *t = o->layout == TABLE_SIZES      ? build_sizes(o, d)
                  : o->layout == TABLE_BACKENDS ? build_backends(o, d)
                  : o->layout == TABLE_SUMMARY  ? build_summary(o, d)
                                                : build_rows(o, d);
    if (!t)
        return ladder_fail(msg, LADDER_ERROR, "out of memory building the table");
    md_table_print(t, out);
    md_table_free(t);
    if (o->caption)
        print_caption(o, d, out);
    return LADDER_OK;
}

ladder_status table_print_value(const table_options *o, const table_data *d, FILE *out,
                                char *msg)
{
    char what[256];
    if (d->nshown != 1) {
        char list[512] = "";
        size_t used = 0;
        for (int i = 0; i < d->nshown && i < 4 && used < sizeof list; i++) {
            describe_row(d->shown[i], what, sizeof what);
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                     i ? "; " : "", what);
        }
        return ladder_fail(msg, LADDER_ERROR,
                           "--value needs exactly one row and %d match (%s%s): narrow the "
                           "selection with --backend, --rungs, --size or --device",
                           d->nshown, list, d->nshown > 4 ? "; ..." : "");
    }
    const result_row *r = d->shown[0];
    describe_row(r, what, sizeof what);
    char text[TABLE_CELL];
    switch (o->value) {
    case VALUE_GFLOPS:
        fmt_gflops(r->gflops, text, sizeof text);
        break;
    case VALUE_MS:
        fmt_ms(r->median_ms, text, sizeof text);
        break;
    case VALUE_GBPS:
        fmt_gflops(row_gbps(r), text, sizeof text);
        break;
    case VALUE_ERR_BOUND:
    case VALUE_REL_ERROR: {
        /* Three significant digits: 0.859, 1.05e-05 (the result file's own precision). */
        const double e = o->value == VALUE_ERR_BOUND ? r->error_ratio : r->rel_error;
        if (e < 0 || strcmp(r->verify, "off") == 0)
            return ladder_fail(msg, LADDER_ERROR, "%s has no %s (not verified, or a file "
                               "older than the column)", what,
                               o->value == VALUE_ERR_BOUND ? "error ratio" : "rel_error");
        snprintf(text, sizeof text, "%.3g", e);
        break;
    }
    case VALUE_VS_LIBRARY: {
        double f;
        if (!library_fraction(d, r, &f))
            return ladder_fail(msg, LADDER_ERROR, "%s has no fraction of the library (no "
                               "library was measured with it)", what);
        fmt_fraction(f, text, sizeof text);
        break;
    }
    case VALUE_STEP_GAIN: {
        /* As in the table, "(vs 1)" says when the rung just below did not run. */
        if (!table_previous_rung(d, r))
            return ladder_fail(msg, LADDER_ERROR, "%s has no step gain (no lower rung ran ok "
                               "on that device at that size)", what);
        step_cell(d, r, text, sizeof text);
        break;
    }
    case VALUE_NONE:
        return ladder_fail(msg, LADDER_ERROR, "no value asked for");
    }
    fprintf(out, "%s\n", text);
    return LADDER_OK;
}
