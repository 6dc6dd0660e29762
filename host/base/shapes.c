#include "base/shapes.h"

#include <string.h>

static const char *const class_names[SHAPE_CLASS_COUNT] = {
    "square", "long-k", "small-k", "skinny-m", "skinny-n", "gemv", "llm", "odd",
};

/* For a GPU: every shape is big enough to time well on an H100 and small enough that the
 * whole set runs in minutes. Column-major, C is M x N. */
static const named_shape gpu_shapes[] = {
    {512, 512, 512, SHAPE_SQUARE, "small square: 16 tiles of 128 x 128 for 132 SMs"},
    {1024, 1024, 1024, SHAPE_SQUARE, "square: 64 tiles, half a wave"},
    {3072, 3072, 3072, SHAPE_SQUARE, "square: 576 tiles, a last wave 36% full"},
    {4096, 4096, 4096, SHAPE_SQUARE, "large square: where the ladder races cuBLAS"},
    {128, 128, 32768, SHAPE_LONG_K, "one 128 x 128 tile of C, a sum 32768 long"},
    {256, 256, 16384, SHAPE_LONG_K, "four tiles of C, a long sum"},
    {64, 64, 65536, SHAPE_LONG_K, "a quarter tile of C, a very long sum"},
    {4096, 4096, 64, SHAPE_SMALL_K, "a big C from a short sum: C's traffic dominates"},
    {8192, 8192, 32, SHAPE_SMALL_K, "rank-32 update of a big matrix"},
    {2048, 2048, 128, SHAPE_SMALL_K, "rank-128 update"},
    {64, 8192, 4096, SHAPE_SKINNY_M, "64 rows of C: half a tile tall"},
    {32, 16384, 8192, SHAPE_SKINNY_M, "32 rows of C, wide and deep"},
    {16384, 64, 4096, SHAPE_SKINNY_N, "64 columns of C"},
    {8192, 32, 8192, SHAPE_SKINNY_N, "32 columns of C, deep"},
    {1, 4096, 4096, SHAPE_GEMV, "a row vector times a matrix"},
    {4096, 1, 4096, SHAPE_GEMV, "a matrix times a vector"},
    {8, 8192, 8192, SHAPE_GEMV, "8 rows of C: a batch of 8 vectors"},
    {16384, 4, 4096, SHAPE_GEMV, "4 columns of C"},
    {12288, 2048, 4096, SHAPE_LLM, "a 4096-wide model's QKV projection, 2048 tokens"},
    {4096, 2048, 11008, SHAPE_LLM, "a down projection (11008 to 4096), 2048 tokens"},
    {11008, 16, 4096, SHAPE_LLM, "an up projection while decoding a batch of 16"},
    {997, 1013, 1009, SHAPE_ODD, "three primes near 1000"},
    {4099, 3001, 2999, SHAPE_ODD, "primes just past the tiles of a large square"},
    {333, 7777, 555, SHAPE_ODD, "multiples of nothing a tile has"},
};

/* For PoCL on a 2-core CPU: the same classes at sizes of 1 to 25 million multiply-adds,
 * so that every candidate of every shape runs in about a second. */
static const named_shape cpu_shapes[] = {
    {128, 128, 128, SHAPE_SQUARE, "small square"},
    {256, 256, 256, SHAPE_SQUARE, "square"},
    {16, 16, 8192, SHAPE_LONG_K, "a tiny C, a long sum"},
    {32, 32, 4096, SHAPE_LONG_K, "a small C, a long sum"},
    {64, 64, 2048, SHAPE_LONG_K, "one tile of C, a long sum"},
    {256, 256, 16, SHAPE_SMALL_K, "rank-16 update"},
    {512, 512, 8, SHAPE_SMALL_K, "rank-8 update"},
    {1024, 1024, 4, SHAPE_SMALL_K, "rank-4 update: C's traffic is everything"},
    {16, 1024, 512, SHAPE_SKINNY_M, "16 rows of C"},
    {32, 2048, 256, SHAPE_SKINNY_M, "32 rows of C, wide"},
    {1024, 16, 512, SHAPE_SKINNY_N, "16 columns of C"},
    {2048, 32, 256, SHAPE_SKINNY_N, "32 columns of C, tall"},
    {1, 1024, 1024, SHAPE_GEMV, "a row vector times a matrix"},
    {1024, 1, 1024, SHAPE_GEMV, "a matrix times a vector"},
    {4, 2048, 512, SHAPE_GEMV, "4 rows of C"},
    {2048, 2, 512, SHAPE_GEMV, "2 columns of C"},
    {768, 128, 256, SHAPE_LLM, "the GPU set's QKV projection, a sixteenth on a side"},
    {256, 128, 688, SHAPE_LLM, "the down projection, a sixteenth on a side"},
    {688, 16, 256, SHAPE_LLM, "decoding a batch of 16, a sixteenth of the model"},
    {97, 101, 103, SHAPE_ODD, "three primes near 100"},
    {257, 191, 199, SHAPE_ODD, "primes around 200"},
    {33, 777, 55, SHAPE_ODD, "multiples of nothing a tile has"},
};

/* The K sweep of the accuracy figure (plots/README.md): one C of 2048 x 2048 and K from 4
 * to 65,536 in powers of 2, so that each method's error and speed are seen as the sum
 * grows. Why 2048: 256 tiles of 128 x 128 are about two full waves on an H100's 132 SMs,
 * so even the shortest sum keeps the GPU busy; and the CPU reference stays cheap with
 * sampled verification: about (4096 + M + N) K = 5 10^8 multiply-adds for the checked
 * elements at K = 65,536, and as many again for the Freivalds products, a few seconds;
 * A and B are then 512 MiB each on the device. */
static const named_shape ksweep_shapes[] = {
    {2048, 2048, 4, SHAPE_SMALL_K, "K = 2^2"},
    {2048, 2048, 8, SHAPE_SMALL_K, "K = 2^3"},
    {2048, 2048, 16, SHAPE_SMALL_K, "K = 2^4"},
    {2048, 2048, 32, SHAPE_SMALL_K, "K = 2^5"},
    {2048, 2048, 64, SHAPE_SMALL_K, "K = 2^6"},
    {2048, 2048, 128, SHAPE_SMALL_K, "K = 2^7"},
    {2048, 2048, 256, SHAPE_SMALL_K, "K = 2^8"},
    {2048, 2048, 512, SHAPE_SQUARE, "K = 2^9"},
    {2048, 2048, 1024, SHAPE_SQUARE, "K = 2^10"},
    {2048, 2048, 2048, SHAPE_SQUARE, "K = 2^11"},
    {2048, 2048, 4096, SHAPE_SQUARE, "K = 2^12"},
    {2048, 2048, 8192, SHAPE_SQUARE, "K = 2^13"},
    {2048, 2048, 16384, SHAPE_LONG_K, "K = 2^14"},
    {2048, 2048, 32768, SHAPE_LONG_K, "K = 2^15"},
    {2048, 2048, 65536, SHAPE_LONG_K, "K = 2^16"},
};

/* The same sweep for PoCL on a small CPU: a C of 128 x 128, K from 4 to 4096. */
static const named_shape ksweep_cpu_shapes[] = {
    {128, 128, 4, SHAPE_SMALL_K, "K = 2^2"},
    {128, 128, 8, SHAPE_SMALL_K, "K = 2^3"},
    {128, 128, 16, SHAPE_SMALL_K, "K = 2^4"},
    {128, 128, 32, SHAPE_SQUARE, "K = 2^5"},
    {128, 128, 64, SHAPE_SQUARE, "K = 2^6"},
    {128, 128, 128, SHAPE_SQUARE, "K = 2^7"},
    {128, 128, 256, SHAPE_SQUARE, "K = 2^8"},
    {128, 128, 512, SHAPE_SQUARE, "K = 2^9"},
    {128, 128, 1024, SHAPE_LONG_K, "K = 2^10"},
    {128, 128, 2048, SHAPE_LONG_K, "K = 2^11"},
    {128, 128, 4096, SHAPE_LONG_K, "K = 2^12"},
};

#define COUNT(a) (int)(sizeof a / sizeof a[0])

static const shape_set sets[] = {
    {"shapes", "the public shape set, for a GPU", gpu_shapes, COUNT(gpu_shapes)},
    {"shapes-cpu", "the same classes at sizes for a CPU", cpu_shapes, COUNT(cpu_shapes)},
    {"ksweep", "a K sweep at M = N = 2048, for the accuracy figure", ksweep_shapes,
     COUNT(ksweep_shapes)},
    {"ksweep-cpu", "a K sweep at M = N = 128, for a CPU", ksweep_cpu_shapes,
     COUNT(ksweep_cpu_shapes)},
};

const shape_set *shape_sets(int *count)
{
    *count = COUNT(sets);
    return sets;
}

const char *shape_set_names(void) { return "shapes, shapes-cpu, ksweep, ksweep-cpu"; }

const shape_set *shape_set_find(const char *name)
{
    for (int i = 0; i < COUNT(sets); i++)
        if (strcmp(name, sets[i].name) == 0)
            return &sets[i];
    return NULL;
}

shape_class shape_rule_class(const gemm_size *s)
{
    long lo = s->M < s->N ? s->M : s->N, hi = s->M < s->N ? s->N : s->M;
    if (lo <= 8)
        return SHAPE_GEMV;
    if (s->K >= SHAPE_RATIO * hi)
        return SHAPE_LONG_K;
    if (SHAPE_RATIO * s->K <= lo)
        return SHAPE_SMALL_K;
    if (SHAPE_RATIO * s->M <= s->N)
        return SHAPE_SKINNY_M;
    if (SHAPE_RATIO * s->N <= s->M)
        return SHAPE_SKINNY_N;
    return SHAPE_SQUARE;
}

shape_class shape_label(const gemm_size *s)
{
    for (int i = 0; i < COUNT(sets); i++)
        for (int k = 0; k < sets[i].count; k++) {
            const named_shape *n = &sets[i].shapes[k];
            if (n->M == s->M && n->N == s->N && n->K == s->K)
                return n->label;
        }
    return shape_rule_class(s);
}

const char *shape_class_name(shape_class c)
{
    return (unsigned)c < SHAPE_CLASS_COUNT ? class_names[c] : "?";
}

int shape_class_parse(const char *name, shape_class *out)
{
    for (int i = 0; i < SHAPE_CLASS_COUNT; i++)
        if (strcmp(name, class_names[i]) == 0) {
            *out = (shape_class)i;
            return 0;
        }
    return -1;
}
