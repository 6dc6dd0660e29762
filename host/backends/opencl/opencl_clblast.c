/* The CLBlast baseline: the OpenCL world's tuned BLAS, run through the same buffers, queue
 * and timer as the rungs, so its figures compare directly with theirs.
 *
 * Only compiled in when CMake found CLBlast (LADDER_HAVE_CLBLAST); otherwise the backend's
 * library_sgemm is NULL and this file holds nothing.
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
        return ocl_fail(msg, err, "clEnqueueMarkerWithWaitList (before CLBlastSgemm)");
    return LADDER_OK;
}

ladder_status ocl_clblast_sgemm(backend_session *s, int M, int N, int K, gpu_buffer *A,
                                gpu_buffer *B, gpu_buffer *C, char *msg)
{
    if (M <= 0 || N <= 0 || K <= 0)
        return ladder_fail(msg, LADDER_ERROR, "CLBlastSgemm: sizes %dx%dx%d must be positive",
                           M, N, K);
    int timed = ocl_timer_wants_events(s);
    cl_event marker = NULL, done = NULL;
    if (timed) {
        ladder_status st = enqueue_marker(s, &marker, msg);
        if (st != LADDER_OK)
            return st;
    }
    /* Column-major, no transposes: C = 1 * A * B + 0 * C, leading dimensions M, K, M. */
    CLBlastStatusCode status = CLBlastSgemm(
        CLBlastLayoutColMajor, CLBlastTransposeNo, CLBlastTransposeNo,
        (size_t)M, (size_t)N, (size_t)K, 1.0f,
        A->mem, 0, (size_t)M, B->mem, 0, (size_t)K, 0.0f, C->mem, 0, (size_t)M,
        &s->queue, timed ? &done : NULL);
    if (status != CLBlastSuccess) {
        if (marker)
            clReleaseEvent(marker);
        return ladder_fail(msg, LADDER_ERROR, "CLBlastSgemm(%dx%dx%d): %s (%d)", M, N, K,
                           clblast_status_name(status), (int)status);
    }
    if (timed)
        ocl_timer_record(s, marker, done);
    return LADDER_OK;
}

#endif
