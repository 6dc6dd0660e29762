/* The measured ceilings of devices, for the roofline (`ladder plot --ceilings FILE`).
 *
 * A roofline needs two numbers the result files do not hold: how fast the device can
 * multiply-add when nothing else limits it, and how fast it can read memory. Both are
 * measurements of their own (a kernel of register-only FMAs, a streaming read of a large
 * buffer), so they come from a small file that says where they came from, never from a
 * datasheet or a guess. The file is tab-separated text, '#' lines are comments:
 *
 *     device                  fp32_fma_gflops  read_gbps  date        source
 *     NVIDIA H100 80GB HBM3   65100            3066       2026-11-24  results/.../README.md
 *
 * `device` is matched against the devices' names as --peak is (any part, any case).
 */
#include "report/plot_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params/tsv.h"

#define CEILING_FIELDS 5

typedef struct {
    char device[256];
    double fma_gflops, read_gbps;
    char date[32];
} ceiling_entry;

typedef struct {
    ceiling_entry *entries;
    int count, capacity;
} ceiling_list;

static const char *read_entry(void *ctx, char **fields)
{
    ceiling_list *list = ctx;
    if (tsv_reserve((void **)&list->entries, &list->capacity, list->count,
                    sizeof *list->entries) != 0)
        return "out of memory";
    ceiling_entry *e = &list->entries[list->count];
    memset(e, 0, sizeof *e);
    if (!tsv_copy_text(e->device, sizeof e->device, fields[0]))
        return "the device is empty or too long";
    if (!tsv_number(fields[1], &e->fma_gflops) || e->fma_gflops <= 0.0)
        return "fp32_fma_gflops is not a positive number";
    if (!tsv_number(fields[2], &e->read_gbps) || e->read_gbps <= 0.0)
        return "read_gbps is not a positive number";
    if (!tsv_copy_text(e->date, sizeof e->date, fields[3]))
        return "the date is empty or too long";
    if (fields[4][0] == '\0')
        return "the source is empty: say where the figures were measured";
    list->count++;
    return NULL;
}

ladder_status plot_model_set_ceilings(plot_model *m, const char *path, char *msg)
{
    int found;
    ladder_status st;
    FILE *f = tsv_open(path, "the ceilings file", &found, &st, msg);
    if (!f)
        return found ? st : ladder_fail(msg, LADDER_ERROR, "--ceilings %s: no such file", path);
    ceiling_list list = {0};
    st = tsv_read(f, path, CEILING_FIELDS, CEILING_FIELDS, read_entry, &list, msg);
    fclose(f);
    if (st == LADDER_OK && list.count == 0)
        st = ladder_fail(msg, LADDER_ERROR, "--ceilings %s: no entries in it (device, "
                         "fp32_fma_gflops, read_gbps, date, source, separated by tabs)", path);
    for (int i = 0; i < list.count && st == LADDER_OK; i++) {
        const ceiling_entry *e = &list.entries[i];
        int matched = 0;
        for (int d = 0; d < m->ndevices; d++) {
            if (!plot_name_matches(m->devices[d].name, e->device))
                continue;
            m->devices[d].fma_gflops = e->fma_gflops;
            m->devices[d].read_gbps = e->read_gbps;
            snprintf(m->devices[d].ceilings_date, sizeof m->devices[d].ceilings_date, "%s",
                     e->date);
            matched++;
        }
        if (!matched)
            fprintf(stderr, "ladder plot: note: %s: the ceilings of '%s' match no device in "
                            "the result files\n", path, e->device);
    }
    free(list.entries);
    return st;
}
