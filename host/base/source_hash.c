#include "base/source_hash.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint64_t fnv1a64(const void *bytes, size_t n, uint64_t hash)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3ull; /* the 64-bit FNV prime */
    }
    return hash;
}

ladder_status source_hash_file(const char *path, char out[SOURCE_HASH_HEX], char *msg)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ladder_fail(msg, LADDER_ERROR, "cannot read kernel source %s: %s", path,
                           strerror(errno));
    uint64_t hash = FNV1A64_OFFSET;
    unsigned char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        hash = fnv1a64(buf, n, hash);
    int failed = ferror(f);
    fclose(f);
    if (failed)
        return ladder_fail(msg, LADDER_ERROR, "error reading kernel source %s", path);
    snprintf(out, SOURCE_HASH_HEX, "%016llx", (unsigned long long)hash);
    return LADDER_OK;
}
