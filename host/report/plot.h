/* `ladder plot`: draws the figures of result files with gnuplot. The command line is
 * cli/cli_plot.c; this is what it asks for, and the drawing. */
#ifndef LADDER_PLOT_H
#define LADDER_PLOT_H

#include "report/plot_figure.h"

#define PLOT_MAX_PEAKS 32

typedef struct {
    const char *out;                /* folder for the pictures (--output) */
    long size;                      /* --sizes: the one-size charts' size; 0 = the default */
    const char *peaks[PLOT_MAX_PEAKS]; /* --peak DEV=GFLOPS */
    int npeaks;
    const char *formats[PLOT_MAX_FORMATS];
    int nformats;
    int normalize_peak;             /* --normalize peak */
    const char *ceilings;           /* --ceilings FILE: measured ceilings; NULL = none */
    int keep_data;                  /* --keep-data */
    results_case_filter cases;      /* --precision, --trans, --case-layout */
    char **files;                   /* the result files */
    int nfiles;
} plot_options;

/* Reads the files and draws every figure into o->out, which is created (and said so on
 * stderr) when missing. Returns the exit status: 0 when every figure was drawn, 1 on any
 * error (each reported on one line). */
int plot_run(const plot_options *o);

/* Draws the lineage figure (plot_fig_lineage.c) into o->out, in o->formats; the files and
 * the other options are not used. The exit status, as plot_run's. */
int plot_lineage_run(const plot_options *o);

#endif
