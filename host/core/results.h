/* Result files: one CSV row per (device, backend, rung, M, N, K).
 *
 * Every row describes itself completely (device, driver, rung, parameters, sizes, timing,
 * verification, seed, date, version), so files from different machines can be concatenated
 * and plotted together. The column table below is the schema; README.md's table of it is
 * `ladder schema`'s output, and a test keeps the two equal. It is stable: plots, the
 * tutorial and other tools read columns by name, not by position.
 *
 * The writer (results_writer.c) appends rows to "<path>.partial" and renames it to <path>
 * when the run ends, so no reader ever sees a half-written result file.
 */
#ifndef LADDER_RESULTS_H
#define LADDER_RESULTS_H

#include <stdio.h>
#include "base/gemm_case.h"
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
    char precision[8];    /* single | double */
    char trans[4];        /* NN | NT | TN | TT: op(A), op(B) */
    char layout[4];       /* col | row */
    double alpha, beta;
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

/* The schema: one entry per column, in file order. The writer, the reader, the header
 * line and `ladder schema` (the README's table) all read this one table, so a column is
 * added, renamed or documented in one place. */
typedef enum {
    COLUMN_TEXT, /* a char array member, written as it is (quoted when it holds a comma) */
    COLUMN_INT,  /* an int member, a decimal integer */
    COLUMN_LONG, /* a long member, a decimal integer */
    COLUMN_SEED, /* an unsigned long long member, a decimal integer */
    COLUMN_REAL, /* a double member, written with `format` when `shown` allows, else empty;
                    an empty field reads as 0 */
} column_kind;

/* When a COLUMN_REAL field is written; otherwise it is left empty. */
typedef enum {
    SHOWN_POSITIVE, /* the value is above 0 (0 means unknown or not measured) */
    SHOWN_TIMED,    /* the row was timed (median_ms > 0) */
    SHOWN_CHECKED,  /* the row was timed and verified, and the value is not negative */
    SHOWN_ALWAYS,   /* always */
} column_shown;

typedef struct {
    const char *name;
    column_kind kind;
    size_t offset, size;  /* the member of result_row */
    const char *format;   /* COLUMN_REAL: printf format of the number */
    column_shown shown;   /* COLUMN_REAL: when it is written */
    const char *meaning;  /* the README's text; NULL: described with the column above it,
                             in one README row ("`device`, `vendor`, `driver`") */
    const char *absent;   /* the value of a row from an older file whose header lacks the
                             column (the case columns: what every older row measured);
                             NULL: the column is required */
} result_column;

/* The columns, in file order; *count gets how many. */
const result_column *results_columns(int *count);

/* Writes case `cs` into the row's case columns (precision, trans, layout, alpha, beta). */
void results_set_case(result_row *row, const gemm_case *cs);

/* The case a row records (an older file's rows: single, NN, col, 1, 0). LADDER_ERROR when a
 * case column holds a word that is no case's. */
ladder_status results_row_case(const result_row *row, gemm_case *cs, char *msg);

/* Whether two rows measured the same case: a table or a figure never puts rows of two
 * cases together without saying so. */
int results_same_case(const result_row *a, const result_row *b);

/* The row's case in words (gemm_case_label; `all` 0 leaves the default parts out). */
void results_case_label(const result_row *row, int all, char *out, size_t size);

/* What ladder table and ladder plot select of the case columns: --precision, --trans and
 * --case-layout, each a word of its column or NULL for any. */
typedef struct {
    const char *precision, *trans, *layout;
} results_case_filter;

int results_case_filter_matches(const results_case_filter *f, const result_row *row);

/* LADDER_ERROR when rows[0..n) (pointers, or NULL to use `plain`) hold more than one case,
 * naming two of them and the options that choose one. */
ladder_status results_check_one_case(const result_row *const *rows, const result_row *plain,
                                     int n, char *msg);

/* The header line, without newline. */
const char *results_header(void);

typedef struct results_writer results_writer;

/* What to do when the output file exists already. */
typedef enum {
    RESULTS_NEW,       /* refuse: never overwrite a file the user did not name for it */
    RESULTS_OVERWRITE, /* --force: replace it when the run ends */
    RESULTS_APPEND,    /* --append: add rows to it; only a result file with this header */
} results_mode;

/* Checks an output path without touching anything: LADDER_ERROR with a one-line message
 * naming `option` (e.g. "--output") for an empty name, a folder, a missing or non-folder
 * parent, a file that is not a regular file, an existing file under RESULTS_NEW, or one
 * that RESULTS_APPEND cannot extend. *exists says whether the file is there. */
ladder_status results_check_path(const char *path, results_mode mode, const char *option,
                                 int *exists, char *msg);

/* Checks the path as above, then opens "<path>.partial" and writes the header (or, to
 * append, the existing file's rows), so an unwritable place fails now, before any work. */
ladder_status results_open(const char *path, results_mode mode, const char *option,
                           results_writer **w, char *msg);
ladder_status results_append(results_writer *w, const result_row *row, char *msg);
/* Completes the file: renames .partial to path (replacing the old file, if any). When the
 * rename fails the rows stay in the .partial file and the message says so. */
ladder_status results_close(results_writer *w, char *msg);
/* Removes the partial file (used when the run aborts before any row); an existing file
 * at the path is left as it was. */
void results_discard(results_writer *w);

/* One row as a CSV line (no newline), quoting fields where needed. */
void results_format_row(const result_row *row, char *out, size_t size);

/* Reads a result file (or several concatenated, header lines repeated). Rows are
 * appended to *rows (realloc'd); *count is updated. Returns LADDER_ERROR with a message
 * naming the file and line for a missing header, a wrong column count or a bad number. */
ladder_status results_read(const char *path, result_row **rows, int *count, char *msg);

#endif
