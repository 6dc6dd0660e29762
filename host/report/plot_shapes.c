/* The data of the shapes chart: for each device and backend, shape by shape, the vendor
 * library, the fastest rung and the shape-aware entry ("auto"), from the model's rows of
 * every shape. The chart itself is plot_fig_shapes.c.
 */
#include "report/plot_model.h"

#include <stdlib.h>
#include <string.h>

#include "base/shapes.h"

int plot_is_auto_row(const result_row *r)
{
    return r->rung == 0 && strcmp(r->rung_name, "auto") == 0;
}

static int is_library_row(const result_row *r)
{
    return r->rung == 0 && !plot_is_auto_row(r);
}

static int in_chart(const plot_shape_chart *c, const result_row *r)
{
    return strcmp(r->device, c->device) == 0 && strcmp(r->backend, c->backend) == 0;
}

/* The point of shape (M, N, K) in the chart, added when new; NULL when out of memory. */
static plot_shape_point *point_of(plot_shape_chart *c, const result_row *r)
{
    for (int i = 0; i < c->npoints; i++)
        if (c->points[i].M == r->M && c->points[i].N == r->N && c->points[i].K == r->K)
            return &c->points[i];
    plot_shape_point *grown = realloc(c->points, (size_t)(c->npoints + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    c->points = grown;
    plot_shape_point *p = &c->points[c->npoints++];
    gemm_size s = {r->M, r->N, r->K};
    *p = (plot_shape_point){r->M, r->N, r->K, (int)shape_label(&s), PLOT_MISSING,
                            PLOT_MISSING, 0, PLOT_MISSING, 0};
    return p;
}

static int by_class_then_work(const void *a, const void *b)
{
    const plot_shape_point *x = a, *y = b;
    if (x->label != y->label)
        return x->label - y->label;
    double wx = (double)x->M * x->N * x->K, wy = (double)y->M * y->N * y->K;
    if (wx != wy)
        return wx < wy ? -1 : 1;
    return x->M != y->M ? (x->M < y->M ? -1 : 1) : (x->N < y->N ? -1 : x->N > y->N);
}

/* Fills one chart from the rows; returns 1 when it has something to draw, 0 when not,
 * -1 when out of memory. */
static int fill_chart(const plot_model *m, plot_shape_chart *c)
{
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        /* A reduced-precision library (cuBLAS in TF32) is neither the bar nor a rung. */
        if (!in_chart(c, r) || (is_library_row(r) && !plot_reference_library(r->rung_name)))
            continue;
        plot_shape_point *p = point_of(c, r);
        if (!p)
            return -1;
        if (is_library_row(r)) {
            p->library = r->gflops;
            snprintf(c->library, sizeof c->library, "%s", r->rung_name);
        } else if (plot_is_auto_row(r)) {
            p->autov = r->gflops;
            p->auto_rung = strncmp(r->params, "rung=", 5) == 0 ? atoi(r->params + 5) : 0;
        } else if (r->gflops > p->best) {
            p->best = r->gflops;
            p->best_rung = r->rung;
        }
    }
    /* Only the shapes where the library and something else were measured. */
    int kept = 0, any_auto = 0, any_lopsided = 0;
    for (int i = 0; i < c->npoints; i++) {
        plot_shape_point *p = &c->points[i];
        if (p->library <= 0 || (p->best <= 0 && p->autov <= 0))
            continue;
        any_auto |= p->autov > 0;
        any_lopsided |= p->M != p->N || p->N != p->K;
        c->points[kept++] = *p;
    }
    c->npoints = kept;
    if (kept > 1)
        qsort(c->points, (size_t)kept, sizeof *c->points, by_class_then_work);
    return kept > 0 && (any_auto || any_lopsided);
}

void plot_shape_charts_free(plot_shape_chart *charts, int n)
{
    for (int i = 0; i < n && charts; i++)
        free(charts[i].points);
    free(charts);
}

int plot_shape_charts(const plot_model *m, plot_shape_chart **out)
{
    plot_shape_chart *charts = NULL;
    int n = 0;
    *out = NULL;
    for (int i = 0; i < m->nshape_rows; i++) {
        const result_row *r = &m->shape_rows[i];
        int seen = strcmp(r->backend, "cpu") == 0 || is_library_row(r);
        for (int k = 0; k < n && !seen; k++)
            seen = in_chart(&charts[k], r);
        if (seen)
            continue;
        plot_shape_chart *grown = realloc(charts, (size_t)(n + 1) * sizeof *grown);
        if (!grown) {
            plot_shape_charts_free(charts, n);
            return -1;
        }
        charts = grown;
        memset(&charts[n], 0, sizeof charts[n]);
        snprintf(charts[n].device, sizeof charts[n].device, "%s", r->device);
        snprintf(charts[n].backend, sizeof charts[n].backend, "%s", r->backend);
        int drawable = fill_chart(m, &charts[n]);
        if (drawable < 0) {
            plot_shape_charts_free(charts, n + 1);
            return -1;
        }
        if (drawable)
            n++;
        else
            free(charts[n].points);
    }
    *out = charts;
    return n;
}

int plot_shapes_drawable(const plot_model *m)
{
    plot_shape_chart *charts;
    int n = plot_shape_charts(m, &charts);
    plot_shape_charts_free(charts, n > 0 ? n : 0);
    return n > 0;
}
