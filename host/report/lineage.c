#include "report/lineage.h"

#include <string.h>

/* Places `number` in `lane` and its children after it: the first keeps the lane, each
 * other one opens the next free lane (*next). Children are found by scanning the registry,
 * in number order; a parent is lower-numbered, so the recursion ends. */
static void place(lineage *l, int index, int lane, int *next)
{
    l->nodes[index].lane = lane;
    int first = 1;
    for (int i = index + 1; i < l->count; i++) {
        if (l->nodes[i].r->parent != l->nodes[index].r->number)
            continue;
        place(l, i, first ? lane : ++*next, next);
        first = 0;
    }
}

void lineage_layout(lineage *l)
{
    memset(l, 0, sizeof *l);
    int n;
    const rung *all = registry_all(&n);
    for (int i = 0; i < n && l->count < LINEAGE_MAX; i++) {
        if (all[i].kind != RUNG_KERNEL)
            continue;
        l->nodes[l->count].r = &all[i];
        l->nodes[l->count].row = l->count;
        l->count++;
    }
    int next = 0;
    for (int i = 0; i < l->count; i++)
        if (l->nodes[i].r->parent == 0) /* rung 1: the root */
            place(l, i, i == 0 ? 0 : ++next, &next);
    l->lanes = next + 1;
}

const lineage_node *lineage_find(const lineage *l, int number)
{
    for (int i = 0; i < l->count; i++)
        if (l->nodes[i].r->number == number)
            return &l->nodes[i];
    return NULL;
}

/* Whether a branch passes down `lane` at `row`: an edge from a parent above to a child
 * below in that lane. */
static int lane_busy(const lineage *l, int lane, int row)
{
    for (int i = 0; i < l->count; i++) {
        const lineage_node *child = &l->nodes[i];
        const lineage_node *parent = lineage_find(l, child->r->parent);
        if (parent && child->lane == lane && parent->row < row && row < child->row)
            return 1;
    }
    return 0;
}

void lineage_print(const lineage *l, FILE *out)
{
    for (int i = 0; i < l->count; i++) {
        const lineage_node *node = &l->nodes[i];
        for (int lane = 0; lane < l->lanes; lane++)
            fputs(lane == node->lane ? "*  " : lane_busy(l, lane, node->row) ? "|  " : "   ",
                  out);
        fprintf(out, "%2d %-10s %s", node->r->number, node->r->name, node->r->idea);
        if (node->r->parent && node->r->parent != node->r->number - 1)
            fprintf(out, "  (parent %d)", node->r->parent);
        if (node->r->second_parent)
            fprintf(out, "  (also from %d)", node->r->second_parent);
        fputc('\n', out);
    }
}
