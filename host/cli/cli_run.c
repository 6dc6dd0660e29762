/* ladder run: parse the options, check them all before anything runs, then run. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "backends/host_blas.h"
#include "core/runner.h"
#include "params/params.h"
#include "base/sizes.h"
#include "core/targets.h"
#include "params/tuned_params.h"
#include "params/tuning_paths.h"

#define DEFAULT_SIZES_GPU "256,512,1024,1536,2048,3072,4096"
#define DEFAULT_SIZES_CPU "128,256,384,512,768,1024"
#define DEFAULT_REPS 20
#define DEFAULT_MAX_SECONDS 1.0
#define DEFAULT_SEED 1

static void run_help(void)
{
    printf(
        "usage: ladder run [options]\n"
        "\n"
        "Runs rungs and baselines on devices, verifies every result against a CPU reference,\n"
        "times it with device events (median of the repetitions), prints a live table and\n"
        "writes one CSV row per (device, rung, size). Exits 1 if any verification failed.\n"
        "Rungs use the device's tuned parameters (ladder tune) where the tuning database\n"
        "has them for the size's class; the table marks them [tuned].\n"
        "\n"
        "options:\n"
        "  --backend B      opencl, cuda or all (default: all available)\n"
        "  --device D       'opencl:1' or 'cuda:0' (see ladder devices), an index within\n"
        "                   each backend, 'gpu' or 'cpu', or part of the device name\n"
        "                   (default: each backend's best device, a GPU if there is one)\n"
        "  --rungs LIST     numbers, ranges and names: 1-3,5,cublas,clblast,cpu,auto;\n"
        "                   'all' (default), 'kernels' or 'baselines'; 'auto' (in 'all'\n"
        "                   only) runs, per shape, the rung its selection table names\n"
        "                   (alias: --rung)\n"
        "  --sizes LIST     N (square), MxNxK, START:END:STEP, START:END:xFACTOR or a\n"
        "                   shape set (shapes, shapes-cpu), comma-separated\n"
        "                   (default on a GPU: " DEFAULT_SIZES_GPU ";\n"
        "                   on a CPU only: " DEFAULT_SIZES_CPU ") (alias: --size)\n"
        "  --reps N         most timed repetitions per row, 1 to 1000000 (default %d)\n"
        "  --max-time S     stop repeating a row after S seconds of timed runs, but not\n"
        "                   before 3 of them (or N, if fewer) (default %.1f)\n"
        "  --verify MODE    auto (default: full up to M*N*K = 2^33, sampled above),\n"
        "                   full, sampled or off\n"
        "  --full-limit P   with --verify auto, check every element while M*N*K <= P\n"
        "  --precision P    single (default) or double, or both: single,double\n"
        "  --trans LIST     the transpose pairs op(A)op(B), each run in turn: NN (default),\n"
        "                   NT, TN, TT, e.g. NN,TT; only the BLAS-call rungs that take\n"
        "                   transposes (ladder list) and the baselines run T cases\n"
        "  --layout L       col (column-major, default) or row (row-major), or col,row\n"
        "  --alpha X        C = alpha * op(A) * op(B) + beta * C (default 1); only the\n"
        "  --beta Y         BLAS-call rungs and the baselines take alpha != 1 or beta != 0\n"
        "                   (default 0; C then starts random); others are unsupported\n"
        "  --param P=V      set a rung parameter, e.g. TS=16 (every selected rung that has\n"
        "                   it) or 3:WPT=4 (rung 3 only); repeatable\n"
        "  --small-defaults use every rung's small-device defaults (32 KiB local memory,\n"
        "                   256 work-items) even where the device could take more\n"
        "  --defaults       ignore the tuning database: every rung runs its defaults\n"
        "  --db FILE        read tuned parameters from FILE only (default: the committed\n"
        "                   tuning/*.tsv, then the user's database; see ladder tune --help)\n"
        "  --seed N         seed of the random inputs (default %d); recorded in each row\n"
        "  --output FILE    the result file (default: ladder-<host>-<date>.csv here); its\n"
        "                   folder must exist (alias: --out)\n"
        "  --force          replace FILE if it exists (only when the run ends)\n"
        "  --append         add the rows to FILE, a result file with the same columns\n"
        "\n"
        "examples:\n"
        "  ladder run\n"
        "  ladder run --backend cuda --rungs 1-3,cublas --sizes 1024:4096:1024\n"
        "  ladder run --backend opencl --device cpu --rungs 3 --param WPT=4 --sizes 256x512x128\n",
        DEFAULT_REPS, DEFAULT_MAX_SECONDS, DEFAULT_SEED);
}

/* ---- --rungs ----------------------------------------------------------------------- */

static int add_rung(const rung **list, int *n, const rung *r)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == r)
            return 0;
    list[(*n)++] = r;
    return 0;
}

static int kind_order(const rung *r)
{
    /* Libraries first, so each rung's row can show its fraction of the library; the
     * shape-aware entry after the rungs it chooses from; the host's BLAS last. */
    switch (r->kind) {
    case RUNG_LIBRARY: return 0;
    case RUNG_KERNEL: return 1;
    case RUNG_AUTO: return 2;
    case RUNG_HOST: return 3;
    }
    return 3;
}

/* Whether `group` ("all", "kernels", "baselines") takes entry `r`: "auto" is in "all"
 * only, being neither one kernel nor a vendor library. */
static int in_group(const char *group, const rung *r)
{
    if (strcmp(group, "all") == 0)
        return 1;
    if (strcmp(group, "kernels") == 0)
        return r->kind == RUNG_KERNEL;
    return r->kind == RUNG_LIBRARY || r->kind == RUNG_HOST;
}

static int parse_rungs(const char *spec, const rung **list, int *n)
{
    int count;
    const rung *all = registry_all(&count);
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return cli_usage_error("run", "out of memory");
    *n = 0;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int lo, hi;
        char extra;
        if (strcmp(item, "all") == 0 || strcmp(item, "kernels") == 0 ||
            strcmp(item, "baselines") == 0) {
            for (int i = 0; i < count; i++)
                if (in_group(item, &all[i]))
                    add_rung(list, n, &all[i]);
        } else if (sscanf(item, "%d-%d%c", &lo, &hi, &extra) == 2) {
            if (lo > hi || lo < 1) {
                cli_usage_error("run", "rung range '%s' is empty", item);
                free(copy);
                return EXIT_USAGE;
            }
            for (int k = lo; k <= hi; k++) {
                char key[16];
                snprintf(key, sizeof key, "%d", k);
                const rung *r = registry_find(key);
                if (!r) {
                    cli_usage_error("run", "there is no rung %d (range '%s'; see ladder list)",
                                    k, item);
                    free(copy);
                    return EXIT_USAGE;
                }
                add_rung(list, n, r);
            }
        } else {
            const rung *r = registry_find(item);
            if (!r) {
                cli_usage_error("run", "unknown rung '%s' (see ladder list)", item);
                free(copy);
                return EXIT_USAGE;
            }
            add_rung(list, n, r);
        }
    }
    free(copy);
    if (*n == 0)
        return cli_usage_error("run", "--rungs '%s' selects nothing", spec);
    /* Stable sort by kind, keeping the user's order within a kind. */
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && kind_order(list[j - 1]) > kind_order(list[j]); j--) {
            const rung *t = list[j - 1];
            list[j - 1] = list[j];
            list[j] = t;
        }
    return 0;
}

/* ---- --param ----------------------------------------------------------------------- */

/* Every override must name a parameter that a selected rung has, with a value it takes. */
static int check_params(const rung **rungs, int nrungs, const param_override *ov, int nov)
{
    for (int i = 0; i < nov; i++) {
        int used = 0;
        for (int k = 0; k < nrungs; k++) {
            const rung *r = rungs[k];
            if (r->kind != RUNG_KERNEL || (ov[i].rung && ov[i].rung != r->number))
                continue;
            if (rung_param_index(r, ov[i].name) >= 0)
                used = 1;
        }
        if (!used) {
            if (ov[i].rung)
                return cli_usage_error("run", "rung %d is not selected or has no parameter "
                                              "%s (see ladder list)", ov[i].rung, ov[i].name);
            return cli_usage_error("run", "no selected rung has a parameter %s (see ladder "
                                          "list)", ov[i].name);
        }
    }
    for (int k = 0; k < nrungs; k++) {
        if (rungs[k]->kind != RUNG_KERNEL)
            continue;
        int values[RUNG_MAX_PARAMS];
        const char *source;
        char msg[LADDER_MSG];
        if (params_resolve(rungs[k], ov, nov, 0, NULL, PRECISION_SINGLE, values, &source, msg) ==
            LADDER_ERROR)
            return cli_usage_error("run", "%s", msg);
    }
    return 0;
}

/* ---- the command --------------------------------------------------------------------- */

typedef struct {
    const char *backend, *device, *rungs, *sizes, *db;
    const char *precision, *trans, *layout; /* lists: each case runs */
    double alpha, beta;
    cli_output output;
    long reps, seed;
    double max_seconds;
    verify_mode verify;
    unsigned long long full_limit;
    param_override overrides[32];
    int noverrides;
    int small_defaults;
    int defaults; /* --defaults: no tuned parameters */
} run_options;

/* --alpha X or --beta Y: 1 when argv[*i] was `name` (its value in *out), 0 when it was
 * another option, EXIT_USAGE for a missing or bad value. */
static int scalar_option(int argc, char **argv, int *i, const char *name, double *out)
{
    const char *v;
    char msg[LADDER_MSG];
    int m = cli_option(argc, argv, i, name, &v);
    if (m <= 0)
        return m < 0 ? EXIT_USAGE : 0;
    if (gemm_parse_scalar(name, v, out, msg) != LADDER_OK)
        return cli_usage_error("run", "%s", msg);
    return 1;
}

static int parse_options(int argc, char **argv, run_options *o)
{
    *o = (run_options){.backend = "all", .rungs = "all", .precision = "single",
                       .trans = "NN", .layout = "col", .alpha = 1.0, .reps = DEFAULT_REPS,
                       .seed = DEFAULT_SEED, .max_seconds = DEFAULT_MAX_SECONDS,
                       .verify = VERIFY_AUTO, .full_limit = VERIFY_FULL_LIMIT_DEFAULT};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            run_help();
            return 1;
        }
#define STRING_OPTION(flag, field)                                                        \
    if ((m = cli_option(argc, argv, &i, flag, &v)) != 0) {                                \
        if (m < 0)                                                                        \
            return EXIT_USAGE;                                                            \
        o->field = v;                                                                     \
        continue;                                                                         \
    }
        STRING_OPTION("--backend", backend)
        STRING_OPTION("--device", device)
        STRING_OPTION("--rungs", rungs)
        STRING_OPTION("--rung", rungs)
        STRING_OPTION("--sizes", sizes)
        STRING_OPTION("--size", sizes)
        STRING_OPTION("--db", db)
        STRING_OPTION("--precision", precision)
        STRING_OPTION("--trans", trans)
        STRING_OPTION("--layout", layout)
#undef STRING_OPTION
        if ((m = scalar_option(argc, argv, &i, "--alpha", &o->alpha)) != 0 ||
            (m = scalar_option(argc, argv, &i, "--beta", &o->beta)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        static const char *const output_names[] = {"--output", "--out", NULL};
        if ((m = cli_output_option(argc, argv, &i, output_names, &o->output)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        if (strcmp(argv[i], "--small-defaults") == 0) {
            o->small_defaults = 1;
            continue;
        }
        if (strcmp(argv[i], "--defaults") == 0) {
            o->defaults = 1;
            continue;
        }
        if ((m = cli_timing_option("run", argc, argv, &i, &o->reps, &o->seed,
                                   &o->max_seconds)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        if ((m = cli_option(argc, argv, &i, "--full-limit", &v)) != 0) {
            long limit;
            if (m < 0 || cli_parse_long(v, 1, LONG_MAX, &limit))
                return cli_usage_error("run", "--full-limit needs a positive integer");
            o->full_limit = (unsigned long long)limit;
            continue;
        }
        if ((m = cli_option(argc, argv, &i, "--verify", &v)) != 0) {
            if (m < 0)
                return EXIT_USAGE;
            if (strcmp(v, "auto") == 0) o->verify = VERIFY_AUTO;
            else if (strcmp(v, "full") == 0) o->verify = VERIFY_FULL;
            else if (strcmp(v, "sampled") == 0) o->verify = VERIFY_SAMPLED;
            else if (strcmp(v, "off") == 0) o->verify = VERIFY_OFF;
            else
                return cli_usage_error("run", "--verify '%s': use auto, full, sampled or off",
                                       v);
            continue;
        }
        if ((m = cli_option(argc, argv, &i, "--param", &v)) != 0) {
            if (m < 0)
                return EXIT_USAGE;
            if (o->noverrides == (int)(sizeof o->overrides / sizeof o->overrides[0]))
                return cli_usage_error("run", "too many --param options");
            if (cli_parse_param("run", v, &o->overrides[o->noverrides++]))
                return EXIT_USAGE;
            continue;
        }
        return cli_usage_error("run", "unknown option '%s' (see ladder run --help)", argv[i]);
    }
    return 0;
}

/* ---- the cases ---------------------------------------------------------------------- */

#define MAX_CASES 32

/* Splits a comma-separated option value into items: their count, or -1 after a usage
 * error (an empty item, one too long, too many). */
static int split_list(const char *option, const char *text, char items[][16], int max)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= 16 || n == max) {
            cli_usage_error("run", "%s '%s': give a comma-separated list of values (see ladder "
                            "run --help)", option, text);
            return -1;
        }
        memcpy(items[n], p, len);
        items[n++][len] = '\0';
        if (!p[len])
            return n;
        p += len + 1;
    }
}

/* Every combination of --precision, --layout and --trans, with --alpha and --beta, into
 * cases[]: 0, or EXIT_USAGE after printing what was wrong. */
static int parse_cases(const run_options *o, gemm_case *cases, int *ncases)
{
    char precisions[4][16], layouts[4][16], trans[8][16], msg[LADDER_MSG];
    int np = split_list("--precision", o->precision, precisions, 4);
    int nl = np < 0 ? -1 : split_list("--layout", o->layout, layouts, 4);
    int nt = nl < 0 ? -1 : split_list("--trans", o->trans, trans, 8);
    if (nt < 0)
        return EXIT_USAGE;
    *ncases = 0;
    for (int p = 0; p < np; p++)
        for (int l = 0; l < nl; l++)
            for (int t = 0; t < nt; t++) {
                gemm_case c = GEMM_CASE_DEFAULT;
                if (gemm_parse_precision(precisions[p], &c.precision, msg) != LADDER_OK ||
                    gemm_parse_layout(layouts[l], &c.layout, msg) != LADDER_OK ||
                    gemm_parse_trans(trans[t], &c.trans_a, &c.trans_b, msg) != LADDER_OK)
                    return cli_usage_error("run", "%s", msg);
                c.alpha = o->alpha;
                c.beta = o->beta;
                cases[(*ncases)++] = c;
            }
    return 0;
}

static void default_output(char *out, size_t size)
{
    char host[64] = "host";
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "host");
    host[sizeof host - 1] = '\0';
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    snprintf(out, size, "ladder-%s-%s.csv", host, stamp);
}

/* The summary line: "12 rows: 10 ok, 0 FAILED, 2 unsupported, 0 errors". */
static void print_summary(const run_summary *sum, const char *output)
{
    printf("\n%d row%s: %d ok, %d FAILED, %d unsupported, %d error%s. Results: %s\n",
           sum->rows, sum->rows == 1 ? "" : "s", sum->ok, sum->failed, sum->unsupported,
           sum->errors, sum->errors == 1 ? "" : "s", output);
}

int cmd_run(int argc, char **argv)
{
    run_options o;
    int st = parse_options(argc, argv, &o);
    if (st)
        return st == 1 ? 0 : st;

    const rung *selected[128];
    int nrungs = 0, ncases = 0;
    results_mode mode;
    gemm_case cases[MAX_CASES];
    if (parse_cases(&o, cases, &ncases) || parse_rungs(o.rungs, selected, &nrungs) ||
        check_params(selected, nrungs, o.overrides, o.noverrides) ||
        cli_output_mode("run", &o.output, &mode))
        return EXIT_USAGE;
    int want_cpu = 0, want_devices = 0;
    for (int i = 0; i < nrungs; i++) {
        if (selected[i]->kind == RUNG_HOST)
            want_cpu = 1;
        else
            want_devices = 1;
    }
    gemm_size *sizes = NULL;
    int nsizes = 0;
    char msg[LADDER_MSG];
    if (o.sizes && sizes_parse(o.sizes, &sizes, &nsizes, msg) != LADDER_OK)
        return cli_usage_error("run", "%s", msg);

    /* The result file first: a path that cannot be written is found before any device
     * is opened, let alone measured. */
    char output[1024];
    if (o.output.path)
        snprintf(output, sizeof output, "%s", o.output.path);
    else
        default_output(output, sizeof output);
    results_writer *writer = NULL;
    if (results_open(output, mode, "--output", &writer, msg) != LADDER_OK) {
        free(sizes);
        return cli_usage_error("run", "%s", msg);
    }

    int exit_code = 0;
    run_target *targets = NULL;
    int ntargets = 0;
    tuning_db tuning;
    tuning_db_init(&tuning);
    if (want_devices) {
        if (targets_open(o.backend, o.device, want_cpu, &targets, &ntargets, msg) !=
            LADDER_OK) {
            exit_code = cli_usage_error("run", "%s", msg);
            goto out;
        }
    } else {
        /* Only the CPU baseline was asked for: no GPU device is needed. */
        targets = calloc(1, sizeof *targets);
        if (!targets) {
            exit_code = cli_usage_error("run", "out of memory");
            goto out;
        }
        ntargets = 1;
        host_cpu_info(&targets[0].dev);
    }
    int any_gpu = 0;
    for (int t = 0; t < ntargets; t++) {
        if (targets[t].ops && targets[t].dev.is_gpu)
            any_gpu = 1;
        if (targets[t].ops)
            printf("device: %s:%d %s (%s)\n", targets[t].dev.backend, targets[t].dev.index,
                   targets[t].dev.name, targets[t].dev.driver);
    }
    if (!o.sizes && sizes_parse(any_gpu ? DEFAULT_SIZES_GPU : DEFAULT_SIZES_CPU, &sizes,
                                &nsizes, msg) != LADDER_OK) {
        exit_code = cli_usage_error("run", "%s", msg);
        goto out;
    }
    /* The widest case's elements: double when any case is. */
    size_t elem = sizeof(float);
    for (int c = 0; c < ncases; c++)
        if (gemm_elem_bytes(cases[c].precision) > elem)
            elem = gemm_elem_bytes(cases[c].precision);
    if (cli_check_memory("run", targets, ntargets, sizes, nsizes, elem)) {
        exit_code = EXIT_USAGE;
        goto out;
    }
    if (!o.defaults) {
        if (tuning_load_for_run(&tuning, o.db, "ladder run", msg) != LADDER_OK) {
            exit_code = cli_usage_error("run", "%s", msg);
            goto out;
        }
        for (int t = 0; t < ntargets; t++) {
            int n = targets[t].ops ? tuned_params_count(&tuning, &targets[t].dev) : 0;
            if (n > 0)
                printf("tuning database: %d entr%s for %s:%d; rungs marked [tuned] use them "
                       "(--defaults does not)\n", n, n == 1 ? "y" : "ies",
                       targets[t].dev.backend, targets[t].dev.index);
        }
    }

    run_plan plan = {
        .targets = targets, .ntargets = ntargets, .rungs = selected, .nrungs = nrungs,
        .sizes = sizes, .nsizes = nsizes, .cases = cases, .ncases = ncases,
        .overrides = o.overrides,
        .noverrides = o.noverrides, .reps = (int)o.reps, .max_seconds = o.max_seconds,
        .verify = o.verify, .full_limit = o.full_limit, .seed = (uint64_t)o.seed,
        .writer = writer, .small_defaults = o.small_defaults,
        .tuning = o.defaults ? NULL : &tuning,
    };
    cli_catch_interrupts(1);
    run_summary sum;
    ladder_status rs = runner_run(&plan, &sum, msg);
    cli_catch_interrupts(0);
    if (rs != LADDER_OK) {
        /* The run could not go on (out of memory, a write failed): the rows measured
         * before that are still kept, where the file can still be completed. */
        fprintf(stderr, "ladder run: %s\n", msg);
        exit_code = 1;
        if (sum.rows > 0) {
            ladder_status kept = results_close(writer, msg);
            writer = NULL;
            if (kept == LADDER_OK)
                fprintf(stderr, "ladder run: the rows written before that are in %s\n",
                        output);
            else
                fprintf(stderr, "ladder run: %s\n", msg);
        }
        goto out;
    }
    if (sum.rows == 0 && runner_interrupted) {
        fprintf(stderr, "ladder run: interrupted before the first row: no result file "
                        "written\n");
        exit_code = cli_interrupted_status();
        goto out;
    }
    if (sum.rows == 0) {
        fprintf(stderr, "ladder run: nothing ran: no selected rung runs on the selected "
                        "devices (e.g. cublas needs --backend cuda)\n");
        exit_code = EXIT_USAGE;
        goto out;
    }
    ladder_status closed = results_close(writer, msg);
    writer = NULL;
    if (closed != LADDER_OK) {
        fprintf(stderr, "ladder run: %s\n", msg);
        exit_code = 1;
        goto out;
    }
    print_summary(&sum, output);
    if (sum.failed)
        fprintf(stderr, "\nladder run: VERIFICATION FAILED in %d row%s: the kernel computed a "
                        "wrong C (see the check column above and the 'reason' column of %s)\n",
                sum.failed, sum.failed == 1 ? "" : "s", output);
    if (sum.errors)
        fprintf(stderr, "ladder run: %d row%s ended in an error (messages above)\n",
                sum.errors, sum.errors == 1 ? "" : "s");
    if (runner_interrupted) {
        fprintf(stderr, "ladder run: %s; the rows measured so far are in %s\n",
                cli_interruption(), output);
        exit_code = cli_interrupted_status();
    } else if (sum.failed || sum.errors) {
        exit_code = 1;
    }
out:
    if (writer)
        results_discard(writer);
    tuning_db_free(&tuning);
    targets_close(targets, ntargets);
    free(sizes);
    return exit_code;
}
