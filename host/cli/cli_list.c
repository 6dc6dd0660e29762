/* ladder list: the rungs and baselines. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "rungs/registry.h"

static void print_sizes(const rung *r)
{
    if (r->kind != RUNG_KERNEL) {
        printf("    sizes: any\n");
        return;
    }
    int values[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, values);
    int mult[3] = {1, 1, 1};
    if (r->multiples)
        r->multiples(values, mult);
    if (r->sizes)
        printf("    sizes: %s\n", r->sizes);
    else if (r->pads || (mult[0] == 1 && mult[1] == 1 && mult[2] == 1))
        printf("    sizes: any M, N, K >= 1%s\n",
               r->pads && !(mult[0] == 1 && mult[1] == 1 && mult[2] == 1)
                   ? " (padded to whole tiles by helper kernels)" : "");
    else
        printf("    sizes: M, N, K multiples of %d, %d, %d (with the default parameters)\n",
               mult[0], mult[1], mult[2]);
    if (r->only_backend)
        printf("    backends: %s\n", r->only_reason);
    if (r->cuda_min_cc)
        printf("    needs: compute capability %d.%d%s on CUDA\n", r->cuda_min_cc / 10,
               r->cuda_min_cc % 10,
               r->cuda_arch_specific ? " exactly (its arch-specific target)" : " or newer");
    /* The cases of ladder run's --precision, --trans, --alpha and --beta it takes; every
     * rung takes both layouts (a row-major case is the column-major call swapped). */
    printf("    cases: %s; %s; %s; column- and row-major\n",
           r->no_single_reason ? "double only"
           : r->takes_double   ? "single and double"
                               : "single",
           r->takes_transposes             ? "NN, NT, TN, TT"
           : rung_transposes_by_helpers(r) ? "NN, NT, TN, TT (the helpers transpose)"
                                           : "NN only",
           r->blas_args ? "any alpha and beta" : "C = A B only (alpha 1, beta 0)");
    if (!r->takes_double)
        printf("    no double: %s\n",
               r->no_double_reason ? r->no_double_reason : "its kernel is written for float only");
    if (r->no_single_reason)
        printf("    no single: %s\n", r->no_single_reason);
}

/* The error bound of a rung whose arithmetic is not float32's. */
static void print_bound(const rung *r)
{
    if (r->input_roundoff > 0)
        printf("    reduced precision: each input rounded to u_in = 2^%d, products exact, sums "
               "with u = 2^%d\n    checked with: ((1 + u_in)^2 (1 + K u / (1 - K u)) - 1) "
               "(|A||B|), float32's is K 2^-24 / (1 - K 2^-24) (|A||B|)\n",
               (int)lround(log2(r->input_roundoff)), (int)lround(log2(rung_unit_roundoff(r, PRECISION_SINGLE))));
    else if (r->unit_roundoff > 0)
        printf("    checked with: u = 2^%d in the bound K u (|A||B|), float32's is 2^-24\n",
               (int)lround(log2(r->unit_roundoff)));
}

/* "parent: 9 prefetch (ladder diff 17), and 13 async": where the rung sits in the ladder. */
static void print_parents(const rung *r)
{
    const rung *p = rung_parent(r);
    if (!p)
        return;
    printf("    parent: %d %s (ladder diff %d)", p->number, p->name, r->number);
    const rung *second = r->second_parent ? registry_find_number(r->second_parent) : NULL;
    if (second)
        printf(", and %d %s", second->number, second->name);
    printf("\n");
}

/* The values ladder tune tries, e.g. "ladder tune tries: TS 8,16,32; WPT 1,2,4". */
static void print_choices(const rung *r)
{
    printf("    ladder tune tries:");
    for (int p = 0; p < r->nparams; p++) {
        int values[RUNG_MAX_CHOICES];
        int n = rung_param_choices(&r->params[p], values);
        printf("%s %s ", p ? ";" : "", r->params[p].name);
        for (int i = 0; i < n; i++)
            printf("%s%d", i ? "," : "", values[i]);
    }
    printf("\n");
}

/* One line per kernel rung, for scripts and tests: number, name, pads (0/1), the
 * multiples of M, N, K with the default and with the small-device parameters, the
 * backends that have the rung ("all", or the one that does), and the cases it takes:
 * double (0/1), transposes (0/1), alpha and beta (0/1). */
static void print_brief(const rung *all, int n)
{
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        if (r->kind != RUNG_KERNEL)
            continue;
        int mult[2][3] = {{1, 1, 1}, {1, 1, 1}};
        for (int small = 0; small < 2; small++) {
            int values[RUNG_MAX_PARAMS];
            rung_defaults(r, small, values);
            if (r->multiples)
                r->multiples(values, mult[small]);
        }
        printf("%d %s %d %d %d %d %d %d %d %s %d %d %d %d\n", r->number, r->name, r->pads,
               mult[0][0], mult[0][1], mult[0][2], mult[1][0], mult[1][1], mult[1][2],
               r->only_backend ? r->only_backend : "all", r->takes_double,
               rung_takes_pairs(r), r->blas_args, !r->no_single_reason);
    }
}

/* One line per kernel rung and parameter set, for scripts that compile the kernels
 * themselves (tools/ptxas-report.sh): file stem, "default" or "small", the defines. */
static void print_defines(const rung *all, int n)
{
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        if (r->kind != RUNG_KERNEL)
            continue;
        for (int small = 0; small < 2; small++) {
            int values[RUNG_MAX_PARAMS];
            char defines[256];
            rung_defaults(r, small, values);
            rung_params_defines(r, values, defines, sizeof defines);
            printf("%s %s %s\n", r->id, small ? "small" : "default", defines);
        }
    }
}

int cmd_list(int argc, char **argv)
{
    int n;
    const rung *all = registry_all(&n);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--brief") == 0) {
            print_brief(all, n);
            return 0;
        }
        if (strcmp(argv[i], "--defines") == 0) {
            print_defines(all, n);
            return 0;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: ladder list\n\n"
                   "Lists the rungs (number, name, idea, parent, parameters with their H100\n"
                   "defaults and small-device defaults, accepted sizes) and the baselines.\n"
                   "Select them in ladder run --rungs by number, range or name, e.g.\n"
                   "1-3,cublas. A rung's parent is the rung whose kernel it changes (ladder\n"
                   "diff shows the change; ladder lineage draws the tree).\n"
                   "\n"
                   "  --brief   one line per kernel rung for scripts: number, name, pads,\n"
                   "            multiples of M N K (defaults), multiples of M N K (small),\n"
                   "            backends (all, or the only one that has the rung), and the\n"
                   "            cases it takes: double, transposes, alpha and beta, single\n"
                   "            (0 or 1 each)\n"
                   "  --defines one line per kernel rung and parameter set: file stem,\n"
                   "            default|small, the compiler defines\n");
            return 0;
        }
        return cli_usage_error("list", "unknown option '%s' (see ladder list --help)", argv[i]);
    }
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        if (r->kind == RUNG_KERNEL)
            printf("%2d  %-12s %s\n", r->number, r->name, r->title);
        else if (r->kind == RUNG_AUTO)
            printf("    %-12s %s (its table: ladder select)\n", r->name, r->title);
        else
            printf("    %-12s %s (baseline%s%s)\n", r->name, r->title,
                   r->library_backend ? ", backend " : "",
                   r->library_backend ? r->library_backend : "");
        printf("    idea: %s\n", r->idea);
        print_parents(r);
        for (int p = 0; p < r->nparams; p++) {
            const rung_param *q = &r->params[p];
            printf("    %-6s = %-4d", q->name, q->value);
            if (q->small_value && q->small_value != q->value)
                printf(" (small devices: %d)", q->small_value);
            printf("  %s\n", q->meaning);
        }
        if (r->kind == RUNG_KERNEL && r->nparams > 0)
            print_choices(r);
        if (r->transposes_b)
            printf("    helper: B is transposed by a helper kernel, timed with the rung\n");
        print_sizes(r);
        print_bound(r);
        printf("\n");
    }
    return 0;
}
