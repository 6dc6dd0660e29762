/* The series of the figures: which rows make one line or one set of points (a rung, or a
 * vendor library by name), and which libraries may be a reference for the others. Shared
 * by the roofline, the shapes chart and the accuracy figure.
 */
#include "report/plot_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rungs/registry.h"

int plot_reference_library(const char *name)
{
    const rung *r = registry_find(name);
    return !r || r->kind != RUNG_LIBRARY || rung_float32_accurate(r);
}

int plot_series_has(const plot_series *s, const result_row *r)
{
    return s->rung == r->rung && (r->rung > 0 || strcmp(s->name, r->rung_name) == 0);
}

/* Rungs ascending, then the libraries by name. */
static int compare_series(const void *a, const void *b)
{
    const plot_series *x = a, *y = b;
    if ((x->rung > 0) != (y->rung > 0))
        return x->rung > 0 ? -1 : 1;
    if (x->rung != y->rung)
        return x->rung < y->rung ? -1 : 1;
    return strcmp(x->name, y->name);
}

int plot_find_series(const plot_model *m, int (*keep)(const result_row *r, const void *ctx),
                     const void *ctx, plot_series **out)
{
    plot_series *s = malloc((size_t)(m->nshape_rows + 1) * sizeof *s);
    *out = s;
    if (!s)
        return -1;
    int n = 0;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        if (!keep(r, ctx))
            continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = plot_series_has(&s[j], r);
        if (seen)
            continue;
        s[n].rung = r->rung;
        snprintf(s[n].name, sizeof s[n].name, "%s", r->rung_name);
        n++;
    }
    qsort(s, (size_t)n, sizeof *s, compare_series);
    return n;
}
