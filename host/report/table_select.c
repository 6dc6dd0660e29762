/* `ladder table`: which rows of the result files a table shows.
 *
 * The selection is strict because its output is committed: a --rungs item that names no
 * row of the files is an error (a typo would otherwise drop a row silently), an ok row
 * without a measurement is an error, and rows of two devices of one backend never share a
 * table (nothing in a table would say which row came from which device).
 */
#include "report/table.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "rungs/registry.h"

/* ---- --rungs ------------------------------------------------------------------------- */

static int is_keyword(const char *name)
{
    return strcmp(name, "all") == 0 || strcmp(name, "kernels") == 0 ||
           strcmp(name, "baselines") == 0;
}

/* One item: "3", "1-3", "cublas", "register-2d", "kernels". */
static ladder_status parse_item(char *text, rung_item *item, char *msg)
{
    memset(item, 0, sizeof *item);
    item->text = text;
    if (!*text)
        return ladder_fail(msg, LADDER_ERROR, "an empty item (two commas in a row?)");
    char *dash = strchr(text, '-');
    if (isdigit((unsigned char)text[0])) {
        /* A number or a range; rung numbers start at 1 (baselines are 0: name them). */
        if (dash)
            *dash = '\0';
        int ok = text_is_digits(text) && (!dash || text_is_digits(dash + 1)) &&
                 strlen(text) < 6 && (!dash || strlen(dash + 1) < 6);
        if (ok) {
            item->lo = atoi(text);
            item->hi = dash ? atoi(dash + 1) : item->lo;
        }
        if (dash)
            *dash = '-';
        if (!ok)
            return ladder_fail(msg, LADDER_ERROR, "'%s' is not a rung number, range or name",
                               text);
        if (item->lo < 1)
            return ladder_fail(msg, LADDER_ERROR,
                               "'%s': rung numbers start at 1 (baselines go by name: cublas, "
                               "clblast, cpu, or all of them as 'baselines')", text);
        if (item->lo > item->hi)
            return ladder_fail(msg, LADDER_ERROR, "the range '%s' is empty", text);
        return LADDER_OK;
    }
    for (const char *p = text; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return ladder_fail(msg, LADDER_ERROR, "'%s' is not a rung number, range or name",
                               text);
    if (strlen(text) >= sizeof item->name)
        return ladder_fail(msg, LADDER_ERROR, "'%s' is too long for a rung name", text);
    snprintf(item->name, sizeof item->name, "%s", text);
    return LADDER_OK;
}

ladder_status rung_filter_parse(const char *spec, rung_filter *f, char *msg)
{
    memset(f, 0, sizeof *f);
    size_t n = strlen(spec);
    f->copy = malloc(n + 1);
    f->items = calloc(n + 1, sizeof *f->items); /* at most one item per character, +1 */
    if (!f->copy || !f->items) {
        rung_filter_free(f);
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    }
    memcpy(f->copy, spec, n + 1);
    /* Split by hand rather than with strtok, which would skip empty items silently. */
    char *item = f->copy;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (parse_item(item, &f->items[f->count], msg) != LADDER_OK) {
            rung_filter_free(f);
            return LADDER_ERROR;
        }
        f->count++;
        if (!comma)
            break;
        item = comma + 1;
    }
    return LADDER_OK;
}

void rung_filter_free(rung_filter *f)
{
    free(f->items);
    free(f->copy);
    memset(f, 0, sizeof *f);
}

static int item_matches(const rung_item *item, const result_row *r)
{
    if (item->lo)
        return r->rung >= item->lo && r->rung <= item->hi;
    if (strcmp(item->name, "all") == 0)
        return 1;
    if (strcmp(item->name, "kernels") == 0)
        return r->rung > 0;
    if (strcmp(item->name, "baselines") == 0) /* rung 0, but "auto" is no library */
        return r->rung == 0 && strcmp(r->rung_name, "auto") != 0;
    return strcasecmp(item->name, r->rung_name) == 0;
}

static int filter_matches(const rung_filter *f, const result_row *r)
{
    if (f->count == 0)
        return 1;
    for (int i = 0; i < f->count; i++)
        if (item_matches(&f->items[i], r))
            return 1;
    return 0;
}

/* A --rungs item that matches no row at all, whatever its status, is most likely a typo. */
static ladder_status check_items_exist(const rung_filter *f, const table_data *d,
                                       const table_options *o, char *msg)
{
    for (int i = 0; i < f->count; i++) {
        if (!f->items[i].lo && is_keyword(f->items[i].name))
            continue;
        int found = 0;
        for (int k = 0; k < d->nall && !found; k++)
            found = item_matches(&f->items[i], &d->all[k]);
        if (!found)
            return ladder_fail(msg, LADDER_ERROR, "--rungs: no row of %s%s%s%s%s is rung '%s'",
                               o->files[0], o->nfiles > 1 ? " (and the other files)" : "",
                               o->params ? " with parameters '" : "",
                               o->params ? o->params : "", o->params ? "'" : "",
                               f->items[i].text);
    }
    return LADDER_OK;
}

/* ---- reading ------------------------------------------------------------------------- */

static int same_measurement(const result_row *a, const result_row *b)
{
    return a->rung == b->rung && a->M == b->M && a->N == b->N && a->K == b->K &&
           strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) == 0 &&
           strcmp(a->rung_name, b->rung_name) == 0 && results_same_case(a, b);
}

/* An ok row is a measurement; one without a time or a rate was edited by hand or written
 * by something that does not follow the schema, and no table should quietly show "–". */
static ladder_status check_ok_row(const result_row *r, const char *path, int index, char *msg)
{
    if (strcmp(r->status, "ok") != 0)
        return LADDER_OK;
    const char *problem = NULL;
    if (!isfinite(r->gflops) || r->gflops <= 0)
        problem = "GFLOPS is not a positive number";
    else if (!isfinite(r->median_ms) || r->median_ms <= 0)
        problem = "median_ms is not a positive number";
    else if (r->M <= 0 || r->N <= 0 || r->K <= 0)
        problem = "a matrix size is not positive";
    if (problem)
        return ladder_fail(msg, LADDER_ERROR, "%s: data row %d (%s rung %d %s): status ok but %s",
                           path, index, r->backend, r->rung, r->rung_name, problem);
    return LADDER_OK;
}

/* Reads every file; a later measurement of the same thing (a rerun after an edit, in a
 * later file) replaces the earlier one, as it does in `ladder plot`. */
static ladder_status read_files(const table_options *o, table_data *d, char *msg)
{
    for (int f = 0; f < o->nfiles; f++) {
        result_row *rows = NULL;
        int n = 0;
        if (results_read(o->files[f], &rows, &n, msg) != LADDER_OK) {
            free(rows);
            return LADDER_ERROR;
        }
        ladder_status st = LADDER_OK;
        for (int i = 0; i < n && st == LADDER_OK; i++) {
            st = check_ok_row(&rows[i], o->files[f], i + 1, msg);
            if (st != LADDER_OK)
                break;
            /* --params picks among one rung's parameter sets before the rerun rule below
             * would keep only the last of them; baselines have no parameters. */
            if (o->params && rows[i].rung != 0 && !strstr(rows[i].params, o->params))
                continue;
            int k = 0;
            while (k < d->nall && !same_measurement(&d->all[k], &rows[i]))
                k++;
            if (k == d->nall) {
                result_row *grown = realloc(d->all, (size_t)(d->nall + 1) * sizeof *grown);
                if (!grown) {
                    st = ladder_fail(msg, LADDER_ERROR, "out of memory");
                    break;
                }
                d->all = grown;
                d->nall++;
            }
            d->all[k] = rows[i];
        }
        free(rows);
        if (st != LADDER_OK)
            return st;
    }
    return LADDER_OK;
}

/* ---- selecting ----------------------------------------------------------------------- */

int table_backend_order(const char *backend)
{
    static const char *const order[] = {"opencl", "cuda", "cpu"};
    for (int i = 0; i < 3; i++)
        if (strcmp(backend, order[i]) == 0)
            return i;
    return 3;
}

static int contains_nocase(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++)
        if (strncasecmp(haystack, needle, n) == 0)
            return 1;
    return n == 0;
}

static int size_selected(const table_options *o, const result_row *r)
{
    if (!o->sizes)
        return 1;
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i].M == r->M && o->sizes[i].N == r->N && o->sizes[i].K == r->K)
            return 1;
    return 0;
}

static int selected(const table_options *o, const result_row *r)
{
    if (!o->all_status && strcmp(r->status, "ok") != 0)
        return 0;
    if (o->backend && strcmp(o->backend, r->backend) != 0)
        return 0;
    /* The backends layout compares OpenCL with CUDA; the CPU has no column there. */
    if (o->layout == TABLE_BACKENDS && o->value == VALUE_NONE &&
        strcmp(r->backend, "opencl") != 0 && strcmp(r->backend, "cuda") != 0)
        return 0;
    if (o->device && !contains_nocase(r->device, o->device))
        return 0;
    if (!results_case_filter_matches(&o->cases, r))
        return 0;
    return size_selected(o, r) && filter_matches(&o->rungs, r);
}

/* Table order: backend (OpenCL, CUDA, CPU), kernels by number, then baselines by name,
 * then size. Every field takes part so that the order never depends on qsort. */
static int compare_rows(const void *pa, const void *pb)
{
    const result_row *a = *(const result_row *const *)pa;
    const result_row *b = *(const result_row *const *)pb;
    int c = table_backend_order(a->backend) - table_backend_order(b->backend);
    if (c == 0)
        c = strcmp(a->backend, b->backend);
    if (c == 0)
        c = (a->rung == 0) - (b->rung == 0);
    if (c == 0)
        c = (a->rung > b->rung) - (a->rung < b->rung);
    if (c == 0)
        c = strcmp(a->rung_name, b->rung_name);
    if (c == 0) {
        double va = (double)a->M * (double)a->N * (double)a->K;
        double vb = (double)b->M * (double)b->N * (double)b->K;
        c = (va > vb) - (va < vb);
    }
    if (c == 0)
        c = (a->M > b->M) - (a->M < b->M);
    if (c == 0)
        c = (a->N > b->N) - (a->N < b->N);
    if (c == 0)
        c = (a->K > b->K) - (a->K < b->K);
    if (c == 0)
        c = strcmp(a->device, b->device);
    return c;
}

/* "backend cuda, rungs 1-3, device 'H100' at 4096 in results/x.csv": what was asked. */
static void describe_request(const table_options *o, char *out, size_t size)
{
    size_t used = 0;
    int parts = 0;
#define ADD(...) \
    used += (size_t)snprintf(out + used, used < size ? size - used : 0, __VA_ARGS__)
    if (o->backend)
        ADD("%s backend %s", parts++ ? "," : " for", o->backend);
    if (o->rung_spec)
        ADD("%s rungs %s", parts++ ? "," : " for", o->rung_spec);
    if (o->device)
        ADD("%s device '%s'", parts++ ? "," : " for", o->device);
    if (o->params)
        ADD("%s parameters '%s'", parts++ ? "," : " for", o->params);
    const results_case_filter *c = &o->cases;
    if (c->precision || c->trans || c->layout)
        ADD("%s case %s %s %s", parts++ ? "," : " for", c->precision ? c->precision : "*",
            c->trans ? c->trans : "*", c->layout ? c->layout : "*");
    if (o->size_spec)
        ADD(" at %s", o->size_spec);
    ADD(" in %s", o->files[0]);
    for (int f = 1; f < o->nfiles; f++)
        ADD(", %s", o->files[f]);
#undef ADD
}

int table_compare_shapes(const void *pa, const void *pb)
{
    const gemm_size *a = pa, *b = pb;
    double va = (double)a->M * (double)a->N * (double)a->K;
    double vb = (double)b->M * (double)b->N * (double)b->K;
    int c = (va > vb) - (va < vb);
    if (c == 0)
        c = (a->M > b->M) - (a->M < b->M);
    if (c == 0)
        c = (a->N > b->N) - (a->N < b->N);
    if (c == 0)
        c = (a->K > b->K) - (a->K < b->K);
    return c;
}

gemm_size *table_shapes(const table_data *d, int *count)
{
    gemm_size *shapes = calloc((size_t)d->nshown + 1, sizeof *shapes);
    *count = 0;
    if (!shapes)
        return NULL;
    for (int i = 0; i < d->nshown; i++) {
        gemm_size s = {d->shown[i]->M, d->shown[i]->N, d->shown[i]->K};
        int k = 0;
        while (k < *count && table_compare_shapes(&shapes[k], &s) != 0)
            k++;
        if (k == *count)
            shapes[(*count)++] = s;
    }
    qsort(shapes, (size_t)*count, sizeof *shapes, table_compare_shapes);
    return shapes;
}

/* Rows of two devices of one backend would make an ambiguous table. */
static ladder_status check_one_device(const table_data *d, char *msg)
{
    for (int i = 0; i < d->nshown; i++)
        for (int k = i + 1; k < d->nshown; k++) {
            const result_row *a = d->shown[i], *b = d->shown[k];
            if (strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) != 0)
                return ladder_fail(msg, LADDER_ERROR,
                                   "rows of more than one %s device match ('%s', '%s'): "
                                   "choose one with --device", display_backend(a->backend),
                                   a->device, b->device);
        }
    return LADDER_OK;
}

/* The rows and backends layouts show one size; a mix would put unlike numbers together. */
static ladder_status check_one_size(const table_options *o, const table_data *d, char *msg)
{
    if (o->value != VALUE_NONE || o->layout == TABLE_SIZES || o->layout == TABLE_SUMMARY)
        return LADDER_OK;
    int nshapes;
    gemm_size *shapes = table_shapes(d, &nshapes);
    if (!shapes)
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; i < nshapes && used < sizeof list; i++) {
        char shape[64];
        fmt_shape(shapes[i].M, shapes[i].N, shapes[i].K, shape, sizeof shape);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", shape);
    }
    free(shapes);
    if (nshapes > 1)
        return ladder_fail(msg, LADDER_ERROR,
                           "--layout %s shows one size and the selected rows have %d (%s): "
                           "choose one with --size", o->layout == TABLE_ROWS ? "rows"
                                                                             : "backends",
                           nshapes, list);
    return LADDER_OK;
}

ladder_status table_select(const table_options *o, table_data *d, char *msg)
{
    memset(d, 0, sizeof *d);
    if (read_files(o, d, msg) != LADDER_OK)
        return LADDER_ERROR;
    if (check_items_exist(&o->rungs, d, o, msg) != LADDER_OK)
        return LADDER_ERROR;
    d->shown = calloc((size_t)d->nall + 1, sizeof *d->shown);
    if (!d->shown)
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    for (int i = 0; i < d->nall; i++)
        if (selected(o, &d->all[i]))
            d->shown[d->nshown++] = &d->all[i];
    if (d->nshown == 0) {
        char request[LADDER_MSG];
        describe_request(o, request, sizeof request);
        return ladder_fail(msg, LADDER_ERROR, "no %srows%s", o->all_status ? "" : "ok ",
                           request);
    }
    qsort(d->shown, (size_t)d->nshown, sizeof *d->shown, compare_rows);
    /* Rows of two cases (double beside single, TN beside NN) would put unlike numbers in
     * one table without saying so. */
    if (check_one_device(d, msg) != LADDER_OK ||
        results_check_one_case(d->shown, NULL, d->nshown, msg) != LADDER_OK ||
        check_one_size(o, d, msg) != LADDER_OK)
        return LADDER_ERROR;
    return LADDER_OK;
}

void table_data_free(table_data *d)
{
    free(d->all);
    free(d->shown);
    memset(d, 0, sizeof *d);
}

/* ---- what a row is compared with ----------------------------------------------------- */

static int same_place(const result_row *a, const result_row *b)
{
    return a->M == b->M && a->N == b->N && a->K == b->K &&
           strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) == 0 &&
           results_same_case(a, b);
}

int table_is_library(const table_data *d, const result_row *row)
{
    if (row->rung != 0 || !row->rung_name[0] || strcmp(row->status, "ok") != 0)
        return 0;
    for (int i = 0; i < d->nall; i++)
        if (same_place(&d->all[i], row) && strcmp(d->all[i].library, row->rung_name) == 0)
            return 1;
    return 0;
}

/* The ok row of kernel rung `number` at the same device, backend and size as `row`. */
static const result_row *ok_row_of(const table_data *d, const result_row *row, int number)
{
    for (int i = 0; i < d->nall; i++) {
        const result_row *r = &d->all[i];
        if (r->rung == number && same_place(r, row) && strcmp(r->status, "ok") == 0)
            return r;
    }
    return NULL;
}

typedef struct {
    const table_data *d;
    const result_row *row;
} place_query;

static int ran_there(int number, const void *ctx)
{
    const place_query *q = ctx;
    return ok_row_of(q->d, q->row, number) != NULL;
}

const result_row *table_previous_rung(const table_data *d, const result_row *row)
{
    if (row->rung <= 1 || strcmp(row->status, "ok") != 0)
        return NULL;
    const place_query q = {d, row};
    const int base = rung_nearest_ancestor(row->rung, ran_there, &q);
    return base ? ok_row_of(d, row, base) : NULL;
}
