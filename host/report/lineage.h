/* The ladder's shape: which rung changes which (rungs/registry.h's parents), laid out for
 * `ladder lineage` (text) and the lineage figure (plot_fig_lineage.c).
 *
 * The rungs are rows in number order, so a parent is always above its children, and each
 * branch of the tree gets a lane (a column) of its own: a rung's first child (the lowest-
 * numbered) stays in its lane, and every other child opens a new one, to the right of
 * every lane its elder siblings' families took. Lanes are never reused, so a line drawn
 * down a lane meets only the rungs of that branch.
 */
#ifndef LADDER_LINEAGE_H
#define LADDER_LINEAGE_H

#include <stdio.h>

#include "rungs/registry.h"

#define LINEAGE_MAX 64

typedef struct {
    const rung *r;
    int lane;     /* 0 = the trunk that starts at rung 1 */
    int row;      /* 0-based, in number order */
} lineage_node;

typedef struct {
    lineage_node nodes[LINEAGE_MAX]; /* the kernel rungs in number order */
    int count;
    int lanes;                       /* lanes used */
} lineage;

/* Lays out the registry's kernel rungs. */
void lineage_layout(lineage *l);

/* The node of rung `number`, or NULL. */
const lineage_node *lineage_find(const lineage *l, int number);

/* One line per rung, the lanes drawn in text ('*' the rung, '|' a branch passing by):
 *     *        9 prefetch     double-buffered tiles: ...
 *     *  |    10 anysize      A and B are padded ...   (parent 9)
 */
void lineage_print(const lineage *l, FILE *out);

#endif
