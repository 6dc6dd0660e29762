#include "core/case_inputs.h"

#include <stdlib.h>
#include <string.h>

#include "base/random.h"

uint64_t case_input_seed(uint64_t seed, const gemm_size *s, int which)
{
    uint64_t state = seed ^ ((uint64_t)s->M << 42) ^ ((uint64_t)s->N << 21) ^ (uint64_t)s->K;
    state += (uint64_t)which * 0x9E3779B97F4A7C15ull;
    return random_next(&state);
}

ladder_status case_inputs_open(case_inputs *in, const gemm_case *cs, const gemm_size *s,
                               uint64_t seed, verify_mode mode, char *msg)
{
    memset(in, 0, sizeof *in);
    in->cs = *cs;
    in->size = *s;
    const size_t elem = gemm_elem_bytes(cs->precision);
    size_t na = (size_t)s->M * s->K, nb = (size_t)s->K * s->N, nc = (size_t)s->M * s->N;
    /* At least one element each: a buffer must exist even for an empty matrix. */
    in->a = malloc(na * elem + elem);
    in->b = malloc(nb * elem + elem);
    in->scratch = malloc(nc * elem + elem);
    if (cs->beta != 0.0)
        in->c0 = malloc(nc * elem + elem);
    if (!in->a || !in->b || !in->scratch || (cs->beta != 0.0 && !in->c0))
        return ladder_fail(msg, LADDER_ERROR, "out of host memory for %ldx%ldx%ld", s->M,
                           s->N, s->K);
    random_fill_elems(in->a, na, cs->precision, case_input_seed(seed, s, 1));
    random_fill_elems(in->b, nb, cs->precision, case_input_seed(seed, s, 2));
    if (in->c0)
        random_fill_elems(in->c0, nc, cs->precision, case_input_seed(seed, s, 4));
    if (mode == VERIFY_OFF)
        return LADDER_OK;
    gemm_colmajor cm;
    gemm_case_colmajor(cs, s->M, s->N, s->K, &cm);
    reference_problem p = reference_for_call(&cm, in->a, in->b, in->c0);
    return reference_create(&p, mode, case_input_seed(seed, s, 3), &in->ref, msg);
}

void case_inputs_close(case_inputs *in)
{
    reference_free(in->ref);
    free(in->a);
    free(in->b);
    free(in->c0);
    free(in->scratch);
    memset(in, 0, sizeof *in);
}
