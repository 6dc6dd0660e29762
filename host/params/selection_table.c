#include "params/selection_table.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params/tsv.h"

static const char header[] =
    "# gemm-ladder selection table, written by `ladder select` (README.md, \"The\n"
    "# shape-aware entry\"): for each backend, device and shape, the rung and parameters\n"
    "# that ran fastest there, and the vendor library measured in the same run.\n"
    "# Fields are separated by tabs; lines that start with '#' are comments.\n"
    "#   backend         opencl or cuda\n"
    "#   device          the device name as the driver reports it (ladder devices)\n"
    "#   shape           MxNxK (column-major: C is MxN, A MxK, B KxN)\n"
    "#   class           the shape's class (square, long-k, small-k, skinny-m, skinny-n,\n"
    "#                   gemv, llm, odd), for people: ladder run computes it\n"
    "#   rung            the rung chosen\n"
    "#   params          every parameter of that rung, as ladder run --param takes them\n"
    "#   gflops          what it reached (few repetitions: indicative)\n"
    "#   library         the vendor library measured beside it (cublas, clblast), or none\n"
    "#   library_gflops  what the library reached in the same run\n"
    "#   kernel          the rung's kernel file\n"
    "#   kernel_fnv1a    FNV-1a 64-bit hash of that file's code, comments stripped (an\n"
    "#                   older line's: of its bytes): ladder run ignores the entry once\n"
    "#                   the code has changed\n"
    "#   driver          the driver the device reported (for the record)\n"
    "#   date            when it was measured (UTC)\n"
    "# ladder run --rungs auto runs, for each shape, the entry of that shape, else of the\n"
    "# nearest shape of its class, else a built-in rule's choice.\n"
    "backend\tdevice\tshape\tclass\trung\tparams\tgflops\tlibrary\tlibrary_gflops\tkernel"
    "\tkernel_fnv1a\tdriver\tdate\n";

void selection_table_init(selection_table *t) { memset(t, 0, sizeof *t); }

void selection_table_free(selection_table *t)
{
    free(t->entries);
    selection_table_init(t);
}

static int same_key(const selection_entry *a, const selection_entry *b)
{
    return strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) == 0 &&
           a->M == b->M && a->N == b->N && a->K == b->K;
}

selection_entry *selection_table_find(selection_table *t, const char *backend,
                                      const char *device, long M, long N, long K)
{
    for (int i = 0; i < t->count; i++) {
        selection_entry *e = &t->entries[i];
        if (strcmp(e->backend, backend) == 0 && strcmp(e->device, device) == 0 && e->M == M &&
            e->N == N && e->K == K)
            return e;
    }
    return NULL;
}

ladder_status selection_table_put(selection_table *t, const selection_entry *e, char *msg)
{
    for (int i = 0; i < t->count; i++)
        if (same_key(&t->entries[i], e)) {
            t->entries[i] = *e;
            return LADDER_OK;
        }
    if (tsv_reserve((void **)&t->entries, &t->capacity, t->count, sizeof *t->entries))
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the selection table");
    t->entries[t->count++] = *e;
    return LADDER_OK;
}

/* ---- reading ------------------------------------------------------------------------ */

/* One dimension of a shape: digits, at least 1, at most a million. */
static const char *dimension(const char *s, long *out)
{
    if (!isdigit((unsigned char)*s))
        return NULL;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || v < 1 || v > 1000000)
        return NULL;
    *out = v;
    return end;
}

/* "4096x4096x4096" */
static int parse_shape(const char *s, selection_entry *e)
{
    long *dims[3] = {&e->M, &e->N, &e->K};
    for (int d = 0; d < 3; d++) {
        s = dimension(s, dims[d]);
        if (!s || *s != (d < 2 ? 'x' : '\0'))
            return 0;
        s++;
    }
    return 1;
}

/* Fills `e` from the fields of one line; returns what is wrong, or NULL. */
static const char *parse_entry(char **f, selection_entry *e)
{
    memset(e, 0, sizeof *e);
    const char *bad = tsv_backend_device(f, e->backend, e->device, sizeof e->device);
    if (bad)
        return bad;
    if (!parse_shape(f[2], e))
        return "shape must look like 4096x4096x4096 (each from 1 to 1000000)";
    if (shape_class_parse(f[3], &e->label) != 0)
        return "class must be square, long-k, small-k, skinny-m, skinny-n, gemv, llm or odd";
    char *end;
    errno = 0;
    long rung = strtol(f[4], &end, 10);
    if (!*f[4] || *end || errno || rung < 1 || rung > 1000)
        return "rung must be a rung number";
    e->rung = (int)rung;
    if (!tsv_params_ok(f[5]) || strlen(f[5]) >= sizeof e->params)
        return "params must look like TSM=64 TSN=64";
    snprintf(e->params, sizeof e->params, "%s", f[5]);
    if (!tsv_number(f[6], &e->gflops))
        return "gflops must be a non-negative number";
    if (!tsv_copy_text(e->library, sizeof e->library, f[7]))
        return "library must name the vendor library (or be none)";
    if (!tsv_number(f[8], &e->library_gflops))
        return "library_gflops must be a non-negative number";
    if (!tsv_copy_text(e->kernel, sizeof e->kernel, f[9]))
        return "empty or overlong kernel file name";
    if (!tsv_hash_ok(f[10]))
        return "kernel_fnv1a must be 16 hex digits";
    tsv_copy_hash(e->kernel_fnv1a, f[10]);
    snprintf(e->driver, sizeof e->driver, "%s", f[11]);
    snprintf(e->date, sizeof e->date, "%s", f[12]);
    return NULL;
}

typedef struct {
    selection_table *t;
    char oom[LADDER_MSG];
} file_reader;

static const char *read_line(void *ctx, char **f)
{
    file_reader *rd = ctx;
    selection_entry e;
    const char *bad = parse_entry(f, &e);
    if (bad)
        return bad;
    return selection_table_put(rd->t, &e, rd->oom) == LADDER_OK ? NULL : rd->oom;
}

ladder_status selection_table_read(selection_table *t, const char *path, int *found,
                                   char *msg)
{
    ladder_status st;
    FILE *file = tsv_open(path, "selection table", found, &st, msg);
    if (!file)
        return st;
    /* Read into a table of its own, so a corrupt file adds and replaces nothing. */
    selection_table mine;
    selection_table_init(&mine);
    file_reader rd = {.t = &mine};
    st = tsv_read(file, path, SELECTION_FIELDS, SELECTION_FIELDS, read_line, &rd, msg);
    fclose(file);
    for (int i = 0; i < mine.count && st == LADDER_OK; i++)
        st = selection_table_put(t, &mine.entries[i], msg);
    selection_table_free(&mine);
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

static int write_entries(void *ctx, FILE *f)
{
    const selection_table *t = ctx;
    for (int i = 0; i < t->count; i++) {
        const selection_entry *e = &t->entries[i];
        if (fprintf(f, "%s\t%s\t%ldx%ldx%ld\t%s\t%d\t%s\t%.2f\t%s\t%.2f\t%s\t%s\t%s\t%s\n",
                    e->backend, e->device, e->M, e->N, e->K, shape_class_name(e->label),
                    e->rung, e->params, e->gflops, e->library, e->library_gflops, e->kernel,
                    e->kernel_fnv1a, e->driver, e->date) < 0)
            return -1;
    }
    return 0;
}

ladder_status selection_table_write(const selection_table *t, const char *path, char *msg)
{
    return tsv_write(path, "selection table", header, write_entries, (void *)t, msg);
}
