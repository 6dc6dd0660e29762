/* ladder select: the profiler of the shape-aware entry. On one device it measures, shape
 * by shape, the vendor library and every candidate rung (tune/select_profile.h), writes
 * every row to a result file and keeps the fastest candidate per shape in the selection
 * table (params/selection_table.h), which ladder run --rungs auto then uses. This file
 * parses and checks the options, prints the plan and the summary, and writes the table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/paths.h"
#include "base/shapes.h"
#include "params/selection.h"
#include "params/tuning_paths.h"
#include "tune/select_profile.h"

#define DEFAULT_SIZES_GPU "shapes"
#define DEFAULT_SIZES_CPU "shapes-cpu"
#define DEFAULT_FIRST_RUNG 11
#define DEFAULT_REPS 5
#define DEFAULT_MAX_SECONDS 0.2
#define DEFAULT_SEED 1
#define MAX_RUNGS MAX_SELECT_RUNGS
/* Most rounds of --rounds. */
#define MAX_ROUNDS 50

static void select_help(void)
{
    printf(
        "usage: ladder select [options]\n"
        "\n"
        "Profiles the shape-aware entry (ladder run --rungs auto) on one device: for every\n"
        "shape of a set, measures the vendor library and every candidate (each rung with\n"
        "its tuned parameters for the shape, or its defaults, plus every choice of the\n"
        "parameters whose best value depends on the shape), each compiled, verified and\n"
        "timed as ladder run does with fewer repetitions. Writes every row to a result\n"
        "file and the fastest candidate per shape to the selection table, which ladder run\n"
        "--rungs auto then uses on this device. Ctrl-C stops after the candidate in flight\n"
        "and keeps what was measured.\n"
        "\n"
        "options:\n"
        "  --backend B      opencl or cuda (needed when both are available)\n"
        "  --device D       as for ladder run (default: the backend's best device)\n"
        "  --sizes LIST     the shapes, as for ladder run (default on a GPU: " DEFAULT_SIZES_GPU
        ",\n"
        "                   on a CPU: " DEFAULT_SIZES_CPU "), or stale: the shapes of this\n"
        "                   device's entries, in the tables ladder run reads or in --db,\n"
        "                   measured with another version of their rung's kernel (alias:\n"
        "                   --size)\n"
        "  --rungs LIST     the candidate rungs: numbers, ranges and names (default: every\n"
        "                   rung from %d up that the backend has, float32-accurate ones\n"
        "                   only: auto is raced against SGEMM) (alias: --rung)\n"
        "  --budget B       120s, 5m, 1h or 50 (candidates), shared among the shapes: each\n"
        "                   gets an even share of what is left when it starts, its own\n"
        "                   parameters first; the smallest shapes (M N K) go first, so\n"
        "                   what they leave goes to larger ones (default: none, every\n"
        "                   candidate)\n"
        "  --reps N         timed repetitions per candidate (default %d)\n"
        "  --max-time S     stop repeating a candidate after S seconds (default %.1f)\n"
        "  --rounds N       after one measurement of every candidate, measure the %d\n"
        "                   fastest of a shape, the fallback rule's choice and the\n"
        "                   table's entry again N times in turn, with the library in\n"
        "                   every round, and pick the one whose fastest round is the\n"
        "                   fastest: for a shared device, where other work slows some\n"
        "                   measurements (default 0: one measurement each)\n"
        "  --seed N         seed of the inputs (default %d)\n"
        "  --output FILE    the result file of every row measured (default:\n"
        "                   select-<backend>-<device>-<time>.csv here); its folder must\n"
        "                   exist (alias: --out)\n"
        "  --force          replace FILE if it exists\n"
        "  --append         add the rows to FILE, a result file with the same columns;\n"
        "                   a candidate FILE has a verdict for (ok or FAILED) at a shape\n"
        "                   of this device is not measured again, so a second search\n"
        "                   with the same budget measures those the first did not\n"
        "  --db FILE        the selection table to update (default: $LADDER_SELECTION_DB,\n"
        "                   else selection.tsv beside the user's tuning database)\n"
        "  --dry-run        list the shapes and their candidates; measure nothing\n"
        "\n"
        "An entry is replaced when the new one is faster, has the same rung and parameters,\n"
        "or the old one was measured with another version of its kernel file.\n"
        "\n"
        "examples:\n"
        "  ladder select --backend cuda\n"
        "  ladder select --backend opencl --device cpu --sizes shapes-cpu --budget 5m\n",
        DEFAULT_FIRST_RUNG, DEFAULT_REPS, DEFAULT_MAX_SECONDS, SELECT_FINALISTS, DEFAULT_SEED);
}

typedef struct {
    const char *backend, *device, *sizes, *rungs, *budget, *db;
    cli_output output;
    long reps, seed, rounds;
    double max_seconds;
    int dry_run;
} select_options;

static int parse_options(int argc, char **argv, select_options *o)
{
    *o = (select_options){.backend = "all", .reps = DEFAULT_REPS, .seed = DEFAULT_SEED,
                          .max_seconds = DEFAULT_MAX_SECONDS};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            select_help();
            return 1;
        }
        if (strcmp(argv[i], "--dry-run") == 0) {
            o->dry_run = 1;
            continue;
        }
        const struct {
            const char *flag;
            const char **field;
        } strings[] = {{"--backend", &o->backend}, {"--device", &o->device},
                       {"--sizes", &o->sizes},     {"--size", &o->sizes},
                       {"--rungs", &o->rungs},     {"--rung", &o->rungs},
                       {"--budget", &o->budget},   {"--db", &o->db}};
        int matched = 0;
        for (size_t k = 0; k < sizeof strings / sizeof strings[0] && !matched; k++)
            if ((m = cli_option(argc, argv, &i, strings[k].flag, &v)) != 0) {
                if (m < 0)
                    return EXIT_USAGE;
                *strings[k].field = v;
                matched = 1;
            }
        if (matched)
            continue;
        if ((m = cli_option(argc, argv, &i, "--rounds", &v)) != 0) {
            if (m < 0 || cli_parse_long(v, 0, MAX_ROUNDS, &o->rounds))
                return cli_usage_error("select", "--rounds needs an integer from 0 to %d",
                                       MAX_ROUNDS);
            continue;
        }
        static const char *const output_names[] = {"--output", "--out", NULL};
        if ((m = cli_output_option(argc, argv, &i, output_names, &o->output)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        if ((m = cli_timing_option("select", argc, argv, &i, &o->reps, &o->seed,
                                   &o->max_seconds)) != 0) {
            if (m != 1)
                return m;
            continue;
        }
        return cli_usage_error("select", "unknown option '%s' (see ladder select --help)",
                               argv[i]);
    }
    return 0;
}

/* ---- the candidate rungs ------------------------------------------------------------- */

/* One rung named in --rungs: it must be a float32-accurate kernel rung of this backend. */
static int take_rung(const char *key, const char *backend, const rung **list, int *n)
{
    const rung *r = registry_find(key);
    if (!r)
        return cli_usage_error("select", "unknown rung '%s' (see ladder list)", key);
    if (r->kind != RUNG_KERNEL)
        return cli_usage_error("select", "'%s' is not a kernel rung: the profiler measures "
                               "the vendor library at every shape anyway", key);
    if (r->no_single_reason)
        return cli_usage_error("select", "rung %d (%s) takes no single precision (%s): auto "
                               "chooses among SGEMM kernels", r->number, r->name,
                               r->no_single_reason);
    if (!selection_rung_eligible(r))
        return cli_usage_error("select", "rung %d (%s) is not float32-accurate: auto is "
                               "raced against SGEMM, so it never chooses it", r->number,
                               r->name);
    if (!rung_on_backend(r, backend))
        return cli_usage_error("select", "rung %d (%s) cannot run on %s: %s", r->number,
                               r->name, backend, r->only_reason);
    for (int i = 0; i < *n; i++)
        if (list[i] == r)
            return 0;
    if (*n == MAX_RUNGS)
        return cli_usage_error("select", "more than %d rungs", MAX_RUNGS);
    list[(*n)++] = r;
    return 0;
}

/* --rungs: numbers, ranges ("11-15") and names. */
static int parse_rungs(const char *spec, const char *backend, const rung **list, int *n)
{
    char *copy = strdup(spec), *save = NULL;
    int code = copy ? 0 : cli_usage_error("select", "out of memory");
    *n = 0;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !code;
         item = strtok_r(NULL, ",", &save)) {
        int lo, hi;
        char extra, key[16];
        if (sscanf(item, "%d-%d%c", &lo, &hi, &extra) != 2) {
            code = take_rung(item, backend, list, n);
            continue;
        }
        if (lo < 1 || lo > hi)
            code = cli_usage_error("select", "rung range '%s' is empty", item);
        for (int k = lo; k <= hi && !code; k++) {
            snprintf(key, sizeof key, "%d", k);
            code = take_rung(key, backend, list, n);
        }
    }
    free(copy);
    if (!code && *n == 0)
        code = cli_usage_error("select", "--rungs '%s' selects nothing", spec);
    return code;
}

/* Without --rungs: every float32-accurate rung from 11 up that the backend has. */
static int default_rungs(const char *backend, const rung **list, int *n)
{
    int count;
    const rung *all = registry_all(&count);
    *n = 0;
    for (int i = 0; i < count && *n < MAX_RUNGS; i++)
        if (selection_rung_eligible(&all[i]) && all[i].number >= DEFAULT_FIRST_RUNG &&
            rung_on_backend(&all[i], backend))
            list[(*n)++] = &all[i];
    if (*n == 0)
        return cli_usage_error("select", "no rung from %d up runs on %s", DEFAULT_FIRST_RUNG,
                               backend);
    return 0;
}

/* The backend's vendor library at float32's accuracy, when this build has it. */
static const rung *find_library(const run_target *t)
{
    int count;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++)
        if (rung_library_present(&all[i], t->ops) && rung_float32_accurate(&all[i]))
            return &all[i];
    return NULL;
}

/* ---- everything a run holds ---------------------------------------------------------- */

typedef struct {
    run_target *targets;
    int ntargets;
    gemm_size *shapes;
    int nshapes;
    const rung *rungs[MAX_RUNGS];
    int nrungs;
    tuning_db tuning;       /* tuned parameters of the candidates */
    selection_table table;  /* the table to update */
    int table_read;         /* 1 once `table` holds the file */
    char table_path[4096];
    char output[1024];
} select_session;

static void session_close(select_session *s)
{
    tuning_db_free(&s->tuning);
    selection_table_free(&s->table);
    targets_close(s->targets, s->ntargets);
    free(s->shapes);
}

/* Reads the table to update before anything is measured: a corrupt one is not
 * overwritten, and a folder that cannot be made is an error now. */
static int open_table(const select_options *o, select_session *s)
{
    char msg[LADDER_MSG];
    int found;
    if (s->table_read)
        return 0;
    if (o->db)
        snprintf(s->table_path, sizeof s->table_path, "%s", o->db);
    else if (selection_user_path(s->table_path, sizeof s->table_path, msg) != LADDER_OK)
        return cli_usage_error("select", "%s", msg);
    if (make_parent_dirs(s->table_path, msg) != LADDER_OK)
        return cli_usage_error("select", "%s", msg);
    if (selection_table_read(&s->table, s->table_path, &found, msg) != LADDER_OK)
        return cli_usage_error("select", "cannot update the selection table: %s (fix or "
                               "remove that line, or give --db ANOTHER_FILE)", msg);
    s->table_read = 1;
    return 0;
}

/* open_session's answer when --sizes stale finds no stale entry: nothing to measure. */
#define NOTHING_STALE (-1)

/* --sizes stale: the shapes of this device's entries whose kernel file has changed since
 * they were measured (selection_stale_shapes), in the tables ladder run reads (the
 * committed ones and the user's) and in the table to update; each shape once. The new
 * entries go to the table to update, which ladder run reads last. 0, NOTHING_STALE or
 * EXIT_USAGE. */
static int stale_shapes(const select_options *o, select_session *s)
{
    int code = open_table(o, s);
    if (code)
        return code;
    const device_info *dev = &s->targets[0].dev;
    const selection_table *read = &s->tuning.selection, *mine = &s->table;
    s->shapes = malloc(((size_t)read->count + (size_t)mine->count + 1) * sizeof *s->shapes);
    if (!s->shapes)
        return cli_usage_error("select", "out of host memory");
    s->nshapes = selection_stale_shapes(read, dev, s->shapes, 0);
    s->nshapes = selection_stale_shapes(mine, dev, s->shapes, s->nshapes);
    if (s->nshapes == 0) {
        printf("no selection entry for %s (%s), in the tables ladder run reads or in %s, "
               "was measured with another version of its kernel: nothing to measure\n",
               dev->name, dev->backend, s->table_path);
        return NOTHING_STALE;
    }
    return 0;
}

/* Opens the device, the shapes and the rungs, and reads the tuned parameters; 0,
 * NOTHING_STALE or EXIT_USAGE. */
static int open_session(const select_options *o, select_session *s)
{
    char msg[LADDER_MSG];
    const int stale = o->sizes && strcmp(o->sizes, "stale") == 0;
    if (o->sizes && !stale && strstr(o->sizes, "stale"))
        return cli_usage_error("select", "--sizes '%s': stale stands alone (the shapes of the "
                               "table's stale entries), not in a list", o->sizes);
    if (cli_open_device("select", o->backend, o->device, stale ? NULL : o->sizes,
                        stale ? NULL : DEFAULT_SIZES_GPU, DEFAULT_SIZES_CPU, &s->targets,
                        &s->ntargets, &s->shapes, &s->nshapes))
        return EXIT_USAGE;
    if (tuning_load_for_run(&s->tuning, NULL, "ladder select", msg) != LADDER_OK)
        return cli_usage_error("select", "%s", msg);
    if (stale) {
        int code = stale_shapes(o, s);
        if (code)
            return code;
    }
    const device_info *dev = &s->targets[0].dev;
    if (cli_check_memory("select", s->targets, 1, s->shapes, s->nshapes, sizeof(float)))
        return EXIT_USAGE;
    int code = o->rungs ? parse_rungs(o->rungs, dev->backend, s->rungs, &s->nrungs)
                        : default_rungs(dev->backend, s->rungs, &s->nrungs);
    return code;
}

static void utc_now(const char *format, char *out, size_t size)
{
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(out, size, format, &utc);
}

static void default_output(const device_info *dev, char *out, size_t size)
{
    char slug[128], stamp[32];
    tuning_slug(dev->name, slug, sizeof slug);
    utc_now("%Y%m%d-%H%M%S", stamp, sizeof stamp);
    snprintf(out, size, "select-%s-%s-%s.csv", dev->backend, slug, stamp);
}

/* ---- printing ------------------------------------------------------------------------ */

static void print_plan(const select_session *s, const select_plan *p)
{
    const device_info *dev = &s->targets[0].dev;
    printf("profiling auto on %s:%d %s (%s)\n", dev->backend, dev->index, dev->name,
           dev->driver);
    printf("rungs:");
    for (int i = 0; i < s->nrungs; i++)
        printf(" %d %s%s", s->rungs[i]->number, s->rungs[i]->name,
               i + 1 < s->nrungs ? "," : "");
    printf("; vendor library: %s\n",
           p->library ? p->library->name : "none in this build (no ratio is recorded)");
}

static void list_candidates(const select_plan *p)
{
    select_candidates *c = malloc(sizeof *c);
    if (!c)
        return;
    for (int i = 0; i < p->nshapes; i++) {
        const gemm_size *z = &p->shapes[i];
        select_candidates_build(p, z, c);
        printf("%ldx%ldx%ld (%s): %d candidates", z->M, z->N, z->K,
               shape_class_name(shape_label(z)), c->count);
        if (c->implausible)
            printf("; %d variants left out for too few or too many work-groups",
                   c->implausible);
        if (c->skipped)
            printf("; %d left out, e.g. %s", c->skipped, c->why_skipped);
        if (c->earlier)
            printf("; %d measured in the earlier search (--append)", c->earlier);
        printf("\n");
        for (int k = 0; k < c->count; k++) {
            char text[160];
            rung_params_string(c->items[k].r, c->items[k].values, text, sizeof text);
            printf("  rung %d %s\n", c->items[k].r->number, text);
        }
    }
    free(c);
}

static const char *offer_words(selection_offer_result what)
{
    switch (what) {
    case SELECTION_ADDED: return "added";
    case SELECTION_REPLACED_STALE: return "replaced (the old one's kernel changed)";
    case SELECTION_REPLACED: return "replaced";
    case SELECTION_REPLACED_RACED: return "replaced (the old one lost to it in the same rounds)";
    case SELECTION_KEPT: return "kept the old entry, which was faster";
    }
    return "?";
}

/* The entry of one shape's pick. */
static int make_entry(const select_plan *p, const gemm_size *z, const select_pick *pick,
                      selection_entry *e, char *msg)
{
    const device_info *dev = &p->target->dev;
    memset(e, 0, sizeof *e);
    snprintf(e->backend, sizeof e->backend, "%s", dev->backend);
    tuning_field(e->device, sizeof e->device, dev->name);
    e->M = z->M;
    e->N = z->N;
    e->K = z->K;
    e->label = shape_label(z);
    e->rung = pick->best->number;
    rung_params_string(pick->best, pick->values, e->params, sizeof e->params);
    e->gflops = pick->gflops;
    snprintf(e->library, sizeof e->library, "%s",
             p->library && pick->library_gflops > 0 ? p->library->name : "none");
    e->library_gflops = pick->library_gflops;
    tuning_field(e->driver, sizeof e->driver, dev->driver);
    utc_now("%Y-%m-%dT%H:%M:%SZ", e->date, sizeof e->date);
    char file[256];
    kernel_fingerprint fp;
    if (selection_kernel(dev->backend, pick->best, file, sizeof file, &fp, msg) != LADDER_OK)
        return -1;
    snprintf(e->kernel_fnv1a, sizeof e->kernel_fnv1a, "%s", fp.code);
    tuning_field(e->kernel, sizeof e->kernel, file);
    return 0;
}

/* Offers every shape's pick to the table and prints one line per shape; returns how many
 * shapes had one, or -1 on an error. */
static int offer_picks(select_session *s, const select_plan *p, const select_outcome *out)
{
    int kept = 0, ratios = 0;
    double log_sum = 0;
    printf("\n%-18s %-9s %-44s %10s %10s %6s\n", "shape", "class", "fastest candidate",
           "GFLOPS", p->library ? p->library->name : "library", "ratio");
    for (int i = 0; i < p->nshapes; i++) {
        const gemm_size *z = &p->shapes[i];
        const select_pick *pick = &out->picks[i];
        char shape[48], best[160] = "-", ratio[16] = "-", lib[16] = "-", gf[16] = "-";
        snprintf(shape, sizeof shape, "%ldx%ldx%ld", z->M, z->N, z->K);
        if (pick->library_gflops > 0)
            snprintf(lib, sizeof lib, "%.1f", pick->library_gflops);
        if (pick->best) {
            char params[128];
            rung_params_string(pick->best, pick->values, params, sizeof params);
            snprintf(best, sizeof best, "%d %s", pick->best->number, params);
            snprintf(gf, sizeof gf, "%.1f", pick->gflops);
        }
        if (pick->best && pick->library_gflops > 0) {
            snprintf(ratio, sizeof ratio, "%.2fx", pick->gflops / pick->library_gflops);
            log_sum += log(pick->gflops / pick->library_gflops);
            ratios++;
        }
        printf("%-18s %-9s %-44s %10s %10s %6s", shape, shape_class_name(shape_label(z)), best,
               gf, lib, ratio);
        if (pick->measured < pick->candidates)
            printf("  (%d of %d candidates measured)", pick->measured, pick->candidates);
        if (pick->rounds > 0)
            printf("  (fastest of %d round%s)", pick->rounds, pick->rounds == 1 ? "" : "s");
        if (!pick->best) {
            printf(pick->measured ? "  no candidate passed: no entry\n" : "  not measured\n");
            continue;
        }
        selection_entry e, old;
        selection_offer_result what;
        char msg[LADDER_MSG];
        if (make_entry(p, z, pick, &e, msg) != 0 ||
            selection_offer(&s->table, &e, pick->rounds > 0 && pick->raced_old, &what, &old,
                            msg) != LADDER_OK) {
            printf("\n");
            fprintf(stderr, "ladder select: %s\n", msg);
            return -1;
        }
        printf("  %s\n", offer_words(what));
        kept++;
    }
    if (ratios > 0)
        printf("geometric mean over %d shapes: %.2fx %s\n", ratios, exp(log_sum / ratios),
               p->library->name);
    return kept;
}

static int finish(const select_session *s, const select_outcome *out, int kept)
{
    printf("\n%d candidates in %.0f s: %d ok, %d FAILED, %d unsupported, %d errors. "
           "Rows: %s\n", out->measured, out->seconds, out->ok, out->failed, out->unsupported,
           out->errors, s->output);
    if (kept > 0)
        printf("Selection table: %s (ladder run --rungs auto uses it on this device)\n",
               s->table_path);
    if (out->failed)
        fprintf(stderr, "ladder select: %d candidate%s FAILED verification (never chosen; "
                        "see the status column of %s)\n", out->failed,
                out->failed == 1 ? "" : "s", s->output);
    if (out->budget_spent)
        fprintf(stderr, "ladder select: the budget ran out; shapes not measured in full "
                        "are marked above\n");
    if (out->interrupted) {
        fprintf(stderr, "ladder select: %s after %d candidates; %s\n", cli_interruption(),
                out->measured, kept > 0 ? "what was measured is in the table"
                                        : "the table is unchanged");
        return cli_interrupted_status();
    }
    if (kept == 0) {
        fprintf(stderr, "ladder select: no shape has a candidate that passed: the table is "
                        "unchanged (the reasons are in %s)\n", s->output);
        return 1;
    }
    return 0;
}

/* Measures, then writes the rows file and the table. */
static int profile(const select_options *o, select_session *s, select_plan *p)
{
    char msg[LADDER_MSG];
    results_mode mode;
    if (cli_output_mode("select", &o->output, &mode))
        return EXIT_USAGE;
    if (o->output.path)
        snprintf(s->output, sizeof s->output, "%s", o->output.path);
    else
        default_output(&s->targets[0].dev, s->output, sizeof s->output);
    if (results_open(s->output, mode, "--output", &p->rows, msg) != LADDER_OK)
        return cli_usage_error("select", "%s", msg);
    select_outcome out;
    cli_catch_interrupts(1);
    ladder_status st = select_run(p, &out, msg);
    cli_catch_interrupts(0);
    char closing[LADDER_MSG];
    int code = 0;
    if (results_close(p->rows, closing) != LADDER_OK) {
        fprintf(stderr, "ladder select: %s\n", closing);
        code = 1;
    } else if (st != LADDER_OK) {
        fprintf(stderr, "ladder select: %s (the rows so far are in %s; the table is "
                        "unchanged)\n", msg, s->output);
        code = 1;
    }
    int kept = code ? -1 : offer_picks(s, p, &out);
    if (kept > 0 && selection_table_write(&s->table, s->table_path, msg) != LADDER_OK) {
        fprintf(stderr, "ladder select: %s\n", msg);
        kept = -1;
    }
    if (kept >= 0)
        code = finish(s, &out, kept);
    else if (!code)
        code = 1;
    free(out.picks);
    return code;
}

/* With --append to a file that exists: its rows, the earlier searches' (a candidate with a
 * verdict there is not measured again). Returns 0, or EXIT_USAGE when the file cannot be
 * read as a result file: before anything is measured. */
static int read_earlier(const select_options *o, result_row **rows, int *count)
{
    char msg[LADDER_MSG];
    *rows = NULL;
    *count = 0;
    if (!o->output.append || !o->output.path || access(o->output.path, F_OK) != 0)
        return 0; /* nothing measured before: the file is created */
    if (results_read(o->output.path, rows, count, msg) != LADDER_OK) {
        free(*rows);
        *rows = NULL;
        return cli_usage_error("select", "--append: %s", msg);
    }
    return 0;
}

int cmd_select(int argc, char **argv)
{
    select_options o;
    int code = parse_options(argc, argv, &o);
    if (code)
        return code == 1 ? 0 : code;
    long budget_configs = 0;
    double budget_seconds = 0;
    if (o.budget && cli_parse_budget("select", o.budget, &budget_configs, &budget_seconds))
        return EXIT_USAGE;
    select_session s;
    memset(&s, 0, sizeof s);
    tuning_db_init(&s.tuning);
    selection_table_init(&s.table);
    code = open_session(&o, &s);
    select_plan plan = {0};
    result_row *earlier = NULL;
    int nearlier = 0;
    if (!code)
        code = read_earlier(&o, &earlier, &nearlier);
    if (!code) {
        plan = (select_plan){
            .target = &s.targets[0], .shapes = s.shapes, .nshapes = s.nshapes,
            .rungs = s.rungs, .nrungs = s.nrungs, .library = find_library(&s.targets[0]),
            .tuning = &s.tuning, .budget_configs = budget_configs,
            .budget_seconds = budget_seconds, .reps = (int)o.reps,
            .max_seconds = o.max_seconds, .rounds = (int)o.rounds, .seed = (uint64_t)o.seed,
            .earlier = earlier,
            .nearlier = nearlier};
        print_plan(&s, &plan);
    }
    if (!code && o.dry_run) {
        list_candidates(&plan);
        printf("dry run: nothing measured\n");
    } else if (!code) {
        code = open_table(&o, &s);
        plan.table = &s.table; /* its entries are candidates at their shapes */
        if (!code)
            code = profile(&o, &s, &plan);
    }
    session_close(&s);
    free(earlier);
    return code == NOTHING_STALE ? 0 : code;
}
