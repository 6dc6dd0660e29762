#include "backends/opencl/opencl_hold.h"

#include <math.h>

#include "backends/opencl/opencl_errors.h"
#include "backends/opencl/opencl_internal.h"

/* A linear congruential step, each depending on the last, so the steps cannot overlap or
 * be folded into a formula; the store is as good as never taken, but the compiler cannot
 * know that, so it keeps the loop. */
static const char hold_source[] =
    "__kernel void hold_queue(__global uint *sink, const uint steps)\n"
    "{\n"
    "    uint x = 0x9e3779b9u;\n"
    "    for (uint i = 0; i < steps; i++)\n"
    "        x = x * 1664525u + 1013904223u;\n"
    "    if (x == 0u)\n"
    "        sink[0] = x;\n"
    "}\n";

#define CALIBRATE_N1 4096u
#define CALIBRATE_N2 65536u
#define MAX_STEPS (1u << 28)

cl_uint ocl_hold_steps_for(double target_ns, cl_uint n1, double t1, cl_uint n2, double t2)
{
    if (!(t2 > t1) || n2 <= n1)
        return n2;
    const double per_step = (t2 - t1) / (double)(n2 - n1);
    const double steps = ceil(target_ns / per_step);
    if (steps <= (double)n1)
        return n1;
    return steps >= (double)MAX_STEPS ? MAX_STEPS : (cl_uint)steps;
}

/* Enqueues the hold for `steps`: timed, its device time in *ns; else (ns NULL) with no
 * event, flushed to the device. */
static ladder_status run_hold(backend_session *s, cl_uint steps, double *ns, char *msg)
{
    ocl_hold *h = &s->hold;
    cl_int err = clSetKernelArg(h->kernel, 0, sizeof h->sink, &h->sink);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(h->kernel, 1, sizeof steps, &steps);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clSetKernelArg(timer hold)");
    const size_t one = 1;
    cl_event event = NULL;
    err = clEnqueueNDRangeKernel(s->queue, h->kernel, 1, NULL, &one, &one, 0, NULL,
                                 ns ? &event : NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clEnqueueNDRangeKernel(timer hold)");
    if (!ns) {
        err = clFlush(s->queue); /* to the device now, so it spins while the host works */
        return err == CL_SUCCESS ? LADDER_OK : ocl_fail(msg, err, "clFlush(timer hold)");
    }
    cl_ulong start = 0, end = 0;
    err = clWaitForEvents(1, &event);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                      NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    clReleaseEvent(event);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "timing the timer hold");
    *ns = end > start ? (double)(end - start) : 0.0;
    return LADDER_OK;
}

/* Builds the kernel and measures how many steps make OCL_HOLD_NS here, once a session. */
static ladder_status prepare(backend_session *s, char *msg)
{
    ocl_hold *h = &s->hold;
    if (h->steps)
        return LADDER_OK;
    const char *sources[] = {hold_source};
    cl_int err = CL_SUCCESS;
    h->program = clCreateProgramWithSource(s->context, 1, sources, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(h->program, 1, &s->device, "", NULL, NULL);
    if (err == CL_SUCCESS)
        h->kernel = clCreateKernel(h->program, "hold_queue", &err);
    if (err == CL_SUCCESS)
        h->sink = clCreateBuffer(s->context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    if (err != CL_SUCCESS) {
        ocl_hold_release(h);
        return ocl_fail(msg, err, "building the timer's hold kernel");
    }
    /* The first run pays for the kernel's first launch; the two after it are timed. */
    double t1 = 0.0, t2 = 0.0;
    ladder_status st = run_hold(s, CALIBRATE_N1, &t1, msg);
    if (st == LADDER_OK)
        st = run_hold(s, CALIBRATE_N1, &t1, msg);
    if (st == LADDER_OK)
        st = run_hold(s, CALIBRATE_N2, &t2, msg);
    if (st != LADDER_OK) {
        ocl_hold_release(h);
        return st;
    }
    h->steps = ocl_hold_steps_for(OCL_HOLD_NS, CALIBRATE_N1, t1, CALIBRATE_N2, t2);
    return LADDER_OK;
}

ladder_status ocl_hold_enqueue(backend_session *s, char *msg)
{
    ladder_status st = prepare(s, msg);
    return st == LADDER_OK ? run_hold(s, s->hold.steps, NULL, msg) : st;
}

ladder_status ocl_hold_measure(backend_session *s, double *ns, char *msg)
{
    ladder_status st = prepare(s, msg);
    return st == LADDER_OK ? run_hold(s, s->hold.steps, ns, msg) : st;
}

void ocl_hold_release(ocl_hold *h)
{
    if (h->kernel)
        clReleaseKernel(h->kernel);
    if (h->program)
        clReleaseProgram(h->program);
    if (h->sink)
        clReleaseMemObject(h->sink);
    *h = (ocl_hold){0};
}
