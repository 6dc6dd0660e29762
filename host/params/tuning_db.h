/* The tuning database: the fastest parameters `ladder tune` found, per backend, device,
 * rung, size class, precision and transpose pair, in a plain text file that people can read, diff and commit.
 *
 * Format (README.md, "Tuning", says the same): UTF-8 text, one entry per line, fields
 * separated by tabs, in this order:
 *
 *   backend device rung size_class params gflops sizes kernel kernel_fnv1a driver date
 *   precision trans
 *
 *   backend       opencl or cuda
 *   device        the device name as the driver reports it (`ladder devices`)
 *   rung          the rung number
 *   size_class    small, large or skinny (host/params/size_class.h)
 *   params        "TSM=128 TSN=64 ...": every parameter of the rung, as --param takes them
 *   gflops        what the parameters reached while tuning (few repetitions: indicative)
 *   sizes         the sizes measured, MxNxK, comma-separated
 *   kernel        the kernel file measured, e.g. 06-regblock.cl
 *   kernel_fnv1a  FNV-1a 64-bit hash of that file's code, its comments and blank lines
 *                 stripped (host/base/source_hash.h), 16 hex digits. Lines written
 *                 until 2026-11-29 hold the hash of the file's bytes, which still
 *                 matches the file if it has not changed since.
 *   driver        the driver version the device reported (for the record; not a key)
 *   date          when the search ended, ISO 8601 UTC
 *   precision     single or double: the precision tuned. A line written before double
 *                 existed lacks the field: it is single.
 *   trans         NN, NT, TN or TT: the transpose pair tuned (op(A), then op(B)), in
 *                 column-major layout, the call a kernel sees. A line written before the
 *                 pairs were tuned apart lacks the field: it is NN, the only case tuned then.
 *
 * Lines starting with '#' and empty lines are comments; a line whose first field is
 * "backend" is the column header. The key is (backend, device, rung, size_class,
 * precision, trans): a file holds at most one entry per key. Anything else is a corrupt
 * line, reported as FILE:LINE.
 */
#ifndef LADDER_TUNING_DB_H
#define LADDER_TUNING_DB_H

#include "params/selection_table.h"
#include "params/size_class.h"
#include "base/gemm_case.h"
#include "base/source_hash.h"
#include "base/status.h"

#define TUNING_DB_FIELDS 13
/* The fields every line has: the oldest lines end at `date`. */
#define TUNING_DB_MIN_FIELDS 11

typedef struct {
    char backend[16];
    char device[256];
    int rung;
    size_class cls;
    char params[128];
    double gflops;
    char sizes[256];
    char kernel[64];
    char kernel_fnv1a[SOURCE_HASH_HEX];
    char driver[128];
    char date[32];
    gemm_precision precision;
    int trans_a, trans_b; /* the transpose pair tuned: 1 = op(X) = X^T */
    int file;   /* in memory only: which file it was read from (tuning_db.files), -1 = new */
    int noted;  /* in memory only: ladder run already said why it cannot use this entry */
    int noted_pair; /* in memory only: ladder run already said that rows of another
                       transpose pair do not use this entry */
    char kernel_bytes_fnv1a[SOURCE_HASH_HEX]; /* in memory only, in an entry ladder tune
                       offers: the bytes hash of its kernel file, which a line written until
                       2026-11-29 records for the same source (empty: none) */
} tuning_entry;

typedef struct {
    tuning_entry *entries;
    int count, capacity;
    char **files; /* the files read, in order: later files win */
    int nfiles;
    /* The shape-aware entry's selection tables (params/selection.h), read beside the
     * databases by tuning_load_for_run. */
    selection_table selection;
} tuning_db;

void tuning_db_init(tuning_db *db);
void tuning_db_free(tuning_db *db);

/* Reads a database file and adds its entries after those already held. A missing file
 * is not an error: *found is set to 0 and nothing is added. A corrupt line gives
 * LADDER_ERROR with "FILE:LINE: what is wrong", and no entry of that file is kept. */
ladder_status tuning_db_read(tuning_db *db, const char *path, int *found, char *msg);

/* Writes every entry, with the header that documents the format, to `path` (through
 * PATH.partial, renamed when complete, so a crash never leaves half a database). */
ladder_status tuning_db_write(const tuning_db *db, const char *path, char *msg);

/* What tuning_db_offer did. */
typedef enum {
    TUNING_ADDED,         /* no entry had this key */
    TUNING_REPLACED_STALE,/* the old entry was measured with another kernel source: its
                             hash is neither e's kernel_fnv1a nor e's kernel_bytes_fnv1a */
    TUNING_REPLACED,      /* the new entry is faster, or has the same parameters (refreshed) */
    TUNING_KEPT,          /* the old entry, same source, is faster: it stays */
} tuning_offer;

/* Adds `e` to the database or updates the entry with its key; keys never repeat. *what
 * says which happened, *old gets a copy of the previous entry when there was one. */
ladder_status tuning_db_offer(tuning_db *db, const tuning_entry *e, tuning_offer *what,
                              tuning_entry *old, char *msg);

/* Copies `text` into a field, turning tabs and line breaks into spaces (they would split
 * the field). */
void tuning_field(char *dst, size_t size, const char *text);

#endif
