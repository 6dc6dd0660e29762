/* `ladder plot [options] FILE...`: the command line of the plotter.
 *
 * It runs nothing: it reads result files (from any machines, concatenated or not), writes
 * small data tables into a temporary folder and has gnuplot draw them with the committed
 * scripts in plots/. The pictures and their names are described in plots/README.md.
 */
#include "report/plot.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/plot_figure.h"
#include "report/plot_gnuplot.h"
#include "report/plot_model.h"

#define DEFAULT_OUT "figures"
#define MAX_PEAKS 32

static void usage(FILE *f)
{
    fprintf(f,
        "usage: ladder plot [options] RESULTS.csv...\n"
        "Draws the figures of gemm-ladder result files with gnuplot; runs nothing.\n"
        "Files from different machines can be given together (or concatenated).\n"
        "\n"
        "  --out DIR            folder for the pictures, created if needed (default: %s)\n"
        "  --size N             size of the one-size charts (bars, step gains); default 4096,\n"
        "                       or the largest size measured where 4096 was not\n"
        "  --peak DEV=GFLOPS    FP32 peak of the devices whose name contains DEV (any case);\n"
        "                       overrides the peak in the files; repeatable\n"
        "  --format LIST        png,svg (default), png or svg\n"
        "  --normalize WHAT     cross-device chart relative to each device's 'library'\n"
        "                       (default; the FP32 peak where none was measured) or 'peak'\n"
        "  --keep-data          keep the data tables and generated scripts, and say where\n"
        "  --check              only check that gnuplot can be run\n"
        "  --help               this text\n"
        "\n"
        "Pictures (see plots/README.md): DEVICE-BACKEND-gflops, DEVICE-bars-SIZE,\n"
        "DEVICE-BACKEND-steps-SIZE, compare-devices, DEVICE-BACKEND-shapes; each as\n"
        ".png and .svg.\n"
        "Environment: LADDER_GNUPLOT (the gnuplot program), LADDER_PLOTS_DIR (the scripts).\n",
        DEFAULT_OUT);
}

typedef struct {
    const char *out;
    long size;
    const char *peaks[MAX_PEAKS];
    int npeaks;
    const char *formats[PLOT_MAX_FORMATS];
    int nformats;
    int normalize_peak;
    int keep_data;
    int check_only;
    int help;
    char **files;
    int nfiles;
} plot_options;

static ladder_status parse_formats(const char *list, plot_options *o, char *msg)
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
            return ladder_fail(msg, LADDER_ERROR, "--format: '%.*s' is not png or svg", (int)len, p);
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
        return ladder_fail(msg, LADDER_ERROR, "--format: give png, svg or png,svg");
    return LADDER_OK;
}

/* An option's value: the next argument, which must exist. */
static const char *value_of(int argc, char **argv, int *i, char *msg)
{
    if (*i + 1 >= argc) {
        ladder_fail(msg, LADDER_ERROR, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static ladder_status parse_options(int argc, char **argv, plot_options *o, char *msg)
{
    memset(o, 0, sizeof *o);
    o->out = DEFAULT_OUT;
    o->formats[0] = "png";
    o->formats[1] = "svg";
    o->nformats = 2;
    o->files = calloc((size_t)argc + 1, sizeof *o->files);
    if (!o->files)
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = 1;
        } else if (strcmp(a, "--check") == 0) {
            o->check_only = 1;
        } else if (strcmp(a, "--keep-data") == 0) {
            o->keep_data = 1;
        } else if (strcmp(a, "--out") == 0) {
            if (!(v = value_of(argc, argv, &i, msg)))
                return LADDER_ERROR;
            o->out = v;
        } else if (strcmp(a, "--size") == 0) {
            if (!(v = value_of(argc, argv, &i, msg)))
                return LADDER_ERROR;
            char *end = NULL;
            o->size = strtol(v, &end, 10);
            if (end == v || *end != '\0' || o->size <= 0)
                return ladder_fail(msg, LADDER_ERROR, "--size: '%s' is not a positive size", v);
        } else if (strcmp(a, "--peak") == 0) {
            if (!(v = value_of(argc, argv, &i, msg)))
                return LADDER_ERROR;
            if (o->npeaks == MAX_PEAKS)
                return ladder_fail(msg, LADDER_ERROR, "--peak: at most %d of them", MAX_PEAKS);
            o->peaks[o->npeaks++] = v;
        } else if (strcmp(a, "--format") == 0) {
            if (!(v = value_of(argc, argv, &i, msg)) || parse_formats(v, o, msg) != LADDER_OK)
                return LADDER_ERROR;
        } else if (strcmp(a, "--normalize") == 0) {
            if (!(v = value_of(argc, argv, &i, msg)))
                return LADDER_ERROR;
            if (strcmp(v, "library") != 0 && strcmp(v, "peak") != 0)
                return ladder_fail(msg, LADDER_ERROR, "--normalize: '%s' is not library or peak",
                                   v);
            o->normalize_peak = strcmp(v, "peak") == 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            return ladder_fail(msg, LADDER_ERROR, "unknown option %s (see ladder plot --help)", a);
        } else {
            o->files[o->nfiles++] = argv[i];
        }
    }
    if (!o->help && !o->check_only && o->nfiles == 0)
        return ladder_fail(msg, LADDER_ERROR, "no result files given (see ladder plot --help)");
    return LADDER_OK;
}

/* mkdir -p: the output folder may be several levels deep. */
static ladder_status make_folder(const char *path, char *msg)
{
    char buf[PLOT_PATH];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return ladder_fail(msg, LADDER_ERROR, "--out: path too long");
    for (char *p = buf + 1; ; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return ladder_fail(msg, LADDER_ERROR, "cannot create %s: %s", buf, strerror(errno));
        *p = saved;
        if (saved == '\0')
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return ladder_fail(msg, LADDER_ERROR, "--out: %s is not a folder", path);
    return LADDER_OK;
}

/* The temporary folder holds only files this program wrote; remove them and it. */
static void remove_folder(const char *path)
{
    DIR *dir = opendir(path);
    if (!dir)
        return;
    struct dirent *e;
    char file[PLOT_PATH + 300];
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        unlink(file);
    }
    closedir(dir);
    rmdir(path);
}

/* Every figure, in the order plots/README.md lists them. A figure that fails is reported
 * and the others are still drawn; the exit status says that one failed. */
static void draw_all(plot_job *job)
{
    char msg[LADDER_MSG];
    const plot_model *m = job->model;
    for (int g = 0; g < m->ngroups; g++)
        if (plot_fig_gflops(job, g, msg) != LADDER_OK)
            fprintf(stderr, "ladder plot: %s\n", msg);
    for (int d = 0; d < m->ndevices; d++)
        if (plot_fig_bars(job, d, msg) != LADDER_OK)
            fprintf(stderr, "ladder plot: %s\n", msg);
    for (int g = 0; g < m->ngroups; g++)
        if (plot_fig_steps(job, g, msg) != LADDER_OK)
            fprintf(stderr, "ladder plot: %s\n", msg);
    if (plot_fig_compare(job, msg) != LADDER_OK)
        fprintf(stderr, "ladder plot: %s\n", msg);
    if (plot_fig_shapes(job, msg) != LADDER_OK)
        fprintf(stderr, "ladder plot: %s\n", msg);
}

/* An explicit --size that no device measured is a mistake worth stopping for; the message
 * lists the sizes there are. */
static ladder_status check_size(const plot_model *m, long size, char *msg)
{
    if (size == 0)
        return LADDER_OK;
    for (int d = 0; d < m->ndevices; d++)
        if (plot_device_size(m, d, size) == size)
            return LADDER_OK;
    long *sizes = NULL;
    int n = plot_model_sizes(m, &sizes);
    char list[512] = "";
    for (int i = 0, used = 0; i < n && used < (int)sizeof list - 24; i++)
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%ld", i ? " " : "", sizes[i]);
    free(sizes);
    return ladder_fail(msg, LADDER_ERROR, "--size %ld: no rung was measured at that size "
                       "(measured: %s)", size, list);
}

static ladder_status prepare_job(const plot_options *o, plot_job *job, char *msg)
{
    if (gnuplot_scripts_dir(job->scripts, sizeof job->scripts, msg) != LADDER_OK)
        return LADDER_ERROR;
    if (strlen(o->out) >= sizeof job->outdir)
        return ladder_fail(msg, LADDER_ERROR, "--out: path too long");
    if (make_folder(o->out, msg) != LADDER_OK)
        return LADDER_ERROR;
    snprintf(job->outdir, sizeof job->outdir, "%s", o->out);
    const char *tmp = getenv("TMPDIR");
    snprintf(job->tmpdir, sizeof job->tmpdir, "%s/ladder-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(job->tmpdir))
        return ladder_fail(msg, LADDER_ERROR, "cannot create a temporary folder in %s: %s",
                           tmp && *tmp ? tmp : "/tmp", strerror(errno));
    for (int i = 0; i < o->nformats; i++)
        job->formats[i] = o->formats[i];
    job->nformats = o->nformats;
    job->size = o->size;
    job->normalize_peak = o->normalize_peak;
    return LADDER_OK;
}

int cmd_plot(int argc, char **argv)
{
    char msg[LADDER_MSG];
    plot_options o;
    plot_model model = {0};
    plot_job job;
    memset(&job, 0, sizeof job);
    int rc = 1;

    if (parse_options(argc, argv, &o, msg) != LADDER_OK)
        goto fail;
    if (o.help) {
        usage(stdout);
        rc = 0;
        goto out;
    }
    /* gnuplot first: `make plot` calls --check before a sweep of many minutes, and nobody
     * should fix their result files only to learn that gnuplot is missing. */
    if (gnuplot_check(msg) != LADDER_OK)
        goto fail;
    if (o.check_only) {
        rc = 0;
        goto out;
    }
    if (plot_model_load(&model, o.files, o.nfiles, msg) != LADDER_OK)
        goto fail;
    for (int i = 0; i < o.npeaks; i++)
        if (plot_model_set_peak(&model, o.peaks[i], msg) != LADDER_OK)
            goto fail;
    if (check_size(&model, o.size, msg) != LADDER_OK)
        goto fail;
    job.model = &model;
    if (prepare_job(&o, &job, msg) != LADDER_OK)
        goto fail;

    draw_all(&job);
    if (job.written == 0 && job.failed == 0)
        fprintf(stderr, "ladder plot: nothing could be drawn from these rows (see the notes "
                        "above)\n");
    rc = job.failed == 0 && job.written > 0 ? 0 : 1;
    if (o.keep_data)
        fprintf(stderr, "ladder plot: data tables and scripts kept in %s\n", job.tmpdir);
    else
        remove_folder(job.tmpdir);
    goto out;

fail:
    fprintf(stderr, "ladder plot: %s\n", msg);
out:
    plot_model_free(&model);
    free(o.files);
    return rc;
}
