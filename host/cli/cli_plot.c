/* ladder plot: the command line. Reads the options with the same spellings as the other
 * subcommands (--output, --sizes), then report/plot.c draws.
 *
 * Exit status: 0 every figure drawn; 1 a file could not be read or drawn from, or gnuplot
 * failed; 2 the command line is wrong (nothing was read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "report/plot.h"
#include "report/plot_model.h"
#include "report/plot_gnuplot.h"

#define DEFAULT_OUT "figures"

static void usage(void)
{
    printf(
        "usage: ladder plot [options] RESULTS.csv...\n"
        "Draws the figures of gemm-ladder result files with gnuplot; runs nothing.\n"
        "Files from different machines can be given together (or concatenated).\n"
        "\n"
        "  --output DIR         folder for the pictures (default: %s); made, and said so,\n"
        "                       when missing; pictures of the same name are replaced\n"
        "                       (alias: --out)\n"
        "  --sizes N            size of the one-size charts (bars, step gains); default\n"
        "                       4096, or the largest size measured where 4096 was not\n"
        "                       (alias: --size)\n"
        "  --peak DEV=GFLOPS    FP32 peak of the devices whose name contains DEV (any case);\n"
        "                       overrides the peak in the files; repeatable\n"
        "  --ceilings FILE      the devices' measured FP32 FMA ceiling and read bandwidth\n"
        "                       (a tab-separated file, plots/README.md): draws a roofline\n"
        "                       for each device it names\n"
        "  --format LIST        png,svg (default), png or svg\n"
        "  --normalize WHAT     cross-device chart relative to each device's 'library'\n"
        "                       (default; the FP32 peak where none was measured) or 'peak'\n"
        "  --precision P        single or double; --trans T: NN, NT, TN or TT;\n"
        "  --case-layout L      col or row: draw the rows of that case (ladder run's\n"
        "                       options); the figures show one case, named in their\n"
        "                       titles when it is not the default\n"
        "  --keep-data          keep the data tables and generated scripts, and say where\n"
        "  --check              only check that gnuplot can be run\n"
        "  --help               this text\n"
        "\n"
        "Pictures (see plots/README.md): DEVICE-BACKEND-gflops, DEVICE-bars-SIZE,\n"
        "DEVICE-BACKEND-steps-SIZE, compare-devices, DEVICE-BACKEND-shapes,\n"
        "DEVICE-peak-SIZE, DEVICE-BACKEND-roofline (with --ceilings); each as .png and .svg.\n"
        "Environment: LADDER_GNUPLOT (the gnuplot program), LADDER_PLOTS_DIR (the scripts).\n"
        "Exit status: 0 every figure drawn; 1 a file or a figure failed; 2 bad usage.\n",
        DEFAULT_OUT);
}

static int parse_formats(const char *list, plot_options *o)
{
    o->nformats = 0;
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        const char *format = NULL;
        if (len == 3 && strncmp(p, "png", 3) == 0)
            format = "png";
        else if (len == 3 && strncmp(p, "svg", 3) == 0)
            format = "svg";
        else
            return cli_usage_error("plot", "--format: '%.*s' is not png or svg", (int)len, p);
        int seen = 0;
        for (int i = 0; i < o->nformats; i++)
            seen |= strcmp(o->formats[i], format) == 0;
        if (!seen)
            o->formats[o->nformats++] = format;
        p += len;
        if (*p == ',')
            p++;
    }
    if (o->nformats == 0)
        return cli_usage_error("plot", "--format: give png, svg or png,svg");
    return 0;
}

static int parse_size(const char *option, const char *v, plot_options *o)
{
    char *end = NULL;
    o->size = strtol(v, &end, 10);
    if (end == v || *end != '\0' || o->size <= 0)
        return cli_usage_error("plot", "%s: '%s' is not a positive size (the charts of one "
                               "size take one)", option, v);
    return 0;
}

static int parse_normalize(const char *v, plot_options *o)
{
    if (strcmp(v, "library") != 0 && strcmp(v, "peak") != 0)
        return cli_usage_error("plot", "--normalize: '%s' is not library or peak", v);
    o->normalize_peak = strcmp(v, "peak") == 0;
    return 0;
}

/* The form of a peak is checked now; which devices it matches, once the files are read. */
static int add_peak(const char *v, plot_options *o)
{
    char needle[256], msg[LADDER_MSG];
    double gflops;
    if (plot_peak_parse(v, needle, sizeof needle, &gflops, msg) != LADDER_OK)
        return cli_usage_error("plot", "%s", msg);
    if (o->npeaks == PLOT_MAX_PEAKS)
        return cli_usage_error("plot", "--peak: at most %d of them", PLOT_MAX_PEAKS);
    o->peaks[o->npeaks++] = v;
    return 0;
}

/* The file is read once the result files are (plot_model_set_ceilings); here only its
 * name is taken. */
static int parse_ceilings(const char *v, plot_options *o)
{
    if (!v[0])
        return cli_usage_error("plot", "--ceilings is empty: give the ceilings file");
    o->ceilings = v;
    return 0;
}

/* Parses argv into *o: 0, -1 after --help, or EXIT_USAGE. */
static int parse_options(int argc, char **argv, plot_options *o, int *check_only)
{
    o->out = DEFAULT_OUT;
    o->formats[0] = "png";
    o->formats[1] = "svg";
    o->nformats = 2;
    o->files = calloc((size_t)argc + 1, sizeof *o->files);
    if (!o->files)
        return cli_usage_error("plot", "out of memory");
    int only_files = 0, got;
    const char *v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        switch (cli_file_argument(a, &only_files, o->files, &o->nfiles)) {
        case CLI_ARG_FILE:
            continue;
        case CLI_ARG_HELP:
            usage();
            return -1;
        case CLI_ARG_OPTION:
            break;
        }
        if (strcmp(a, "--check") == 0) {
            *check_only = 1;
            continue;
        }
        if (strcmp(a, "--keep-data") == 0) {
            o->keep_data = 1;
            continue;
        }
        /* Each option's parser returns 0, or EXIT_USAGE after printing why. */
        CLI_OPTION("--output", (o->out = v, 0))
        CLI_OPTION("--out", (o->out = v, 0))
        CLI_OPTION("--sizes", parse_size("--sizes", v, o))
        CLI_OPTION("--size", parse_size("--size", v, o))
        CLI_OPTION("--peak", add_peak(v, o))
        CLI_OPTION("--ceilings", parse_ceilings(v, o))
        CLI_OPTION("--format", parse_formats(v, o))
        CLI_OPTION("--normalize", parse_normalize(v, o))
        CLI_OPTION("--precision", cli_case_filter_option("plot", "--precision", v, &o->cases))
        CLI_OPTION("--trans", cli_case_filter_option("plot", "--trans", v, &o->cases))
        CLI_OPTION("--case-layout",
                   cli_case_filter_option("plot", "--case-layout", v, &o->cases))
        return cli_usage_error("plot", "unknown option %s (see ladder plot --help)", a);
    }
    if (!*check_only && o->nfiles == 0)
        return cli_usage_error("plot", "no result files given (see ladder plot --help)");
    /* The folder is made (if need be) once the files have been read; a name that cannot
     * be one is a usage error now. */
    struct stat st;
    if (!o->out[0])
        return cli_usage_error("plot", "--output is empty: give a folder");
    if (stat(o->out, &st) == 0 && !S_ISDIR(st.st_mode))
        return cli_usage_error("plot", "--output %s is a file: the figures go into a folder",
                               o->out);
    return 0;
}

int cmd_plot(int argc, char **argv)
{
    plot_options o;
    memset(&o, 0, sizeof o);
    int check_only = 0;
    int rc = parse_options(argc, argv, &o, &check_only);
    if (rc != 0) {
        free(o.files);
        return rc < 0 ? 0 : rc;
    }
    /* gnuplot first: `make plot` calls --check before a sweep of many minutes, and nobody
     * should fix their result files only to learn that gnuplot is missing. */
    char msg[LADDER_MSG];
    if (gnuplot_check(msg) != LADDER_OK) {
        fprintf(stderr, "ladder plot: %s\n", msg);
        rc = 1;
    } else if (!check_only) {
        rc = plot_run(&o);
    }
    free(o.files);
    return rc;
}
