#include "core/operand_route.h"

#include <string.h>

static operand_route route(const char *helper, long src_rows, long src_cols, long dst_rows,
                           long dst_cols)
{
    return (operand_route){helper, src_rows, src_cols, dst_rows, dst_cols};
}

static long round_up_column(long x)
{
    return (long)rung_ceil_div((size_t)x, RUNG_ALIGNED_COLUMN) * RUNG_ALIGNED_COLUMN;
}

void operand_routes(const rung *r, const route_request *q, operand_route *a,
                    operand_route *b)
{
    const long M = q->M, N = q->N, K = q->K, Kp = q->Kp;
    /* The rows of the copies the kernel reads. */
    const long Ma = r->aligns ? round_up_column(M) : q->Mp;
    const long Na = r->aligns ? round_up_column(N) : q->Np;
    const char *copy = q->padded ? "pad_copy" : NULL;
    /* Without `aligns`, Ma != M only when padded: the same copy. */
    const char *copy_a = Ma != M ? "pad_copy" : copy;
    const char *copy_bt = Na != N ? "pad_copy" : copy;
    *a = q->trans_a ? route("pad_transpose", K, M, Ma, Kp) : route(copy_a, M, K, Ma, Kp);
    if (r->transposes_b)
        *b = q->trans_b ? route(copy_bt, N, K, Na, Kp) : route("pad_transpose", K, N, Na, Kp);
    else
        *b = q->trans_b ? route("pad_transpose", N, K, Kp, Na) : route(copy, K, N, Kp, Na);
}

double routed_elements(const operand_route *route)
{
    return (double)route->dst_rows * route->dst_cols;
}

int route_kind(const operand_route *route)
{
    return strcmp(route->helper, "pad_transpose") == 0 ? ROUTE_TRANSPOSE : ROUTE_COPY;
}

/* Tiles of HELPER_TILE along n rows or columns, the last one partial. */
static size_t helper_tiles(long n) { return rung_ceil_div((size_t)n, HELPER_TILE); }

/* One work-group per tile of a grid of tiles_r x tiles_c tiles. */
static launch_dims tile_grid(size_t tiles_r, size_t tiles_c)
{
    return (launch_dims){.global = {tiles_r * HELPER_TILE, tiles_c * HELPER_ROWS},
                         .local = {HELPER_TILE, HELPER_ROWS}};
}

launch_dims helper_dims(long dst_rows, long dst_cols)
{
    return tile_grid(helper_tiles(dst_rows), helper_tiles(dst_cols));
}

static size_t max_size(size_t x, size_t y) { return x > y ? x : y; }

int plan_helper_launch(const operand_route *a, const operand_route *b, helper_launch *h)
{
    if (!a->helper && !b->helper)
        return 0;
    if (!a->helper || !b->helper) {
        const operand_route *r = a->helper ? a : b;
        *h = (helper_launch){r->helper, 1, {a->helper ? 0 : 1, -1},
                             helper_dims(r->dst_rows, r->dst_cols)};
        return 1;
    }
    /* Each copy has fewer than 2^31 elements (exec_kernel refuses larger ones), so fewer
     * than 2^31 rows, at most 2^26 tiles along them: side by side at most 2^27
     * work-groups, which the kernel's int group index and a CUDA grid (2^31 - 1 blocks
     * along x) hold, and 2^32 work-items, which the 64-bit size_t of launch_dims holds
     * (the buffer sizes assume one too). The height is the one a launch of the taller
     * route alone would have, so no new limit there (a CUDA grid's 65535 along y). */
    const size_t tiles_r = helper_tiles(a->dst_rows) + helper_tiles(b->dst_rows);
    const size_t tiles_c = max_size(helper_tiles(a->dst_cols), helper_tiles(b->dst_cols));
    *h = (helper_launch){"route_pair", 2, {0, 1}, tile_grid(tiles_r, tiles_c)};
    return 1;
}
