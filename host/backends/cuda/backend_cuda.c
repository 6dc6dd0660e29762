/* The CUDA backend: the backend_ops table of backend.h on the CUDA driver API.
 *
 * Why the driver API (cuda.h) and not the runtime (cudaMalloc...): the runtime wants
 * kernels compiled into the program by nvcc, while the ladder compiles kernel files at run
 * time with NVRTC and loads the result, which is what the driver API is for. It also keeps
 * this a plain C file, built by the C compiler like the rest of the harness.
 *
 * This file is built into a module (libladder_cuda.so) that the harness dlopen()s, so the
 * `ladder` binary itself does not depend on libcuda.so.1 and starts on machines without an
 * NVIDIA driver; there the module fails to load and CUDA is reported as unavailable.
 *
 * Launch geometry arrives the OpenCL way (global = total threads per dimension,
 * local = block size); here grid = global / local and block = local.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cublas_v2.h>

#include "backends/backend.h"
#include "backends/device_peak.h"
#include "backends/cuda/nvrtc_compile.h"
#include "backends/cuda/stream_hold.h"
#include "base/text_file.h"
#include "base/status.h"

/* The one symbol the harness looks up with dlsym(); everything else stays private. */
__attribute__((visibility("default"))) const backend_ops *ladder_cuda_module(void);

/* A rung's file holds one kernel (gemm); helpers.cu holds a few (transpose, pad, unpad). */
#define MAX_CACHED_KERNELS 8
#define MAX_KERNEL_ARGS 16
#define MAX_KERNEL_NAME 64

struct backend_session {
    CUdevice device;
    CUcontext context;     /* the device's primary context, shared with cuBLAS */
    CUstream stream;       /* every copy, kernel and cuBLAS call goes here, in order */
    CUevent start, stop;   /* the device-side timer */
    CUmodule hold_module;  /* the timer's hold kernel (stream_hold.h), loaded at first use */
    CUfunction hold;
    cublasHandle_t blas;
    int cc_major, cc_minor;
};

/* Buffers and programs remember their context because release() gets no session. */
struct gpu_buffer {
    CUcontext context;
    CUdeviceptr pointer;
    size_t bytes;
};

/* Looking a kernel up by name and asking for its limits is done once per program. */
typedef struct {
    char name[MAX_KERNEL_NAME];
    CUfunction function;
    int max_threads; /* most threads per block this compiled kernel can take */
    int registers;   /* registers per thread: the usual reason max_threads is low */
    int dynamic_shared; /* bytes of dynamic shared memory every launch gets (see
                           read_dynamic_shared); 0 for kernels with static arrays only */
} cached_kernel;

struct gpu_program {
    CUcontext context;
    CUmodule module;
    int nkernels;
    cached_kernel kernels[MAX_CACHED_KERNELS];
    int names_dynamic_shared; /* its source declares a <kernel>_dynamic_shared global */
};

/* ---------------------------------------------------------------- error messages ---- */

/* "CUDA_ERROR_OUT_OF_MEMORY": the name a user can search for. */
static const char *cu_error_name(CUresult rc)
{
    const char *name = NULL;
    if (cuGetErrorName(rc, &name) != CUDA_SUCCESS || !name)
        return "unrecognized CUresult";
    return name;
}

/* "out of memory": what the name means. */
static const char *cu_error_text(CUresult rc)
{
    const char *text = NULL;
    if (cuGetErrorString(rc, &text) != CUDA_SUCCESS || !text)
        return "no description";
    return text;
}

/* Fills msg with "<call>: <error name> (<description>)" and returns `status`. */
static ladder_status cu_fail(char *msg, ladder_status status, CUresult rc, const char *call)
{
    return ladder_fail(msg, status, "%s: %s (%s)", call, cu_error_name(rc), cu_error_text(rc));
}

/* Returns from the calling function through cu_fail, for calls whose description needs
 * numbers in it (sizes, names). */
#define RETURN_CU_FAIL(msg, status, rc, ...)                \
    do {                                                    \
        char call_[256];                                    \
        snprintf(call_, sizeof call_, __VA_ARGS__);         \
        return cu_fail((msg), (status), (rc), call_);       \
    } while (0)

static ladder_status blas_fail(char *msg, cublasStatus_t rc, const char *call)
{
    return ladder_fail(msg, LADDER_ERROR, "%s: %s (%s)", call, cublasGetStatusName(rc),
                       cublasGetStatusString(rc));
}

/* The void functions of the interface (close, release) cannot return an error, but a
 * failure there still deserves a line on stderr rather than silence. */
static void warn_on_failure(CUresult rc, const char *call)
{
    if (rc != CUDA_SUCCESS)
        fprintf(stderr, "ladder: warning: cuda: %s: %s (%s)\n", call, cu_error_name(rc),
                cu_error_text(rc));
}

/* -------------------------------------------------------------- driver and devices ---- */

/* cuInit fails when there is no driver or no GPU: that is "unavailable", not an error. */
static ladder_status init_driver(char *msg)
{
    CUresult rc = cuInit(0);
    if (rc != CUDA_SUCCESS)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "cuInit failed: %s (%s)", cu_error_name(rc),
                           cu_error_text(rc));
    return LADDER_OK;
}

static ladder_status get_device(int index, CUdevice *device, char *msg)
{
    ladder_status status = init_driver(msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuDeviceGet(device, index);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuDeviceGet(%d)", index);
    return LADDER_OK;
}

static ladder_status cuda_device_count(int *count, char *msg)
{
    *count = 0;
    ladder_status status = init_driver(msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuDeviceGetCount(count);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuDeviceGetCount");
    if (*count == 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "cuDeviceGetCount: no CUDA devices");
    return LADDER_OK;
}

static ladder_status attribute(CUdevice device, CUdevice_attribute which, const char *what,
                               int *value, char *msg)
{
    CUresult rc = cuDeviceGetAttribute(value, which, device);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuDeviceGetAttribute(%s)", what);
    return LADDER_OK;
}

/* Shorthand that passes the attribute's name along for the error message. */
#define ATTRIBUTE(device, which, value, msg) attribute((device), (which), #which, (value), (msg))

static ladder_status compute_capability(CUdevice device, int *major, int *minor, char *msg)
{
    ladder_status status =
        ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, major, msg);
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, minor, msg);
    return status;
}

/* "CUDA driver 13.0, NVRTC 13.0, cuBLAS 13.0.2": everything that shapes the numbers, so
 * a result file says which compiler and which cuBLAS produced them. */
static ladder_status describe_versions(char *out, size_t size, char *msg)
{
    int driver = 0;
    CUresult rc = cuDriverGetVersion(&driver);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuDriverGetVersion");
    char nvrtc[32];
    nvrtc_version_string(nvrtc, sizeof nvrtc);
    int major = 0, minor = 0, patch = 0;
    if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS)
        return ladder_fail(msg, LADDER_ERROR, "cublasGetProperty: cannot read the version");
    /* cuDriverGetVersion gives 1000 * major + 10 * minor. */
    snprintf(out, size, "CUDA driver %d.%d, NVRTC %s, cuBLAS %d.%d.%d", driver / 1000,
             (driver % 1000) / 10, nvrtc, major, minor, patch);
    return LADDER_OK;
}

/* Compute units, limits and sizes: the numbers rung_check_device() compares against. */
static ladder_status query_limits(CUdevice device, device_info *info, char *msg)
{
    int sms = 0, shared = 0, optin = 0, threads = 0, dim[3] = {0, 0, 0};
    ladder_status status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &sms, msg);
    /* The 48 KiB every block gets without opting in; the ladder's kernels use static
     * __shared__ arrays, which cannot go beyond it. */
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &shared, msg);
    /* What a block may have once it asks (dynamic shared memory only; see
     * read_dynamic_shared): 227 KiB on an H100. */
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                           &optin, msg);
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &threads, msg);
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &dim[0], msg);
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &dim[1], msg);
    if (status == LADDER_OK)
        status = ATTRIBUTE(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &dim[2], msg);
    if (status == LADDER_OK)
        status = compute_capability(device, &info->cc_major, &info->cc_minor, msg);
    if (status != LADDER_OK)
        return status;

    info->compute_units = sms;
    info->local_mem_bytes = (size_t)shared;
    info->local_mem_optin_bytes = (size_t)optin;
    info->max_work_group_size = (size_t)threads;
    for (int d = 0; d < 3; d++)
        info->max_work_item_sizes[d] = (size_t)dim[d];

    size_t total = 0;
    CUresult rc = cuDeviceTotalMem(&total, device);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuDeviceTotalMem");
    info->global_mem_bytes = total;
    info->max_alloc_bytes = total; /* CUDA has no per-allocation limit below the total */

    /* The clock is only used for the peak figure: if a driver stops reporting it (NVIDIA
     * has been retiring clock attributes), leave it unknown instead of failing. */
    int khz = 0;
    if (cuDeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, device) == CUDA_SUCCESS)
        info->clock_mhz = khz / 1000;
    return LADDER_OK;
}

static ladder_status cuda_device_query(int index, device_info *info, char *msg)
{
    memset(info, 0, sizeof *info);
    CUdevice device;
    ladder_status status = get_device(index, &device, msg);
    if (status != LADDER_OK)
        return status;

    snprintf(info->backend, sizeof info->backend, "cuda");
    info->index = index;
    CUresult rc = cuDeviceGetName(info->name, (int)sizeof info->name, device);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuDeviceGetName(%d)", index);
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->platform, sizeof info->platform, "CUDA");
    info->is_gpu = 1;
    info->fp64 = 1; /* every CUDA GPU has double, at 1/2 to 1/64 of the float rate */

    status = describe_versions(info->driver, sizeof info->driver, msg);
    if (status == LADDER_OK)
        status = query_limits(device, info, msg);
    if (status != LADDER_OK)
        return status;
    info->fp32_peak_gflops = nvidia_fp32_peak_gflops(info->cc_major, info->cc_minor,
                                                     info->compute_units, info->clock_mhz);
    return LADDER_OK;
}

/* ---------------------------------------------------------------------- sessions ---- */

/* The driver keeps one "current context" per host thread. Setting ours at the start of
 * every call costs next to nothing and keeps two open sessions (two GPUs) from mixing. */
static ladder_status use_context(CUcontext context, char *msg)
{
    CUresult rc = cuCtxSetCurrent(context);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuCtxSetCurrent");
    return LADDER_OK;
}

static void cuda_close(backend_session *s)
{
    if (!s)
        return;
    if (s->context) {
        warn_on_failure(cuCtxSetCurrent(s->context), "cuCtxSetCurrent (closing)");
        /* Let queued work finish before its stream and events go away. */
        if (s->stream)
            warn_on_failure(cuStreamSynchronize(s->stream), "cuStreamSynchronize (closing)");
    }
    if (s->blas) {
        cublasStatus_t rc = cublasDestroy(s->blas);
        if (rc != CUBLAS_STATUS_SUCCESS)
            fprintf(stderr, "ladder: warning: cuda: cublasDestroy: %s\n",
                    cublasGetStatusName(rc));
    }
    if (s->hold_module)
        warn_on_failure(cuModuleUnload(s->hold_module), "cuModuleUnload(hold kernel)");
    if (s->stop)
        warn_on_failure(cuEventDestroy(s->stop), "cuEventDestroy(stop)");
    if (s->start)
        warn_on_failure(cuEventDestroy(s->start), "cuEventDestroy(start)");
    if (s->stream)
        warn_on_failure(cuStreamDestroy(s->stream), "cuStreamDestroy");
    if (s->context)
        warn_on_failure(cuDevicePrimaryCtxRelease(s->device), "cuDevicePrimaryCtxRelease");
    free(s);
}

/* The primary context is the one the CUDA runtime (and so cuBLAS) uses, so our kernels
 * and cuBLAS share memory and a stream. cuCtxCreate would make a second, separate one. */
static ladder_status open_context(backend_session *s, int index, char *msg)
{
    CUresult rc = cuDevicePrimaryCtxRetain(&s->context, s->device);
    if (rc != CUDA_SUCCESS) {
        s->context = NULL;
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuDevicePrimaryCtxRetain(device %d)", index);
    }
    return use_context(s->context, msg);
}

/* A stream of our own, not the legacy default stream, so nothing else in the process
 * (cuBLAS's internal work, for one) is implicitly serialized with our timing. */
static ladder_status open_stream_and_events(backend_session *s, char *msg)
{
    CUresult rc = cuStreamCreate(&s->stream, CU_STREAM_NON_BLOCKING);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuStreamCreate");
    rc = cuEventCreate(&s->start, CU_EVENT_DEFAULT); /* default events record time */
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuEventCreate(start)");
    rc = cuEventCreate(&s->stop, CU_EVENT_DEFAULT);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuEventCreate(stop)");
    return LADDER_OK;
}

static ladder_status open_cublas(backend_session *s, char *msg)
{
    cublasStatus_t rc = cublasCreate(&s->blas);
    if (rc != CUBLAS_STATUS_SUCCESS) {
        s->blas = NULL;
        return blas_fail(msg, rc, "cublasCreate");
    }
    rc = cublasSetStream(s->blas, s->stream);
    if (rc != CUBLAS_STATUS_SUCCESS)
        return blas_fail(msg, rc, "cublasSetStream");
    /* Plain FP32 arithmetic: no TF32 tensor cores. TF32 keeps only 10 bits of mantissa,
     * so its products are good to about 3 digits, not 7 (at small K it fails the FP32
     * error bound), and it would make cuBLAS look faster than our kernels for doing
     * less precise work. The comparison must be FP32 against FP32.
     * (Default math is already FP32; saying so keeps a future default from changing it.) */
    rc = cublasSetMathMode(s->blas, CUBLAS_DEFAULT_MATH);
    if (rc != CUBLAS_STATUS_SUCCESS)
        return blas_fail(msg, rc, "cublasSetMathMode(CUBLAS_DEFAULT_MATH)");
    return LADDER_OK;
}

static ladder_status cuda_open(int index, backend_session **session, char *msg)
{
    *session = NULL;
    backend_session *s = calloc(1, sizeof *s);
    if (!s)
        return ladder_fail(msg, LADDER_ERROR, "calloc: out of memory opening cuda:%d", index);

    ladder_status status = get_device(index, &s->device, msg);
    if (status == LADDER_OK)
        status = compute_capability(s->device, &s->cc_major, &s->cc_minor, msg);
    if (status == LADDER_OK)
        status = open_context(s, index, msg);
    if (status == LADDER_OK)
        status = open_stream_and_events(s, msg);
    if (status == LADDER_OK)
        status = open_cublas(s, msg);
    if (status != LADDER_OK) {
        cuda_close(s); /* releases whatever was made before the failure */
        return status;
    }
    *session = s;
    return LADDER_OK;
}

/* ----------------------------------------------------------------------- buffers ---- */

static ladder_status cuda_alloc(backend_session *s, size_t bytes, gpu_buffer **buffer,
                                char *msg)
{
    *buffer = NULL;
    if (bytes == 0)
        return ladder_fail(msg, LADDER_ERROR, "cuMemAlloc(0 bytes): empty buffers are not allowed");
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;
    gpu_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return ladder_fail(msg, LADDER_ERROR, "calloc: out of memory for a buffer record");
    CUresult rc = cuMemAlloc(&b->pointer, bytes);
    if (rc != CUDA_SUCCESS) {
        free(b);
        /* Too little memory for this size is a limit of the device, not a failure. */
        ladder_status kind = rc == CUDA_ERROR_OUT_OF_MEMORY ? LADDER_UNSUPPORTED : LADDER_ERROR;
        RETURN_CU_FAIL(msg, kind, rc, "cuMemAlloc(%zu bytes)", bytes);
    }
    b->context = s->context;
    b->bytes = bytes;
    *buffer = b;
    return LADDER_OK;
}

static void cuda_release(gpu_buffer *buffer)
{
    if (!buffer)
        return;
    warn_on_failure(cuCtxSetCurrent(buffer->context), "cuCtxSetCurrent (releasing a buffer)");
    warn_on_failure(cuMemFree(buffer->pointer), "cuMemFree");
    free(buffer);
}

/* Copies are enqueued on the session's stream and then waited for. A plain cuMemcpyHtoD
 * would run on the legacy default stream, which does NOT wait for work on a non-blocking
 * stream like ours: a download could then read C before the kernel has written it. */
static ladder_status cuda_upload(backend_session *s, gpu_buffer *dst, const void *src,
                                 size_t bytes, char *msg)
{
    if (bytes > dst->bytes)
        return ladder_fail(msg, LADDER_ERROR, "upload of %zu bytes into a %zu-byte buffer",
                           bytes, dst->bytes);
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuMemcpyHtoDAsync(dst->pointer, src, bytes, s->stream);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuMemcpyHtoDAsync(%zu bytes)", bytes);
    rc = cuStreamSynchronize(s->stream);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuStreamSynchronize (after an upload)");
    return LADDER_OK;
}

static ladder_status cuda_download(backend_session *s, void *dst, gpu_buffer *src,
                                   size_t bytes, char *msg)
{
    if (bytes > src->bytes)
        return ladder_fail(msg, LADDER_ERROR, "download of %zu bytes from a %zu-byte buffer",
                           bytes, src->bytes);
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuMemcpyDtoHAsync(dst, src->pointer, bytes, s->stream);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuMemcpyDtoHAsync(%zu bytes)", bytes);
    /* Errors of earlier kernels (an out-of-bounds write, say) surface here too. */
    rc = cuStreamSynchronize(s->stream);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuStreamSynchronize (after a download)");
    return LADDER_OK;
}

/* ---------------------------------------------------------------------- programs ---- */

static ladder_status cuda_compile(backend_session *s, const char *path, const char *options,
                                  gpu_program **program, char *msg)
{
    *program = NULL;
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;

    /* A CUBIN for exactly this GPU generation: "sm_90" on an H100. */
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d%d", s->cc_major, s->cc_minor);
    char *source = NULL, *image = NULL;
    size_t image_size = 0;
    status = text_file_read(path, &source, NULL, msg);
    if (status == LADDER_OK)
        status = nvrtc_compile_text(path, source, options, arch, &image, &image_size, msg);
    /* Only a source that names a <kernel>_dynamic_shared global is asked for it
     * (read_dynamic_shared): asking every module would be a failed driver call per kernel,
     * which compute-sanitizer counts among its errors. */
    const int names_dynamic_shared = source && strstr(source, "_dynamic_shared") != NULL;
    free(source);
    if (status != LADDER_OK)
        return status;

    gpu_program *p = calloc(1, sizeof *p);
    if (!p) {
        free(image);
        return ladder_fail(msg, LADDER_ERROR, "calloc: out of memory for a program record");
    }
    /* Since CUDA 12.2 modules load lazily: each kernel is moved to the GPU at its first
     * launch, one more reason the runner warms up before it times. */
    CUresult rc = cuModuleLoadData(&p->module, image);
    free(image);
    if (rc != CUDA_SUCCESS) {
        free(p);
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuModuleLoadData(%s, %s)", path, arch);
    }
    p->context = s->context;
    p->names_dynamic_shared = names_dynamic_shared;
    *program = p;
    return LADDER_OK;
}

static void cuda_release_program(gpu_program *program)
{
    if (!program)
        return;
    warn_on_failure(cuCtxSetCurrent(program->context), "cuCtxSetCurrent (releasing a program)");
    warn_on_failure(cuModuleUnload(program->module), "cuModuleUnload");
    free(program);
}

/* Static __shared__ arrays stop at 48 KiB. A kernel that needs more (the Hopper rungs'
 * pipelines) declares an `extern __shared__` array and says how many bytes it needs in a
 * global of its file, `extern "C" __constant__ int <kernel>_dynamic_shared`. If the module
 * has one, every launch of that kernel gets that many bytes, once the kernel is allowed
 * them (cuFuncSetAttribute); a device with less is "unsupported". */
static ladder_status read_dynamic_shared(gpu_program *p, const char *name, cached_kernel *k,
                                         char *msg)
{
    char global[MAX_KERNEL_NAME + 32];
    snprintf(global, sizeof global, "%s_dynamic_shared", name);
    CUdeviceptr where;
    size_t size = 0;
    k->dynamic_shared = 0;
    if (!p->names_dynamic_shared)
        return LADDER_OK; /* static shared memory only */
    CUresult rc = cuModuleGetGlobal(&where, &size, p->module, global);
    if (rc == CUDA_ERROR_NOT_FOUND)
        return LADDER_OK; /* static shared memory only */
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuModuleGetGlobal(%s)", global);
    if (size != sizeof(int))
        return ladder_fail(msg, LADDER_ERROR, "%s is %zu bytes, not an int", global, size);
    int bytes = 0;
    rc = cuMemcpyDtoH(&bytes, where, sizeof bytes);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuMemcpyDtoH(%s)", global);
    rc = cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, rc == CUDA_ERROR_INVALID_VALUE ? LADDER_UNSUPPORTED : LADDER_ERROR,
                       rc, "cuFuncSetAttribute(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %d)", name,
                       bytes);
    k->dynamic_shared = bytes;
    return LADDER_OK;
}

/* Looks `name` up in the module and reads the limits the launch check needs. */
static ladder_status load_kernel(gpu_program *p, const char *name, cached_kernel *k, char *msg)
{
    CUresult rc = cuModuleGetFunction(&k->function, p->module, name);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc,
                       "cuModuleGetFunction(\"%s\") (is it declared extern \"C\" __global__?)",
                       name);
    rc = cuFuncGetAttribute(&k->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                            k->function);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuFuncGetAttribute(%s, MAX_THREADS_PER_BLOCK)",
                       name);
    rc = cuFuncGetAttribute(&k->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, k->function);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc, "cuFuncGetAttribute(%s, NUM_REGS)", name);
    ladder_status status = read_dynamic_shared(p, name, k, msg);
    if (status != LADDER_OK)
        return status;
    snprintf(k->name, sizeof k->name, "%s", name);
    return LADDER_OK;
}

/* The cached entry for `name`, loading it on first use. When the cache is full the
 * kernel is loaded into `spare` instead, which only costs a lookup per launch. */
static ladder_status find_kernel(gpu_program *p, const char *name, cached_kernel *spare,
                                 const cached_kernel **found, char *msg)
{
    if (strlen(name) >= MAX_KERNEL_NAME)
        return ladder_fail(msg, LADDER_ERROR, "kernel name \"%s\" is too long", name);
    for (int i = 0; i < p->nkernels; i++) {
        if (strcmp(p->kernels[i].name, name) == 0) {
            *found = &p->kernels[i];
            return LADDER_OK;
        }
    }
    cached_kernel *slot = p->nkernels < MAX_CACHED_KERNELS ? &p->kernels[p->nkernels] : spare;
    ladder_status status = load_kernel(p, name, slot, msg);
    if (status != LADDER_OK)
        return status;
    if (slot != spare)
        p->nkernels++;
    *found = slot;
    return LADDER_OK;
}

/* ------------------------------------------------------------------------ launch ---- */

/* grid = global / local in each dimension; the registry makes global a multiple of local. */
static ladder_status grid_from_dims(const char *kernel, const launch_dims *dims,
                                    unsigned grid[2], unsigned block[2], char *msg)
{
    for (int d = 0; d < 2; d++) {
        size_t global = dims->global[d], local = dims->local[d];
        if (local == 0 || global == 0 || global % local != 0)
            return ladder_fail(msg, LADDER_ERROR,
                               "launch of %s: global size %zu is not a positive multiple of "
                               "the block size %zu in dimension %d", kernel, global, local, d);
        if (global / local > UINT_MAX || local > UINT_MAX)
            return ladder_fail(msg, LADDER_ERROR, "launch of %s: grid too large in dimension %d",
                               kernel, d);
        grid[d] = (unsigned)(global / local);
        block[d] = (unsigned)local;
    }
    return LADDER_OK;
}

/* A block larger than the compiled kernel allows is a property of this parameter choice
 * on this device (usually too many registers per thread), so it is "unsupported" with
 * the reason, not a crash at launch. */
static ladder_status check_block_size(const cached_kernel *k, const unsigned block[2],
                                      char *msg)
{
    unsigned long threads = (unsigned long)block[0] * block[1];
    if (threads > (unsigned long)k->max_threads)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "kernel %s needs %lu threads per block, this compiled kernel allows "
                           "at most %d (%d registers per thread)",
                           k->name, threads, k->max_threads, k->registers);
    return LADDER_OK;
}

/* cuLaunchKernel takes an array of pointers, one per kernel parameter, each pointing at a
 * value of exactly the parameter's C type: int, float, double, a device pointer or a
 * tensor map. */
typedef union {
    int i;
    float f;
    double d;
    CUdeviceptr pointer;
    CUtensorMap tensor_map;
} arg_value;

/* The CUtensorMap of a tensor_map_desc (backend.h): a 2-D float32 matrix, dimension 0
 * along its columns (contiguous), boxes copied with zeros where they leave the matrix. */
static ladder_status encode_tensor_map(const tensor_map_desc *d, const char *kernel, int a,
                                       CUtensorMap *map, char *msg)
{
    static const CUtensorMapSwizzle swizzles[] = {
        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
        CU_TENSOR_MAP_SWIZZLE_128B};
    const int which = d->swizzle_bytes == 0 ? 0 : d->swizzle_bytes == 32 ? 1
                    : d->swizzle_bytes == 64 ? 2 : d->swizzle_bytes == 128 ? 3 : -1;
    if (!d->buffer || which < 0)
        return ladder_fail(msg, LADDER_ERROR,
                           "launch of %s: argument %d is a tensor map without a buffer or "
                           "with swizzle %d (0, 32, 64 or 128)", kernel, a, d->swizzle_bytes);
    /* The copy engine steps between columns in multiples of 16 bytes. */
    if (d->ld * (long)sizeof(float) % 16 != 0 || d->ld < d->rows)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "launch of %s: a TMA copy needs a leading dimension that is a "
                           "multiple of 4 floats and at least the rows (got %ld for %ld rows)",
                           kernel, d->ld, d->rows);
    const cuuint64_t extent[2] = {(cuuint64_t)d->rows, (cuuint64_t)d->cols};
    const cuuint64_t stride[1] = {(cuuint64_t)d->ld * sizeof(float)};
    const cuuint32_t box[2] = {(cuuint32_t)d->box_rows, (cuuint32_t)d->box_cols};
    const cuuint32_t step[2] = {1, 1};
    CUresult rc = cuTensorMapEncodeTiled(
        map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)(uintptr_t)d->buffer->pointer, extent,
        stride, box, step, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzles[which],
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (rc != CUDA_SUCCESS)
        RETURN_CU_FAIL(msg, LADDER_ERROR, rc,
                       "cuTensorMapEncodeTiled(%s argument %d: %ldx%ld, ld %ld, box %dx%d, "
                       "swizzle %d)", kernel, a, d->rows, d->cols, d->ld, d->box_rows,
                       d->box_cols, d->swizzle_bytes);
    return LADDER_OK;
}

static ladder_status pack_args(const kernel_arg *args, int nargs, const char *kernel,
                               arg_value *values, void **params, char *msg)
{
    if (nargs < 0 || nargs > MAX_KERNEL_ARGS)
        return ladder_fail(msg, LADDER_ERROR, "launch of %s: %d arguments (at most %d)", kernel,
                           nargs, MAX_KERNEL_ARGS);
    for (int a = 0; a < nargs; a++) {
        switch (args[a].kind) {
        case ARG_INT:
            values[a].i = args[a].i;
            break;
        case ARG_FLOAT:
            values[a].f = args[a].f;
            break;
        case ARG_DOUBLE:
            values[a].d = args[a].d;
            break;
        case ARG_BUFFER:
            if (!args[a].buffer)
                return ladder_fail(msg, LADDER_ERROR, "launch of %s: argument %d is a NULL buffer",
                                   kernel, a);
            values[a].pointer = args[a].buffer->pointer;
            break;
        case ARG_TENSOR_MAP: {
            ladder_status status =
                encode_tensor_map(&args[a].tensor_map, kernel, a, &values[a].tensor_map, msg);
            if (status != LADDER_OK)
                return status;
            break;
        }
        default:
            return ladder_fail(msg, LADDER_ERROR, "launch of %s: argument %d has unknown kind %d",
                               kernel, a, (int)args[a].kind);
        }
        params[a] = &values[a];
    }
    return LADDER_OK;
}

static ladder_status cuda_launch(backend_session *s, gpu_program *program, const char *kernel,
                                 const launch_dims *dims, const kernel_arg *args, int nargs,
                                 char *msg)
{
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;

    cached_kernel spare;
    const cached_kernel *k = NULL;
    status = find_kernel(program, kernel, &spare, &k, msg);
    unsigned grid[2], block[2];
    if (status == LADDER_OK)
        status = grid_from_dims(kernel, dims, grid, block, msg);
    if (status == LADDER_OK)
        status = check_block_size(k, block, msg);
    arg_value values[MAX_KERNEL_ARGS];
    void *params[MAX_KERNEL_ARGS];
    if (status == LADDER_OK)
        status = pack_args(args, nargs, kernel, values, params, msg);
    if (status != LADDER_OK)
        return status;

    /* Dynamic shared memory only for kernels that declare a need (read_dynamic_shared). */
    CUresult rc = cuLaunchKernel(k->function, grid[0], grid[1], 1, block[0], block[1], 1,
                                 (unsigned)k->dynamic_shared, s->stream, params, NULL);
    if (rc != CUDA_SUCCESS) {
        ladder_status kind =
            rc == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ? LADDER_UNSUPPORTED : LADDER_ERROR;
        RETURN_CU_FAIL(msg, kind, rc, "cuLaunchKernel(%s, grid %ux%u, block %ux%u)", kernel,
                       grid[0], grid[1], block[0], block[1]);
    }
    return LADDER_OK;
}

/* ----------------------------------------------------------------------- timing ---- */

/* Events are recorded into the stream, so they time the work enqueued between them on the
 * GPU. The start event goes in behind a short hold (stream_hold.h), so that the GPU does
 * not start the clock and then wait for the host to launch the work. */
static ladder_status cuda_timer_start(backend_session *s, char *msg)
{
    ladder_status status = use_context(s->context, msg);
    if (status == LADDER_OK && !s->hold) {
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d%d", s->cc_major, s->cc_minor);
        status = stream_hold_load(arch, &s->hold_module, &s->hold, msg);
    }
    if (status == LADDER_OK)
        status = stream_hold_launch(s->hold, s->stream, msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuEventRecord(s->start, s->stream);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuEventRecord(start)");
    return LADDER_OK;
}

static ladder_status cuda_timer_stop(backend_session *s, double *ms, char *msg)
{
    *ms = 0.0;
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuEventRecord(s->stop, s->stream);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuEventRecord(stop)");
    /* A kernel that faulted is reported here, when we first wait for it. */
    rc = cuEventSynchronize(s->stop);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuEventSynchronize (waiting for the timed work)");
    float elapsed = 0.0f;
    rc = cuEventElapsedTime(&elapsed, s->start, s->stop);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuEventElapsedTime");
    *ms = elapsed;
    return LADDER_OK;
}

static ladder_status cuda_finish(backend_session *s, char *msg)
{
    ladder_status status = use_context(s->context, msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuStreamSynchronize(s->stream);
    if (rc != CUDA_SUCCESS)
        return cu_fail(msg, LADDER_ERROR, rc, "cuStreamSynchronize");
    return LADDER_OK;
}

/* ---------------------------------------------------------------------- cuBLAS ---- */

/* C = beta * C without a product (K = 0 or alpha = 0, where BLAS reads neither A nor B):
 * beta = 0 writes zeros (a memset of each line, never a multiply, so a NaN in C does not
 * survive); otherwise each line of C (a column, or a row in row-major) is scaled, in one
 * call where the lines touch. */
static ladder_status scale_c(backend_session *s, const gemm_call *g, gpu_buffer *C, char *msg)
{
    const gemm_case *c = &g->c;
    const int row = c->layout == LAYOUT_ROW;
    const size_t len = (size_t)(row ? g->N : g->M), lines = (size_t)(row ? g->M : g->N);
    const size_t elem = gemm_elem_bytes(c->precision), ld = (size_t)g->ldc;
    if (c->beta == 0.0) {
        /* All bits zero is 0 in float and in double: 32-bit words, elem / 4 per element. */
        CUresult rc = cuMemsetD2D32Async(C->pointer, ld * elem, 0, len * elem / 4, lines,
                                         s->stream);
        if (rc != CUDA_SUCCESS)
            return cu_fail(msg, LADDER_ERROR, rc, "cuMemsetD2D32Async (C = 0 * C)");
        return LADDER_OK;
    }
    size_t runs, length, stride;
    gemm_c_runs(g, &runs, &length, &stride);
    for (size_t l = 0; l < runs; l++) {
        const CUdeviceptr run = C->pointer + l * stride * elem;
        const float beta_f = (float)c->beta;
        cublasStatus_t rc =
            c->precision == PRECISION_DOUBLE
                ? cublasDscal(s->blas, (int)length, &c->beta, (double *)(uintptr_t)run, 1)
                : cublasSscal(s->blas, (int)length, &beta_f, (float *)(uintptr_t)run, 1);
        if (rc != CUBLAS_STATUS_SUCCESS)
            return blas_fail(msg, rc, c->precision == PRECISION_DOUBLE
                                          ? "cublasDscal (C = beta * C)"
                                          : "cublasSscal (C = beta * C)");
    }
    return LADDER_OK;
}

static cublasOperation_t cublas_op(int trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; }

/* cuBLAS is column-major like the ladder's kernels. A row-major call is the column-major
 * C^T = op(B)^T op(A)^T: B and A change places, and so do M and N and the two ops; the
 * leading dimensions stay with their matrices. */
/* With tf32, the float product runs on the TF32 tensor cores, the reduced-precision
 * baseline "cublas-tf32": the compute type of cublasGemmEx asks for TF32 in this call
 * only, so the handle's math mode (plain FP32, set in open_cublas) is never changed and
 * the next cublasSgemm cannot inherit TF32 by accident. */
static ladder_status library_gemm_on(backend_session *s, const gemm_call *g, gpu_buffer *A,
                                     gpu_buffer *B, gpu_buffer *C, int tf32, char *msg)
{
    const gemm_case *c = &g->c;
    const int dbl = c->precision == PRECISION_DOUBLE;
    const char *name = tf32 ? "cublasGemmEx(CUBLAS_COMPUTE_32F_FAST_TF32)"
                            : dbl ? "cublasDgemm" : "cublasSgemm";
    if (tf32 && dbl)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "%s: TF32 takes float inputs only", name);
    ladder_status status = gemm_check_call(name, g, msg);
    if (status != LADDER_OK || g->M == 0 || g->N == 0)
        return status; /* an empty C: nothing to do, as in BLAS */
    if ((status = use_context(s->context, msg)) != LADDER_OK)
        return status;
    if (g->K == 0 || c->alpha == 0.0)
        return scale_c(s, g, C, msg);
    const int row = c->layout == LAYOUT_ROW;
    const int m = (int)(row ? g->N : g->M), n = (int)(row ? g->M : g->N), k = (int)g->K;
    const cublasOperation_t op1 = cublas_op(row ? c->trans_b : c->trans_a);
    const cublasOperation_t op2 = cublas_op(row ? c->trans_a : c->trans_b);
    const CUdeviceptr x1 = row ? B->pointer : A->pointer;
    const CUdeviceptr x2 = row ? A->pointer : B->pointer;
    const int ld1 = (int)(row ? g->ldb : g->lda), ld2 = (int)(row ? g->lda : g->ldb);
    const int ldc = (int)g->ldc;
    cublasStatus_t rc;
    if (dbl) {
        rc = cublasDgemm(s->blas, op1, op2, m, n, k, &c->alpha,
                         (const double *)(uintptr_t)x1, ld1, (const double *)(uintptr_t)x2,
                         ld2, &c->beta, (double *)(uintptr_t)C->pointer, ldc);
    } else if (tf32) {
        const float alpha = (float)c->alpha, beta = (float)c->beta;
        rc = cublasGemmEx(s->blas, op1, op2, m, n, k, &alpha, (const void *)(uintptr_t)x1,
                          CUDA_R_32F, ld1, (const void *)(uintptr_t)x2, CUDA_R_32F, ld2, &beta,
                          (void *)(uintptr_t)C->pointer, CUDA_R_32F, ldc,
                          CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    } else {
        const float alpha = (float)c->alpha, beta = (float)c->beta;
        rc = cublasSgemm(s->blas, op1, op2, m, n, k, &alpha, (const float *)(uintptr_t)x1,
                         ld1, (const float *)(uintptr_t)x2, ld2, &beta,
                         (float *)(uintptr_t)C->pointer, ldc);
    }
    if (rc != CUBLAS_STATUS_SUCCESS) {
        char call[128];
        snprintf(call, sizeof call, "%s(%s, M=%ld, N=%ld, K=%ld)", name,
                 row ? "row-major as its column-major transpose" : "column-major", g->M, g->N,
                 g->K);
        return blas_fail(msg, rc, call);
    }
    return LADDER_OK;
}

static ladder_status cuda_library_gemm(backend_session *s, const gemm_call *g, gpu_buffer *A,
                                       gpu_buffer *B, gpu_buffer *C, char *msg)
{
    return library_gemm_on(s, g, A, B, C, 0, msg);
}

static ladder_status cuda_library_gemm_tf32(backend_session *s, const gemm_call *g,
                                            gpu_buffer *A, gpu_buffer *B, gpu_buffer *C,
                                            char *msg)
{
    return library_gemm_on(s, g, A, B, C, 1, msg);
}

/* ------------------------------------------------------------------------ table ---- */

static const backend_ops cuda_ops = {
    .name = "cuda",
    .device_count = cuda_device_count,
    .device_query = cuda_device_query,
    .open = cuda_open,
    .close = cuda_close,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .upload = cuda_upload,
    .download = cuda_download,
    .compile = cuda_compile,
    .release_program = cuda_release_program,
    .launch = cuda_launch,
    .timer_start = cuda_timer_start,
    .timer_stop = cuda_timer_stop,
    .finish = cuda_finish,
    .library_gemm = cuda_library_gemm,
    .library_name = "cublas",
    .library_gemm_tf32 = cuda_library_gemm_tf32,
};

const backend_ops *ladder_cuda_module(void)
{
    return &cuda_ops;
}
