#include "params/tsv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/source_hash.h"

FILE *tsv_open(const char *path, const char *what, int *found, ladder_status *st, char *msg)
{
    *found = 0;
    *st = LADDER_OK;
    FILE *f = fopen(path, "r");
    if (f) {
        *found = 1;
        return f;
    }
    if (errno != ENOENT) {
        *found = 1;
        *st = ladder_fail(msg, LADDER_ERROR, "cannot read %s %s: %s", what, path,
                          strerror(errno));
    }
    return NULL;
}

/* Splits at tabs; returns the number of fields (max + 1 when there are more). */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n == max)
            return max + 1;
        fields[n++] = p;
        p = strchr(p, '\t');
        if (!p)
            return n;
        *p = '\0';
    }
}

#define TSV_MAX_FIELDS 32

ladder_status tsv_read(FILE *f, const char *path, int min_fields, int nfields,
                       tsv_line_fn fn, void *ctx, char *msg)
{
    static char empty[] = "";
    char line[TSV_LINE_MAX + 2];
    char *fields[TSV_MAX_FIELDS + 1];
    int lineno = 0;
    if (nfields > TSV_MAX_FIELDS)
        return ladder_fail(msg, LADDER_ERROR, "%s: too many fields to read", path);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len > TSV_LINE_MAX)
            return ladder_fail(msg, LADDER_ERROR, "%s:%d: line longer than %d characters",
                               path, lineno, TSV_LINE_MAX);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        int n = split_tabs(line, fields, nfields);
        if (strcmp(fields[0], "backend") == 0)
            continue; /* the column header */
        if (n < min_fields || n > nfields)
            return ladder_fail(msg, LADDER_ERROR, "%s:%d: expected %d tab-separated fields, "
                               "found %s%d", path, lineno, nfields,
                               n > nfields ? "more than " : "", n > nfields ? nfields : n);
        for (int i = n; i < nfields; i++)
            fields[i] = empty;
        const char *bad = fn(ctx, fields);
        if (bad)
            return ladder_fail(msg, LADDER_ERROR, "%s:%d: %s", path, lineno, bad);
    }
    if (ferror(f))
        return ladder_fail(msg, LADDER_ERROR, "%s: read error", path);
    return LADDER_OK;
}

ladder_status tsv_write(const char *path, const char *what, const char *header,
                        tsv_write_fn fn, void *ctx, char *msg)
{
    char partial[4096];
    snprintf(partial, sizeof partial, "%s.partial", path);
    FILE *f = fopen(partial, "w");
    if (!f)
        return ladder_fail(msg, LADDER_ERROR, "cannot write %s %s: %s", what, partial,
                           strerror(errno));
    int failed = fputs(header, f) < 0 || fn(ctx, f) != 0;
    if (fclose(f) != 0)
        failed = 1;
    if (failed || rename(partial, path) != 0) {
        ladder_fail(msg, LADDER_ERROR, "cannot write %s %s: %s", what, path, strerror(errno));
        remove(partial);
        return LADDER_ERROR;
    }
    return LADDER_OK;
}

int tsv_reserve(void **items, int *capacity, int count, size_t size)
{
    if (count < *capacity)
        return 0;
    int grown_capacity = *capacity ? 2 * *capacity : 16;
    void *grown = realloc(*items, (size_t)grown_capacity * size);
    if (!grown)
        return -1;
    *items = grown;
    *capacity = grown_capacity;
    return 0;
}

int tsv_params_ok(const char *s)
{
    if (!*s)
        return 0;
    while (*s) {
        if (!isalpha((unsigned char)*s) && *s != '_')
            return 0;
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        if (*s++ != '=')
            return 0;
        if (*s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s))
            s++;
        if (*s == ' ')
            s++;
        else if (*s)
            return 0;
    }
    return 1;
}

int tsv_hash_ok(const char *s)
{
    if (strlen(s) != SOURCE_HASH_HEX - 1)
        return 0;
    for (; *s; s++)
        if (!isxdigit((unsigned char)*s))
            return 0;
    return 1;
}

void tsv_copy_hash(char *dst, const char *hash)
{
    snprintf(dst, SOURCE_HASH_HEX, "%s", hash);
    for (char *p = dst; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

int tsv_copy_text(char *dst, size_t size, const char *field)
{
    if (!*field || strlen(field) >= size)
        return 0;
    snprintf(dst, size, "%s", field);
    return 1;
}

int tsv_number(const char *field, double *out)
{
    char *end;
    double v = strtod(field, &end);
    if (!*field || *end || !isfinite(v) || v < 0)
        return 0;
    *out = v;
    return 1;
}

const char *tsv_backend_device(char **fields, char *backend, char *device, size_t size)
{
    if (strcmp(fields[0], "opencl") != 0 && strcmp(fields[0], "cuda") != 0)
        return "backend must be opencl or cuda";
    snprintf(backend, 16, "%s", fields[0]);
    if (!tsv_copy_text(device, size, fields[1]))
        return "empty or overlong device name";
    return NULL;
}
