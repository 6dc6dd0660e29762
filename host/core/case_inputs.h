/* The host side of one size and case: the random inputs (A, B, and C's start when beta is
 * not 0) in the case's precision and storage, a scratch C, and the verifier's reference.
 * ladder run, ladder tune and ladder select all make them here, so every rung at one size
 * and case multiplies the same matrices. */
#ifndef LADDER_CASE_INPUTS_H
#define LADDER_CASE_INPUTS_H

#include <stdint.h>
#include "base/gemm_case.h"
#include "base/sizes.h"
#include "core/verify.h"

typedef struct {
    gemm_case cs;
    gemm_size size;
    void *a, *b;   /* M*K and K*N elements, stored as the case says */
    void *c0;      /* C before the call (M*N elements) when beta != 0, else NULL */
    void *scratch; /* M*N elements: where results are fetched */
    reference *ref; /* NULL when verification is off */
} case_inputs;

/* The seed of input matrix `which` (1: A, 2: B, 3: the verifier's own, 4: C's start) at
 * size `s`: inputs depend on the seed and the size only (and the precision, which draws
 * doubles with 53 random bits), so every device and rung multiplies the same matrices. */
uint64_t case_input_seed(uint64_t seed, const gemm_size *s, int which);

/* Fills `in`; `mode` VERIFY_OFF makes no reference. LADDER_ERROR (with the reason) when the
 * host has no room; case_inputs_close is needed either way. */
ladder_status case_inputs_open(case_inputs *in, const gemm_case *cs, const gemm_size *s,
                               uint64_t seed, verify_mode mode, char *msg);
void case_inputs_close(case_inputs *in);

#endif
