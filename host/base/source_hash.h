/* A fingerprint of a kernel source file, so tuned parameters are tied to the exact code
 * they were measured with: an edited kernel may want other parameters (or break with the
 * old ones), so `ladder run` does not give it stale ones. An edit to the comments alone
 * changes no instruction, so the fingerprint is of the code: the file with its comments
 * and blank lines stripped (source_strip.h). A student may then rewrite a kernel's
 * explanations without losing its tuned parameters. */
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

/* A kernel file's two hashes, each as 16 lower-case hex digits:
 *   code   FNV-1a 64 of the file's code (source_strip_comments of its text): what the
 *          tuning database and the selection tables record;
 *   bytes  FNV-1a 64 of the file's bytes: what they recorded until 2026-11-29, so that
 *          tables written then still match a file that has not changed since. */
typedef struct {
    char code[SOURCE_HASH_HEX];
    char bytes[SOURCE_HASH_HEX];
} kernel_fingerprint;

ladder_status kernel_fingerprint_file(const char *path, kernel_fingerprint *out, char *msg);

/* Whether a hash an entry recorded names this file's code: its code hash, or its bytes
 * hash (an older table's entry for this very file). */
int kernel_fingerprint_matches(const kernel_fingerprint *fp, const char *recorded);

#endif
