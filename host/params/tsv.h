/* Tab-separated text tables that people read, diff and commit: the tuning database and the
 * selection tables of the shape-aware entry share their reading and writing here.
 *
 * A table is UTF-8 text, one entry per line, fields separated by tabs. Lines that start
 * with '#' and empty lines are comments; a line whose first field is "backend" is the
 * column header. A line that is none of these and not an entry makes the whole file
 * corrupt, reported as FILE:LINE and what is wrong.
 */
#ifndef LADDER_TSV_H
#define LADDER_TSV_H

#include <stddef.h>
#include <stdio.h>
#include "base/status.h"

#define TSV_LINE_MAX 4096

/* Checks the fields of one line (there are exactly as many as tsv_read's `nfields`, those
 * an older line lacks being empty) and keeps the entry; returns what is wrong with it, or
 * NULL. */
typedef const char *(*tsv_line_fn)(void *ctx, char **fields);

/* Opens `path` for reading. A missing file is not an error: returns NULL with *found = 0
 * and LADDER_OK in *st. Another failure: NULL, *found = 1 and LADDER_ERROR in *st with
 * "cannot read <what> PATH: why" in msg. */
FILE *tsv_open(const char *path, const char *what, int *found, ladder_status *st, char *msg);

/* Reads every line of `f`, handing each entry's `nfields` fields to `fn`. A line may have
 * as few as `min_fields` (a table that gained columns at its end reads its older lines):
 * the missing ones are empty. Stops at the first bad line: LADDER_ERROR with
 * "PATH:LINE: what is wrong" in msg. */
ladder_status tsv_read(FILE *f, const char *path, int min_fields, int nfields,
                       tsv_line_fn fn, void *ctx, char *msg);

/* Writes the entries of a table. Returns 0, or non-zero when a write failed. */
typedef int (*tsv_write_fn)(void *ctx, FILE *f);

/* Writes `header` and then what `fn` writes to PATH.partial and renames it to `path` when
 * complete, so a crash never leaves half a table. `what` names the table in messages. */
ladder_status tsv_write(const char *path, const char *what, const char *header,
                        tsv_write_fn fn, void *ctx, char *msg);

/* Room for one more item in a growing array of `count` items of `size` bytes: 0, or -1
 * when out of memory (the array is unchanged). */
int tsv_reserve(void **items, int *capacity, int count, size_t size);

/* The first two fields of every table: the backend (opencl or cuda) and the device name,
 * copied into `backend` (16 bytes) and `device` (`size` bytes). Returns what is wrong, or
 * NULL. */
const char *tsv_backend_device(char **fields, char *backend, char *device, size_t size);

/* "TS=16 WPT=4": names of letters, digits and '_', integer values, single spaces. */
int tsv_params_ok(const char *s);

/* 16 hexadecimal digits (a FNV-1a hash, base/source_hash.h). */
int tsv_hash_ok(const char *s);

/* Copies a hash field into `dst` (SOURCE_HASH_HEX bytes) in lower case. */
void tsv_copy_hash(char *dst, const char *hash);

/* A field that must not be empty and must fit `size` bytes: copied, returns 1; else 0. */
int tsv_copy_text(char *dst, size_t size, const char *field);

/* A non-negative finite number: 1 with it in *out, else 0. */
int tsv_number(const char *field, double *out);

#endif
