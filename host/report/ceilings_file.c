#include "report/ceilings_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text_file.h"
#include "params/tsv.h"

/* Lines written before fp64_fma_gflops have five fields. */
#define CEILINGS_FIELDS 6
#define CEILINGS_OLD_FIELDS 5

static const char ceilings_header[] =
    CEILINGS_HEADER_START ", for `ladder plot --ceilings FILE` (plots/README.md): the\n"
    "# measured limits a roofline is drawn against, written by `ladder ceilings --output "
    "FILE`.\n"
    "# One device a line, fields separated by tabs:\n"
    "#   device           the device, as its result rows name it (any part of the name, "
    "any case)\n"
    "#   fp32_fma_gflops  FP32 FMA ceiling: GFLOPS of a kernel that only multiply-adds in "
    "registers\n"
    "#   read_gbps        read bandwidth: GB/s (10^9 bytes per second) of a streaming read\n"
    "#   date             when they were measured\n"
    "#   source           where the measurement is described\n"
    "#   fp64_fma_gflops  FP64 FMA ceiling, the same in double; - when not measured (a device\n"
    "#                    without double); lines written before this field lack it\n";

typedef struct {
    ceilings_entry *entries;
    int count, capacity;
} entry_list;

static const char *read_entry(void *ctx, char **fields)
{
    entry_list *list = ctx;
    if (tsv_reserve((void **)&list->entries, &list->capacity, list->count,
                    sizeof *list->entries) != 0)
        return "out of memory";
    ceilings_entry *e = &list->entries[list->count];
    memset(e, 0, sizeof *e);
    if (!tsv_copy_text(e->device, sizeof e->device, fields[0]))
        return "the device is empty or too long";
    if (!tsv_number(fields[1], &e->fp32_fma_gflops) || e->fp32_fma_gflops <= 0.0)
        return "fp32_fma_gflops is not a positive number";
    if (!tsv_number(fields[2], &e->read_gbps) || e->read_gbps <= 0.0)
        return "read_gbps is not a positive number";
    if (!tsv_copy_text(e->date, sizeof e->date, fields[3]))
        return "the date is empty or too long";
    if (fields[4][0] == '\0')
        return "the source is empty: say where the figures were measured";
    if (!tsv_copy_text(e->source, sizeof e->source, fields[4]))
        return "the source is too long";
    if (fields[5][0] != '\0' && strcmp(fields[5], "-") != 0 &&
        (!tsv_number(fields[5], &e->fp64_fma_gflops) || e->fp64_fma_gflops <= 0.0))
        return "fp64_fma_gflops is not a positive number or - (not measured)";
    list->count++;
    return NULL;
}

ladder_status ceilings_file_read(const char *path, ceilings_entry **entries, int *count,
                                 int *found, char *msg)
{
    *entries = NULL;
    *count = 0;
    ladder_status st;
    FILE *f = tsv_open(path, "the ceilings file", found, &st, msg);
    if (!f)
        return st;
    entry_list list = {0};
    st = tsv_read(f, path, CEILINGS_OLD_FIELDS, CEILINGS_FIELDS, read_entry, &list, msg);
    fclose(f);
    if (st != LADDER_OK) {
        free(list.entries);
        return st;
    }
    *entries = list.entries;
    *count = list.count;
    return LADDER_OK;
}

/* A figure with four significant digits at least (65100, 123.4, 1.234); "-" for none. */
static void format_figure(double v, char *out, size_t size)
{
    if (!(v > 0))
        snprintf(out, size, "-");
    else if (v >= 1000)
        snprintf(out, size, "%.0f", v);
    else
        snprintf(out, size, "%.4g", v);
}

/* A field's text with tabs and line breaks made spaces: they would split the line. */
static void clean_field(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
    for (char *p = dst; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
}

typedef struct {
    const char *kept;         /* the old file's lines to keep (after a replaced header) */
    const ceilings_entry *e;  /* the new entry, its text fields cleaned */
} update_job;

/* 1 when the line of `len` bytes at `line` is an entry of the device named `name`. */
static int is_entry_of(const char *line, size_t len, const char *name)
{
    size_t n = strlen(name);
    return line[0] != '#' && len > n && strncmp(line, name, n) == 0 && line[n] == '\t';
}

/* The old lines as they were, the device's line (its first, if it had several) replaced
 * by the new entry, which goes at the end when the device had none. */
static int write_lines(void *ctx, FILE *f)
{
    const update_job *u = ctx;
    const ceilings_entry *e = u->e;
    char fp32[32], read[32], fp64[32], entry[TSV_LINE_MAX];
    format_figure(e->fp32_fma_gflops, fp32, sizeof fp32);
    format_figure(e->read_gbps, read, sizeof read);
    format_figure(e->fp64_fma_gflops, fp64, sizeof fp64);
    snprintf(entry, sizeof entry, "%s\t%s\t%s\t%s\t%s\t%s\n", e->device, fp32, read, e->date,
             e->source, fp64);
    int placed = 0, failed = 0;
    for (const char *p = u->kept; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (!is_entry_of(p, len, e->device))
            failed |= fprintf(f, "%.*s\n", (int)len, p) < 0;
        else if (!placed)
            failed |= fputs(entry, f) < 0;
        placed |= is_entry_of(p, len, e->device);
        p += len + (end ? 1 : 0);
    }
    if (!placed)
        failed |= fputs(entry, f) < 0;
    return failed;
}

/* Past the leading '#' lines of `text`. */
static const char *after_comments(const char *text)
{
    while (*text == '#') {
        const char *end = strchr(text, '\n');
        text = end ? end + 1 : text + strlen(text);
    }
    return text;
}

ladder_status ceilings_file_update(const char *path, const ceilings_entry *e, int fresh,
                                   char *msg)
{
    ceilings_entry clean = *e;
    clean_field(clean.device, sizeof clean.device, e->device);
    clean_field(clean.date, sizeof clean.date, e->date);
    clean_field(clean.source, sizeof clean.source, e->source);
    update_job job = {.kept = NULL, .e = &clean};
    const char *header = ceilings_header;
    char *text = NULL;
    if (!fresh) {
        ceilings_entry *old = NULL;
        int count = 0, found = 0;
        ladder_status st = ceilings_file_read(path, &old, &count, &found, msg);
        free(old);
        if (st == LADDER_OK && found)
            st = text_file_read(path, &text, NULL, msg);
        if (st != LADDER_OK)
            return st;
        /* The project's own header is replaced by the current one (it may describe fewer
         * fields); someone else's comments are theirs to keep. */
        if (text && strncmp(text, CEILINGS_HEADER_START, strlen(CEILINGS_HEADER_START)) == 0) {
            job.kept = after_comments(text);
        } else if (text && text[strspn(text, " \t\r\n")] != '\0') {
            job.kept = text;
            header = "";
        }
    }
    ladder_status st = tsv_write(path, "the ceilings file", header, write_lines, &job, msg);
    free(text);
    return st;
}
