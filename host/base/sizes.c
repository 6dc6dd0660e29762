#include "base/sizes.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/shapes.h"

/* Reads one dimension; returns 0 on success. */
static int parse_dim(const char *s, char **end, long *out)
{
    if (!isdigit((unsigned char)*s)) /* no sign, no blank: "-5" and " 5" are mistakes */
        return -1;
    errno = 0;
    long v = strtol(s, end, 10);
    if (errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

static ladder_status check_dim(const char *item, long v, char *msg)
{
    if (v < 1)
        return ladder_fail(msg, LADDER_ERROR, "size '%s': dimensions must be at least 1", item);
    if (v > SIZES_MAX_DIM)
        return ladder_fail(msg, LADDER_ERROR, "size '%s': dimension %ld is larger than %ld",
                           item, v, SIZES_MAX_DIM);
    return LADDER_OK;
}

static ladder_status add_size(gemm_size **sizes, int *count, long M, long N, long K,
                              const char *item, char *msg)
{
    /* 32-bit indices in the kernels: every matrix must have fewer than 2^31 elements. */
    if ((double)M * K >= 2147483648.0 || (double)K * N >= 2147483648.0 ||
        (double)M * N >= 2147483648.0)
        return ladder_fail(msg, LADDER_ERROR,
                           "size '%s': %ldx%ldx%ld has a matrix of 2^31 elements or more, "
                           "which 32-bit kernel indices cannot address", item, M, N, K);
    if (*count >= SIZES_MAX_COUNT)
        return ladder_fail(msg, LADDER_ERROR, "more than %d sizes: split the run",
                           SIZES_MAX_COUNT);
    gemm_size *grown = realloc(*sizes, (size_t)(*count + 1) * sizeof **sizes);
    if (!grown)
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    *sizes = grown;
    grown[(*count)++] = (gemm_size){M, N, K};
    return LADDER_OK;
}

/* "a:b:s" or "a:b:x2" */
static ladder_status parse_range(const char *item, gemm_size **sizes, int *count, char *msg)
{
    long a, b, step;
    char *p;
    int doubling = 0;
    if (parse_dim(item, &p, &a) || *p != ':' || parse_dim(p + 1, &p, &b) || *p != ':')
        goto bad;
    p++;
    if (*p == 'x') {
        doubling = 1;
        p++;
    }
    if (parse_dim(p, &p, &step) || *p != '\0')
        goto bad;
    if (check_dim(item, a, msg) || check_dim(item, b, msg))
        return LADDER_ERROR;
    if (a > b)
        return ladder_fail(msg, LADDER_ERROR, "size range '%s': start %ld is above end %ld",
                           item, a, b);
    if (doubling ? step < 2 : step < 1)
        return ladder_fail(msg, LADDER_ERROR, "size range '%s': the step must be %s", item,
                           doubling ? "a factor of at least 2 (x2)" : "at least 1");
    for (long v = a; v <= b; v = doubling ? v * step : v + step)
        if (add_size(sizes, count, v, v, v, item, msg))
            return LADDER_ERROR;
    return LADDER_OK;
bad:
    return ladder_fail(msg, LADDER_ERROR,
                       "size range '%s': expected START:END:STEP or START:END:xFACTOR, "
                       "e.g. 256:2048:256 or 256:4096:x2", item);
}

/* A named shape set ("shapes"): every shape of it, in the set's order. */
static ladder_status add_set(const shape_set *set, gemm_size **sizes, int *count, char *msg)
{
    for (int i = 0; i < set->count; i++) {
        const named_shape *s = &set->shapes[i];
        if (add_size(sizes, count, s->M, s->N, s->K, set->name, msg))
            return LADDER_ERROR;
    }
    return LADDER_OK;
}

static ladder_status parse_item(const char *item, gemm_size **sizes, int *count, char *msg)
{
    const shape_set *set = shape_set_find(item);
    if (set)
        return add_set(set, sizes, count, msg);
    if (strchr(item, ':'))
        return parse_range(item, sizes, count, msg);
    long d[3];
    int n = 0;
    const char *p = item;
    char *end;
    for (;;) {
        if (n == 3 || parse_dim(p, &end, &d[n]))
            goto bad;
        n++;
        if (*end == '\0')
            break;
        if (*end != 'x' && *end != 'X')
            goto bad;
        p = end + 1;
    }
    if (n == 2)
        goto bad;
    for (int i = 0; i < n; i++)
        if (check_dim(item, d[i], msg))
            return LADDER_ERROR;
    if (n == 1)
        return add_size(sizes, count, d[0], d[0], d[0], item, msg);
    return add_size(sizes, count, d[0], d[1], d[2], item, msg);
bad:
    return ladder_fail(msg, LADDER_ERROR,
                       "size '%s' is not understood: use N, MxNxK, START:END:STEP, "
                       "START:END:xFACTOR (e.g. 1024, 1024x512x256, 256:2048:256) or a shape "
                       "set (%s)", item, shape_set_names());
}

ladder_status sizes_parse(const char *spec, gemm_size **sizes, int *count, char *msg)
{
    *sizes = NULL;
    *count = 0;
    char *copy = strdup(spec);
    if (!copy)
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    ladder_status st = LADDER_OK;
    char *save = NULL;
    if (!*spec)
        st = ladder_fail(msg, LADDER_ERROR, "empty size list");
    for (char *item = strtok_r(copy, ",", &save); st == LADDER_OK && item;
         item = strtok_r(NULL, ",", &save))
        st = parse_item(item, sizes, count, msg);
    if (st == LADDER_OK && *count == 0)
        st = ladder_fail(msg, LADDER_ERROR, "size list '%s' has no sizes", spec);
    free(copy);
    if (st != LADDER_OK) {
        free(*sizes);
        *sizes = NULL;
        *count = 0;
    }
    return st;
}

unsigned long long sizes_bytes(const gemm_size *s)
{
    unsigned long long total = 0;
    const unsigned long long elems[3] = {
        (unsigned long long)s->M * s->K, (unsigned long long)s->K * s->N,
        (unsigned long long)s->M * s->N};
    for (int i = 0; i < 3; i++) {
        if (elems[i] > SIZE_MAX / sizeof(float) / 4)
            return 0;
        total += elems[i] * sizeof(float);
    }
    return total;
}
