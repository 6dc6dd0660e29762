/* The plot model: result rows turned into what the figures need.
 *
 * `ladder plot` reads any number of result files (from any machines), keeps the rows that
 * can be drawn (status ok, square sizes), and groups them:
 *   a device   - one device name, with its FP32 peak where known;
 *   a group    - one device and one backend that has at least one rung measured on it
 *                (the unit of the per-backend figures: "H100, CUDA");
 *   a baseline - a vendor library row (rung 0): cuBLAS, CLBlast, or the host's CPU BLAS.
 * The figure writers then only ask questions: which sizes, which rungs, how fast was this
 * rung here, which library is this group's reference.
 */
#ifndef LADDER_PLOT_MODEL_H
#define LADDER_PLOT_MODEL_H

#include "core/results.h"
#include "base/status.h"

/* A value that was not measured. Written to the data files as "?", gnuplot's missing. */
#define PLOT_MISSING (-1.0)

typedef struct {
    char name[256];     /* as the driver reports it */
    char slug[96];      /* the name in lower case, for file names: "nvidia-h100-80gb-hbm3" */
    char host[64];      /* the machine its first row came from */
    double peak_gflops; /* FP32 peak; 0 = unknown */
    int peak_from_user; /* 1 when given by --peak rather than measured by the backend */
    /* The measured ceilings a roofline is drawn against, from --ceilings FILE
     * (plot_ceilings.c); 0 = not given: no roofline is drawn, none is guessed. */
    double fma_gflops;  /* FP32 FMA ceiling: a kernel that only multiplies-adds */
    double read_gbps;   /* read bandwidth, GB/s (10^9 bytes per second) */
    char ceilings_date[32]; /* when they were measured, as the file says */
} plot_device;

typedef struct {
    int device;         /* index into plot_model.devices */
    char backend[16];   /* "cuda", "opencl" */
} plot_group;

typedef struct {
    result_row *rows;   /* the drawable rows: status ok, M = N = K, one per measurement */
    int nrows;
    /* Every ok row of any shape, one per measurement, the shape-aware entry's ("auto")
     * too: what the shapes chart draws (plot_fig_shapes.c). */
    result_row *shape_rows;
    int nshape_rows;
    plot_device *devices;
    int ndevices;
    plot_group *groups; /* sorted by device, then backend */
    int ngroups;
    char case_label[96]; /* the one case drawn, when not the default (results_case_label);
                            "" for single NN column-major C = A B */
    int double_precision; /* that case is double: the devices' FP32 peaks are left out */
} plot_model;

/* Reads every file, checks each one has something to draw, and builds the model: the rows
 * of one case, those `filter` selects. Notes (rows skipped, duplicates replaced, the case
 * drawn) go to stderr; errors fill msg, among them rows of several cases left after the
 * filter. */
ladder_status plot_model_load(plot_model *m, char *const *paths, int npaths,
                              const results_case_filter *filter, char *msg);

/* Reads a user peak "DEVICE-SUBSTRING=GFLOPS": the substring into needle, the number into
 * *gflops. An error if there is no substring or the number is not > 0. */
ladder_status plot_peak_parse(const char *spec, char *needle, size_t size, double *gflops,
                              char *msg);

/* Applies a user peak "DEVICE-SUBSTRING=GFLOPS" to every device whose name contains the
 * substring (case-insensitive). An error if it matches none or plot_peak_parse fails. */
ladder_status plot_model_set_peak(plot_model *m, const char *spec, char *msg);

/* Reads a ceilings file (--ceilings; the format is in report/ceilings_file.h and
 * plots/README.md) and gives each device whose name contains an entry's device text (any
 * case) that entry's FMA ceiling and read bandwidth; a later entry wins. An entry that
 * matches no device is noted on stderr. An error when the file cannot be read, a line is
 * malformed, or it has no entry. */
ladder_status plot_model_set_ceilings(plot_model *m, const char *path, char *msg);

/* 1 when `name` contains `needle`, ignoring case (how --peak and --ceilings match). */
int plot_name_matches(const char *name, const char *needle);

void plot_model_free(plot_model *m);

/* 1 when `r` is a row of the shape-aware entry ("auto"): rung 0 like the libraries, but
 * not one; only the shapes chart draws it. */
int plot_is_auto_row(const result_row *r);

/* One shape of the shapes chart: the vendor library, the fastest rung and "auto" there. */
typedef struct {
    long M, N, K;
    int label;          /* its class (base/shapes.h's shape_class) */
    double library;     /* GFLOPS of the vendor library */
    double best;        /* GFLOPS of the fastest rung; PLOT_MISSING if none */
    int best_rung;
    double autov;       /* GFLOPS of "auto"; PLOT_MISSING if not measured */
    int auto_rung;      /* the rung auto chose ("rung=N" in its params); 0 unknown */
} plot_shape_point;

/* The shapes chart of one device and backend. */
typedef struct {
    char device[256];
    char backend[16];
    char library[32];   /* the library's name in the rows: "cublas", "clblast" */
    plot_shape_point *points; /* by class, then by M*N*K */
    int npoints;
} plot_shape_chart;

/* The shapes charts the rows make: one per device and backend with a vendor library and
 * a rung or "auto" at the same shapes, and either "auto" or a shape that is not square
 * among them (square sweeps have their own charts). Returns how many (malloc'd in *out;
 * free with plot_shape_charts_free); -1 when out of memory. */
int plot_shape_charts(const plot_model *m, plot_shape_chart **out);
void plot_shape_charts_free(plot_shape_chart *charts, int n);

/* 1 when plot_shape_charts finds something to draw. */
int plot_shapes_drawable(const plot_model *m);

/* One series of points or lines in a figure: a rung, or a vendor library (rung 0, by
 * name). */
typedef struct {
    int rung;
    char name[32];      /* as the rows name it: "tiling", "cublas" */
} plot_series;

/* 1 when row `r` belongs to series `s`. */
int plot_series_has(const plot_series *s, const result_row *r);

/* The distinct series among the shape rows that keep(row, ctx) accepts: rungs ascending,
 * then the libraries by name. Returns how many (*out malloc'd; free it), -1 when out of
 * memory. */
int plot_find_series(const plot_model *m, int (*keep)(const result_row *r, const void *ctx),
                     const void *ctx, plot_series **out);

/* Builds devices and groups from m->rows (plot_model_load calls it; so can a test that
 * fills the rows itself). */
ladder_status plot_model_index(plot_model *m, char *msg);

/* GFLOPS of one rung (rung > 0) or one baseline (rung 0, by name) at size n x n x n on a
 * device and backend; PLOT_MISSING if not measured. */
double plot_gflops(const plot_model *m, const char *device, const char *backend, int rung,
                   const char *baseline, long n);

/* The distinct square sizes a group measured rungs at, ascending. Returns the count;
 * *sizes is malloc'd (free it). */
int plot_group_sizes(const plot_model *m, int group, long **sizes);

/* The distinct square sizes any rung was measured at, ascending (malloc'd, free it). */
int plot_model_sizes(const plot_model *m, long **sizes);

/* The rung numbers a group measured, ascending (malloc'd, free it); count returned. */
int plot_group_rungs(const plot_model *m, int group, int **rungs);

/* The rung numbers any group of the device measured, ascending (malloc'd, free it); count
 * returned. */
int plot_device_rungs(const plot_model *m, int device, int **rungs);

/* The short name of a rung ("tiling"), as the rows name it. */
const char *plot_rung_name(const plot_model *m, int rung);

/* A baseline that serves as reference for a device: the library name and the backend of
 * its rows. A device's baselines are the library rows of the same device name, plus the
 * host's CPU BLAS rows (backend "cpu") from the same machine when the device is that CPU
 * (one name contains the other, as PoCL's "cpu-haswell-<CPU name>" contains the CPU's). */
typedef struct {
    char name[32];      /* "cublas", "clblast", "cpu" */
    char backend[16];   /* the rows' backend */
    char device[256];   /* the rows' device name */
} plot_baseline;

/* All baselines for a device, in a stable order (malloc'd, free it); count returned. */
int plot_device_baselines(const plot_model *m, int device, plot_baseline **out);

/* 1 when a baseline named `name` ("cublas") can be a reference: a library at float32's
 * accuracy, not a reduced-precision one ("cublas-tf32", rungs/registry.h). */
int plot_reference_library(const char *name);

/* The reference library of a group: the device's baseline of the same backend if there is
 * one (cuBLAS for CUDA, CLBlast for OpenCL), else its first other baseline; never a
 * reduced-precision one (plot_reference_library). Returns 0 and fills *out, or -1 when
 * the device has no such baseline. */
int plot_group_reference(const plot_model *m, int group, plot_baseline *out);

/* GFLOPS of a baseline at n x n x n; PLOT_MISSING if not measured. */
double plot_baseline_gflops(const plot_model *m, const plot_baseline *b, long n);

/* The size the one-size figures use for a device: `wanted` if > 0 and the device has a rung
 * measured there, else (when wanted is 0) 4096 if measured, else the largest measured size.
 * Returns 0 when the device has no rung at the wanted size. */
long plot_device_size(const plot_model *m, int device, long wanted);

/* Lower-case letters and digits of a name, runs of anything else as one '-'. */
void plot_slug(const char *name, char *slug, size_t size);

#endif
