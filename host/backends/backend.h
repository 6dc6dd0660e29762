/* The backend interface: what the harness needs from a GPU programming model.
 *
 * OpenCL and CUDA each implement this table of function pointers, so the runner, the
 * verifier and the CLI are written once. Launch geometry is always given the OpenCL way
 * (global = total work-items per dimension, local = work-group size); the CUDA backend
 * turns it into grid = global / local and block = local.
 *
 * Every function returns LADDER_OK, LADDER_ERROR or LADDER_UNSUPPORTED and fills `msg` on
 * failure with a line that names the API call that failed.
 */
#ifndef LADDER_BACKEND_H
#define LADDER_BACKEND_H

#include <stddef.h>
#include "base/gemm_case.h"
#include "base/status.h"

typedef struct {
    char backend[16];   /* "opencl", "cuda" or "cpu" */
    int index;          /* index within the backend: the N of "opencl:N" */
    char name[256];     /* device name as the driver reports it */
    char vendor[128];
    char driver[128];   /* driver version (and runtime version where useful) */
    char platform[128]; /* OpenCL platform name; "CUDA <version>" for CUDA */
    int is_gpu;         /* 1 for GPUs and other accelerators, 0 for CPUs */
    int compute_units;  /* OpenCL compute units / CUDA streaming multiprocessors */
    int clock_mhz;      /* maximum clock; 0 if unknown */
    size_t local_mem_bytes;     /* local (shared) memory one work-group may use */
    size_t local_mem_optin_bytes; /* CUDA: what a block may use once it opts in to more
                                     (dynamic shared memory, see backend_cuda.c); 0 elsewhere */
    size_t max_work_group_size; /* most work-items in one work-group */
    size_t max_work_item_sizes[3];
    size_t global_mem_bytes;
    size_t max_alloc_bytes;     /* largest single buffer */
    int cc_major, cc_minor;     /* NVIDIA compute capability (CUDA, and OpenCL on NVIDIA); 0 if none */
    int subgroups;              /* 1 if OpenCL subgroup functions are available */
    int fp64;                   /* 1 if kernels may compute in double (OpenCL: the
                                   cl_khr_fp64 extension; every CUDA device) */
    double fp32_peak_gflops;    /* computed where the backend can tell; 0 = unknown */
} device_info;

typedef struct { size_t global[2]; size_t local[2]; } launch_dims;

typedef struct gpu_buffer gpu_buffer;   /* opaque, owned by the backend */
typedef struct gpu_program gpu_program; /* opaque: a compiled kernel source */
typedef struct backend_session backend_session;

/* A TMA tensor map (CUDA, compute capability 9.0+): the description of a column-major
 * float matrix and of the box (tile) one bulk copy moves, from which the CUDA backend
 * makes the 128-byte CUtensorMap the kernel takes by value (cuTensorMapEncodeTiled).
 * The copy engine fills the parts of a box outside the matrix with zeros. */
typedef struct {
    gpu_buffer *buffer;       /* the matrix: element (r, c) at r + c * ld */
    long rows, cols, ld;      /* ld * 4 bytes must be a multiple of 16 */
    int box_rows, box_cols;   /* the box: box_rows * 4 bytes at most the swizzle span */
    int swizzle_bytes;        /* 0 (none), 32, 64 or 128: how rows of the box are laid out
                                 in shared memory (see kernels-cuda/hopper.cuh) */
} tensor_map_desc;

/* A kernel argument: an int, a float or a double scalar (alpha and beta of a kernel
 * compiled in double), a buffer, or a tensor map (CUDA only). */
typedef enum { ARG_INT, ARG_FLOAT, ARG_DOUBLE, ARG_BUFFER, ARG_TENSOR_MAP } kernel_arg_kind;
typedef struct {
    kernel_arg_kind kind;
    int i;
    float f;
    double d;
    gpu_buffer *buffer;
    tensor_map_desc tensor_map; /* ARG_TENSOR_MAP: CUDA only */
} kernel_arg;



typedef struct {
    const char *name; /* "opencl", "cuda" */

    /* Number of devices; LADDER_UNSUPPORTED (with the reason in msg) if the runtime is absent. */
    ladder_status (*device_count)(int *count, char *msg);
    ladder_status (*device_query)(int index, device_info *info, char *msg);

    ladder_status (*open)(int index, backend_session **session, char *msg);
    void (*close)(backend_session *session);

    ladder_status (*alloc)(backend_session *s, size_t bytes, gpu_buffer **buffer, char *msg);
    void (*release)(gpu_buffer *buffer);
    ladder_status (*upload)(backend_session *s, gpu_buffer *dst, const void *src, size_t bytes,
                            char *msg);
    ladder_status (*download)(backend_session *s, void *dst, gpu_buffer *src, size_t bytes,
                              char *msg);

    /* Compile the file at `path` with `options` (preprocessor defines such as
     * "-DTS=32 -DWPT=8"). A compile error returns LADDER_ERROR with the compiler's log in
     * msg (truncated to fit). */
    ladder_status (*compile)(backend_session *s, const char *path, const char *options,
                             gpu_program **program, char *msg);
    void (*release_program)(gpu_program *program);

    /* Enqueue one kernel. Returns LADDER_UNSUPPORTED if the compiled kernel cannot take
     * this work-group size on this device (too many registers, for example). */
    ladder_status (*launch)(backend_session *s, gpu_program *program, const char *kernel,
                            const launch_dims *dims, const kernel_arg *args, int nargs,
                            char *msg);

    /* Device-side timing: everything enqueued between timer_start and timer_stop is
     * timed with device events; timer_stop waits for it and returns milliseconds. */
    ladder_status (*timer_start)(backend_session *s, char *msg);
    ladder_status (*timer_stop)(backend_session *s, double *ms, char *msg);
    ladder_status (*finish)(backend_session *s, char *msg);

    /* The vendor library's GEMM (cuBLAS, CLBlast), the BLAS call `call` describes:
     * C = alpha * op(A) * op(B) + beta * C in its precision, the matrices stored in its
     * layout. As in BLAS, beta = 0 never reads C, alpha = 0 never reads A or B, K = 0
     * makes C = beta * C and M = 0 or N = 0 returns at once; a leading dimension below its
     * minimum (gemm_check_call) or a call the library refuses is LADDER_ERROR with the
     * reason. NULL when the backend was built without the library. */
    ladder_status (*library_gemm)(backend_session *s, const gemm_call *call, gpu_buffer *A,
                                  gpu_buffer *B, gpu_buffer *C, char *msg);
    const char *library_name; /* "cublas", "clblast" */
    /* The same call on the TF32 tensor cores (reduced precision: each input keeps 10
     * fraction bits), single precision only; the handle's math mode is left as it was.
     * NULL when the backend has no such mode (CLBlast, or a CUDA build without it). */
    ladder_status (*library_gemm_tf32)(backend_session *s, const gemm_call *call,
                                       gpu_buffer *A, gpu_buffer *B, gpu_buffer *C,
                                       char *msg);
} backend_ops;

/* The backends compiled into this binary. Each getter returns NULL if the backend is not
 * built, or (CUDA) if its module cannot be loaded; then `msg` says why. */
const backend_ops *opencl_backend(char *msg);
const backend_ops *cuda_backend(char *msg);

#endif
