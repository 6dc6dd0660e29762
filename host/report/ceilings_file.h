/* The ceilings file: devices' measured FMA ceilings and read bandwidths, which
 * `ladder ceilings --output FILE` writes and `ladder plot --ceilings FILE` draws rooflines
 * against (plots/README.md).
 *
 * A roofline needs limits that no result row holds: how fast the device multiply-adds
 * when nothing else limits it, and how fast it reads memory. Both are measurements of
 * their own (core/ceilings.h), so they come from a small file that says where they came
 * from, never from a datasheet or a guess. The file is tab-separated text, one device a
 * line, '#' lines and empty lines comments:
 *
 *     device                 fp32_fma_gflops  read_gbps  date        source  fp64_fma_gflops
 *     NVIDIA H100 80GB HBM3  65100            3066       2026-11-24  ...     -
 *
 * fp64_fma_gflops came later, so it is last: lines written before it have five fields and
 * still read; "-" (or nothing) says it was not measured (a device without double).
 * `device` is matched against result rows' device names as --peak is (any part, any case).
 */
#ifndef LADDER_CEILINGS_FILE_H
#define LADDER_CEILINGS_FILE_H

#include "base/status.h"

typedef struct {
    char device[256];
    double fp32_fma_gflops, read_gbps;
    double fp64_fma_gflops; /* 0: not measured */
    char date[32];
    char source[512];
} ceilings_entry;

/* The first words of the header `ladder ceilings` writes: a file that starts with them has
 * its header replaced by the current one when it is updated. */
#define CEILINGS_HEADER_START "# gemm-ladder device ceilings"

/* Reads every entry of the file at `path` into *entries (free it), *count of them.
 * A missing file: LADDER_OK, *found = 0, no entries. A file that cannot be read or holds
 * a line that is not an entry: LADDER_ERROR with "PATH:LINE: what is wrong" in msg. */
ladder_status ceilings_file_read(const char *path, ceilings_entry **entries, int *count,
                                 int *found, char *msg);

/* Writes `e` into the file at `path`: the line of the same device (the same name exactly)
 * is replaced, every other line kept as it was (other devices, comments); a device not in
 * it yet is added at the end. A missing file, or any file when `fresh` is set, is
 * written anew: the header and this one line. A file that is not a ceilings file is
 * refused (LADDER_ERROR, nothing written). The file is written whole to PATH.partial and
 * renamed, so it is never left half written. */
ladder_status ceilings_file_update(const char *path, const ceilings_entry *e, int fresh,
                                   char *msg);

#endif
