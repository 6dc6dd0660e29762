#include "base/random.h"

uint64_t random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void random_fill(float *x, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        /* 24 random bits give a float in [0, 1) exactly; map to [-1, 1). */
        float u = (float)(random_next(&state) >> 40) * (1.0f / 16777216.0f);
        x[i] = 2.0f * u - 1.0f;
    }
}

void random_fill_double(double *x, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++)
        x[i] = 2.0 * ((double)(random_next(&state) >> 11) * 0x1p-53) - 1.0;
}

void random_fill_elems(void *x, size_t n, gemm_precision p, uint64_t seed)
{
    if (p == PRECISION_DOUBLE)
        random_fill_double(x, n, seed);
    else
        random_fill(x, n, seed);
}

uint64_t random_below(uint64_t *state, uint64_t n)
{
    return random_next(state) % n;
}
