/* Parsing the --sizes option: which matrix shapes to run. */
#ifndef LADDER_SIZES_H
#define LADDER_SIZES_H

#include "base/status.h"

typedef struct { long M, N, K; } gemm_size;

/* A comma-separated list of items:
 *   1024            square: M = N = K = 1024
 *   1024x512x256    M x N x K (non-square)
 *   256:2048:256    square sizes from 256 to 2048 in steps of 256
 *   256:4096:x2     square sizes 256, 512, 1024, ... (doubling)
 *   shapes          every shape of a named set (base/shapes.h: shapes, shapes-cpu)
 * Every dimension must be in [1, SIZES_MAX_DIM], and every matrix must have fewer than
 * 2^31 elements (the kernels index with 32-bit ints). Returns LADDER_ERROR with a message
 * naming the offending item. *sizes is malloc'd. */
ladder_status sizes_parse(const char *spec, gemm_size **sizes, int *count, char *msg);

#define SIZES_MAX_DIM 1000000L
#define SIZES_MAX_COUNT 4096

/* Bytes of the three matrices A, B and C in float32; 0 if that overflows size_t. */
unsigned long long sizes_bytes(const gemm_size *s);

#endif
