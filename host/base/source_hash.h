/* A fingerprint of a kernel source file, so tuned parameters are tied to the exact source
 * they were measured with: an edited kernel may want other parameters (or break with the
 * old ones), so `ladder run` does not give it stale ones. */
#ifndef LADDER_SOURCE_HASH_H
#define LADDER_SOURCE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

#define SOURCE_HASH_HEX 17 /* 16 hex digits and the terminator */

/* FNV-1a, 64-bit, of `n` bytes: simple, well known, and enough to notice an edit (this is
 * a fingerprint, not a defence against anyone forging sources). */
uint64_t fnv1a64(const void *bytes, size_t n, uint64_t hash);
#define FNV1A64_OFFSET 0xcbf29ce484222325ull

/* The FNV-1a 64 hash of the file's bytes as 16 lower-case hex digits. */
ladder_status source_hash_file(const char *path, char out[SOURCE_HASH_HEX], char *msg);

#endif
