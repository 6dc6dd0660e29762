/* Which helper kernels bring A and B to a kernel rung (core/operand_route.h): rung 17's
 * padded copies, rung 29's copies only where a column would not start on a cache line
 * (RUNG_ALIGNED_COLUMN), and the transposed cases, checked route by route. */
#include <string.h>

#include "check.h"
#include "core/operand_route.h"

/* The route as expected: helper name (NULL for none), source and copy sizes. */
static int is_route(const operand_route *r, const char *helper, long sr, long sc, long dr,
                    long dc)
{
    const int same_helper = helper ? r->helper && strcmp(r->helper, helper) == 0 : !r->helper;
    if (same_helper && r->src_rows == sr && r->src_cols == sc && r->dst_rows == dr &&
        r->dst_cols == dc)
        return 1;
    fprintf(stderr, "route %s %ldx%ld -> %ldx%ld, expected %s %ldx%ld -> %ldx%ld\n",
            r->helper ? r->helper : "(none)", r->src_rows, r->src_cols, r->dst_rows,
            r->dst_cols, helper ? helper : "(none)", sr, sc, dr, dc);
    return 0;
}

static const rung *rung_of(const char *name)
{
    const rung *r = registry_find(name);
    if (!r)
        fprintf(stderr, "no rung '%s'\n", name);
    return r;
}

int main(void)
{
    const rung *banks = rung_of("banks"), *unpadded = rung_of("unpadded");
    CHECK(banks && unpadded);
    if (!banks || !unpadded)
        return CHECK_DONE();
    operand_route a, b;

    /* Rung 17 at 997 x 1013 x 1009 with 64 x 64 x 16 tiles: both padded, B transposed. */
    route_request q = {997, 1013, 1009, 1024, 1024, 1024, 1, 0, 0};
    operand_routes(banks, &q, &a, &b);
    CHECK(is_route(&a, "pad_copy", 997, 1009, 1024, 1024));
    CHECK(is_route(&b, "pad_transpose", 1009, 1013, 1024, 1024));

    /* Rung 29 there: the kernel sees the true sizes; A's columns of 997 and B^T's of 1013
     * become 1024 (RUNG_ALIGNED_COLUMN), K stays 1009. */
    q = (route_request){997, 1013, 1009, 997, 1013, 1009, 0, 0, 0};
    operand_routes(unpadded, &q, &a, &b);
    CHECK(is_route(&a, "pad_copy", 997, 1009, 1024, 1009));
    CHECK(is_route(&b, "pad_transpose", 1009, 1013, 1024, 1009));
    CHECK(routed_elements(&a) == 1024.0 * 1009);

    /* M a multiple of 4 but not of 32 is copied too (its columns would straddle cache
     * lines); a multiple of 32 is read where it lies. */
    q = (route_request){1000, 1016, 1009, 1000, 1016, 1009, 0, 0, 0};
    operand_routes(unpadded, &q, &a, &b);
    CHECK(is_route(&a, "pad_copy", 1000, 1009, 1024, 1009));
    q = (route_request){1056, 1016, 1009, 1056, 1016, 1009, 0, 0, 0};
    operand_routes(unpadded, &q, &a, &b);
    CHECK(is_route(&a, NULL, 1056, 1009, 1056, 1009));
    CHECK(is_route(&b, "pad_transpose", 1009, 1016, 1024, 1009));

    /* B given as B^T (NT): passed as it is when N is a multiple of 32, else copied with its
     * columns rounded up. */
    q = (route_request){1000, 1024, 7, 1000, 1024, 7, 0, 0, 1};
    operand_routes(unpadded, &q, &a, &b);
    CHECK(is_route(&b, NULL, 1024, 7, 1024, 7));
    q = (route_request){1000, 1013, 7, 1000, 1013, 7, 0, 0, 1};
    operand_routes(unpadded, &q, &a, &b);
    CHECK(is_route(&b, "pad_copy", 1013, 7, 1024, 7));

    /* A given as A^T (TN): transposed into A, its columns rounded up (M = 1: 32). */
    q = (route_request){1, 5, 3, 1, 5, 3, 0, 1, 0};
    operand_routes(unpadded, &q, &a, &b);
    CHECK(is_route(&a, "pad_transpose", 3, 1, 32, 3));
    CHECK(is_route(&b, "pad_transpose", 3, 5, 32, 3));

    /* A rung without helpers at a size it takes: nothing is copied. */
    const rung *sgemm = rung_of("sgemm");
    CHECK(sgemm != NULL);
    if (sgemm) {
        q = (route_request){997, 1013, 1009, 997, 1013, 1009, 0, 0, 0};
        operand_routes(sgemm, &q, &a, &b);
        CHECK(is_route(&a, NULL, 997, 1009, 997, 1009));
        CHECK(is_route(&b, NULL, 1009, 1013, 1009, 1013));
    }

    /* Every rung that aligns reads B^T and pads nothing (the kernel takes true sizes). */
    int n;
    const rung *all = registry_all(&n);
    for (int i = 0; i < n; i++)
        if (all[i].aligns)
            CHECK(all[i].transposes_b && !all[i].pads && !all[i].blas_args &&
                  !all[i].multiples);
    return CHECK_DONE();
}
