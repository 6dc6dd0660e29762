/* `ladder table`: prints a Markdown table (or one number) from result files.
 *
 * The tutorial's tables are this command's output, pasted between markers by
 * tools/update-tables.sh and checked by a test, so the output depends on nothing but the
 * options and the files.
 *
 * Exit status: 0 printed; 1 the files do not hold what was asked (unreadable, no matching
 * row, rows of two devices, a --rungs item no row has); 2 the command line is wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/table.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: ladder table [options] FILE...\n"
        "\n"
        "Prints a GitHub Markdown table of the rows of result files whose status is ok, for\n"
        "the tutorial. Several files are read as one; a later row of the same device,\n"
        "backend, rung and size replaces an earlier one.\n"
        "\n"
        "Which rows:\n"
        "  --backend B     opencl, cuda, cpu or all (all)\n"
        "  --device TEXT   only devices whose name contains TEXT, in any case\n"
        "  --params TEXT   only rows whose parameters contain TEXT (e.g. USE_SHUFFLE=1),\n"
        "                  for files that measure one rung with several parameter sets\n"
        "  --sizes LIST    sizes as ladder run takes them: 4096 (square), 1024x512x256,\n"
        "                  256:4096:x2 (every size) (aliases: --size, --shape)\n"
        "  --rungs LIST    numbers, ranges and names: 1-3,cublas; all, kernels, baselines\n"
        "                  (all); every item must name a rung present in the files\n"
        "                  (alias: --rung)\n"
        "  --all-status    also show FAILED, unsupported and error rows, by their status\n"
        "  --precision P   single or double; --trans T: NN, NT, TN or TT; --case-layout L:\n"
        "                  col or row: only rows of that case (ladder run's options); a\n"
        "                  table shows one case, and says which when it is not the default\n"
        "\n"
        "How:\n"
        "  --layout L      rows: one row per backend and rung at one size: rung, name,\n"
        "                    backend, params, ms, GFLOPS, vs library, step gain (default)\n"
        "                  sizes: one row per backend and rung, a GFLOPS column per size\n"
        "                  backends: one row per rung, OpenCL and CUDA GFLOPS side by side,\n"
        "                    each with its fraction of its library, at one size\n"
        "                  summary: one row per rung: its parent and idea (ladder list),\n"
        "                    and for each backend its best GFLOPS over the sizes, the size,\n"
        "                    and its fraction of the library there\n"
        "  --caption       add a line under the table: the devices, the size, the files\n"
        "  --metric M      gflops (default) or gbps: effective GB/s in place of GFLOPS,\n"
        "                  A, B and C counted once each, 4 (MK + KN + MN) bytes (8 in\n"
        "                  double) over the median time (the figure for GEMV-like\n"
        "                  shapes, rung 20)\n"
        "  --value FIELD   print one number instead of a table: gflops, ms, vs-library,\n"
        "                  step-gain, gbps, err-bound (the verification's largest error\n"
        "                  over its bound) or rel-error (|c - r| / (|A||B|)); the\n"
        "                  selection must match exactly one ok row\n"
        "\n"
        "GFLOPS are whole numbers with thousands separators, ms have three significant\n"
        "digits, fractions two decimals; a missing figure is \"%s\". Step gain is GFLOPS\n"
        "over the rung's parent (ladder list), or the nearest ancestor that ran ok on\n"
        "the same device at the same size, marked \"(vs N)\" when that is not the rung\n"
        "just below. Rows of one backend\n"
        "must come from one device (choose with --device).\n"
        "\n"
        "Exit status: 0 printed; 1 the files do not hold what was asked; 2 bad usage.\n"
        "\n"
        "Examples:\n"
        "  ladder table --backend cuda --size 4096 results/h100/results.csv\n"
        "  ladder table --layout sizes --backend cuda --rungs kernels,cublas FILE\n"
        "  ladder table --layout backends --size 4096 --rungs 1-10 FILE\n"
        "  ladder table --value gflops --backend cuda --rung 9 --size 4096 FILE\n",
        TABLE_MISSING);
}

static int parse_backend(const char *v, table_options *o)
{
    if (strcmp(v, "all") == 0) {
        o->backend = NULL;
        return 0;
    }
    if (strcmp(v, "opencl") != 0 && strcmp(v, "cuda") != 0 && strcmp(v, "cpu") != 0)
        return cli_usage_error("table", "--backend: '%s' is not opencl, cuda, cpu or all", v);
    o->backend = v;
    return 0;
}

static int parse_device(const char *v, table_options *o)
{
    if (!v[0])
        return cli_usage_error("table", "--device: the name is empty");
    o->device = v;
    return 0;
}

static int parse_params(const char *v, table_options *o)
{
    if (!v[0])
        return cli_usage_error("table", "--params: the text is empty");
    o->params = v;
    return 0;
}

static int parse_layout(const char *v, table_options *o, int *given)
{
    *given = 1;
    if (strcmp(v, "rows") == 0)
        o->layout = TABLE_ROWS;
    else if (strcmp(v, "sizes") == 0)
        o->layout = TABLE_SIZES;
    else if (strcmp(v, "backends") == 0)
        o->layout = TABLE_BACKENDS;
    else if (strcmp(v, "summary") == 0)
        o->layout = TABLE_SUMMARY;
    else
        return cli_usage_error("table", "--layout: '%s' is not rows, sizes, backends or "
                                        "summary", v);
    return 0;
}

static int parse_value(const char *v, table_options *o)
{
    static const struct { const char *name; table_value value; } fields[] = {
        {"gflops", VALUE_GFLOPS}, {"ms", VALUE_MS}, {"vs-library", VALUE_VS_LIBRARY},
        {"step-gain", VALUE_STEP_GAIN}, {"gbps", VALUE_GBPS},
        {"err-bound", VALUE_ERR_BOUND}, {"rel-error", VALUE_REL_ERROR},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(v, fields[i].name) == 0) {
            o->value = fields[i].value;
            return 0;
        }
    return cli_usage_error("table",
                           "--value: '%s' is not gflops, ms, vs-library, step-gain, gbps, "
                           "err-bound or rel-error", v);
}

static int parse_metric(const char *v, table_options *o)
{
    if (strcmp(v, "gflops") != 0 && strcmp(v, "gbps") != 0)
        return cli_usage_error("table", "--metric: '%s' is not gflops or gbps", v);
    o->gbps = strcmp(v, "gbps") == 0;
    return 0;
}

static int parse_sizes(const char *option, const char *v, table_options *o)
{
    char msg[LADDER_MSG];
    free(o->sizes);
    o->sizes = NULL;
    if (sizes_parse(v, &o->sizes, &o->nsizes, msg) != LADDER_OK)
        return cli_usage_error("table", "%s: %s", option, msg);
    o->size_spec = v;
    return 0;
}

static int parse_rungs(const char *v, table_options *o)
{
    char msg[LADDER_MSG];
    rung_filter_free(&o->rungs);
    if (rung_filter_parse(v, &o->rungs, msg) != LADDER_OK)
        return cli_usage_error("table", "--rungs: %s", msg);
    o->rung_spec = v;
    return 0;
}

/* Options that make no sense together are refused rather than quietly ignored. */
static int check_combination(const table_options *o, int layout_given)
{
    if (o->nfiles == 0)
        return cli_usage_error("table", "no result files given (usage: ladder table [options] "
                                        "FILE...)");
    if (o->value != VALUE_NONE) {
        if (layout_given)
            return cli_usage_error("table", "--value prints one number: leave out --layout");
        if (o->all_status)
            return cli_usage_error("table", "--value needs an ok row: leave out --all-status");
        if (o->caption)
            return cli_usage_error("table", "--value prints one number: leave out --caption");
        if (o->gbps)
            return cli_usage_error("table", "--metric is for tables: for one number in GB/s "
                                            "use --value gbps");
    }
    if (o->value == VALUE_NONE && o->layout == TABLE_BACKENDS && o->backend)
        return cli_usage_error("table", "--layout backends compares OpenCL with CUDA: leave "
                                        "out --backend");
    return 0;
}

/* Parses argv into *o; returns 0, -1 after --help, or EXIT_USAGE. */
static int parse_options(int argc, char **argv, table_options *o)
{
    int layout_given = 0, only_files = 0;
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files)
        return cli_usage_error("table", "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int got;
        cli_argument kind = cli_file_argument(a, &only_files, o->files, &o->nfiles);
        if (kind == CLI_ARG_FILE)
            continue;
        if (kind == CLI_ARG_HELP) {
            usage(stdout);
            return -1;
        }
        if (strcmp(a, "--all-status") == 0) {
            o->all_status = 1;
            continue;
        }
        if (strcmp(a, "--caption") == 0) {
            o->caption = 1;
            continue;
        }
        /* Each option's parser returns 0, or EXIT_USAGE after printing why. */
        CLI_OPTION("--backend", parse_backend(v, o))
        CLI_OPTION("--device", parse_device(v, o))
        CLI_OPTION("--params", parse_params(v, o))
        CLI_OPTION("--precision", cli_case_filter_option("table", "--precision", v, &o->cases))
        CLI_OPTION("--trans", cli_case_filter_option("table", "--trans", v, &o->cases))
        CLI_OPTION("--case-layout",
                   cli_case_filter_option("table", "--case-layout", v, &o->cases))
        CLI_OPTION("--size", parse_sizes("--size", v, o))
        CLI_OPTION("--sizes", parse_sizes("--sizes", v, o))
        CLI_OPTION("--shape", parse_sizes("--shape", v, o))
        CLI_OPTION("--rungs", parse_rungs(v, o))
        CLI_OPTION("--rung", parse_rungs(v, o))
        CLI_OPTION("--layout", parse_layout(v, o, &layout_given))
        CLI_OPTION("--value", parse_value(v, o))
        CLI_OPTION("--metric", parse_metric(v, o))
        return cli_usage_error("table", "unknown option %s (see ladder table --help)", a);
    }
    return check_combination(o, layout_given);
}

static void options_free(table_options *o)
{
    free(o->sizes);
    free(o->files);
    rung_filter_free(&o->rungs);
}

int cmd_table(int argc, char **argv)
{
    table_options o = {.layout = TABLE_ROWS, .value = VALUE_NONE};
    int rc = parse_options(argc, argv, &o);
    if (rc != 0) {
        options_free(&o);
        return rc < 0 ? 0 : rc;
    }
    char msg[LADDER_MSG];
    table_data d;
    ladder_status st = table_select(&o, &d, msg);
    if (st == LADDER_OK)
        st = o.value != VALUE_NONE ? table_print_value(&o, &d, stdout, msg)
                                   : table_print(&o, &d, stdout, msg);
    /* Output that is committed must not be cut short silently (a full disk, a closed pipe). */
    if (st == LADDER_OK && fflush(stdout) != 0)
        st = ladder_fail(msg, LADDER_ERROR, "writing the table: %s", strerror(errno));
    if (st != LADDER_OK)
        fprintf(stderr, "ladder table: %s\n", msg);
    table_data_free(&d);
    options_free(&o);
    return st == LADDER_OK ? 0 : 1;
}
