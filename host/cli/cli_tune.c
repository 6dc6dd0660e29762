/* ladder tune: search one rung's parameters on this device, keep every candidate in a CSV
 * file and the best per size class in the tuning database, which ladder run then uses.
 * This file parses and checks the options and writes the database; the space, the
 * strategies and the measuring loop are tune_space.c, tune_search.c and tuner.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "base/paths.h"
#include "base/kernel_path.h"
#include "params/params.h"
#include "params/size_class.h"
#include "base/source_hash.h"
#include "core/targets.h"
#include "tune/tuner.h"
#include "params/tuning_db.h"
#include "params/tuning_paths.h"

#define DEFAULT_SIZES_GPU "4096"
#define DEFAULT_SIZES_CPU "256"
#define DEFAULT_BUDGET "120s"
#define DEFAULT_STRATEGY "greedy"
#define DEFAULT_REPS 5
#define DEFAULT_MAX_SECONDS 0.2
#define DEFAULT_SEED 1
#define MAX_TUNE_SIZES 16
#define MAX_PINNED 16

static void tune_help(void)
{
    printf(
        "usage: ladder tune --rung N [options]\n"
        "\n"
        "Searches the parameters of one rung on one device: compiles, verifies and times\n"
        "each candidate like ladder run (with fewer repetitions), writes every candidate to\n"
        "a CSV file, and keeps the fastest per size class in the tuning database, which\n"
        "ladder run then uses on this device. Ctrl-C stops after the candidate in flight\n"
        "and keeps what was found.\n"
        "\n"
        "options:\n"
        "  --rung N         the rung (number or name); one with parameters (alias: --rungs,\n"
        "                   with one rung)\n"
        "  --backend B      opencl or cuda (needed when both are available)\n"
        "  --device D       as for ladder run (default: the backend's best device)\n"
        "  --sizes LIST     sizes each candidate runs, as for ladder run (default on a GPU:\n"
        "                   " DEFAULT_SIZES_GPU ", on a CPU: " DEFAULT_SIZES_CPU
        "); each size class among them gets its own\n"
        "                   best (alias: --size)\n"
        "  --budget B       120s, 5m (time: no candidate starts after it) or 50 (number of\n"
        "                   candidates) (default " DEFAULT_BUDGET ")\n"
        "  --strategy S     greedy (default): from the defaults, move to the fastest\n"
        "                   neighbour (one parameter one step) while one is faster, then\n"
        "                   restart from a random point; random: a random order, no\n"
        "                   repeats; exhaustive: every candidate in order\n"
        "  --param P=V      pin a parameter to one value (repeatable); the rest is searched\n"
        "  --precision P    single (default) or double: the precision tuned; the database\n"
        "                   keeps each precision's entries apart, and a run uses those of\n"
        "                   its own precision only\n"
        "  --trans T        NN (default), NT, TN or TT: the transpose pair tuned (op(A),\n"
        "                   then op(B); column-major), one per search; the database keeps\n"
        "                   each pair's entries apart, and a row uses those of its own pair\n"
        "                   only (a pair without entries runs the defaults)\n"
        "  --reps N         timed repetitions per candidate and size (default %d)\n"
        "  --max-time S     stop repeating a candidate after S seconds (default %.1f)\n"
        "  --seed N         seed of the inputs and of the random choices (default %d)\n"
        "  --candidates F   the CSV file of every candidate (default:\n"
        "                   tune-<rung>-<backend>-<device>-<time>.csv here); its folder\n"
        "                   must exist (aliases: --output, --out)\n"
        "  --force          replace F if it exists\n"
        "  --append         add the rows to F, a result file with the same columns\n"
        "  --db FILE        the tuning database to update (default: $LADDER_TUNING_DB, else\n"
        "                   ~/.config/gemm-ladder/tuning.tsv)\n"
        "  --dry-run        list the candidates that would be tried, and why others are\n"
        "                   skipped; measure nothing\n"
        "\n"
        "Size classes: skinny when the largest of M, N, K is at least 8 times the smallest,\n"
        "else small when M*N*K < 2048^3, else large. An entry is replaced when the new best\n"
        "is faster or the kernel source changed since.\n"
        "\n"
        "examples:\n"
        "  ladder tune --rung 6 --backend cuda --sizes 4096 --budget 60s\n"
        "  ladder tune --rung 3 --sizes 256,128x4096x128 --strategy random --budget 40\n",
        DEFAULT_REPS, DEFAULT_MAX_SECONDS, DEFAULT_SEED);
}

typedef struct {
    const char *rung, *backend, *device, *sizes, *budget, *strategy, *db;
    cli_output candidates;
    long reps, seed;
    double max_seconds;
    param_override pinned[MAX_PINNED];
    int npinned;
    int dry_run;
    gemm_precision precision;
    int trans_a, trans_b; /* --trans */
} tune_options;

static int parse_options(int argc, char **argv, tune_options *o)
{
    *o = (tune_options){.backend = "all", .budget = DEFAULT_BUDGET,
                        .strategy = DEFAULT_STRATEGY, .reps = DEFAULT_REPS,
                        .seed = DEFAULT_SEED, .max_seconds = DEFAULT_MAX_SECONDS};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            tune_help();
            return 1;
        }
        if (strcmp(argv[i], "--dry-run") == 0) {
            o->dry_run = 1;
            continue;
        }
#define STRING_OPTION(flag, field)                                                        \
    if ((m = cli_option(argc, argv, &i, flag, &v)) != 0) {                                \
        if (m < 0)                                                                        \
            return EXIT_USAGE;                                                            \
        o->field = v;                                                                     \
        continue;                                                                         \
    }
        STRING_OPTION("--rung", rung)
        STRING_OPTION("--rungs", rung)
        STRING_OPTION("--backend", backend)
        STRING_OPTION("--device", device)
        STRING_OPTION("--sizes", sizes)
        STRING_OPTION("--size", sizes)
        STRING_OPTION("--budget", budget)
        STRING_OPTION("--strategy", strategy)
        STRING_OPTION("--db", db)
#undef STRING_OPTION
        if ((m = cli_option(argc, argv, &i, "--precision", &v)) != 0) {
            char msg[LADDER_MSG];
            if (m < 0)
                return EXIT_USAGE;
            if (gemm_parse_precision(v, &o->precision, msg) != LADDER_OK)
                return cli_usage_error("tune", "--%s", msg);
            continue;
        }
        if ((m = cli_option(argc, argv, &i, "--trans", &v)) != 0) {
            char msg[LADDER_MSG];
            if (m < 0)
                return EXIT_USAGE;
            if (strchr(v, ','))
                return cli_usage_error("tune", "--trans '%s': a search tunes one transpose "
                                       "pair; give one (run ladder tune once per pair)", v);
            if (gemm_parse_trans(v, &o->trans_a, &o->trans_b, msg) != LADDER_OK)
                return cli_usage_error("tune", "--trans: %s", msg);
            continue;
        }
        static const char *const output_names[] = {"--candidates", "--output", "--out", NULL};
        if ((m = cli_output_option(argc, argv, &i, output_names, &o->candidates)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        if ((m = cli_timing_option("tune", argc, argv, &i, &o->reps, &o->seed,
                                   &o->max_seconds)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        if ((m = cli_option(argc, argv, &i, "--param", &v)) != 0) {
            if (m < 0)
                return EXIT_USAGE;
            if (o->npinned == MAX_PINNED)
                return cli_usage_error("tune", "too many --param options");
            if (cli_parse_param("tune", v, &o->pinned[o->npinned++]))
                return EXIT_USAGE;
            continue;
        }
        return cli_usage_error("tune", "unknown option '%s' (see ladder tune --help)",
                               argv[i]);
    }
    return 0;
}

static int find_rung(const char *spec, const rung **out)
{
    if (!spec)
        return cli_usage_error("tune", "which rung? give --rung N (see ladder list)");
    int lo, hi;
    char extra;
    if (strchr(spec, ',') || sscanf(spec, "%d-%d%c", &lo, &hi, &extra) == 2)
        return cli_usage_error("tune", "--rungs '%s': a search tunes one rung; give one "
                               "(run ladder tune once per rung)", spec);
    const rung *r = registry_find(spec);
    if (!r)
        return cli_usage_error("tune", "unknown rung '%s' (see ladder list)", spec);
    if (r->kind == RUNG_AUTO)
        return cli_usage_error("tune", "'%s' chooses among the rungs: its table is measured "
                               "by ladder select", spec);
    if (r->kind != RUNG_KERNEL)
        return cli_usage_error("tune", "'%s' is a baseline library: it has no parameters to "
                               "tune", spec);
    if (r->nparams == 0)
        return cli_usage_error("tune", "rung %d (%s) has no parameters to tune", r->number,
                               r->name);
    *out = r;
    return 0;
}

/* A --param for another rung (5:TS=16 while tuning rung 3) is a mistake, not a no-op. */
static int check_pinned(const rung *r, const tune_options *o)
{
    for (int i = 0; i < o->npinned; i++)
        if (o->pinned[i].rung && o->pinned[i].rung != r->number)
            return cli_usage_error("tune", "--param %d:%s: this search is for rung %d",
                                   o->pinned[i].rung, o->pinned[i].name, r->number);
    return 0;
}

static void print_space(const tune_space *sp, int start, const char *defaults)
{
    printf("candidates: %ld combinations of the candidate values (ladder list shows them)",
           sp->ncombinations);
    if (sp->skipped_invalid)
        printf("\n  %ld invalid for the rung, e.g. %s", sp->skipped_invalid, sp->why_invalid);
    if (sp->skipped_device)
        printf("\n  %ld beyond this device, e.g. %s", sp->skipped_device, sp->why_device);
    if (sp->skipped_size)
        printf("\n  %ld that do not fit every size, e.g. %s", sp->skipped_size, sp->why_size);
    printf("\n  %d to try; the defaults (%s) %s\n", sp->npoints, defaults,
           start >= 0 ? "are among them and go first"
                      : "are not among them: the search starts elsewhere");
}

static void list_space(const tune_space *sp)
{
    for (int p = 0; p < sp->npoints; p++) {
        int values[RUNG_MAX_PARAMS];
        char text[128];
        tune_space_values(sp, p, values);
        rung_params_string(sp->r, values, text, sizeof text);
        printf("  %s\n", text);
    }
}

static void default_candidates(const rung *r, const device_info *dev, char *out, size_t size)
{
    char slug[128], stamp[32];
    tuning_slug(dev->name, slug, sizeof slug);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    snprintf(out, size, "tune-%d-%s-%s-%s.csv", r->number, dev->backend, slug, stamp);
}

/* What the update did, in words. */
static const char *offer_words(tuning_offer what)
{
    switch (what) {
    case TUNING_ADDED: return "added";
    case TUNING_REPLACED_STALE: return "replaced an entry measured with another kernel source";
    case TUNING_REPLACED: return "replaced the previous entry";
    case TUNING_KEPT: return "kept the previous entry, which was faster";
    }
    return "?";
}

/* The tuning sizes of one class, "MxNxK,MxNxK": whole sizes only, as many as fit, so
 * the database never holds a cut one. */
static void class_sizes(const gemm_size *sizes, int nsizes, size_class c, char *out,
                        size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int s = 0; s < nsizes; s++) {
        if (size_class_of(&sizes[s]) != c)
            continue;
        char item[80];
        int n = snprintf(item, sizeof item, "%s%ldx%ldx%ld", used ? "," : "", sizes[s].M,
                         sizes[s].N, sizes[s].K);
        if (used + (size_t)n >= size)
            break;
        memcpy(out + used, item, (size_t)n + 1);
        used += (size_t)n;
    }
}

/* Offers the best of every class to the database; returns how many classes had one. */
static int offer_bests(tuning_db *db, const tune_plan *plan, const tune_outcome *out,
                       const char *kernel_file, const kernel_fingerprint *fp)
{
    const device_info *dev = &plan->target->dev;
    int found = 0;
    for (int c = 0; c < SIZE_CLASS_COUNT; c++) {
        if (!out->present[c])
            continue;
        const tune_pick *best = &out->best[c];
        if (best->point < 0) {
            printf("%s sizes: no candidate passed at every size; nothing to keep\n",
                   size_class_name((size_class)c));
            continue;
        }
        found++;
        tuning_entry e = {.rung = plan->r->number, .cls = (size_class)c,
                          .gflops = best->gflops, .precision = plan->tuned.precision,
                          .trans_a = plan->tuned.trans_a, .trans_b = plan->tuned.trans_b,
                          .file = -1};
        snprintf(e.backend, sizeof e.backend, "%s", dev->backend);
        tuning_field(e.device, sizeof e.device, dev->name);
        int values[RUNG_MAX_PARAMS];
        tune_space_values(plan->space, best->point, values);
        rung_params_string(plan->r, values, e.params, sizeof e.params);
        class_sizes(plan->sizes, plan->nsizes, (size_class)c, e.sizes, sizeof e.sizes);
        tuning_field(e.kernel, sizeof e.kernel, kernel_file);
        snprintf(e.kernel_fnv1a, sizeof e.kernel_fnv1a, "%s", fp->code);
        snprintf(e.kernel_bytes_fnv1a, sizeof e.kernel_bytes_fnv1a, "%s", fp->bytes);
        tuning_field(e.driver, sizeof e.driver, dev->driver);
        time_t now = time(NULL);
        struct tm utc;
        gmtime_r(&now, &utc);
        strftime(e.date, sizeof e.date, "%Y-%m-%dT%H:%M:%SZ", &utc);

        printf("%s sizes: best %s at %.1f GFLOPS", size_class_name(e.cls), e.params,
               e.gflops);
        if (out->defaults[c].point >= 0)
            printf(" (the defaults: %.1f GFLOPS; %.2fx)", out->defaults[c].gflops,
                   e.gflops / out->defaults[c].gflops);
        tuning_offer what;
        tuning_entry old;
        char msg[LADDER_MSG];
        if (tuning_db_offer(db, &e, &what, &old, msg) != LADDER_OK) {
            printf("\n");
            fprintf(stderr, "ladder tune: %s\n", msg);
            return -1;
        }
        printf(": %s", offer_words(what));
        if (what == TUNING_KEPT)
            printf(" (%s at %.1f GFLOPS)", old.params, old.gflops);
        printf("\n");
    }
    return found;
}

/* Everything cmd_tune opens, so one function can close it on every path. */
typedef struct {
    run_target *targets;
    int ntargets;
    gemm_size *sizes;
    int nsizes;
    tune_space space;
    tuning_db db;
} tune_session;

static void session_close(tune_session *s)
{
    tuning_db_free(&s->db);
    tune_space_free(&s->space);
    targets_close(s->targets, s->ntargets);
    free(s->sizes);
}

/* Opens the device and the sizes; 0 or EXIT_USAGE. */
static int open_target(const tune_options *o, tune_session *s)
{
    if (cli_open_device("tune", o->backend, o->device, o->sizes, DEFAULT_SIZES_GPU,
                        DEFAULT_SIZES_CPU, &s->targets, &s->ntargets, &s->sizes, &s->nsizes))
        return EXIT_USAGE;
    if (s->nsizes > MAX_TUNE_SIZES)
        return cli_usage_error("tune", "%d sizes: every candidate runs every size, so tune "
                               "with at most %d", s->nsizes, MAX_TUNE_SIZES);
    return cli_check_memory("tune", s->targets, 1, s->sizes, s->nsizes,
                            gemm_elem_bytes(o->precision)) ? EXIT_USAGE : 0;
}

/* Builds the space and finds the defaults in it; 0 or EXIT_USAGE. */
static int build_space(const tune_options *o, const rung *r, tune_session *s, int *start,
                       char *defaults, size_t size)
{
    char msg[LADDER_MSG];
    const device_info *dev = &s->targets[0].dev;
    /* A rung this backend does not have: say so, not "no candidate fits". */
    if (!rung_on_backend(r, dev->backend))
        return cli_usage_error("tune", "rung %d (%s) cannot run on %s: %s (use --backend %s)",
                               r->number, r->name, dev->backend, r->only_reason,
                               r->only_backend);
    if (tune_space_build(&s->space, r, o->pinned, o->npinned, dev, o->precision, s->sizes,
                         s->nsizes, msg) != LADDER_OK)
        return cli_usage_error("tune", "%s", msg);
    /* The defaults this device would run (with the pinned values), as the start point. */
    int values[RUNG_MAX_PARAMS] = {0};
    const char *source;
    *start = -1;
    ladder_status st = params_resolve(r, o->pinned, o->npinned, 0, dev, o->precision, values,
                                      &source, msg);
    rung_params_string(r, values, defaults, size);
    if (st == LADDER_OK)
        *start = tune_space_find(&s->space, values);
    print_space(&s->space, *start, defaults);
    if (s->space.npoints == 0)
        return cli_usage_error("tune", "no candidate of rung %d fits this device and every "
                               "size (see the counts above): try other --sizes or --param",
                               r->number);
    return 0;
}

/* Reads the database the search will update, before anything is measured: a corrupt one
 * is not overwritten, and a folder that cannot be made is an error now, not after the
 * search. */
static int open_db(const tune_options *o, tune_session *s, char *path, size_t size)
{
    char msg[LADDER_MSG];
    int found;
    if (o->db)
        snprintf(path, size, "%s", o->db);
    else if (tuning_user_path(path, size, msg) != LADDER_OK)
        return cli_usage_error("tune", "%s", msg);
    if (make_parent_dirs(path, msg) != LADDER_OK)
        return cli_usage_error("tune", "%s", msg);
    if (tuning_db_read(&s->db, path, &found, msg) != LADDER_OK)
        return cli_usage_error("tune", "cannot update the tuning database: %s (fix or remove "
                               "that line, or give --db ANOTHER_FILE)", msg);
    return 0;
}

static void print_target(const rung *r, const tune_session *s, const gemm_case *tuned)
{
    const device_info *dev = &s->targets[0].dev;
    char pair[3];
    printf("tuning rung %d (%s) in %s precision, %s, on %s:%d %s (%s)\n", r->number,
           r->name, gemm_precision_name(tuned->precision),
           gemm_trans_name(tuned->trans_a, tuned->trans_b, pair), dev->backend, dev->index,
           dev->name, dev->driver);
    printf("sizes:");
    for (int i = 0; i < s->nsizes; i++)
        printf(" %ldx%ldx%ld (%s)", s->sizes[i].M, s->sizes[i].N, s->sizes[i].K,
               size_class_name(size_class_of(&s->sizes[i])));
    printf("\n");
}

static void print_plan(const tune_plan *p, const tune_options *o)
{
    printf("strategy %s, budget %s; each candidate: compile, verify, then up to %d timed "
           "runs within %.2g s (fewer than ladder run: the figures are indicative)\n",
           tune_strategy_name(p->strategy), o->budget, p->reps, p->max_seconds);
}

static int finish(const tune_outcome *out, const char *candidates, const char *db_path,
                  int explicit_db, int kept)
{
    printf("\n%d candidates in %.0f s: %d ok, %d FAILED, %d unsupported, %d errors. "
           "Candidates: %s\n", out->measured, out->seconds, out->ok, out->failed,
           out->unsupported, out->errors, candidates);
    if (kept > 0 && !explicit_db)
        printf("Tuning database: %s (ladder run uses it on this device; --defaults "
               "ignores it)\n", db_path);
    else if (kept > 0)
        printf("Tuning database: %s (ladder run --db %s uses it; ladder run reads it by "
               "default once it is in %s/)\n", db_path, db_path, tuning_committed_dir());
    if (out->interrupted) {
        fprintf(stderr, "ladder tune: %s after %d candidates; %s\n", cli_interruption(),
                out->measured, kept > 0 ? "the best so far is kept in the tuning database"
                                        : "none had passed, so the database is unchanged");
        return cli_interrupted_status();
    }
    if (kept == 0) {
        fprintf(stderr, "ladder tune: no candidate passed at every size: the database is "
                        "unchanged (the reasons are in %s)\n", candidates);
        return 1;
    }
    return 0;
}

/* Measures, then writes the candidates file and the database. */
static int search(const tune_options *o, const rung *r, tune_session *s, tune_plan *plan,
                  const char *db_path, results_mode mode)
{
    char msg[LADDER_MSG], kernel[1024], candidates[1024];
    kernel_fingerprint fp;
    kernel_path(s->targets[0].dev.backend, r->id, kernel, sizeof kernel);
    if (kernel_fingerprint_file(kernel, &fp, msg) != LADDER_OK)
        return cli_usage_error("tune", "%s", msg);
    if (o->candidates.path)
        snprintf(candidates, sizeof candidates, "%s", o->candidates.path);
    else
        default_candidates(r, &s->targets[0].dev, candidates, sizeof candidates);
    if (results_open(candidates, mode, "--candidates", &plan->candidates, msg) != LADDER_OK)
        return cli_usage_error("tune", "%s", msg);

    print_plan(plan, o);
    tune_outcome out;
    cli_catch_interrupts(1);
    ladder_status st = tuner_run(plan, &out, msg);
    cli_catch_interrupts(0);
    char closing[LADDER_MSG];
    if (results_close(plan->candidates, closing) != LADDER_OK) {
        fprintf(stderr, "ladder tune: %s\n", closing);
        return 1;
    }
    if (st != LADDER_OK) {
        fprintf(stderr, "ladder tune: %s (the candidates so far are in %s; the database is "
                        "unchanged)\n", msg, candidates);
        return 1;
    }
    printf("\n");
    const char *file = strrchr(kernel, '/') ? strrchr(kernel, '/') + 1 : kernel;
    int kept = offer_bests(&s->db, plan, &out, file, &fp);
    if (kept < 0)
        return 1;
    if (kept > 0 && tuning_db_write(&s->db, db_path, msg) != LADDER_OK) {
        fprintf(stderr, "ladder tune: %s\n", msg);
        return 1;
    }
    return finish(&out, candidates, db_path, o->db != NULL, kept);
}

int cmd_tune(int argc, char **argv)
{
    tune_options o;
    int st = parse_options(argc, argv, &o);
    if (st)
        return st == 1 ? 0 : st;
    const rung *r = NULL;
    tune_strategy strategy;
    long budget_configs;
    double budget_seconds;
    results_mode mode;
    if (find_rung(o.rung, &r) || check_pinned(r, &o) ||
        cli_output_mode("tune", &o.candidates, &mode))
        return EXIT_USAGE;
    gemm_case tuned = GEMM_CASE_DEFAULT;
    tuned.precision = o.precision;
    tuned.trans_a = o.trans_a;
    tuned.trans_b = o.trans_b;
    char why[LADDER_MSG], label[96] = "";
    if (rung_check_case(r, &tuned, why) != LADDER_OK) {
        gemm_case_label(&tuned, 0, label, sizeof label); /* "double", "TN", "double TN" */
        return cli_usage_error("tune", "rung %d (%s) cannot be tuned in %s: %s", r->number,
                               r->name, label[0] ? label : "single NN", why);
    }
    if (gemm_case_transposed(&tuned) && rung_transposes_by_helpers(r)) {
        /* Its kernel multiplies NN whatever the pair: an entry for another pair would
         * never be read (params_for_row looks up rung_kernel_case). */
        char pair[3];
        return cli_usage_error("tune", "rung %d (%s) takes %s through its helper kernels, "
                               "and its kernel multiplies NN in every pair: its NN entry "
                               "serves them all; tune it with --trans NN", r->number, r->name,
                               gemm_trans_name(tuned.trans_a, tuned.trans_b, pair));
    }
    if (tune_strategy_parse(o.strategy, &strategy) != 0)
        return cli_usage_error("tune", "--strategy '%s': use greedy, random or exhaustive",
                               o.strategy);
    if (cli_parse_budget("tune", o.budget, &budget_configs, &budget_seconds))
        return EXIT_USAGE;

    tune_session s;
    memset(&s, 0, sizeof s);
    tuning_db_init(&s.db);
    char defaults[128], db_path[4096];
    int start = -1;
    int code = open_target(&o, &s);
    if (!code)
        print_target(r, &s, &tuned);
    if (!code)
        code = build_space(&o, r, &s, &start, defaults, sizeof defaults);
    if (!code && o.dry_run) {
        list_space(&s.space);
        printf("dry run: nothing measured\n");
    } else if (!code) {
        code = open_db(&o, &s, db_path, sizeof db_path);
        tune_plan plan = {
            .target = &s.targets[0], .r = r, .sizes = s.sizes, .nsizes = s.nsizes,
            .space = &s.space, .strategy = strategy, .budget_configs = budget_configs,
            .budget_seconds = budget_seconds, .reps = (int)o.reps,
            .max_seconds = o.max_seconds, .seed = (uint64_t)o.seed, .start = start,
            .tuned = tuned,
        };
        if (!code)
            code = search(&o, r, &s, &plan, db_path, mode);
    }
    session_close(&s);
    return code;
}
