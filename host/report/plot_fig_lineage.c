/* The lineage figure: the ladder's real shape. After rung 10 the ladder branches (15 changes
 * rung 12, not 14; 17 changes rung 9, with rung 13's pipeline), and a list of numbers
 * hides that. Each rung is a dot in its lane (report/lineage.h), joined to its parent by a
 * solid line and to a second parent, whose idea it also takes, by a dashed one; beside it
 * its name and idea. The registry is the only input, so the figure cannot disagree with
 * `ladder list` or `ladder diff`.
 */
#include "report/plot_figure.h"

#include "report/lineage.h"
#include "report/plot_gnuplot.h"

#include <string.h>

/* How far below the parent a line into another lane turns down (in rows). */
#define TURN 0.55

/* One segment for gnuplot's `with vectors`: start and displacement. */
static void segment(FILE *f, double x1, double y1, double x2, double y2)
{
    fprintf(f, "%g %g %g %g\n", x1, y1, x2 - x1, y2 - y1);
}

ladder_status plot_fig_lineage(plot_job *job, char *msg)
{
    lineage l;
    lineage_layout(&l);
    plot_figure fig;
    ladder_status st = plot_figure_begin(job, &fig, "lineage", msg);
    if (st != LADDER_OK)
        return st;

    /* Block 0, the rungs: lane, row, number, name, idea, and where it runs: 0 in both
     * backends, 1 CUDA only, 2 OpenCL only. */
    fprintf(fig.data, "# the rungs: lane row number name idea only (0 both, 1 cuda, 2 opencl)\n");
    for (int i = 0; i < l.count; i++) {
        const lineage_node *n = &l.nodes[i];
        fprintf(fig.data, "%d %d %d ", n->lane, n->row, n->r->number);
        plot_data_label(fig.data, n->r->name);
        fputc(' ', fig.data);
        plot_data_label(fig.data, n->r->idea);
        const char *only = n->r->only_backend;
        fprintf(fig.data, " %d\n", !only ? 0 : strcmp(only, "cuda") == 0 ? 1 : 2);
    }
    /* Block 1, parent to rung: straight down a lane, or across just below the parent into
     * the rung's own lane and then down it. */
    fprintf(fig.data, "\n\n# parent -> rung: x y dx dy\n");
    for (int i = 0; i < l.count; i++) {
        const lineage_node *n = &l.nodes[i], *p = lineage_find(&l, n->r->parent);
        if (!p)
            continue;
        if (p->lane == n->lane) {
            segment(fig.data, p->lane, p->row, n->lane, n->row);
        } else {
            segment(fig.data, p->lane, p->row, n->lane, p->row + TURN);
            segment(fig.data, n->lane, p->row + TURN, n->lane, n->row);
        }
    }
    /* Block 2, second parent to rung: one dashed line. A dummy row keeps the block from
     * being empty (gnuplot refuses to plot an empty index). */
    fprintf(fig.data, "\n\n# second parent -> rung: x y dx dy\n");
    int seconds = 0;
    for (int i = 0; i < l.count; i++) {
        const lineage_node *n = &l.nodes[i], *p = lineage_find(&l, n->r->second_parent);
        if (!p)
            continue;
        segment(fig.data, p->lane, p->row, n->lane, n->row);
        seconds++;
    }
    if (seconds == 0)
        fprintf(fig.data, "NaN NaN NaN NaN\n");

    gnuplot_set_string(fig.prelude, "title_text",
                       "The ladder's shape: each rung grows from the rung whose kernel it changes");
    gnuplot_set_number(fig.prelude, "n_lanes", l.lanes);
    gnuplot_set_number(fig.prelude, "n_rows", l.count);
    return plot_figure_finish(job, &fig, "lineage.gp", msg);
}
