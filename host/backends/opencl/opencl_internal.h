/* What the files of the OpenCL backend share with each other (not with the rest of the
 * harness, which only sees backend.h).
 *
 * The backend is split by job: opencl_devices.c finds and describes devices,
 * backend_opencl.c opens a session and moves data, opencl_program.c compiles and launches
 * kernels, opencl_timer.c times them with profiling events (opencl_hold.c keeps the
 * queue busy while the host enqueues what they time), opencl_clblast.c runs the CLBlast
 * baseline.
 */
#ifndef LADDER_OPENCL_INTERNAL_H
#define LADDER_OPENCL_INTERNAL_H

#include <CL/cl.h>

#include "backends/backend.h"
#include "backends/opencl/opencl_hold.h"
#include "base/status.h"

/* The timer keeps only two events, not one per launch: the device time of a window is the
 * START of the first command in it to the END of the last, because the queue is in-order. */
typedef struct {
    int running;
    cl_event first; /* its START opens the window; NULL until something is enqueued */
    cl_event last;  /* its END closes the window */
} ocl_timer;

struct backend_session {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in-order, with profiling enabled */
    device_info info;       /* queried once at open: limits used to check requests */
    ocl_timer timer;
    ocl_hold hold;          /* the timer's hold kernel (opencl_hold.h), built at first use */
};

struct gpu_buffer {
    cl_mem mem;
    size_t bytes; /* its size, so uploads and downloads can be checked against it */
};

/* Enough for a GEMM kernel plus its helpers (transpose, pad, unpad) in one source file. */
#define OCL_MAX_KERNELS 16

typedef struct {
    char name[64];
    cl_kernel kernel;
} ocl_cached_kernel;

struct gpu_program {
    cl_program program;
    char path[512];         /* the source file, for error messages */
    int nkernels;
    ocl_cached_kernel kernels[OCL_MAX_KERNELS]; /* created on first launch, by name */
};

/* Devices: "opencl:N" is the N-th device of a flat list over all platforms. */
ladder_status ocl_device_count(int *count, char *msg);
ladder_status ocl_find_device(int index, cl_platform_id *platform, cl_device_id *device,
                              char *msg);
ladder_status ocl_device_query(int index, device_info *info, char *msg);

/* Kernels: compile a .cl file, launch a kernel from it. */
ladder_status ocl_compile(backend_session *s, const char *path, const char *options,
                          gpu_program **program, char *msg);
void ocl_release_program(gpu_program *program);
ladder_status ocl_launch(backend_session *s, gpu_program *program, const char *kernel,
                         const launch_dims *dims, const kernel_arg *args, int nargs, char *msg);

/* Timing. Every enqueue that should count calls ocl_timer_wants_events to learn whether to
 * ask for events, then hands them over with ocl_timer_record. `begin` and `end` are the
 * first and last command of one operation (the same event for a single kernel); the timer
 * takes over the caller's references to both. */
int ocl_timer_wants_events(const backend_session *s);
void ocl_timer_record(backend_session *s, cl_event begin, cl_event end);
void ocl_timer_reset(backend_session *s);
ladder_status ocl_timer_start(backend_session *s, char *msg);
ladder_status ocl_timer_stop(backend_session *s, double *ms, char *msg);

/* The CLBlast baseline; only built with LADDER_HAVE_CLBLAST. */
ladder_status ocl_clblast_gemm(backend_session *s, const gemm_call *call, gpu_buffer *A,
                              gpu_buffer *B, gpu_buffer *C, char *msg);

#endif
