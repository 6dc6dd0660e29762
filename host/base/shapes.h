/* The public shape set: the matrix shapes people actually multiply, by class, so that a
 * kernel is judged on more than big squares. A user names a set in --sizes ("shapes",
 * "shapes-cpu", also inside a list: "shapes,4096").
 *
 * Every shape has a class. For any shape the rule below decides it; the shapes of the
 * named sets also carry the set's own labels, `llm` and `odd`, which name where a shape
 * comes from rather than what it looks like (the README's "Shapes" table says why each
 * class is hard). The rule, in order (C is M x N, A is M x K, B is K x N):
 *
 *   gemv      min(M, N) <= 8: one side of C is a handful of vectors
 *   long-k    K >= 8 max(M, N): a small C, a long sum
 *   small-k   8 K <= min(M, N): a big C, a short sum
 *   skinny-m  8 M <= N: few rows of C
 *   skinny-n  8 N <= M: few columns of C
 *   square    anything else
 *
 * The shape-aware entry (`--rungs auto`) looks up a shape's nearest neighbour among shapes
 * of the same rule class; the labels are for figures and tables.
 */
#ifndef LADDER_SHAPES_H
#define LADDER_SHAPES_H

#include "base/sizes.h"

typedef enum {
    SHAPE_SQUARE,
    SHAPE_LONG_K,
    SHAPE_SMALL_K,
    SHAPE_SKINNY_M,
    SHAPE_SKINNY_N,
    SHAPE_GEMV,
    SHAPE_LLM, /* a set's label only: layers of a language model */
    SHAPE_ODD, /* a set's label only: sizes that are multiples of nothing */
} shape_class;

#define SHAPE_CLASS_COUNT 8
/* The classes the rule gives (the first six); llm and odd are labels of set members. */
#define SHAPE_RULE_CLASSES 6
#define SHAPE_RATIO 8 /* how lopsided a shape must be to leave the square class */

typedef struct {
    long M, N, K;
    shape_class label; /* the rule's class, or llm / odd */
    const char *what;  /* one line: where the shape comes from */
} named_shape;

typedef struct {
    const char *name; /* as --sizes takes it: "shapes" */
    const char *what;
    const named_shape *shapes;
    int count;
} shape_set;

/* The set called `name`, or NULL. */
const shape_set *shape_set_find(const char *name);

/* Every named set (for messages and tests). */
const shape_set *shape_sets(int *count);

/* "shapes, shapes-cpu": the names, for messages. */
const char *shape_set_names(void);

/* The rule's class of any shape (one of the first SHAPE_RULE_CLASSES). */
shape_class shape_rule_class(const gemm_size *s);

/* The label of a shape: its label in a named set when it is one of theirs, else the
 * rule's class. */
shape_class shape_label(const gemm_size *s);

/* "square", "long-k", "small-k", "skinny-m", "skinny-n", "gemv", "llm", "odd". */
const char *shape_class_name(shape_class c);

/* The class called `name`: 0, or -1 when there is none. */
int shape_class_parse(const char *name, shape_class *out);

#endif
