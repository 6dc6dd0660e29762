/* ladder select's candidates of one shape, without a device: each rung's own parameters
 * and small-device defaults first, then every choice of its PER_SHAPE parameters from
 * each, with what the rung, the device or the shape refuse left out and counted, no
 * combination twice, and a rung the backend lacks left out with its reason. The rungs
 * here are made up, so the test does not depend on which rungs the registry has. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "params/selection.h"
#include "tune/select_profile.h"

/* p = TS, SPLITS */
static ladder_status split_validate(const int *p, char *msg)
{
    if (p[1] > 4)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "too many splits (%d)", p[1]);
    return LADDER_OK;
}
static void split_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)p[0];
    d->local[1] = 1;
    d->global[0] = (size_t)((M + p[0] - 1) / p[0] * p[0]);
    d->global[1] = (size_t)N;
}
/* K must be a multiple of the split count: a shape can refuse a variant. */
static void split_multiples(const int *p, int mult[3])
{
    mult[0] = mult[1] = 1;
    mult[2] = p[1];
}

static const rung fake_split = {
    .number = 90, .id = "90-fake", .name = "fake", .title = "a made-up split rung",
    .idea = "test", .kind = RUNG_KERNEL, .nparams = 2,
    .params = {{"TS", 16, 8, 1, 64, "tile", CHOICES(8, 16), 0},
               {"SPLITS", 1, 0, 1, 16, "split count", CHOICES(1, 2, 4, 8), PER_SHAPE}},
    .validate = split_validate, .multiples = split_multiples, .geometry = split_geometry,
};
static const rung fake_cuda_only = {
    .number = 91, .id = "91-fake", .name = "cudaonly", .title = "a made-up CUDA rung",
    .idea = "test", .kind = RUNG_KERNEL, .nparams = 1,
    .params = {{"TS", 16, 0, 1, 64, "tile", CHOICES(16), 0}},
    .geometry = split_geometry, .only_backend = "cuda", .only_reason = "CUDA only (test)",
};

/* p = G: a launch of exactly G work-groups, for the filter on the count of work-groups. */
static void groups_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = 32;
    d->local[1] = 1;
    d->global[0] = (size_t)p[0] * 32;
    d->global[1] = 1;
}
/* A workspace of partial sums: what makes "too many work-groups" a cost (split-K). */
static size_t partial_sums(const int *p, const launch_shape *s)
{
    (void)s;
    return (size_t)p[0] * 1024;
}
static const rung fake_groups = {
    .number = 92, .id = "92-fake", .name = "groups", .title = "a made-up rung of G groups",
    .idea = "test", .kind = RUNG_KERNEL, .nparams = 1,
    .params = {{"G", 8, 0, 1, 1024, "work-groups", CHOICES(1, 2, 4, 8, 200), PER_SHAPE}},
    .geometry = groups_geometry, .workspace_floats = partial_sums,
};
/* The same without a workspace: a rung that tiles C, whose many work-groups only run in
 * more waves. */
static const rung fake_tiles = {
    .number = 94, .id = "94-fake", .name = "tiles", .title = "a made-up rung of G tiles",
    .idea = "test", .kind = RUNG_KERNEL, .nparams = 1,
    .params = {{"G", 8, 0, 1, 1024, "work-groups", CHOICES(1, 2, 4, 8, 200), PER_SHAPE}},
    .geometry = groups_geometry,
};

/* p = G: a call of two kernels, G work-groups that multiply and then a reduction of
 * 100000 work-groups whatever G is (split-K's reduction has one per few elements of C). */
static int split_launches(const int *p, const launch_shape *s, rung_launch *out)
{
    out[0] = (rung_launch){"gemm", {{(size_t)p[0] * 32, 1}, {32, 1}}};
    out[1] = (rung_launch){"reduce", {{100000 * 32, 1}, {32, 1}}};
    return 2;
}
static const rung fake_two_kernels = {
    .number = 93, .id = "93-fake", .name = "twokernels", .title = "a made-up split-K",
    .idea = "test", .kind = RUNG_KERNEL, .nparams = 1, .blas_args = 1,
    .params = {{"G", 8, 0, 1, 100000, "work-groups", CHOICES(1, 2, 4, 8, 200), PER_SHAPE}},
    .geometry = groups_geometry, .launches = split_launches, .workspace_floats = partial_sums,
};

/* p = G, W: a rung with two paths (as rung 20's tall and wide): its call reads W only
 * when M >= N, so at a shape with M < N every value of W makes the same call. */
static int wide_reads_param(int param, const launch_shape *s)
{
    return param != 1 || s->M >= s->N;
}
static const rung fake_two_paths = {
    .number = 94, .id = "94-fake", .name = "twopaths", .title = "a made-up rung of two paths",
    .idea = "test", .kind = RUNG_KERNEL, .nparams = 2,
    .params = {{"G", 8, 0, 1, 1024, "work-groups", CHOICES(4, 8), PER_SHAPE},
               {"W", 1, 0, 1, 16, "read on one path only", CHOICES(1, 2, 4), PER_SHAPE}},
    .geometry = groups_geometry, .reads_param = wide_reads_param,
};

static int has(const select_candidates *c, int ts, int splits)
{
    for (int i = 0; i < c->count; i++)
        if (c->items[i].values[0] == ts && c->items[i].values[1] == splits)
            return 1;
    return 0;
}

int main(void)
{
    run_target t;
    memset(&t, 0, sizeof t);
    snprintf(t.dev.backend, sizeof t.dev.backend, "opencl");
    snprintf(t.dev.name, sizeof t.dev.name, "Test Device");
    t.dev.max_work_group_size = 1024;
    t.dev.max_work_item_sizes[0] = t.dev.max_work_item_sizes[1] = 1024;
    const rung *rungs[] = {&fake_split, &fake_cuda_only};
    select_plan p = {.target = &t, .rungs = rungs, .nrungs = 2};
    select_candidates c;

    gemm_size s = {64, 64, 1024};
    select_candidates_build(&p, &s, &c);
    /* Bases (16,1) and (8,1) first; then SPLITS 2 and 4 from each; 8 refused twice. */
    CHECK(c.count == 6);
    CHECK(c.count >= 2 && c.items[0].values[0] == 16 && c.items[0].values[1] == 1);
    CHECK(c.count >= 2 && c.items[1].values[0] == 8 && c.items[1].values[1] == 1);
    CHECK(has(&c, 16, 2) && has(&c, 16, 4) && has(&c, 8, 2) && has(&c, 8, 4));
    CHECK(!has(&c, 16, 8) && !has(&c, 8, 8));
    for (int i = 0; i < c.count; i++)
        CHECK(c.items[i].r == &fake_split);
    /* Left out: SPLITS=8 twice and the CUDA-only rung, with the first reason. */
    CHECK(c.skipped == 3);
    CHECK(strstr(c.why_skipped, "CUDA only (test)") != NULL);

    /* A shape whose K only SPLITS 1 divides: the variants it refuses are left out. */
    gemm_size odd = {64, 64, 1009};
    select_candidates_build(&p, &odd, &c);
    CHECK(c.count == 2 && has(&c, 16, 1) && has(&c, 8, 1));
    CHECK(c.skipped == 1 + 6);

    /* On CUDA both rungs take part. */
    snprintf(t.dev.backend, sizeof t.dev.backend, "cuda");
    select_candidates_build(&p, &s, &c);
    CHECK(c.count == 7 && c.items[2].r == &fake_cuda_only);
    CHECK(c.implausible == 0); /* a device of unknown size: nothing is left out for it */

    /* On a device of 4 compute units, variants of fewer than 2 work-groups or more than
     * 4 * SELECT_MOST_WAVES are left out and counted; the rung's own parameters stay. */
    const rung *groups[] = {&fake_groups};
    select_plan g = {.target = &t, .rungs = groups, .nrungs = 1};
    t.dev.compute_units = 4;
    select_candidates_build(&g, &s, &c);
    CHECK(c.implausible == 2);
    CHECK(c.count == 3 && c.items[0].values[0] == 8);
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < c.count; i++)
        seen[0] += c.items[i].values[0] == 2, seen[1] += c.items[i].values[0] == 4,
            seen[2] += c.items[i].values[0] == 1 || c.items[i].values[0] == 200;
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 0);
    /* Without a workspace of partial sums only the lower bound holds: G = 200 (50 per
     * compute unit) is a candidate, G = 1 is not. */
    const rung *tiles[] = {&fake_tiles};
    select_plan gt = {.target = &t, .rungs = tiles, .nrungs = 1};
    select_candidates_build(&gt, &s, &c);
    CHECK(c.implausible == 1);
    CHECK(c.count == 4 && c.items[0].values[0] == 8);
    int big_g = 0, one_g = 0;
    for (int i = 0; i < c.count; i++)
        big_g += c.items[i].values[0] == 200, one_g += c.items[i].values[0] == 1;
    CHECK(big_g == 1 && one_g == 0);
    /* The rung's own parameters are measured even when they are implausible. */
    t.dev.compute_units = 64; /* G = 8 is fewer than half of 64 */
    select_candidates_build(&g, &s, &c);
    CHECK(c.count == 2 && c.items[0].values[0] == 8 && c.items[1].values[0] == 200);

    /* Two kernels: the reduction's 100000 work-groups (far more than 4 * 32) must not
     * make every variant "too many"; the lightest kernel decides that bound (G = 200 is
     * 50 per compute unit: left out), the busiest the other (so G = 1 stays: the
     * reduction keeps the device busy). */
    const rung *two[] = {&fake_two_kernels};
    select_plan g2 = {.target = &t, .rungs = two, .nrungs = 1};
    t.dev.compute_units = 4;
    select_candidates_build(&g2, &s, &c);
    CHECK(c.count == 4); /* G = 8 (its own), 1, 2 and 4 */
    CHECK(c.implausible == 1);

    /* A parameter the shape's call does not read: one candidate for all its values.
     * Where W is read (M >= N), G x W = 6 candidates; where it is not, one per G. */
    const rung *paths[] = {&fake_two_paths};
    select_plan tp = {.target = &t, .rungs = paths, .nrungs = 1};
    t.dev.compute_units = 0;
    gemm_size reads = {64, 16, 256}, ignores = {16, 64, 256};
    select_candidates_build(&tp, &reads, &c);
    CHECK(c.count == 6);
    CHECK(has(&c, 4, 1) && has(&c, 4, 2) && has(&c, 4, 4) && has(&c, 8, 4));
    select_candidates_build(&tp, &ignores, &c);
    CHECK(c.count == 2 && has(&c, 8, 1)); /* the rung's own, then G = 4 with some W */
    CHECK(c.count == 2 && c.items[1].values[0] == 4);

    /* Real rungs: what the fallback rule would run comes first, ahead of the rungs' own
     * parameters in the plan's order. At a skinny shape that is split-K with the rule's
     * slices (a GPU of 4 compute units: on a CPU the rule runs rung 27), measured before
     * rung 15, which the plan names first. */
    const rung *real[] = {registry_find("sgemm"), registry_find("splitk")};
    CHECK(real[0] && real[1]);
    select_plan rp = {.target = &t, .rungs = real, .nrungs = 2};
    snprintf(t.dev.backend, sizeof t.dev.backend, "opencl");
    t.dev.compute_units = 4;
    t.dev.is_gpu = 1;
    t.dev.local_mem_bytes = 64 * 1024;
    gemm_size skinny = {32, 1024, 512}; /* more than rung 20 takes: split-K */
    param_policy pol = {.who = "test", .precision = PRECISION_SINGLE};
    const rung *rule = NULL;
    int rule_values[RUNG_MAX_PARAMS] = {0};
    char msg[LADDER_MSG];
    CHECK(selection_rule_choice(&pol, &t.dev, &skinny, &rule, rule_values, msg) == LADDER_OK);
    CHECK(rule == real[1]);
    select_candidates_build(&rp, &skinny, &c);
    CHECK(c.count > 2 && c.items[0].r == real[1] &&
          memcmp(c.items[0].values, rule_values, sizeof rule_values) == 0);
    CHECK(c.count > 2 && c.items[1].r == real[0]);
    /* Without the rule's rung among the candidates, the plan's order alone. */
    select_plan only15 = {.target = &t, .rungs = real, .nrungs = 1};
    select_candidates_build(&only15, &skinny, &c);
    CHECK(c.count >= 1 && c.items[0].r == real[0]);
    CHECK(c.rule == -1); /* the rule's rung is not a candidate */
    select_candidates_build(&rp, &skinny, &c);
    CHECK(c.rule == 0); /* the rule's choice, measured first */

    /* Rung 17 varies its tile's edges per shape: at 997 x 1013 x 1009 on a CUDA GPU of
     * 132 SMs, its 128 x 128 default makes 64 blocks, and 64 x 64 (256 blocks) and
     * 64 x 128 are candidates too, with the thread tile as it is. Half the SMs or fewer:
     * 256 x 256 (16 blocks) is left out as implausible. */
    const rung *banks[] = {registry_find("banks")};
    CHECK(banks[0] != NULL);
    select_plan bp = {.target = &t, .rungs = banks, .nrungs = 1};
    snprintf(t.dev.backend, sizeof t.dev.backend, "cuda");
    t.dev.compute_units = 132;
    t.dev.local_mem_bytes = 48 * 1024;
    t.dev.cc_major = 9; /* an H100 or H200 */
    gemm_size odd_square = {997, 1013, 1009};
    select_candidates_build(&bp, &odd_square, &c);
    int tiles_64x64 = 0, tiles_64x128 = 0, tiles_256x256 = 0;
    for (int i = 0; i < c.count; i++) {
        const int *v = c.items[i].values;
        tiles_64x64 += v[0] == 64 && v[1] == 64 && v[3] == 8 && v[4] == 8;
        tiles_64x128 += v[0] == 64 && v[1] == 128;
        tiles_256x256 += v[0] == 256 && v[1] == 256;
    }
    CHECK(c.count > 2 && c.items[0].values[0] == 128 && c.items[0].values[1] == 128);
    CHECK(tiles_64x64 >= 1 && tiles_64x128 >= 1 && tiles_256x256 == 0);
    CHECK(c.implausible >= 1);
    snprintf(t.dev.backend, sizeof t.dev.backend, "opencl");
    t.dev.compute_units = 4;
    t.dev.local_mem_bytes = 64 * 1024;
    t.dev.cc_major = 0;

    /* Rounds (ladder select --rounds): the finalists and the winner. */
    /* The 3 fastest that passed (0: did not), fastest first; the rule's index besides. */
    const double screened[] = {5, 0, 9, 7, 1, 8, 0};
    int final[5];
    const int none[2] = {-1, -1}, slow[2] = {4, 0}, there[2] = {5, 4}, failed[2] = {1, -1};
    CHECK(select_finalists(screened, 7, none, 2, 3, final) == 3 &&
          final[0] == 2 && final[1] == 5 && final[2] == 3);
    CHECK(select_finalists(screened, 7, slow, 2, 3, final) == 5 && final[3] == 4 &&
          final[4] == 0);
    CHECK(select_finalists(screened, 7, there, 2, 3, final) == 4 && final[3] == 4);
    CHECK(select_finalists(screened, 7, failed, 2, 3, final) == 3); /* did not pass */
    CHECK(select_finalists(screened, 2, none, 2, 3, final) == 1 && final[0] == 0);
    /* A shared device: another process slows finalist 0 in four rounds of five (its
     * single-core time, half its speed), and finalist 1 in one; finalist 0 is the faster
     * kernel, as its quiet round shows, though a median would pick 1. A finalist that
     * failed a round (2, the fastest otherwise) is never picked. */
    const double score[] = {1.1, 2.0, 1.0, 1.0, 1.1,
                            1.6, 1.7, 1.6, 0.8, 1.6,
                            3.0, 3.0, 0, 3.0, 3.0};
    double best = 0;
    CHECK(select_round_winner(score, 3, 5, 5, &best) == 0 && best == 2.0);
    CHECK(select_round_winner(score + 5, 1, 5, 5, &best) == 0 && best == 1.7);
    CHECK(select_round_winner(score + 10, 1, 5, 5, &best) == -1);
    CHECK(select_round_winner(score, 3, 5, 0, &best) == -1);
    /* Rounds cut short after two: only those count, so 2's failed third round does not. */
    CHECK(select_round_winner(score, 3, 5, 2, &best) == 2 && best == 3.0);
    return CHECK_DONE();
}
