/* The tuner's search space and strategies, without a device: the space of rung 3 is
 * counted by hand, and each strategy searches a made-up score function. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rungs/registry.h"
#include "tune/tune_search.h"
#include "tune/tune_space.h"

static device_info gpu(void)
{
    device_info d;
    memset(&d, 0, sizeof d);
    strcpy(d.backend, "cuda");
    d.local_mem_bytes = 48 * 1024;
    d.cc_major = 9; /* an H100, for the rungs that need a newer GPU */
    d.local_mem_optin_bytes = 227 * 1024; /* and its dynamic shared memory */
    d.max_work_group_size = 1024;
    d.max_work_item_sizes[0] = d.max_work_item_sizes[1] = 1024;
    return d;
}

/* A made-up landscape over rung 3's TS and WPT, fastest at TS=32 WPT=4; WPT=1 "fails". */
typedef struct {
    const tune_space *sp;
    int calls, limit;
    int seen[64];
} landscape;

static double score(void *ctx, int point)
{
    landscape *l = ctx;
    if (l->calls == l->limit)
        return TUNE_STOP;
    l->calls++;
    l->seen[point]++;
    int v[RUNG_MAX_PARAMS];
    tune_space_values(l->sp, point, v);
    if (v[1] == 1)
        return TUNE_FAILED;
    return 100.0 - 10.0 * fabs(log2(v[0]) - 5) - 10.0 * fabs(log2(v[1]) - 2);
}

static int best_of(const tune_space *sp, const double *scores)
{
    int best = -1;
    for (int p = 0; p < sp->npoints; p++)
        if (scores[p] > 0 && (best < 0 || scores[p] > scores[best]))
            best = p;
    return best;
}

int main(void)
{
    const rung *wpt = registry_find("wpt");
    device_info dev = gpu();
    gemm_size size = {64, 64, 64};
    tune_space sp;
    char msg[LADDER_MSG];

    /* TS in {8..128}, WPT in {1..32}: 30 combinations. WPT must divide TS: 3 are invalid
     * (TS=8 with WPT=16, 32; TS=16 with WPT=32). The device: TS=128 needs 128 KiB of
     * local memory (6), TS=64 with WPT 1 or 2 needs over 1024 work-items (2). */
    CHECK(tune_space_build(&sp, wpt, NULL, 0, &dev, PRECISION_SINGLE, &size, 1, msg) == LADDER_OK);
    CHECK(sp.ncombinations == 30);
    CHECK(sp.skipped_invalid == 3 && strstr(sp.why_invalid, "must divide"));
    CHECK(sp.skipped_device == 8);
    CHECK(sp.skipped_size == 0);
    CHECK(sp.npoints == 19);
    int v[RUNG_MAX_PARAMS] = {32, 8};
    int start = tune_space_find(&sp, v);
    CHECK(start >= 0);
    int back[RUNG_MAX_PARAMS];
    tune_space_values(&sp, start, back);
    CHECK(back[0] == 32 && back[1] == 8);
    v[1] = 3; /* not a candidate */
    CHECK(tune_space_find(&sp, v) == -1);

    /* Steps: WPT 8 -> 16 and 4; TS 32 -> 64 and 16. From TS=64 WPT=4 down in WPT, the
     * filtered WPT=2 and WPT=1 leave nothing. */
    int up = tune_space_step(&sp, start, 1, +1), down = tune_space_step(&sp, start, 0, -1);
    tune_space_values(&sp, up, back);
    CHECK(back[0] == 32 && back[1] == 16);
    tune_space_values(&sp, down, back);
    CHECK(back[0] == 16 && back[1] == 8);
    int corner[RUNG_MAX_PARAMS] = {64, 4};
    CHECK(tune_space_step(&sp, tune_space_find(&sp, corner), 1, -1) == -1);

    /* Sizes filter too: 48 is a multiple of 8 and 16 only. */
    tune_space small;
    gemm_size odd = {48, 48, 48};
    CHECK(tune_space_build(&small, wpt, NULL, 0, &dev, PRECISION_SINGLE, &odd, 1, msg) == LADDER_OK);
    CHECK(small.npoints == 4 + 5 && small.skipped_size == 19 - 9);
    tune_space_free(&small);

    /* Pinned parameters: one value; a name the rung lacks is an error. */
    param_override pin = {0, "TS", 16};
    CHECK(tune_space_build(&small, wpt, &pin, 1, &dev, PRECISION_SINGLE, &size, 1, msg) == LADDER_OK);
    CHECK(small.ncombinations == 6 && small.npoints == 5);
    tune_space_free(&small);
    param_override bogus = {0, "TSM", 64};
    CHECK(tune_space_build(&small, wpt, &bogus, 1, &dev, PRECISION_SINGLE, &size, 1, msg) == LADDER_ERROR &&
          strstr(msg, "no parameter TSM"));
    tune_space_free(&small);

    /* Every strategy: the start point first, no point twice, the budget respected. */
    double scores[64];
    for (int strategy = TUNE_EXHAUSTIVE; strategy <= TUNE_GREEDY; strategy++) {
        landscape l = {.sp = &sp, .limit = 1000};
        tune_search s = {.strategy = (tune_strategy)strategy, .seed = 7, .start = start,
                         .measure = score, .ctx = &l};
        CHECK(tune_search_run(&sp, &s, scores) == sp.npoints); /* no budget: all of it */
        int twice = 0;
        for (int p = 0; p < sp.npoints; p++)
            twice += l.seen[p] != 1;
        CHECK(twice == 0);
        int best = best_of(&sp, scores);
        tune_space_values(&sp, best, back);
        CHECK(back[0] == 32 && back[1] == 4);

        landscape few = {.sp = &sp, .limit = 5};
        s.ctx = &few;
        CHECK(tune_search_run(&sp, &s, scores) == 5);
        CHECK(scores[start] != TUNE_UNMEASURED);
    }

    /* Greedy finds the top of a smooth landscape in few steps: from TS=32 WPT=8, the
     * first ring of neighbours holds TS=32 WPT=4. */
    landscape g = {.sp = &sp, .limit = 5};
    tune_search greedy = {.strategy = TUNE_GREEDY, .seed = 1, .start = start,
                          .measure = score, .ctx = &g};
    tune_search_run(&sp, &greedy, scores);
    tune_space_values(&sp, best_of(&sp, scores), back);
    CHECK(back[0] == 32 && back[1] == 4);

    /* The random order depends on the seed, and only on it. */
    int first[2][5];
    for (int k = 0; k < 2; k++) {
        landscape r = {.sp = &sp, .limit = 5};
        tune_search s = {.strategy = TUNE_RANDOM, .seed = 42, .start = -1, .measure = score,
                         .ctx = &r};
        tune_search_run(&sp, &s, scores);
        int n = 0;
        for (int p = 0; p < sp.npoints; p++)
            if (scores[p] != TUNE_UNMEASURED)
                first[k][n++] = p;
        CHECK(n == 5);
    }
    CHECK(memcmp(first[0], first[1], sizeof first[0]) == 0);

    tune_strategy parsed;
    CHECK(tune_strategy_parse("greedy", &parsed) == 0 && parsed == TUNE_GREEDY);
    CHECK(tune_strategy_parse("best", &parsed) == -1);

    /* The spaces stay searchable on an H100-like device: hundreds, not millions; at 4096,
     * or for a rung designed for other shapes (rung 20: M or N up to 16), at 1x4096x4096. */
    const gemm_size big = {4096, 4096, 4096}, skinny = {1, 4096, 4096};
    int n;
    const rung *all = registry_all(&n);
    for (int i = 0; i < n; i++) {
        if (all[i].kind != RUNG_KERNEL)
            continue;
        tune_space any;
        device_info own = dev; /* a device of the rung's backend, if it has only one */
        if (all[i].only_backend)
            snprintf(own.backend, sizeof own.backend, "%s", all[i].only_backend);
        rung_defaults(&all[i], 0, v);
        const gemm_size *shape = rung_check_size(&all[i], v, &big, msg) == LADDER_OK
                                     ? &big : &skinny;
        CHECK(tune_space_build(&any, &all[i], NULL, 0, &own, rung_own_precision(&all[i]),
                               shape, 1, msg) == LADDER_OK);
        CHECK(any.npoints > 0 && any.npoints <= 2000);
        rung_defaults(&all[i], 0, v);
        CHECK(tune_space_find(&any, v) >= 0); /* the defaults are searched */
        tune_space_free(&any);
    }
    tune_space_free(&sp);
    return CHECK_DONE();
}
