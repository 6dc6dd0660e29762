/* Timing with the device's own clock (OpenCL profiling events).
 *
 * Host clocks would also count the time to enqueue, the driver's scheduling and the wake-up
 * of the waiting thread. Profiling events carry the device's timestamps of when each command
 * started and ended. The queue is in-order, so for everything enqueued between timer_start
 * and timer_stop, the time a user waits is START of the first command to END of the last;
 * the events in between are not needed and are released at once. timer_start first puts a
 * hold on the queue (opencl_hold.h), so that the device does not wait inside the window for
 * the host to enqueue the next command.
 */
#include <CL/cl.h>

#include "backends/opencl/opencl_errors.h"
#include "backends/opencl/opencl_internal.h"

int ocl_timer_wants_events(const backend_session *s)
{
    return s->timer.running;
}

/* Each of `first` and `last` holds its own reference, so one event may be both. Retaining
 * and releasing an event we were just given cannot fail, so their codes are not checked. */
void ocl_timer_record(backend_session *s, cl_event begin, cl_event end)
{
    ocl_timer *t = &s->timer;
    if (!t->first) {
        clRetainEvent(begin);
        t->first = begin;
    }
    clRetainEvent(end);
    if (t->last)
        clReleaseEvent(t->last);
    t->last = end;
    /* The caller's references are ours now; drop them. */
    clReleaseEvent(begin);
    if (end != begin)
        clReleaseEvent(end);
}

void ocl_timer_reset(backend_session *s)
{
    ocl_timer *t = &s->timer;
    if (t->first)
        clReleaseEvent(t->first);
    if (t->last)
        clReleaseEvent(t->last);
    t->first = t->last = NULL;
    t->running = 0;
}

ladder_status ocl_timer_start(backend_session *s, char *msg)
{
    /* Starting again simply opens a new window: events of an unfinished one are dropped. */
    ocl_timer_reset(s);
    /* The hold goes in before the window opens: it has no event, so it is never timed. */
    ladder_status st = ocl_hold_enqueue(s, msg);
    if (st != LADDER_OK)
        return st;
    s->timer.running = 1;
    return LADDER_OK;
}

static ladder_status profiling_time(cl_event event, cl_profiling_info which, const char *what,
                                    cl_ulong *ns, char *msg)
{
    cl_int err = clGetEventProfilingInfo(event, which, sizeof *ns, ns, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetEventProfilingInfo(%s)", what);
    return LADDER_OK;
}

static ladder_status measure(const ocl_timer *t, double *ms, char *msg)
{
    /* The queue is in-order: once the last command is done, so is the first. A kernel that
     * failed while running shows up here as an error status of its event. */
    cl_int err = clWaitForEvents(1, &t->last);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clWaitForEvents (timed commands)");
    cl_ulong start = 0, end = 0;
    ladder_status st = profiling_time(t->first, CL_PROFILING_COMMAND_START,
                                      "CL_PROFILING_COMMAND_START", &start, msg);
    if (st == LADDER_OK)
        st = profiling_time(t->last, CL_PROFILING_COMMAND_END, "CL_PROFILING_COMMAND_END",
                            &end, msg);
    if (st != LADDER_OK)
        return st;
    if (end < start)
        return ladder_fail(msg, LADDER_ERROR, "timer: the device reported an end (%llu ns) "
                           "before the start (%llu ns)", (unsigned long long)end,
                           (unsigned long long)start);
    *ms = (double)(end - start) / 1e6; /* nanoseconds to milliseconds */
    return LADDER_OK;
}

ladder_status ocl_timer_stop(backend_session *s, double *ms, char *msg)
{
    ocl_timer *t = &s->timer;
    ladder_status st;
    if (!t->running)
        st = ladder_fail(msg, LADDER_ERROR, "timer_stop without timer_start");
    else if (!t->first)
        st = ladder_fail(msg, LADDER_ERROR, "timer_stop: nothing was enqueued since "
                         "timer_start, so there is nothing to time");
    else
        st = measure(t, ms, msg);
    ocl_timer_reset(s);
    return st;
}
