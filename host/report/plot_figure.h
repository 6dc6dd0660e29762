/* Drawing one figure: a data file and a generated prelude in a temporary folder, then the
 * committed plots/<figure>.gp run on them by gnuplot, then a check of every picture.
 *
 * The prelude only sets variables (the data file, titles, counts, ranges) and loads the
 * committed script, which holds all the styling: an instructor restyles the figures by
 * editing the scripts in plots/, never the C code. Each figure kind has its own file:
 *   plot_fig_gflops.c   GFLOPS against size, one line per rung      (per device and backend)
 *   plot_fig_bars.c     all rungs at one size, backends side by side (per device)
 *   plot_fig_steps.c    each rung's gain over its parent             (per device and backend)
 *   plot_fig_compare.c  rungs across devices, normalised             (one figure)
 *   plot_fig_shapes.c   every shape against the vendor library       (per device and backend)
 *   plot_fig_bars.c     also: all rungs at one size as % of FP32 peak (per device)
 *   plot_fig_roofline.c GFLOPS against flops per byte, under the measured ceilings
 *                                                                     (per device and backend)
 *   plot_fig_lineage.c  the ladder's shape: which rung changes which (from the registry;
 *                       ladder lineage draws it)
 */
#ifndef LADDER_PLOT_FIGURE_H
#define LADDER_PLOT_FIGURE_H

#include <stdio.h>
#include "report/plot_model.h"
#include "base/status.h"

#define PLOT_MAX_FORMATS 2
#define PLOT_PATH 4096

/* What every figure needs to know about this `ladder plot` run. */
typedef struct {
    const plot_model *model;
    char tmpdir[1024];         /* data files and generated scripts */
    char outdir[1024];         /* where the pictures go */
    char scripts[1024];        /* the committed plots/ folder */
    const char *formats[PLOT_MAX_FORMATS]; /* "png", "svg" */
    int nformats;
    long size;                 /* --size, 0 = the default (4096 or the largest) */
    int normalize_peak;        /* --normalize peak: the cross-device chart uses FP32 peaks */
    int ceilings_given;        /* --ceilings: the devices' measured ceilings were read */
    int written;               /* pictures written so far */
    int failed;                /* figures that failed */
} plot_job;

/* One figure being prepared. */
typedef struct {
    char name[256];            /* the stable file name without extension */
    FILE *data;                /* the table gnuplot plots */
    FILE *prelude;             /* the variables the committed script reads */
    char data_path[PLOT_PATH];
    char prelude_path[PLOT_PATH];
} plot_figure;

/* Opens the data file and the prelude for figure `name` and writes the variables every
 * script uses: data, output_base, formats, scripts. */
ladder_status plot_figure_begin(plot_job *job, plot_figure *fig, const char *name, char *msg);

/* Sets the figure's title; a case other than the ladder's default (plot_model.case_label)
 * is named after it, so a figure of double or transposed runs says so. */
void plot_figure_title(const plot_job *job, plot_figure *fig, const char *title);

/* Loads plots/<script> from the prelude, runs gnuplot and checks each picture. Prints each
 * picture written; on failure removes this figure's pictures, so none is left half drawn. */
ladder_status plot_figure_finish(plot_job *job, plot_figure *fig, const char *script, char *msg);

/* Closes the files of a figure that will not be drawn. */
void plot_figure_abandon(plot_figure *fig);

/* "CUDA", "OpenCL", "CPU"; other backends as written. */
const char *plot_backend_label(const char *backend);

/* How a vendor library is named in legends: "cuBLAS", "CLBlast", "CPU BLAS (host)"; an
 * unknown library by its name in the rows. */
const char *plot_library_label(const char *name, const char *backend);

/* 51400 -> "51,400"; 12.5 -> "12.5": GFLOPS as people read them. */
void plot_format_gflops(double gflops, char *out, size_t size);

/* A label safe inside a double-quoted data-file field: '"' becomes '\''. */
void plot_data_label(FILE *f, const char *label);

/* Writes one value of a data table: the number, or "?" (gnuplot's missing) when missing. */
void plot_data_value(FILE *f, double value);

/* The figures; each returns LADDER_OK also when it has nothing to draw (a note says why). */
ladder_status plot_fig_gflops(plot_job *job, int group, char *msg);
ladder_status plot_fig_bars(plot_job *job, int device, char *msg);
ladder_status plot_fig_steps(plot_job *job, int group, char *msg);
/* What the step figure compares a rung with in a group at size n x n x n: its parent
 * (rungs/registry.h), or the nearest ancestor measured there; 0 when none was. */
int plot_step_base(const plot_model *m, int group, int number, long n);
ladder_status plot_fig_compare(plot_job *job, char *msg);
ladder_status plot_fig_shapes(plot_job *job, char *msg);
ladder_status plot_fig_peak(plot_job *job, int device, char *msg);
ladder_status plot_fig_roofline(plot_job *job, int group, char *msg);
/* Needs no model (job->model may be NULL): it draws the registry. */
ladder_status plot_fig_lineage(plot_job *job, char *msg);

#endif
