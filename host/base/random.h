/* Reproducible pseudo-random inputs from a recorded seed. */
#ifndef LADDER_RANDOM_H
#define LADDER_RANDOM_H

#include <stddef.h>
#include <stdint.h>
#include "base/gemm_case.h"

/* splitmix64: tiny, fast, and good enough to fill test matrices; any seed works. */
uint64_t random_next(uint64_t *state);

/* Uniform in [-1, 1]; never all zeros, so unwritten outputs and wrong indices show. */
void random_fill(float *x, size_t n, uint64_t seed);

/* The same for doubles, with 53 random bits each: a kernel that rounds its inputs to float
 * then changes them, and verification sees it. */
void random_fill_double(double *x, size_t n, uint64_t seed);

/* n elements of the precision's type (float or double) at x. */
void random_fill_elems(void *x, size_t n, gemm_precision p, uint64_t seed);

/* Uniform integer in [0, n). */
uint64_t random_below(uint64_t *state, uint64_t n);

#endif
