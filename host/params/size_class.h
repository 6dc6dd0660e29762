/* Size classes: which tuned parameters a matrix shape gets.
 *
 * The best tiles for a 4096^3 product are not the best for a 256^3 one (too few
 * work-groups to fill the device) nor for a 8192 x 8192 x 64 one (little reuse along K),
 * so `ladder tune` keeps one entry per class and `ladder run` looks up the class of each
 * size. The rule, in order (this is the one place it is written down in code):
 *
 *   skinny  the largest of M, N, K is at least 8 times the smallest
 *   small   otherwise, M*N*K < 2048^3
 *   large   otherwise
 *
 * So 1792^3 is small, 2048^3 and 4096^3 are large, 4096 x 4096 x 256 is skinny.
 * Where the line lies was measured on the H100 (results/h100-2026-11-21-tuning-3/boundary):
 * parameters tuned at 1024 (64-wide tiles) beat the defaults at 1536 and 1792 (1.19x and
 * 1.10x, geometric mean over rungs 6-15 in both backends) but lose at 2048 (0.90x), where
 * 128 x 128 tiles already give 256 work-groups for 132 SMs; the parameters tuned at 4096
 * gain there (1.05x; the worst 0.99x).
 */
#ifndef LADDER_SIZE_CLASS_H
#define LADDER_SIZE_CLASS_H

#include "base/sizes.h"

typedef enum { SIZE_SMALL, SIZE_LARGE, SIZE_SKINNY } size_class;

#define SIZE_CLASS_COUNT 3
#define SIZE_CLASS_SKINNY_RATIO 8
#define SIZE_CLASS_SMALL_WORK (2048.0 * 2048.0 * 2048.0) /* below this: small */

size_class size_class_of(const gemm_size *s);

/* "small", "large", "skinny". */
const char *size_class_name(size_class c);

/* The class named `name`; returns 0 on success, -1 for an unknown name. */
int size_class_parse(const char *name, size_class *out);

#endif
