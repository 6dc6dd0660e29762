/* The selection table of the shape-aware entry ("auto"): for each backend, device and
 * shape, the rung and parameters that `ladder select` measured fastest there, beside what
 * the vendor library reached in the same run (AutoGEMM's kernel-selection data).
 *
 * Format (README.md, "The shape-aware entry", says the same): a tab-separated table
 * (params/tsv.h) with these fields, in this order:
 *
 *   backend         opencl or cuda
 *   device          the device name as the driver reports it (`ladder devices`)
 *   shape           MxNxK
 *   class           the shape's class (base/shapes.h), for people: the look-up computes
 *                   the class from the shape
 *   rung            the rung number chosen
 *   params          every parameter of that rung, as --param takes them
 *   gflops          what it reached (the profiler's few repetitions: indicative)
 *   library         the vendor library measured beside it (cublas, clblast), or "none"
 *   library_gflops  what the library reached in the same run (0 with "none")
 *   kernel          the rung's kernel file, e.g. 15-sgemm.cl
 *   kernel_fnv1a    FNV-1a 64-bit hash of that file's code, 16 hex digits
 *                   (host/base/source_hash.h; a line written until 2026-11-29: of its
 *                   bytes): the entry is not used once the code has changed
 *   driver          the driver the device reported (for the record)
 *   date            when it was measured, ISO 8601 UTC
 *
 * The key is (backend, device, shape): a table holds one entry per key; where two files
 * (or two lines) have one, the later wins.
 */
#ifndef LADDER_SELECTION_TABLE_H
#define LADDER_SELECTION_TABLE_H

#include "base/shapes.h"
#include "base/source_hash.h"
#include "base/status.h"

#define SELECTION_FIELDS 13

typedef struct {
    char backend[16];
    char device[256];
    long M, N, K;
    shape_class label;
    int rung;
    char params[128];
    double gflops;
    char library[16];
    double library_gflops;
    char kernel[64];
    char kernel_fnv1a[SOURCE_HASH_HEX];
    char driver[128];
    char date[32];
    int verdict; /* in memory only: 0 not checked yet, 1 usable, -1 not usable (said why) */
} selection_entry;

typedef struct {
    selection_entry *entries;
    int count, capacity;
} selection_table;

void selection_table_init(selection_table *t);
void selection_table_free(selection_table *t);

/* Reads a table file and adds its entries (replacing those of the same key). A missing
 * file is not an error: *found = 0. A corrupt line gives LADDER_ERROR with "FILE:LINE:
 * what is wrong", and no entry of that file is kept. */
ladder_status selection_table_read(selection_table *t, const char *path, int *found,
                                   char *msg);

/* Writes every entry, with the header that documents the format (through PATH.partial). */
ladder_status selection_table_write(const selection_table *t, const char *path, char *msg);

/* Adds `e`, or replaces the entry of its key. */
ladder_status selection_table_put(selection_table *t, const selection_entry *e, char *msg);

/* The entry of this key, or NULL. */
selection_entry *selection_table_find(selection_table *t, const char *backend,
                                      const char *device, long M, long N, long K);

#endif
