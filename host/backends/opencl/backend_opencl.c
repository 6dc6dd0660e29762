/* The OpenCL backend: sessions, buffers and the table of functions the harness calls.
 *
 * A session is one device with one context and one in-order command queue. In-order matters
 * for timing: commands run one after another in the order they were enqueued, so the time
 * from the start of the first to the end of the last is the time a user waits for all of
 * them (see opencl_timer.c). Kernels live in opencl_program.c, devices in opencl_devices.c.
 */

/* clCreateCommandQueue is deprecated since OpenCL 2.0, but it is the only way to create a
 * queue on an OpenCL 1.2 platform, so the fallback below needs it without a warning. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#include <stdio.h>
#include <stdlib.h>

#include <CL/cl.h>

#include "backends/backend.h"
#include "backends/opencl/opencl_errors.h"
#include "backends/opencl/opencl_internal.h"

/* ---- sessions ---- */

/* The OpenCL version of a platform as 10*major + minor ("OpenCL 3.0 ..." gives 30). */
static ladder_status platform_version(cl_platform_id platform, int *version, char *msg)
{
    /* The string reads "OpenCL <major>.<minor> <vendor text>". */
    size_t needed = 0;
    cl_int err = clGetPlatformInfo(platform, CL_PLATFORM_VERSION, 0, NULL, &needed);
    char *text = NULL;
    if (err == CL_SUCCESS) {
        text = calloc(needed + 1, 1);
        if (!text)
            return ladder_fail(msg, LADDER_ERROR, "out of memory reading CL_PLATFORM_VERSION");
        err = clGetPlatformInfo(platform, CL_PLATFORM_VERSION, needed, text, NULL);
    }
    if (err != CL_SUCCESS) {
        free(text);
        return ocl_fail(msg, err, "clGetPlatformInfo(CL_PLATFORM_VERSION)");
    }
    int major = 1, minor = 0;
    sscanf(text, "OpenCL %d.%d", &major, &minor);
    free(text);
    *version = major * 10 + minor;
    return LADDER_OK;
}

/* An in-order queue with profiling, so that kernels can be timed by the device itself.
 * OpenCL 2.0 replaced clCreateCommandQueue with clCreateCommandQueueWithProperties; a 1.2
 * platform has only the old call, so it is the fallback. */
static ladder_status create_queue(backend_session *s, char *msg)
{
    int version = 12;
    ladder_status st = platform_version(s->platform, &version, msg);
    if (st != LADDER_OK)
        return st;
    cl_int err = CL_INVALID_OPERATION;
    if (version >= 20) {
        const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        s->queue = clCreateCommandQueueWithProperties(s->context, s->device, props, &err);
    }
    if (err != CL_SUCCESS)
        s->queue = clCreateCommandQueue(s->context, s->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        s->queue = NULL;
        return ocl_fail(msg, err, "clCreateCommandQueue(%s, profiling enabled)", s->info.name);
    }
    return LADDER_OK;
}

static void ocl_close(backend_session *s)
{
    if (!s)
        return;
    /* Buffers and programs keep their own reference to the context, so releasing them
     * after the session is closed is still safe. */
    ocl_timer_reset(s);
    ocl_hold_release(&s->hold);
    if (s->queue)
        clReleaseCommandQueue(s->queue);
    if (s->context)
        clReleaseContext(s->context);
    free(s);
}

static ladder_status ocl_open(int index, backend_session **session, char *msg)
{
    *session = NULL;
    backend_session *s = calloc(1, sizeof *s);
    if (!s)
        return ladder_fail(msg, LADDER_ERROR, "out of memory opening opencl:%d", index);
    ladder_status st = ocl_find_device(index, &s->platform, &s->device, msg);
    if (st == LADDER_OK)
        st = ocl_device_query(index, &s->info, msg);
    if (st == LADDER_OK) {
        const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                               (cl_context_properties)s->platform, 0};
        cl_int err = CL_SUCCESS;
        s->context = clCreateContext(props, 1, &s->device, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            s->context = NULL;
            st = ocl_fail(msg, err, "clCreateContext(%s)", s->info.name);
        }
    }
    if (st == LADDER_OK)
        st = create_queue(s, msg);
    if (st != LADDER_OK) {
        ocl_close(s);
        return st;
    }
    *session = s;
    return LADDER_OK;
}

/* ---- buffers ---- */

static ladder_status ocl_alloc(backend_session *s, size_t bytes, gpu_buffer **buffer,
                               char *msg)
{
    *buffer = NULL;
    if (bytes == 0)
        return ladder_fail(msg, LADDER_ERROR, "clCreateBuffer: asked for 0 bytes "
                           "(an empty matrix has nothing to compute)");
    /* OpenCL would fail anyway, but only with CL_INVALID_BUFFER_SIZE; say what the limit is. */
    if (bytes > s->info.max_alloc_bytes)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "a buffer of %.1f MiB is larger than this "
                           "device allows in one allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE = "
                           "%.1f MiB)", bytes / 1048576.0, s->info.max_alloc_bytes / 1048576.0);
    gpu_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return ladder_fail(msg, LADDER_ERROR, "out of memory for a buffer handle");
    cl_int err = CL_SUCCESS;
    b->mem = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        free(b);
        return ocl_fail(msg, err, "clCreateBuffer(%zu bytes)", bytes);
    }
    b->bytes = bytes;
    *buffer = b;
    return LADDER_OK;
}

static void ocl_release(gpu_buffer *buffer)
{
    if (!buffer)
        return;
    clReleaseMemObject(buffer->mem);
    free(buffer);
}

/* Copies are blocking: when they return, the data has arrived and the host memory may be
 * reused. They are never inside a timed window (the timer measures kernels only). */
static ladder_status ocl_upload(backend_session *s, gpu_buffer *dst, const void *src,
                                size_t bytes, char *msg)
{
    if (bytes > dst->bytes)
        return ladder_fail(msg, LADDER_ERROR, "clEnqueueWriteBuffer: %zu bytes do not fit in "
                           "a buffer of %zu", bytes, dst->bytes);
    cl_int err = clEnqueueWriteBuffer(s->queue, dst->mem, CL_TRUE, 0, bytes, src, 0, NULL,
                                      NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clEnqueueWriteBuffer(%zu bytes)", bytes);
    return LADDER_OK;
}

static ladder_status ocl_download(backend_session *s, void *dst, gpu_buffer *src, size_t bytes,
                                  char *msg)
{
    if (bytes > src->bytes)
        return ladder_fail(msg, LADDER_ERROR, "clEnqueueReadBuffer: asked for %zu bytes from a "
                           "buffer of %zu", bytes, src->bytes);
    cl_int err = clEnqueueReadBuffer(s->queue, src->mem, CL_TRUE, 0, bytes, dst, 0, NULL,
                                     NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clEnqueueReadBuffer(%zu bytes)", bytes);
    return LADDER_OK;
}

/* Waits for everything enqueued; a kernel that failed while running reports it here. */
static ladder_status ocl_finish(backend_session *s, char *msg)
{
    cl_int err = clFinish(s->queue);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clFinish");
    return LADDER_OK;
}

/* ---- the table ---- */

static const backend_ops opencl_ops = {
    .name = "opencl",
    .device_count = ocl_device_count,
    .device_query = ocl_device_query,
    .open = ocl_open,
    .close = ocl_close,
    .alloc = ocl_alloc,
    .release = ocl_release,
    .upload = ocl_upload,
    .download = ocl_download,
    .compile = ocl_compile,
    .release_program = ocl_release_program,
    .launch = ocl_launch,
    .timer_start = ocl_timer_start,
    .timer_stop = ocl_timer_stop,
    .finish = ocl_finish,
#ifdef LADDER_HAVE_CLBLAST
    .library_gemm = ocl_clblast_gemm,
#else
    .library_gemm = NULL, /* built without CLBlast: no library baseline */
#endif
    .library_name = "clblast", /* named even when absent, so messages can say what is missing */
};

/* Always available when this file is compiled: whether any OpenCL device exists is
 * device_count's question, answered at run time. */
const backend_ops *opencl_backend(char *msg)
{
    (void)msg;
    return &opencl_ops;
}
