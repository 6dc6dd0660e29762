/* How each operand of a kernel rung reaches its kernel: as the caller stored it, or copied
 * first by a helper kernel (helpers.cu, helpers.cl) into the layout the kernel reads. The
 * harness (rung_exec.c) launches the helpers; this file only decides, so that the
 * decision can be tested without a device.
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

#endif
