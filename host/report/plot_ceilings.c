/* The measured ceilings of devices, for the roofline (`ladder plot --ceilings FILE`): the
 * file's format is report/ceilings_file.h's; here its entries are given to the devices of
 * the plot model whose names they match (any part, any case, as --peak matches). The
 * roofline is FP32's, so an entry's FP64 FMA ceiling is read (and checked) but not drawn.
 */
#include "report/plot_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ceilings_file.h"

ladder_status plot_model_set_ceilings(plot_model *m, const char *path, char *msg)
{
    ceilings_entry *entries = NULL;
    int count = 0, found = 0;
    ladder_status st = ceilings_file_read(path, &entries, &count, &found, msg);
    if (st == LADDER_OK && !found)
        return ladder_fail(msg, LADDER_ERROR, "--ceilings %s: no such file", path);
    if (st == LADDER_OK && count == 0)
        st = ladder_fail(msg, LADDER_ERROR, "--ceilings %s: no entries in it (device, "
                         "fp32_fma_gflops, read_gbps, date, source, separated by tabs)", path);
    for (int i = 0; i < count && st == LADDER_OK; i++) {
        const ceilings_entry *e = &entries[i];
        int matched = 0;
        for (int d = 0; d < m->ndevices; d++) {
            if (!plot_name_matches(m->devices[d].name, e->device))
                continue;
            m->devices[d].fma_gflops = e->fp32_fma_gflops;
            m->devices[d].read_gbps = e->read_gbps;
            snprintf(m->devices[d].ceilings_date, sizeof m->devices[d].ceilings_date, "%s",
                     e->date);
            matched++;
        }
        if (!matched)
            fprintf(stderr, "ladder plot: note: %s: the ceilings of '%s' match no device in "
                            "the result files\n", path, e->device);
    }
    free(entries);
    return st;
}
