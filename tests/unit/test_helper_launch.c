/* The launch that brings A and B to a kernel rung (core/operand_route.h,
 * plan_helper_launch): nothing when neither operand is copied, the one helper when one is,
 * and one launch of route_pair when both are, its grid the two routes' grids side by side
 * (their tiles along rows added) and as tall as the taller route (the larger of their
 * tiles along columns). test_opencl_backend runs route_pair on such a grid. */
#include <string.h>

#include "check.h"
#include "core/operand_route.h"

/* Launch `h` as expected: kernel, operands in argument order (0 for A, 1 for B; second -1
 * for one route), and tiles_r x tiles_c work-groups of HELPER_TILE x HELPER_ROWS. */
static int is_launch(const helper_launch *h, const char *kernel, int first, int second,
                     size_t tiles_r, size_t tiles_c)
{
    const int routes = second < 0 ? 1 : 2;
    const launch_dims *d = &h->dims;
    if (strcmp(h->kernel, kernel) == 0 && h->routes == routes && h->operand[0] == first &&
        (routes == 1 || h->operand[1] == second) && d->local[0] == HELPER_TILE &&
        d->local[1] == HELPER_ROWS && d->global[0] == tiles_r * HELPER_TILE &&
        d->global[1] == tiles_c * HELPER_ROWS)
        return 1;
    fprintf(stderr, "launch %s of %d route(s) (%d, %d), global %zu x %zu, local %zu x %zu; "
            "expected %s (%d, %d), %zu x %zu tiles\n", h->kernel, h->routes, h->operand[0],
            h->operand[1], d->global[0], d->global[1], d->local[0], d->local[1], kernel,
            first, second, tiles_r, tiles_c);
    return 0;
}

static operand_route route(const char *helper, long src_rows, long src_cols, long dst_rows,
                           long dst_cols)
{
    return (operand_route){helper, src_rows, src_cols, dst_rows, dst_cols};
}

int main(void)
{
    helper_launch h;

    /* Both routed, grids of different sizes both ways: A copied 37 x 53 -> 40 x 70 (2 x 3
     * tiles), B transposed 53 x 70 -> 100 x 20 (4 x 1 tiles). One launch, A's 2 columns of
     * work-groups then B's 4, 3 high. */
    operand_route a = route("pad_copy", 37, 53, 40, 70);
    operand_route b = route("pad_transpose", 53, 70, 100, 20);
    CHECK(plan_helper_launch(&a, &b, &h) == 1);
    CHECK(is_launch(&h, "route_pair", 0, 1, 2 + 4, 3));
    CHECK(route_kind(&a) == ROUTE_COPY && route_kind(&b) == ROUTE_TRANSPOSE);

    /* Rung 10 at 37 x 200 x 53 with its 128 x 128 x 16 tiles, as operand_routes makes the
     * routes: A padded to 128 x 64 (4 x 2 tiles), B transposed into 256 x 64 (8 x 2). */
    const rung *anysize = registry_find("anysize");
    CHECK(anysize != NULL);
    if (anysize) {
        const route_request q = {37, 200, 53, 128, 256, 64, 1, 0, 0};
        operand_routes(anysize, &q, &a, &b);
        CHECK(plan_helper_launch(&a, &b, &h) == 1);
        CHECK(is_launch(&h, "route_pair", 0, 1, 4 + 8, 2));
    }

    /* One routed: that route's helper alone, over its own tiles, as before route_pair. */
    a = route(NULL, 1056, 1009, 1056, 1009);
    b = route("pad_transpose", 1009, 1013, 1024, 1009);
    CHECK(plan_helper_launch(&a, &b, &h) == 1);
    CHECK(is_launch(&h, "pad_transpose", 1, -1, 32, 32));
    a = route("pad_copy", 1000, 1009, 1024, 1009);
    b = route(NULL, 1024, 7, 1024, 7);
    CHECK(plan_helper_launch(&a, &b, &h) == 1);
    CHECK(is_launch(&h, "pad_copy", 0, -1, 32, 32));

    /* None routed: nothing to launch. */
    a = route(NULL, 997, 1009, 997, 1009);
    b = route(NULL, 1009, 1013, 1009, 1013);
    CHECK(plan_helper_launch(&a, &b, &h) == 0);

    /* A single helper's grid: whole tiles, the last one partial. */
    launch_dims d = helper_dims(1, 1);
    CHECK(d.global[0] == 32 && d.global[1] == 8 && d.local[0] == 32 && d.local[1] == 8);
    d = helper_dims(997, 33);
    CHECK(d.global[0] == 32 * 32 && d.global[1] == 2 * 8);

    /* The largest copies exec_kernel lets through, 2^31 - 1 elements each, all in rows:
     * 2^26 tiles each, 2^27 side by side, 2^32 work-items (a 64-bit size_t). */
    if (sizeof(size_t) >= 8) {
        a = route("pad_copy", 2147483647L, 1, 2147483647L, 1);
        b = route("pad_transpose", 1, 2147483647L, 2147483647L, 1);
        CHECK(plan_helper_launch(&a, &b, &h) == 1);
        CHECK(is_launch(&h, "route_pair", 0, 1, (size_t)1 << 27, 1));
    }
    return CHECK_DONE();
}
