/* How each operand of a kernel rung reaches its kernel: as the caller stored it, or copied
 * first by a helper kernel (helpers.cu, helpers.cl) into the layout the kernel reads. The
 * harness (rung_exec.c) launches the helpers; this file only decides (which helper each
 * operand takes, and the launch that runs them), so that the decision can be tested
 * without a device.
 */
#ifndef LADDER_OPERAND_ROUTE_H
#define LADDER_OPERAND_ROUTE_H

#include "rungs/registry.h"

/* One operand's way in: helper NULL (the caller's buffer as it is), or "pad_copy" (copied,
 * padded or cropped with zeros) or "pad_transpose" (transposed, and padded). Sizes are
 * rows x columns, column-major. */
typedef struct {
    const char *helper;
    long src_rows, src_cols; /* the operand as the caller stored it */
    long dst_rows, dst_cols; /* the copy the kernel reads */
} operand_route;

/* The column-major call's sizes, what the kernel sees, and the caller's storage. */
typedef struct {
    long M, N, K;    /* the call's sizes */
    long Mp, Np, Kp; /* the sizes the kernel sees (padded to the rung's multiples) */
    int padded;      /* A, B and C go through padded copies */
    int trans_a, trans_b; /* the operand is stored transposed and the helpers fix that */
} route_request;

/* The routes of A and B for kernel rung `r`. The kernel reads A as an Mp x Kp matrix, and
 * B as Kp x Np, or as B^T, Np x Kp, when the rung sets transposes_b: a transposed operand
 * is transposed into that layout by a helper; a B^T that a transposes_b kernel wants is
 * passed as it is. A rung that pads gets padded copies of both. A rung that aligns (rung
 * 29) reads the true sizes, with A's and B^T's columns of M and N rounded up to a multiple
 * of RUNG_ALIGNED_COLUMN: an operand whose columns are already that long is passed as it
 * is, others are copied (the extra rows zero). */
void operand_routes(const rung *r, const route_request *q, operand_route *a,
                    operand_route *b);

/* Elements of the copy a route's helper writes. */
double routed_elements(const operand_route *route);

/* The helpers' work-groups: HELPER_TILE x HELPER_ROWS work-items, each covering a
 * HELPER_TILE x HELPER_TILE tile of the destination. Both must match
 * kernels-opencl/helpers.cl and kernels-cuda/helpers.cu. */
#define HELPER_TILE 32
#define HELPER_ROWS 8

/* route_pair's kind of a route: which helper's work its work-groups do (helpers.cl,
 * helpers.cu). */
#define ROUTE_COPY 0
#define ROUTE_TRANSPOSE 1

/* ROUTE_TRANSPOSE for a route through pad_transpose, else ROUTE_COPY. */
int route_kind(const operand_route *route);

/* A helper's launch over a dst_rows x dst_cols destination: one work-group per tile, the
 * global range in work-items. */
launch_dims helper_dims(long dst_rows, long dst_cols);

/* The one launch that brings A and B to the kernel, before the GEMM. */
typedef struct {
    const char *kernel; /* the route's helper, or "route_pair" for two routes */
    int routes;         /* how many routes it makes: 1, or 2 (route_pair) */
    int operand[2];     /* which, in the kernel's argument order: 0 for A, 1 for B, -1
                         * for none (the second of a single route) */
    launch_dims dims;
} helper_launch;

/* The launch for routes `a` and `b` in *h; 0 when neither has a helper (nothing to
 * launch), else 1. One route: its helper, as helper_dims says. Both: route_pair, A's
 * route first, its grid the two routes' grids side by side along dimension 0 (the sum of
 * their tiles along rows) and as tall as the taller (the larger of their tiles along
 * columns), so that the GEMM waits for one launch, not two. */
int plan_helper_launch(const operand_route *a, const operand_route *b, helper_launch *h);

#endif
