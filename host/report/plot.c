/* `ladder plot`: what it does once its command line (cli/cli_plot.c) is read.
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

/* mkdir -p: the output folder may be several levels deep. A folder it makes is named on
 * stderr, so a mistyped --output does not grow a tree unnoticed. */
static ladder_status make_folder(const char *path, char *msg)
{
    char buf[PLOT_PATH];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return ladder_fail(msg, LADDER_ERROR, "--output: path too long");
    int made = 0;
    for (char *p = buf + 1; ; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(buf, 0777) == 0)
            made = 1;
        else if (errno != EEXIST)
            return ladder_fail(msg, LADDER_ERROR, "cannot create %s: %s", buf, strerror(errno));
        *p = saved;
        if (saved == '\0')
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return ladder_fail(msg, LADDER_ERROR, "--output: %s is not a folder", path);
    if (made)
        fprintf(stderr, "ladder plot: created the folder %s\n", path);
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
    for (int d = 0; d < m->ndevices; d++)
        if (plot_fig_peak(job, d, msg) != LADDER_OK)
            fprintf(stderr, "ladder plot: %s\n", msg);
    for (int g = 0; g < m->ngroups; g++)
        if (plot_fig_roofline(job, g, msg) != LADDER_OK)
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
        return ladder_fail(msg, LADDER_ERROR, "--output: path too long");
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
    job->ceilings_given = o->ceilings != NULL;
    return LADDER_OK;
}

int plot_run(const plot_options *o)
{
    char msg[LADDER_MSG];
    plot_model model = {0};
    plot_job job;
    memset(&job, 0, sizeof job);
    int rc = 1;

    if (plot_model_load(&model, o->files, o->nfiles, &o->cases, msg) != LADDER_OK)
        goto fail;
    for (int i = 0; i < o->npeaks; i++)
        if (plot_model_set_peak(&model, o->peaks[i], msg) != LADDER_OK)
            goto fail;
    if (o->ceilings && plot_model_set_ceilings(&model, o->ceilings, msg) != LADDER_OK)
        goto fail;
    if (check_size(&model, o->size, msg) != LADDER_OK)
        goto fail;
    job.model = &model;
    if (prepare_job(o, &job, msg) != LADDER_OK)
        goto fail;

    draw_all(&job);
    if (job.written == 0 && job.failed == 0)
        fprintf(stderr, "ladder plot: nothing could be drawn from these rows (see the notes "
                        "above)\n");
    rc = job.failed == 0 && job.written > 0 ? 0 : 1;
    if (o->keep_data)
        fprintf(stderr, "ladder plot: data tables and scripts kept in %s\n", job.tmpdir);
    else
        remove_folder(job.tmpdir);
    goto out;

fail:
    fprintf(stderr, "ladder plot: %s\n", msg);
out:
    plot_model_free(&model);
    return rc;
}

int plot_lineage_run(const plot_options *o)
{
    char msg[LADDER_MSG];
    plot_job job;
    memset(&job, 0, sizeof job);
    if (prepare_job(o, &job, msg) != LADDER_OK) {
        fprintf(stderr, "ladder lineage: %s\n", msg);
        return 1;
    }
    int rc = 0;
    if (plot_fig_lineage(&job, msg) != LADDER_OK) {
        fprintf(stderr, "ladder lineage: %s\n", msg);
        rc = 1;
    }
    if (o->keep_data)
        fprintf(stderr, "ladder lineage: data table and script kept in %s\n", job.tmpdir);
    else
        remove_folder(job.tmpdir);
    return rc;
}
