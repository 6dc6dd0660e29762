#include "params/tuning_db.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CHARS 4096

static const char header[] =
    "# gemm-ladder tuning database, written by `ladder tune` (README.md, \"Tuning\").\n"
    "# One line per backend, device, rung and size class: the fastest parameters found.\n"
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
    "#   kernel_fnv1a  FNV-1a 64-bit hash of that file: ladder run ignores the entry\n"
    "#                 once the file has changed\n"
    "#   driver        the driver the device reported (for the record)\n"
    "#   date          when the search ended (UTC)\n"
    "# ladder run uses the entry of its backend, device, rung and the size's class,\n"
    "# unless --defaults or --param is given for that rung.\n"
    "backend\tdevice\trung\tsize_class\tparams\tgflops\tsizes\tkernel\tkernel_fnv1a\tdriver"
    "\tdate\n";

void tuning_db_init(tuning_db *db) { memset(db, 0, sizeof *db); }

void tuning_db_free(tuning_db *db)
{
    for (int i = 0; i < db->nfiles; i++)
        free(db->files[i]);
    free(db->files);
    free(db->entries);
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
    if (db->count == db->capacity) {
        int capacity = db->capacity ? 2 * db->capacity : 16;
        tuning_entry *grown = realloc(db->entries, (size_t)capacity * sizeof *grown);
        if (!grown)
            return ladder_fail(msg, LADDER_ERROR, "out of memory for the tuning database");
        db->entries = grown;
        db->capacity = capacity;
    }
    db->entries[db->count++] = *e;
    return LADDER_OK;
}

static int same_key(const tuning_entry *a, const tuning_entry *b)
{
    return strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) == 0 &&
           a->rung == b->rung && a->cls == b->cls;
}

/* ---- reading ------------------------------------------------------------------------ */

/* "TS=16 WPT=4": names of letters, digits and '_', integer values, single spaces. */
static int params_ok(const char *s)
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

static int hash_ok(const char *s)
{
    if (strlen(s) != SOURCE_HASH_HEX - 1)
        return 0;
    for (; *s; s++)
        if (!isxdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Splits at tabs; returns the number of fields. */
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

/* Fills `e` from the fields of one line; returns what is wrong, or NULL. */
static const char *parse_entry(char **f, tuning_entry *e)
{
    memset(e, 0, sizeof *e);
    if (strcmp(f[0], "opencl") != 0 && strcmp(f[0], "cuda") != 0)
        return "backend must be opencl or cuda";
    snprintf(e->backend, sizeof e->backend, "%s", f[0]);
    if (!*f[1] || strlen(f[1]) >= sizeof e->device)
        return "empty or overlong device name";
    snprintf(e->device, sizeof e->device, "%s", f[1]);
    char *end;
    errno = 0;
    long rung = strtol(f[2], &end, 10);
    if (!*f[2] || *end || errno || rung < 1 || rung > 1000)
        return "rung must be a rung number";
    e->rung = (int)rung;
    if (size_class_parse(f[3], &e->cls) != 0)
        return "size_class must be small, large or skinny";
    if (!params_ok(f[4]) || strlen(f[4]) >= sizeof e->params)
        return "params must look like TS=16 WPT=4";
    snprintf(e->params, sizeof e->params, "%s", f[4]);
    e->gflops = strtod(f[5], &end);
    if (!*f[5] || *end || !isfinite(e->gflops) || e->gflops < 0)
        return "gflops must be a non-negative number";
    if (!sizes_ok(f[6]) || strlen(f[6]) >= sizeof e->sizes)
        return "sizes must look like 4096x4096x4096";
    snprintf(e->sizes, sizeof e->sizes, "%s", f[6]);
    if (!*f[7] || strlen(f[7]) >= sizeof e->kernel)
        return "empty or overlong kernel file name";
    snprintf(e->kernel, sizeof e->kernel, "%s", f[7]);
    if (!hash_ok(f[8]))
        return "kernel_fnv1a must be 16 hex digits";
    snprintf(e->kernel_fnv1a, sizeof e->kernel_fnv1a, "%s", f[8]);
    for (char *p = e->kernel_fnv1a; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    snprintf(e->driver, sizeof e->driver, "%s", f[9]);
    snprintf(e->date, sizeof e->date, "%s", f[10]);
    return NULL;
}

/* Adds the entries of an open file; on a corrupt line, removes what it added. */
static ladder_status read_entries(tuning_db *db, FILE *file, const char *path, char *msg)
{
    int first = db->count, lineno = 0;
    char line[LINE_MAX_CHARS + 2];
    ladder_status st = LADDER_OK;
    while (st == LADDER_OK && fgets(line, sizeof line, file)) {
        lineno++;
        size_t len = strlen(line);
        if (len > LINE_MAX_CHARS) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: line longer than %d characters",
                             path, lineno, LINE_MAX_CHARS);
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *f[TUNING_DB_FIELDS + 1];
        int n = split_tabs(line, f, TUNING_DB_FIELDS);
        if (strcmp(f[0], "backend") == 0)
            continue; /* the column header */
        if (n != TUNING_DB_FIELDS) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: expected %d tab-separated fields, "
                             "found %s%d", path, lineno, TUNING_DB_FIELDS,
                             n > TUNING_DB_FIELDS ? "more than " : "",
                             n > TUNING_DB_FIELDS ? TUNING_DB_FIELDS : n);
            break;
        }
        tuning_entry e;
        const char *bad = parse_entry(f, &e);
        if (bad) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: %s", path, lineno, bad);
            break;
        }
        e.file = db->nfiles;
        /* Within one file the last line of a key wins, as between files. */
        int replaced = 0;
        for (int i = first; i < db->count && !replaced; i++)
            if (same_key(&db->entries[i], &e)) {
                db->entries[i] = e;
                replaced = 1;
            }
        if (!replaced)
            st = append(db, &e, msg);
    }
    if (st == LADDER_OK && ferror(file))
        st = ladder_fail(msg, LADDER_ERROR, "%s: read error", path);
    if (st != LADDER_OK)
        db->count = first;
    return st;
}

ladder_status tuning_db_read(tuning_db *db, const char *path, int *found, char *msg)
{
    *found = 0;
    FILE *file = fopen(path, "r");
    if (!file) {
        if (errno == ENOENT)
            return LADDER_OK;
        return ladder_fail(msg, LADDER_ERROR, "cannot read tuning database %s: %s", path,
                           strerror(errno));
    }
    *found = 1;
    char **files = realloc(db->files, (size_t)(db->nfiles + 1) * sizeof *files);
    char *copy = strdup(path);
    if (files)
        db->files = files;
    if (!files || !copy) {
        free(copy);
        fclose(file);
        return ladder_fail(msg, LADDER_ERROR, "out of memory for the tuning database");
    }
    ladder_status st = read_entries(db, file, path, msg);
    fclose(file);
    if (st == LADDER_OK)
        db->files[db->nfiles++] = copy;
    else
        free(copy);
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

ladder_status tuning_db_write(const tuning_db *db, const char *path, char *msg)
{
    char partial[4096];
    snprintf(partial, sizeof partial, "%s.partial", path);
    FILE *f = fopen(partial, "w");
    if (!f)
        return ladder_fail(msg, LADDER_ERROR, "cannot write tuning database %s: %s", partial,
                           strerror(errno));
    int failed = fputs(header, f) < 0;
    for (int i = 0; i < db->count && !failed; i++) {
        const tuning_entry *e = &db->entries[i];
        failed = fprintf(f, "%s\t%s\t%d\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n", e->backend,
                         e->device, e->rung, size_class_name(e->cls), e->params, e->gflops,
                         e->sizes, e->kernel, e->kernel_fnv1a, e->driver, e->date) < 0;
    }
    if (fclose(f) != 0)
        failed = 1;
    if (failed || rename(partial, path) != 0) {
        ladder_fail(msg, LADDER_ERROR, "cannot write tuning database %s: %s", path,
                    strerror(errno));
        remove(partial);
        return LADDER_ERROR;
    }
    return LADDER_OK;
}

ladder_status tuning_db_offer(tuning_db *db, const tuning_entry *e, tuning_offer *what,
                              tuning_entry *old, char *msg)
{
    for (int i = 0; i < db->count; i++) {
        tuning_entry *have = &db->entries[i];
        if (!same_key(have, e))
            continue;
        *old = *have;
        if (strcmp(have->kernel_fnv1a, e->kernel_fnv1a) != 0)
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
