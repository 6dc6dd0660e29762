#include "base/source_hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source_strip.h"
#include "base/text_file.h"

uint64_t fnv1a64(const void *bytes, size_t n, uint64_t hash)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3ull; /* the 64-bit FNV prime */
    }
    return hash;
}

static void hex_of(const void *bytes, size_t n, char out[SOURCE_HASH_HEX])
{
    snprintf(out, SOURCE_HASH_HEX, "%016llx",
             (unsigned long long)fnv1a64(bytes, n, FNV1A64_OFFSET));
}

ladder_status kernel_fingerprint_file(const char *path, kernel_fingerprint *out, char *msg)
{
    char *text = NULL;
    size_t length = 0;
    ladder_status st = text_file_read(path, &text, &length, msg);
    if (st != LADDER_OK)
        return st;
    hex_of(text, length, out->bytes);
    char *code = source_strip_comments(text);
    free(text);
    if (!code)
        return ladder_fail(msg, LADDER_ERROR, "out of memory reading kernel source %s", path);
    hex_of(code, strlen(code), out->code);
    free(code);
    return LADDER_OK;
}

int kernel_fingerprint_matches(const kernel_fingerprint *fp, const char *recorded)
{
    return strcmp(recorded, fp->code) == 0 || strcmp(recorded, fp->bytes) == 0;
}
