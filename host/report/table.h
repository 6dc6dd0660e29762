/* `ladder table`: Markdown tables (and single numbers) from result files, for the tutorial.
 *
 * Every measured number in the tutorial is generated from a committed result file by this
 * command (tools/update-tables.sh runs it for each marker in the Markdown), so the output
 * must be byte-for-byte reproducible: fixed row order, fixed number formats, no dates or
 * host names taken from the machine that prints it.
 *
 * The work is split in three steps, one file each:
 *   table_select.c   read the files, keep the rows the options select, check they make
 *                    one table (one device per backend, one size where the layout needs it)
 *   table_layout.c   arrange the selected rows as one of the layouts, or pick one value
 *   table_format.c   format numbers for reading and print the Markdown
 */
#ifndef LADDER_TABLE_H
#define LADDER_TABLE_H

#include <stdio.h>

#include "core/results.h"
#include "base/sizes.h"
#include "base/status.h"

typedef enum {
    TABLE_ROWS,     /* one row per (backend, rung) at one size */
    TABLE_SIZES,    /* one row per (backend, rung), a GFLOPS column per size */
    TABLE_BACKENDS, /* one row per rung, OpenCL and CUDA side by side at one size */
    TABLE_SUMMARY,  /* one row per rung: parent and idea, each backend's best over sizes */
} table_layout;

typedef enum {
    VALUE_NONE,      /* print a table */
    VALUE_GFLOPS,
    VALUE_MS,
    VALUE_VS_LIBRARY,
    VALUE_STEP_GAIN,
    VALUE_GBPS,      /* effective bandwidth: A, B and C once each over the median time */
    VALUE_ERR_BOUND, /* the verification's largest |c - r| over its bound */
    VALUE_REL_ERROR, /* the largest |c - r| / (|A||B|) of an element */
} table_value;

/* --rungs: numbers, ranges and names, or the keywords all, kernels, baselines. */
typedef struct {
    int lo, hi;       /* a number or range; 0, 0 when the item is a name or keyword */
    char name[32];    /* a rung name or keyword; empty for numbers */
    const char *text; /* the item as written, for messages */
} rung_item;

typedef struct {
    rung_item *items;
    int count;
    char *copy; /* the spec, split in place; items point into it */
} rung_filter;

typedef struct {
    const char *backend;   /* "opencl", "cuda", "cpu" or NULL for all */
    const char *device;    /* part of the device name (any case), or NULL */
    const char *params;    /* part of the params column ("USE_LDG=0"), or NULL: rows of
                              one rung measured with several parameter sets */
    const char *size_spec; /* the --size text, for messages; NULL for every size */
    gemm_size *sizes;      /* parsed --size; NULL for every size */
    int nsizes;
    results_case_filter cases; /* --precision, --trans, --case-layout; the selection
                                  must be one case in the end */
    const char *rung_spec; /* the --rungs text, for messages; NULL for all */
    rung_filter rungs;
    int all_status;        /* also show rows that are not ok */
    table_layout layout;
    int gbps;              /* --metric gbps: effective GB/s where the layout shows GFLOPS
                              (for GEMV-like shapes, where bandwidth is the bound) */
    table_value value;
    int caption;
    char **files;
    int nfiles;
} table_options;

/* ---- table_select.c ------------------------------------------------------------------ */

/* Parses --rungs; LADDER_ERROR with a message for a malformed item. */
ladder_status rung_filter_parse(const char *spec, rung_filter *f, char *msg);
void rung_filter_free(rung_filter *f);

typedef struct {
    result_row *all;     /* every row of the files; a later measurement of the same
                            (device, backend, rung, size) replaces an earlier one */
    int nall;
    const result_row **shown; /* the selected rows, in table order */
    int nshown;
} table_data;

/* Reads the files and selects the rows. LADDER_ERROR with a message when a file cannot
 * be read, an ok row carries no measurement, a --rungs item matches no row of the files,
 * nothing is selected, or the selection spans two devices of one backend, two cases
 * (precision, transposes, layout, alpha, beta) (or, for the rows and backends layouts and
 * --value, two sizes). */
ladder_status table_select(const table_options *o, table_data *d, char *msg);
void table_data_free(table_data *d);

/* Whether `row` is the vendor library the other rows of its device and size compare with
 * (its own fraction of the library is then 1). */
int table_is_library(const table_data *d, const result_row *row);

/* What the step gain compares `row` with: its parent rung (rungs/registry.h) measured ok on
 * the same device, backend and size, else the nearest ancestor that was; NULL for rung 1,
 * baselines, rows that are not ok, and rungs none of whose ancestors ran there. */
const result_row *table_previous_rung(const table_data *d, const result_row *row);

/* Sizes in the order of the charts: by M*N*K, then M, N, K (qsort comparator). */
int table_compare_shapes(const void *a, const void *b);

/* The distinct sizes of the selected rows, in that order (malloc'd; NULL when out of
 * memory). */
gemm_size *table_shapes(const table_data *d, int *count);

/* 0 for OpenCL, 1 for CUDA, 2 for the CPU, 3 for anything else: the order of backends in
 * every table. */
int table_backend_order(const char *backend);

/* ---- table_layout.c ------------------------------------------------------------------ */

/* Prints the table (and its caption if asked) of the selected rows. */
ladder_status table_print(const table_options *o, const table_data *d, FILE *out, char *msg);

/* Prints the one formatted number --value asks for. LADDER_ERROR when the selection is not
 * exactly one row or the row has no such figure. */
ladder_status table_print_value(const table_options *o, const table_data *d, FILE *out,
                                char *msg);

/* ---- table_format.c ------------------------------------------------------------------ */

#define TABLE_CELL 160

/* "12,346": rounded to a whole number, thousands separated by commas (GB/s the same). */
void fmt_gflops(double gflops, char *out, size_t size);
/* The effective bandwidth of a row in GB/s: A, B and C counted once each, 4 (MK + KN + MN)
 * bytes (8 in double), over the median time; 0 for a row without a time. */
double row_gbps(const result_row *r);
/* Three significant digits, never in exponent form: "0.0333", "11.2", "123", "1,235". */
void fmt_ms(double ms, char *out, size_t size);
/* "0.81" */
void fmt_fraction(double f, char *out, size_t size);
/* "1.47×" */
void fmt_gain(double g, char *out, size_t size);
/* "256" for a square size, "512x256x128" otherwise. */
void fmt_shape(long M, long N, long K, char *out, size_t size);
/* The names readers know: "CUDA", "OpenCL", "CPU"; "cuBLAS", "CLBlast", "CPU BLAS". */
const char *display_backend(const char *backend);
const char *display_rung_name(const char *rung_name);

/* A Markdown table built cell by cell, printed with aligned columns. */
typedef struct md_table md_table;

md_table *md_table_new(int ncols);
void md_table_free(md_table *t);
/* Sets the header of column `col`; numbers read best right-aligned. */
void md_table_header(md_table *t, int col, const char *text, int right_align);
/* Adds a row whose cells are all "–"; returns its index, -1 when out of memory. */
int md_table_add_row(md_table *t);
/* Sets a cell; '|' is escaped so that it cannot split the cell. */
void md_table_set(md_table *t, int row, int col, const char *text);
void md_table_print(const md_table *t, FILE *out);

/* The cell of a missing figure. */
#define TABLE_MISSING "–"

#endif
