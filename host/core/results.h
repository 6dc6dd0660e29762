/* Result files: one CSV row per (device, backend, rung, M, N, K).
 *
 * Every row describes itself completely (device, driver, rung, parameters, sizes, timing,
 * verification, seed, date, version), so files from different machines can be concatenated
 * and plotted together. The column list below is the schema documented in README.md; it is
 * stable: plots, the tutorial and other tools read it by column name, not by position.
 *
 * The writer appends rows to "<path>.partial" and renames it to <path> only when the run
 * is complete, so an interrupted or failed run never leaves a half-written result file.
 */
#ifndef LADDER_RESULTS_H
#define LADDER_RESULTS_H

#include <stdio.h>
#include "base/status.h"

typedef struct {
    char date[32];        /* ISO 8601 UTC time the row was measured */
    char version[32];     /* project version (git describe where available) */
    char host[64];        /* host name of the machine */
    char backend[16];     /* opencl | cuda | cpu */
    char device[256];
    char vendor[128];
    char driver[128];
    int compute_units;
    int clock_mhz;
    double peak_gflops;   /* FP32 peak where known, 0 = unknown (written empty) */
    int rung;             /* rung number; 0 for baselines */
    char rung_name[32];   /* "naive", "cublas", ... */
    char params[128];     /* "TS=32 WPT=8"; empty for baselines */
    char param_source[16];/* default | small-default | user */
    long M, N, K;
    int reps;
    double median_ms, min_ms, max_ms;
    double gflops;        /* 2*M*N*K / median time */
    double vs_library;    /* gflops / the vendor library's at this size; 0 = not measured */
    char library[16];     /* which library vs_library compares with */
    double error_ratio;   /* max over checked elements of |c - r| / bound (<= 1 passes) */
    char verify[16];      /* full | sampled | off */
    char status[16];      /* ok | FAILED | unsupported | error */
    char reason[256];     /* why, for FAILED/unsupported/error rows */
    unsigned long long seed;
} result_row;

/* The header line, without newline. */
const char *results_header(void);

typedef struct results_writer results_writer;

/* Opens "<path>.partial" and writes the header. */
ladder_status results_open(const char *path, results_writer **w, char *msg);
ladder_status results_append(results_writer *w, const result_row *row, char *msg);
/* Completes the file (renames .partial to path). */
ladder_status results_close(results_writer *w, char *msg);
/* Removes the partial file (used when the run aborts before any row). */
void results_discard(results_writer *w);

/* One row as a CSV line (no newline), quoting fields where needed. */
void results_format_row(const result_row *row, char *out, size_t size);

/* Reads a result file (or several concatenated, header lines repeated). Rows are
 * appended to *rows (realloc'd); *count is updated. Returns LADDER_ERROR with a message
 * naming the file and line for a missing header, a wrong column count or a bad number. */
ladder_status results_read(const char *path, result_row **rows, int *count, char *msg);

#endif
