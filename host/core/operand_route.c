#include "core/operand_route.h"

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
