#include "params/size_class.h"

#include <string.h>

static const char *const names[SIZE_CLASS_COUNT] = {"small", "large", "skinny"};

size_class size_class_of(const gemm_size *s)
{
    long lo = s->M, hi = s->M;
    if (s->N < lo) lo = s->N;
    if (s->K < lo) lo = s->K;
    if (s->N > hi) hi = s->N;
    if (s->K > hi) hi = s->K;
    if (hi >= SIZE_CLASS_SKINNY_RATIO * lo)
        return SIZE_SKINNY;
    double work = (double)s->M * (double)s->N * (double)s->K;
    return work < SIZE_CLASS_SMALL_WORK ? SIZE_SMALL : SIZE_LARGE;
}

const char *size_class_name(size_class c)
{
    return (unsigned)c < SIZE_CLASS_COUNT ? names[c] : "?";
}

int size_class_parse(const char *name, size_class *out)
{
    for (int i = 0; i < SIZE_CLASS_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (size_class)i;
            return 0;
        }
    return -1;
}
