/* Result files: writer (append to .partial, rename when complete) and reader. */
#include "core/results.h"
#include "base/paths.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The schema: column names in order. README.md documents each one. */
static const char *const columns[] = {
    "date", "version", "host", "backend", "device", "vendor", "driver",
    "compute_units", "clock_mhz", "peak_gflops", "rung", "rung_name", "params",
    "param_source", "M", "N", "K", "reps", "median_ms", "min_ms", "max_ms", "gflops",
    "vs_library", "library", "error_ratio", "verify", "status", "reason", "seed",
};
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))

const char *results_header(void)
{
    static char header[512];
    if (!header[0]) {
        size_t used = 0;
        for (int i = 0; i < NCOLUMNS; i++)
            used += (size_t)snprintf(header + used, sizeof header - used, "%s%s",
                                     i ? "," : "", columns[i]);
    }
    return header;
}

struct results_writer {
    FILE *file;
    char *path;
    char *partial;
};

ladder_status results_open(const char *path, results_writer **out, char *msg)
{
    char ignored[LADDER_MSG];
    make_parent_dirs(path, ignored); /* a folder that cannot be made fails at fopen below */
    results_writer *w = calloc(1, sizeof *w);
    if (!w)
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    size_t n = strlen(path);
    w->path = malloc(n + 1);
    w->partial = malloc(n + sizeof ".partial");
    if (!w->path || !w->partial) {
        free(w->path);
        free(w->partial);
        free(w);
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    }
    memcpy(w->path, path, n + 1);
    snprintf(w->partial, n + sizeof ".partial", "%s.partial", path);
    w->file = fopen(w->partial, "w");
    if (!w->file) {
        ladder_fail(msg, LADDER_ERROR, "cannot write result file %s: %s", w->partial,
                    strerror(errno));
        free(w->path);
        free(w->partial);
        free(w);
        return LADDER_ERROR;
    }
    fprintf(w->file, "%s\n", results_header());
    fflush(w->file);
    *out = w;
    return LADDER_OK;
}

/* Appends a CSV field, quoted when it holds a comma, a quote or a newline. */
static size_t put_field(char *out, size_t size, size_t used, const char *s, int first)
{
    if (used + 1 >= size)
        return used;
    if (!first)
        out[used++] = ',';
    int quote = strpbrk(s, ",\"\n\r") != NULL;
    if (quote && used + 1 < size)
        out[used++] = '"';
    for (; *s && used + 2 < size; s++) {
        if (*s == '"')
            out[used++] = '"';
        out[used++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
    }
    if (quote && used + 1 < size)
        out[used++] = '"';
    out[used] = '\0';
    return used;
}

void results_format_row(const result_row *r, char *out, size_t size)
{
    char num[NCOLUMNS][64];
    snprintf(num[7], 64, "%d", r->compute_units);
    snprintf(num[8], 64, "%d", r->clock_mhz);
    if (r->peak_gflops > 0)
        snprintf(num[9], 64, "%.0f", r->peak_gflops);
    else
        num[9][0] = '\0';
    snprintf(num[10], 64, "%d", r->rung);
    snprintf(num[14], 64, "%ld", r->M);
    snprintf(num[15], 64, "%ld", r->N);
    snprintf(num[16], 64, "%ld", r->K);
    snprintf(num[17], 64, "%d", r->reps);
    /* Timing and rates are written only for measured rows; others leave them empty. */
    int timed = r->median_ms > 0;
    snprintf(num[18], 64, timed ? "%.6g" : "", r->median_ms);
    snprintf(num[19], 64, timed ? "%.6g" : "", r->min_ms);
    snprintf(num[20], 64, timed ? "%.6g" : "", r->max_ms);
    snprintf(num[21], 64, timed ? "%.2f" : "", r->gflops);
    snprintf(num[22], 64, r->vs_library > 0 ? "%.4f" : "", r->vs_library);
    snprintf(num[24], 64, r->error_ratio >= 0 && strcmp(r->verify, "off") != 0 && timed
                              ? "%.4g" : "", r->error_ratio);
    snprintf(num[28], 64, "%llu", r->seed);

    const char *fields[NCOLUMNS] = {
        r->date, r->version, r->host, r->backend, r->device, r->vendor, r->driver,
        num[7], num[8], num[9], num[10], r->rung_name, r->params, r->param_source,
        num[14], num[15], num[16], num[17], num[18], num[19], num[20], num[21], num[22],
        r->library, num[24], r->verify, r->status, r->reason, num[28],
    };
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < NCOLUMNS; i++)
        used = put_field(out, size, used, fields[i], i == 0);
}

ladder_status results_append(results_writer *w, const result_row *row, char *msg)
{
    char line[4096];
    results_format_row(row, line, sizeof line);
    if (fprintf(w->file, "%s\n", line) < 0 || fflush(w->file) != 0)
        return ladder_fail(msg, LADDER_ERROR, "writing %s: %s", w->partial, strerror(errno));
    return LADDER_OK;
}

static void writer_free(results_writer *w)
{
    free(w->path);
    free(w->partial);
    free(w);
}

ladder_status results_close(results_writer *w, char *msg)
{
    ladder_status st = LADDER_OK;
    if (fclose(w->file) != 0)
        st = ladder_fail(msg, LADDER_ERROR, "closing %s: %s", w->partial, strerror(errno));
    else if (rename(w->partial, w->path) != 0)
        st = ladder_fail(msg, LADDER_ERROR, "renaming %s to %s: %s", w->partial, w->path,
                         strerror(errno));
    if (st != LADDER_OK)
        remove(w->partial);
    writer_free(w);
    return st;
}

void results_discard(results_writer *w)
{
    fclose(w->file);
    remove(w->partial);
    writer_free(w);
}

/* ---- reader ------------------------------------------------------------------------ */

/* Splits one CSV line into fields (RFC 4180 quoting). Returns the number of fields, or
 * -1 for an unterminated quote. Fields point into `line`, which is modified. */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return max + 1;
        char *out = p;
        fields[n++] = p;
        if (*p == '"') {
            char *in = p + 1;
            for (;;) {
                if (*in == '\0')
                    return -1;
                if (*in == '"' && in[1] == '"') {
                    *out++ = '"';
                    in += 2;
                } else if (*in == '"') {
                    in++;
                    break;
                } else {
                    *out++ = *in++;
                }
            }
            p = in;
            if (*p != ',' && *p != '\0')
                return -1;
        } else {
            while (*p && *p != ',')
                p++;
            out = p;
        }
        int last = *p == '\0';
        *out = '\0';
        if (last)
            return n;
        p++;
    }
}

static int parse_double(const char *s, double *v)
{
    if (!*s) {
        *v = 0;
        return 1;
    }
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && errno == 0;
}

static int parse_long(const char *s, long *v)
{
    if (!*s) {
        *v = 0;
        return 1;
    }
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return *end == '\0' && errno == 0;
}

static void copy_field(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

/* Fills `row` from the fields, mapped by header position. Returns the name of the column
 * that failed to parse, or NULL. */
static const char *row_from_fields(char **f, const int *col, result_row *row)
{
    memset(row, 0, sizeof *row);
#define TEXT(member, name) copy_field(row->member, sizeof row->member, f[col[name]])
    TEXT(date, 0); TEXT(version, 1); TEXT(host, 2); TEXT(backend, 3); TEXT(device, 4);
    TEXT(vendor, 5); TEXT(driver, 6); TEXT(rung_name, 11); TEXT(params, 12);
    TEXT(param_source, 13); TEXT(library, 23); TEXT(verify, 25); TEXT(status, 26);
    TEXT(reason, 27);
#undef TEXT
    long l;
    double d;
    if (!parse_long(f[col[7]], &l)) return columns[7];
    row->compute_units = (int)l;
    if (!parse_long(f[col[8]], &l)) return columns[8];
    row->clock_mhz = (int)l;
    if (!parse_double(f[col[9]], &row->peak_gflops)) return columns[9];
    if (!parse_long(f[col[10]], &l)) return columns[10];
    row->rung = (int)l;
    if (!parse_long(f[col[14]], &row->M)) return columns[14];
    if (!parse_long(f[col[15]], &row->N)) return columns[15];
    if (!parse_long(f[col[16]], &row->K)) return columns[16];
    if (!parse_long(f[col[17]], &l)) return columns[17];
    row->reps = (int)l;
    if (!parse_double(f[col[18]], &row->median_ms)) return columns[18];
    if (!parse_double(f[col[19]], &row->min_ms)) return columns[19];
    if (!parse_double(f[col[20]], &row->max_ms)) return columns[20];
    if (!parse_double(f[col[21]], &row->gflops)) return columns[21];
    if (!parse_double(f[col[22]], &row->vs_library)) return columns[22];
    if (!parse_double(f[col[24]], &d)) return columns[24];
    row->error_ratio = d;
    char *end;
    errno = 0;
    row->seed = strtoull(f[col[28]], &end, 10);
    if (*end != '\0' || errno != 0) return columns[28];
    return NULL;
}

/* Maps header names to positions; returns 0 if a column of the schema is missing. */
static int map_header(char **f, int n, int *col, const char **missing)
{
    for (int i = 0; i < NCOLUMNS; i++) {
        col[i] = -1;
        for (int j = 0; j < n; j++)
            if (strcmp(f[j], columns[i]) == 0)
                col[i] = j;
        if (col[i] < 0) {
            *missing = columns[i];
            return 0;
        }
    }
    return 1;
}

ladder_status results_read(const char *path, result_row **rows, int *count, char *msg)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return ladder_fail(msg, LADDER_ERROR, "%s: cannot open: %s", path, strerror(errno));
    char line[8192];
    char *f[NCOLUMNS + 8];
    int col[NCOLUMNS];
    int have_header = 0, header_fields = 0, lineno = 0;
    ladder_status st = LADDER_OK;
    while (fgets(line, sizeof line, file)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: line too long", path, lineno);
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        int n = split_csv(line, f, NCOLUMNS + 7);
        if (n < 0) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: unterminated quoted field", path,
                             lineno);
            break;
        }
        /* A header line (first line, or repeated where files were concatenated). */
        if (strcmp(f[0], "date") == 0) {
            const char *missing;
            if (!map_header(f, n, col, &missing)) {
                st = ladder_fail(msg, LADDER_ERROR,
                                 "%s:%d: header has no column '%s': not a gemm-ladder "
                                 "result file", path, lineno, missing);
                break;
            }
            have_header = 1;
            header_fields = n;
            continue;
        }
        if (!have_header) {
            st = ladder_fail(msg, LADDER_ERROR,
                             "%s:%d: no header line before the first row: not a gemm-ladder "
                             "result file", path, lineno);
            break;
        }
        if (n != header_fields) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: %d fields, the header has %d", path,
                             lineno, n, header_fields);
            break;
        }
        result_row row;
        const char *bad = row_from_fields(f, col, &row);
        if (bad) {
            int i = 0;
            while (columns[i] != bad)
                i++;
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: column %s: '%s' is not a number",
                             path, lineno, bad, f[col[i]]);
            break;
        }
        result_row *grown = realloc(*rows, (size_t)(*count + 1) * sizeof **rows);
        if (!grown) {
            st = ladder_fail(msg, LADDER_ERROR, "out of memory reading %s", path);
            break;
        }
        *rows = grown;
        (*rows)[(*count)++] = row;
    }
    if (st == LADDER_OK && ferror(file))
        st = ladder_fail(msg, LADDER_ERROR, "%s: read error", path);
    if (st == LADDER_OK && !have_header)
        st = ladder_fail(msg, LADDER_ERROR, "%s: empty file: no header line", path);
    fclose(file);
    return st;
}
