/* Compiling a rung's .cl file and launching its kernels.
 *
 * Kernels are compiled at run time from source, with the rung's parameters passed as
 * preprocessor defines ("-DTS=32 -DWPT=8"), so a student can edit a kernel or change a tile
 * size and rerun without rebuilding the harness. No fast-math options are added: results
 * must meet the FP32 error bound the verifier checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>

#include "backends/opencl/opencl_errors.h"
#include "backends/opencl/opencl_internal.h"
#include "base/text_file.h"

/* ---- compile ---- */

/* The compiler's own words are what a student needs after a typo in a kernel, so the
 * message is the failed call followed by the build log (as much as fits). */
static ladder_status build_failure(cl_program program, cl_device_id device, const char *path,
                                   const char *options, cl_int build_err, char *msg)
{
    int used = snprintf(msg, LADDER_MSG, "clBuildProgram(%s, \"%s\"): %s (%d)", path, options,
                        ocl_error_name(build_err), (int)build_err);
    size_t size = 0;
    cl_int err = clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = err == CL_SUCCESS ? malloc(size + 1) : NULL;
    if (log)
        err = clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    if (log && err == CL_SUCCESS && used >= 0 && used < LADDER_MSG) {
        log[size] = '\0';
        snprintf(msg + used, LADDER_MSG - (size_t)used, "\n%s", log);
    } else if (used >= 0 && used < LADDER_MSG) {
        snprintf(msg + used, LADDER_MSG - (size_t)used, " (no build log: %s)",
                 ocl_error_name(err));
    }
    free(log);
    return LADDER_ERROR;
}

/* "-I <folder of path> <options>": a malloc'd string, or NULL when out of memory. */
static char *build_options(const char *path, const char *options)
{
    const char *slash = strrchr(path, '/');
    int dir_length = slash ? (int)(slash - path) : 1;
    size_t size = (size_t)dir_length + strlen(options) + 8;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "-I %.*s %s", dir_length, slash ? path : ".", options);
    return out;
}

ladder_status ocl_compile(backend_session *s, const char *path, const char *options,
                          gpu_program **program, char *msg)
{
    *program = NULL;
    if (!options)
        options = "";
    char *source = NULL;
    size_t length = 0;
    ladder_status st = text_file_read(path, &source, &length, msg);
    if (st != LADDER_OK)
        return st;

    gpu_program *p = calloc(1, sizeof *p);
    if (!p) {
        free(source);
        return ladder_fail(msg, LADDER_ERROR, "out of memory compiling %s", path);
    }
    snprintf(p->path, sizeof p->path, "%s", path);
    cl_int err = CL_SUCCESS;
    const char *sources[] = {source};
    p->program = clCreateProgramWithSource(s->context, 1, sources, &length, &err);
    free(source);
    if (err != CL_SUCCESS) {
        free(p);
        return ocl_fail(msg, err, "clCreateProgramWithSource(%s)", path);
    }
    /* The kernel's own folder is on the include path, as NVRTC's is (nvrtc_compile.c), so
     * that a kernel can include the folder's shared headers (the precision switch). */
    char *full = build_options(path, options);
    if (!full) {
        ocl_release_program(p);
        return ladder_fail(msg, LADDER_ERROR, "out of memory compiling %s", path);
    }
    err = clBuildProgram(p->program, 1, &s->device, full, NULL, NULL);
    free(full);
    if (err != CL_SUCCESS) {
        build_failure(p->program, s->device, path, options, err, msg);
        ocl_release_program(p);
        return LADDER_ERROR;
    }
    *program = p;
    return LADDER_OK;
}

void ocl_release_program(gpu_program *program)
{
    if (!program)
        return;
    for (int i = 0; i < program->nkernels; i++)
        clReleaseKernel(program->kernels[i].kernel);
    if (program->program)
        clReleaseProgram(program->program);
    free(program);
}

/* ---- launch ---- */

/* Creating a cl_kernel costs time, and a benchmark launches the same kernel hundreds of
 * times, so each one is created once per program and kept. */
static ladder_status find_kernel(gpu_program *p, const char *name, cl_kernel *kernel,
                                 char *msg)
{
    for (int i = 0; i < p->nkernels; i++) {
        if (strcmp(p->kernels[i].name, name) == 0) {
            *kernel = p->kernels[i].kernel;
            return LADDER_OK;
        }
    }
    if (p->nkernels == OCL_MAX_KERNELS)
        return ladder_fail(msg, LADDER_ERROR, "%s: more than %d kernels used from one program",
                           p->path, OCL_MAX_KERNELS);
    ocl_cached_kernel *slot = &p->kernels[p->nkernels];
    if (strlen(name) >= sizeof slot->name)
        return ladder_fail(msg, LADDER_ERROR, "kernel name \"%s\" is too long", name);
    cl_int err = CL_SUCCESS;
    slot->kernel = clCreateKernel(p->program, name, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clCreateKernel(%s, \"%s\")", p->path, name);
    snprintf(slot->name, sizeof slot->name, "%s", name);
    p->nkernels++;
    *kernel = slot->kernel;
    return LADDER_OK;
}

/* A wrong argument count would otherwise surface only as CL_INVALID_KERNEL_ARGS at enqueue,
 * which does not say which kernel or how many arguments it wanted. */
static ladder_status set_args(cl_kernel kernel, const char *name, const kernel_arg *args,
                              int nargs, char *msg)
{
    cl_uint expected = 0;
    cl_int err = clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof expected, &expected, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetKernelInfo(%s, CL_KERNEL_NUM_ARGS)", name);
    if ((cl_uint)nargs != expected)
        return ladder_fail(msg, LADDER_ERROR, "kernel %s takes %u arguments, the harness "
                           "passed %d", name, expected, nargs);
    for (int i = 0; i < nargs; i++) {
        const kernel_arg *a = &args[i];
        cl_int value_i = a->i;
        cl_float value_f = a->f;
        cl_double value_d = a->d;
        if (a->kind == ARG_INT) {
            err = clSetKernelArg(kernel, (cl_uint)i, sizeof value_i, &value_i);
        } else if (a->kind == ARG_FLOAT) {
            err = clSetKernelArg(kernel, (cl_uint)i, sizeof value_f, &value_f);
        } else if (a->kind == ARG_DOUBLE) {
            err = clSetKernelArg(kernel, (cl_uint)i, sizeof value_d, &value_d);
        } else if (a->kind == ARG_BUFFER && a->buffer) {
            err = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &a->buffer->mem);
        } else {
            return ladder_fail(msg, LADDER_ERROR, "kernel %s argument %d: no buffer or "
                               "unknown kind %d", name, i, (int)a->kind);
        }
        if (err != CL_SUCCESS)
            return ocl_fail(msg, err, "clSetKernelArg(%s, argument %d)", name, i);
    }
    return LADDER_OK;
}

/* The geometry must be sound (otherwise the rung's table has a bug: an error) and fit the
 * device (otherwise this device is too small for the rung: unsupported). */
static ladder_status check_geometry(const backend_session *s, const char *name,
                                    const launch_dims *dims, char *msg)
{
    for (int d = 0; d < 2; d++) {
        size_t global = dims->global[d], local = dims->local[d];
        if (global == 0 || local == 0 || global % local != 0)
            return ladder_fail(msg, LADDER_ERROR, "kernel %s: global size %zu in dimension %d "
                               "is not a positive multiple of the work-group size %zu",
                               name, global, d, local);
        if (local > s->info.max_work_item_sizes[d])
            return ladder_fail(msg, LADDER_UNSUPPORTED, "kernel %s: this device allows at most "
                               "%zu work-items in dimension %d of a work-group, the rung asks "
                               "for %zu", name, s->info.max_work_item_sizes[d], d, local);
    }
    size_t asked = dims->local[0] * dims->local[1];
    if (asked > s->info.max_work_group_size)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "kernel %s: this device allows at most %zu "
                           "work-items per work-group, the rung asks for %zu", name,
                           s->info.max_work_group_size, asked);
    return LADDER_OK;
}

/* A compiled kernel may allow fewer work-items per group than the device (each work-item
 * needs registers, and a whole group's must fit one compute unit); CL_KERNEL_WORK_GROUP_SIZE
 * is meant to be that limit. It is consulted only after the enqueue was refused, not before:
 * NVIDIA's driver (580, H100) reports 256 for every kernel, yet runs 1024-work-item groups of
 * a light kernel correctly and refuses a heavy one only at enqueue, with
 * CL_OUT_OF_RESOURCES. Checking first would turn rungs that run into "unsupported". */
static ladder_status refused_launch(const backend_session *s, cl_kernel kernel,
                                    const char *name, const launch_dims *dims, cl_int err,
                                    char *msg)
{
    size_t asked = dims->local[0] * dims->local[1], allowed = 0;
    if (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_OUT_OF_RESOURCES) {
        cl_int query = clGetKernelWorkGroupInfo(kernel, s->device, CL_KERNEL_WORK_GROUP_SIZE,
                                                sizeof allowed, &allowed, NULL);
        if (query == CL_SUCCESS && asked > allowed)
            return ladder_fail(msg, LADDER_UNSUPPORTED, "kernel %s allows at most %zu "
                               "work-items per work-group here, the rung asks for %zu "
                               "(clEnqueueNDRangeKernel: %s)", name, allowed, asked,
                               ocl_error_name(err));
    }
    return ocl_fail(msg, err, "clEnqueueNDRangeKernel(%s, global %zux%zu, local %zux%zu)",
                    name, dims->global[0], dims->global[1], dims->local[0], dims->local[1]);
}

ladder_status ocl_launch(backend_session *s, gpu_program *program, const char *kernel_name,
                         const launch_dims *dims, const kernel_arg *args, int nargs, char *msg)
{
    cl_kernel kernel = NULL;
    ladder_status st = find_kernel(program, kernel_name, &kernel, msg);
    if (st == LADDER_OK)
        st = set_args(kernel, kernel_name, args, nargs, msg);
    if (st == LADDER_OK)
        st = check_geometry(s, kernel_name, dims, msg);
    if (st != LADDER_OK)
        return st;
    /* Ask for an event only while the timer runs: outside it nobody would read it. */
    cl_event event = NULL;
    cl_event *want = ocl_timer_wants_events(s) ? &event : NULL;
    cl_int err = clEnqueueNDRangeKernel(s->queue, kernel, 2, NULL, dims->global, dims->local,
                                        0, NULL, want);
    if (err != CL_SUCCESS)
        return refused_launch(s, kernel, kernel_name, dims, err, msg);
    if (event)
        ocl_timer_record(s, event, event);
    return LADDER_OK;
}
