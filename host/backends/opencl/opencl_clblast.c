/* The CLBlast baseline: the OpenCL world's tuned BLAS, run through the same buffers, queue
 * and timer as the rungs, so its figures compare directly with theirs.
 *
 * Only compiled in when CMake found CLBlast (LADDER_HAVE_CLBLAST); otherwise the backend's
 * library_gemm is NULL and this file holds nothing.
 */
#include "backends/opencl/opencl_internal.h"

#ifdef LADDER_HAVE_CLBLAST

#include <clblast_c.h>

#include "backends/opencl/opencl_errors.h"

/* CLBlast returns OpenCL codes for OpenCL failures (-1 to -999) and its own below -1000. */
static const char *clblast_status_name(CLBlastStatusCode status)
{
    switch (status) {
    case CLBlastNotImplemented: return "CLBlastNotImplemented";
    case CLBlastInvalidMatrixA: return "CLBlastInvalidMatrixA (not a valid OpenCL buffer)";
    case CLBlastInvalidMatrixB: return "CLBlastInvalidMatrixB (not a valid OpenCL buffer)";
    case CLBlastInvalidMatrixC: return "CLBlastInvalidMatrixC (not a valid OpenCL buffer)";
    case CLBlastInvalidDimension: return "CLBlastInvalidDimension (M, N and K must be > 0)";
    case CLBlastInvalidLeadDimA: return "CLBlastInvalidLeadDimA";
    case CLBlastInvalidLeadDimB: return "CLBlastInvalidLeadDimB";
    case CLBlastInvalidLeadDimC: return "CLBlastInvalidLeadDimC";
    case CLBlastInsufficientMemoryA: return "CLBlastInsufficientMemoryA (buffer A too small)";
    case CLBlastInsufficientMemoryB: return "CLBlastInsufficientMemoryB (buffer B too small)";
    case CLBlastInsufficientMemoryC: return "CLBlastInsufficientMemoryC (buffer C too small)";
    case CLBlastInsufficientMemoryTemp: return "CLBlastInsufficientMemoryTemp";
    case CLBlastInvalidLocalMemUsage:
        return "CLBlastInvalidLocalMemUsage (not enough local memory on this device)";
    case CLBlastDatabaseError:
        return "CLBlastDatabaseError (no tuning entry for this device)";
    case CLBlastUnknownError: return "CLBlastUnknownError";
    case CLBlastUnexpectedError: return "CLBlastUnexpectedError";
    default:
        if (status < 0 && status > -1000)
            return ocl_error_name((cl_int)status);
        return "unknown CLBlast status";
    }
}

/* A marker before the call marks where the operation begins. CLBlast may run helper kernels
 * (pad, transpose) before its GEMM kernel, but the event it returns is that of its LAST
 * kernel only; timing from that event's start would leave the helpers out. */
static ladder_status enqueue_marker(backend_session *s, cl_event *marker, char *msg)
{
    cl_int err = clEnqueueMarkerWithWaitList(s->queue, 0, NULL, marker);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clEnqueueMarkerWithWaitList (before the CLBlast call)");
    return LADDER_OK;
}

/* C = beta * C without a product (K = 0 or alpha = 0, where BLAS reads neither A nor B):
 * beta = 0 writes zeros, never multiplying, so a NaN in C does not survive; otherwise each
 * line of C (a column, or a row in row-major) is scaled. `*done` gets the last command's
 * event when `timed`. */
static ladder_status scale_c(backend_session *s, const gemm_call *g, gpu_buffer *C, int timed,
                             cl_event *done, char *msg)
{
    const gemm_case *c = &g->c;
    const size_t elem = gemm_elem_bytes(c->precision);
    size_t runs, length, stride;
    gemm_c_runs(g, &runs, &length, &stride);
    for (size_t l = 0; l < runs; l++) {
        cl_event *ev = timed && l + 1 == runs ? done : NULL;
        if (c->beta == 0.0) {
            const double zero = 0.0; /* all bits zero: 0 in float and in double */
            cl_int err = clEnqueueFillBuffer(s->queue, C->mem, &zero, elem, l * stride * elem,
                                             length * elem, 0, NULL, ev);
            if (err != CL_SUCCESS)
                return ocl_fail(msg, err, "clEnqueueFillBuffer (C = 0 * C)");
            continue;
        }
        CLBlastStatusCode status =
            c->precision == PRECISION_DOUBLE
                ? CLBlastDscal(length, c->beta, C->mem, l * stride, 1, &s->queue, ev)
                : CLBlastSscal(length, (float)c->beta, C->mem, l * stride, 1, &s->queue, ev);
        if (status != CLBlastSuccess)
            return ladder_fail(msg, LADDER_ERROR, "CLBlast%cscal (C = beta * C): %s (%d)",
                               c->precision == PRECISION_DOUBLE ? 'D' : 'S',
                               clblast_status_name(status), (int)status);
    }
    return LADDER_OK;
}

static CLBlastTranspose clblast_op(int trans)
{
    return trans ? CLBlastTransposeYes : CLBlastTransposeNo;
}

ladder_status ocl_clblast_gemm(backend_session *s, const gemm_call *g, gpu_buffer *A,
                              gpu_buffer *B, gpu_buffer *C, char *msg)
{
    const gemm_case *c = &g->c;
    const char *name = c->precision == PRECISION_DOUBLE ? "CLBlastDgemm" : "CLBlastSgemm";
    ladder_status st = gemm_check_call(name, g, msg);
    if (st != LADDER_OK || g->M == 0 || g->N == 0)
        return st; /* an empty C: nothing to do, as in BLAS */
    int timed = ocl_timer_wants_events(s);
    cl_event marker = NULL, done = NULL;
    if (timed && (st = enqueue_marker(s, &marker, msg)) != LADDER_OK)
        return st;
    if (g->K == 0 || c->alpha == 0.0) {
        st = scale_c(s, g, C, timed, &done, msg);
    } else {
        const CLBlastLayout layout =
            c->layout == LAYOUT_ROW ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
        const size_t M = (size_t)g->M, N = (size_t)g->N, K = (size_t)g->K;
        CLBlastStatusCode status =
            c->precision == PRECISION_DOUBLE
                ? CLBlastDgemm(layout, clblast_op(c->trans_a), clblast_op(c->trans_b), M, N,
                               K, c->alpha, A->mem, 0, (size_t)g->lda, B->mem, 0,
                               (size_t)g->ldb, c->beta, C->mem, 0, (size_t)g->ldc,
                               &s->queue, timed ? &done : NULL)
                : CLBlastSgemm(layout, clblast_op(c->trans_a), clblast_op(c->trans_b), M, N,
                               K, (float)c->alpha, A->mem, 0, (size_t)g->lda, B->mem,
                               0, (size_t)g->ldb, (float)c->beta, C->mem, 0,
                               (size_t)g->ldc, &s->queue, timed ? &done : NULL);
        if (status != CLBlastSuccess)
            st = ladder_fail(msg, LADDER_ERROR, "%s(%ldx%ldx%ld): %s (%d)", name, g->M, g->N,
                             g->K, clblast_status_name(status), (int)status);
    }
    if (st != LADDER_OK) {
        if (marker)
            clReleaseEvent(marker);
        return st;
    }
    if (timed)
        ocl_timer_record(s, marker, done);
    return LADDER_OK;
}

#endif
