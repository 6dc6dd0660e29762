#include "params/tuning_db.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params/tsv.h"

static const char header[] =
    "# gemm-ladder tuning database, written by `ladder tune` (README.md, \"Tuning\").\n"
    "# One line per backend, device, rung, size class, precision and transpose pair: the\n"
    "# fastest parameters found.\n"
    "# Fields are separated by tabs; lines that start with '#' are comments.\n"
    "#   backend       opencl or cuda\n"
    "#   device        the device name as the driver reports it (ladder devices)\n"
    "#   rung          the rung number\n"
    "#   size_class    skinny: the largest of M, N, K is >= 8 times the smallest;\n"
    "#                 small: otherwise M*N*K < 2048^3; large: the rest\n"
    "#   params        every parameter of the rung, as ladder run --param takes them\n"
    "#   gflops        what they reached while tuning (few repetitions: indicative)\n"
    "#   sizes         the sizes they were measured at, MxNxK, comma-separated\n"
    "#   kernel        the kernel file they were measured with\n"
    "#   kernel_fnv1a  FNV-1a 64-bit hash of that file's code, comments stripped (an\n"
    "#                 older line's: of its bytes): ladder run ignores the entry once\n"
    "#                 the code has changed\n"
    "#   driver        the driver the device reported (for the record)\n"
    "#   date          when the search ended (UTC)\n"
    "#   precision     single or double: the precision tuned; a line without it is\n"
    "#                 single, as every entry was before double\n"
    "#   trans         NN, NT, TN or TT: the transpose pair tuned, column-major; a line\n"
    "#                 without it is NN, as every entry was before the pairs were tuned\n"
    "# ladder run uses the entry of its backend, device, rung, precision, transpose pair\n"
    "# and the size's class, unless --defaults or --param is given for that rung.\n"
    "backend\tdevice\trung\tsize_class\tparams\tgflops\tsizes\tkernel\tkernel_fnv1a\tdriver"
    "\tdate\tprecision\ttrans\n";

void tuning_db_init(tuning_db *db) { memset(db, 0, sizeof *db); }

void tuning_db_free(tuning_db *db)
{
    for (int i = 0; i < db->nfiles; i++)
        free(db->files[i]);
    free(db->files);
    free(db->entries);
    selection_table_free(&db->selection);
    tuning_db_init(db);
}

void tuning_field(char *dst, size_t size, const char *text)
{
    snprintf(dst, size, "%s", text);
    for (char *p = dst; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
}

static ladder_status append(tuning_db *db, const tuning_entry *e, char *msg)
{
    if (tsv_reserve((void **)&db->entries, &db->capacity, db->count, sizeof *db->entries))
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the tuning database");
    db->entries[db->count++] = *e;
    return LADDER_OK;
}

static int same_key(const tuning_entry *a, const tuning_entry *b)
{
    return strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) == 0 &&
           a->rung == b->rung && a->cls == b->cls && a->precision == b->precision &&
           a->trans_a == b->trans_a && a->trans_b == b->trans_b;
}

/* ---- reading ------------------------------------------------------------------------ */

/* "4096x4096x4096,256x256x256" */
static int sizes_ok(const char *s)
{
    for (;;) {
        for (int d = 0; d < 3; d++) {
            if (!isdigit((unsigned char)*s))
                return 0;
            while (isdigit((unsigned char)*s))
                s++;
            if (d < 2 && *s++ != 'x')
                return 0;
        }
        if (*s == '\0')
            return 1;
        if (*s++ != ',')
            return 0;
    }
}

/* Fills `e` from the fields of one line; returns what is wrong, or NULL. */
static const char *parse_entry(char **f, tuning_entry *e)
{
    memset(e, 0, sizeof *e);
    const char *bad = tsv_backend_device(f, e->backend, e->device, sizeof e->device);
    if (bad)
        return bad;
    char *end;
    errno = 0;
    long rung = strtol(f[2], &end, 10);
    if (!*f[2] || *end || errno || rung < 1 || rung > 1000)
        return "rung must be a rung number";
    e->rung = (int)rung;
    if (size_class_parse(f[3], &e->cls) != 0)
        return "size_class must be small, large or skinny";
    if (!tsv_params_ok(f[4]) || strlen(f[4]) >= sizeof e->params)
        return "params must look like TS=16 WPT=4";
    snprintf(e->params, sizeof e->params, "%s", f[4]);
    if (!tsv_number(f[5], &e->gflops))
        return "gflops must be a non-negative number";
    if (!sizes_ok(f[6]) || strlen(f[6]) >= sizeof e->sizes)
        return "sizes must look like 4096x4096x4096";
    snprintf(e->sizes, sizeof e->sizes, "%s", f[6]);
    if (!tsv_copy_text(e->kernel, sizeof e->kernel, f[7]))
        return "empty or overlong kernel file name";
    if (!tsv_hash_ok(f[8]))
        return "kernel_fnv1a must be 16 hex digits";
    tsv_copy_hash(e->kernel_fnv1a, f[8]);
    snprintf(e->driver, sizeof e->driver, "%s", f[9]);
    snprintf(e->date, sizeof e->date, "%s", f[10]);
    char msg[LADDER_MSG];
    if (f[11][0] && gemm_parse_precision(f[11], &e->precision, msg) != LADDER_OK)
        return "precision must be single or double";
    if (f[12][0] && gemm_parse_trans(f[12], &e->trans_a, &e->trans_b, msg) != LADDER_OK)
        return "trans must be NN, NT, TN or TT";
    return NULL;
}

/* What reading one file needs: the database, and where this file's entries start. */
typedef struct {
    tuning_db *db;
    int first;
    char oom[LADDER_MSG];
} file_reader;

static const char *read_line(void *ctx, char **f)
{
    file_reader *rd = ctx;
    tuning_db *db = rd->db;
    tuning_entry e;
    const char *bad = parse_entry(f, &e);
    if (bad)
        return bad;
    e.file = db->nfiles;
    /* Within one file the last line of a key wins, as between files. */
    for (int i = rd->first; i < db->count; i++)
        if (same_key(&db->entries[i], &e)) {
            db->entries[i] = e;
            return NULL;
        }
    return append(db, &e, rd->oom) == LADDER_OK ? NULL : rd->oom;
}

ladder_status tuning_db_read(tuning_db *db, const char *path, int *found, char *msg)
{
    ladder_status st;
    FILE *file = tsv_open(path, "tuning database", found, &st, msg);
    if (!file)
        return st;
    char **files = realloc(db->files, (size_t)(db->nfiles + 1) * sizeof *files);
    char *copy = strdup(path);
    if (files)
        db->files = files;
    if (!files || !copy) {
        free(copy);
        fclose(file);
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the tuning database");
    }
    file_reader rd = {.db = db, .first = db->count};
    st = tsv_read(file, path, TUNING_DB_MIN_FIELDS, TUNING_DB_FIELDS, read_line, &rd, msg);
    fclose(file);
    if (st == LADDER_OK) {
        db->files[db->nfiles++] = copy;
    } else {
        db->count = rd.first; /* a corrupt file: none of its entries */
        free(copy);
    }
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

static int write_entries(void *ctx, FILE *f)
{
    const tuning_db *db = ctx;
    for (int i = 0; i < db->count; i++) {
        const tuning_entry *e = &db->entries[i];
        char trans[3];
        if (fprintf(f, "%s\t%s\t%d\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
                    e->backend, e->device, e->rung, size_class_name(e->cls), e->params,
                    e->gflops, e->sizes, e->kernel, e->kernel_fnv1a, e->driver, e->date,
                    gemm_precision_name(e->precision),
                    gemm_trans_name(e->trans_a, e->trans_b, trans)) < 0)
            return -1;
    }
    return 0;
}

ladder_status tuning_db_write(const tuning_db *db, const char *path, char *msg)
{
    return tsv_write(path, "tuning database", header, write_entries, (void *)db, msg);
}

/* Whether `have` was measured with the kernel source `e` was: the same code hash, or, on
 * an older line, the bytes hash of e's file. */
static int same_source(const tuning_entry *have, const tuning_entry *e)
{
    return strcmp(have->kernel_fnv1a, e->kernel_fnv1a) == 0 ||
           (e->kernel_bytes_fnv1a[0] && strcmp(have->kernel_fnv1a, e->kernel_bytes_fnv1a) == 0);
}

ladder_status tuning_db_offer(tuning_db *db, const tuning_entry *e, tuning_offer *what,
                              tuning_entry *old, char *msg)
{
    for (int i = 0; i < db->count; i++) {
        tuning_entry *have = &db->entries[i];
        if (!same_key(have, e))
            continue;
        *old = *have;
        if (!same_source(have, e))
            *what = TUNING_REPLACED_STALE;
        else if (e->gflops > have->gflops || strcmp(have->params, e->params) == 0)
            *what = TUNING_REPLACED;
        else {
            *what = TUNING_KEPT;
            return LADDER_OK;
        }
        int file = have->file;
        *have = *e;
        have->file = file;
        return LADDER_OK;
    }
    *what = TUNING_ADDED;
    return append(db, e, msg);
}
