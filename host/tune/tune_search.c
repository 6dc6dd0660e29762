#include "tune/tune_search.h"

#include <stdlib.h>
#include <string.h>

#include "base/random.h"

static const char *const names[] = {"exhaustive", "random", "greedy"};

const char *tune_strategy_name(tune_strategy s) { return names[s]; }

int tune_strategy_parse(const char *name, tune_strategy *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (tune_strategy)i;
            return 0;
        }
    return -1;
}

/* One search in progress. */
typedef struct {
    const tune_space *sp;
    const tune_search *s;
    double *scores;
    int measured;
    int stopped;
    uint64_t rng;
} search_state;

/* Measures `point` unless it was measured already. Returns 0 to go on, -1 to stop. */
static int take(search_state *st, int point)
{
    if (st->stopped)
        return -1;
    if (st->scores[point] != TUNE_UNMEASURED)
        return 0;
    double score = st->s->measure(st->s->ctx, point);
    if (score == TUNE_STOP) {
        st->stopped = 1;
        return -1;
    }
    st->scores[point] = score < 0 ? TUNE_FAILED : score;
    st->measured++;
    return 0;
}

static void exhaustive(search_state *st)
{
    if (st->s->start >= 0 && take(st, st->s->start))
        return;
    for (int p = 0; p < st->sp->npoints; p++)
        if (take(st, p))
            return;
}

static void random_order(search_state *st)
{
    int n = st->sp->npoints;
    int *order = malloc((size_t)n * sizeof *order);
    if (!order) { /* no memory for a shuffle: the fixed order still searches */
        exhaustive(st);
        return;
    }
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)random_below(&st->rng, (uint64_t)i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    if (st->s->start < 0 || take(st, st->s->start) == 0)
        for (int i = 0; i < n; i++)
            if (take(st, order[i]))
                break;
    free(order);
}

/* A random point not measured yet, or -1 when every point was. */
static int random_unmeasured(search_state *st)
{
    int left = 0;
    for (int p = 0; p < st->sp->npoints; p++)
        left += st->scores[p] == TUNE_UNMEASURED;
    if (left == 0)
        return -1;
    int k = (int)random_below(&st->rng, (uint64_t)left);
    for (int p = 0; p < st->sp->npoints; p++)
        if (st->scores[p] == TUNE_UNMEASURED && k-- == 0)
            return p;
    return -1;
}

static void greedy(search_state *st)
{
    const tune_space *sp = st->sp;
    int current = st->s->start >= 0 ? st->s->start : random_unmeasured(st);
    while (current >= 0 && take(st, current) == 0) {
        /* Measure every neighbour, then move to the best one if it beats the current. */
        int best = -1;
        double best_score = st->scores[current];
        for (int p = 0; p < sp->nparams; p++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int next = tune_space_step(sp, current, p, dir);
                if (next < 0)
                    continue;
                if (take(st, next))
                    return;
                if (st->scores[next] > best_score) {
                    best_score = st->scores[next];
                    best = next;
                }
            }
        /* No neighbour is faster: a local best. Restart somewhere not yet seen. */
        current = best >= 0 ? best : random_unmeasured(st);
    }
}

int tune_search_run(const tune_space *sp, const tune_search *s, double *scores)
{
    search_state st = {.sp = sp, .s = s, .scores = scores, .rng = s->seed};
    for (int p = 0; p < sp->npoints; p++)
        scores[p] = TUNE_UNMEASURED;
    if (sp->npoints == 0)
        return 0;
    switch (s->strategy) {
    case TUNE_EXHAUSTIVE: exhaustive(&st); break;
    case TUNE_RANDOM: random_order(&st); break;
    case TUNE_GREEDY: greedy(&st); break;
    }
    return st.measured;
}
