/* Holding the OpenCL queue while the host enqueues the work it times, as CUDA's timer does
 * (backends/cuda/stream_hold.h).
 *
 * The timer's window runs from the START of the first timed command to the END of the
 * last. On an idle queue the first kernel starts cold, and a later one waits on the GPU
 * while the host sets its arguments and enqueues it: both would be timed as if the kernels
 * ran, and CUDA's timer counts neither. On an H200 that was 1.5-2.5 us a call for the
 * rungs at 512^3 and 1024^3, and 5-14 us for CLBlast, which launches more kernels
 * (results/h200-2026-11-29-pair).
 *
 * So the timer first enqueues a one-work-item kernel that spins for about OCL_HOLD_NS,
 * with no event: by the time it ends, the timed work is queued behind it and runs at
 * once. OpenCL C has no clock, so the kernel counts steps of an integer recurrence, and
 * the number of steps for OCL_HOLD_NS is measured on the device the first time (a CPU and
 * a GPU take very different times a step).
 */
#ifndef LADDER_OPENCL_HOLD_H
#define LADDER_OPENCL_HOLD_H

#include <CL/cl.h>

#include "backends/backend.h"
#include "base/status.h"

/* How long the hold spins: longer than CLBlast's host side. CUDA's 100 us was not: on the
 * H200, CLBlast at 3072^3 took 1,850 us with it and 1,782 with 1 ms, at 16384 x 64 x 4096
 * 346-373 and 327; the rungs were level (results/h200-2026-11-29-pair). It is spent
 * before the window opens, so it is never timed; it costs a run 1 ms a repetition. */
#define OCL_HOLD_NS 1000000.0

/* The hold's program and kernel, built and calibrated at its first use in a session. */
typedef struct {
    cl_program program;
    cl_kernel kernel;
    cl_mem sink;   /* where the kernel could write, so its loop cannot be left out */
    cl_uint steps; /* steps for OCL_HOLD_NS on this device; 0 until calibrated */
} ocl_hold;

/* Enqueues the hold on the session's queue and flushes it to the device, building and
 * calibrating the kernel first if needed. */
ladder_status ocl_hold_enqueue(backend_session *s, char *msg);

/* Runs the hold alone and returns its device time in nanoseconds (for the tests). */
ladder_status ocl_hold_measure(backend_session *s, double *ns, char *msg);

/* The steps that spin for `target_ns`, from two timed runs of n1 < n2 steps that took
 * t1 and t2 ns: the difference is the steps' own time, without the launch's. Never below
 * n1, never above 2^28; n2 when the times say nothing (t2 <= t1). Pure, so the arithmetic
 * is unit-tested. */
cl_uint ocl_hold_steps_for(double target_ns, cl_uint n1, double t1, cl_uint n2, double t2);

void ocl_hold_release(ocl_hold *h);

#endif
