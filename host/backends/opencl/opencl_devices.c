/* Finding OpenCL devices and describing them.
 *
 * OpenCL groups devices by platform (one per installed driver: PoCL, NVIDIA, ...). The
 * harness wants one number per device, so "opencl:N" counts devices across platforms in the
 * order the ICD loader reports them: every device of platform 0, then of platform 1, ...
 * Nothing is cached: each call asks the loader again, which is cheap and keeps no state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "backends/device_peak.h"
#include "backends/opencl/opencl_errors.h"
#include "backends/opencl/opencl_internal.h"

/* The NVIDIA extension cl_nv_device_attribute_query; older headers lack these. */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

#define NO_PLATFORM_HINT "install an ICD such as pocl-opencl-icd or a GPU driver"

/* All platforms, in a malloc'd array the caller frees. No platform at all is not an error of
 * this program but a missing runtime, so it is LADDER_UNSUPPORTED with a hint. */
static ladder_status list_platforms(cl_platform_id **platforms, cl_uint *count, char *msg)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && n == 0))
        return ladder_fail(msg, LADDER_UNSUPPORTED, "no OpenCL platform: " NO_PLATFORM_HINT);
    if (err != CL_SUCCESS) {
        ocl_fail(msg, err, "clGetPlatformIDs (is an OpenCL ICD installed?)");
        return LADDER_UNSUPPORTED;
    }
    *platforms = malloc(n * sizeof **platforms);
    if (!*platforms)
        return ladder_fail(msg, LADDER_ERROR, "out of memory listing %u OpenCL platforms", n);
    err = clGetPlatformIDs(n, *platforms, NULL);
    if (err != CL_SUCCESS) {
        free(*platforms);
        *platforms = NULL;
        ocl_fail(msg, err, "clGetPlatformIDs");
        return LADDER_UNSUPPORTED;
    }
    *count = n;
    return LADDER_OK;
}

/* Devices of one platform. A platform with no devices reports CL_DEVICE_NOT_FOUND, which
 * here just means zero. `devices` may be NULL to count only. */
static ladder_status platform_devices(cl_platform_id platform, cl_device_id *devices,
                                      cl_uint capacity, cl_uint *count, char *msg)
{
    cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, capacity, devices, count);
    if (err == CL_DEVICE_NOT_FOUND) {
        *count = 0;
        return LADDER_OK;
    }
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetDeviceIDs");
    return LADDER_OK;
}

ladder_status ocl_device_count(int *count, char *msg)
{
    cl_platform_id *platforms = NULL;
    cl_uint nplatforms = 0;
    ladder_status st = list_platforms(&platforms, &nplatforms, msg);
    if (st != LADDER_OK)
        return st;
    int total = 0;
    for (cl_uint p = 0; p < nplatforms && st == LADDER_OK; p++) {
        cl_uint n = 0;
        st = platform_devices(platforms[p], NULL, 0, &n, msg);
        total += (int)n;
    }
    free(platforms);
    if (st == LADDER_OK)
        *count = total;
    return st;
}

/* Which platform holds flat index `index`, and the device's position within it. */
static ladder_status locate(const cl_platform_id *platforms, cl_uint nplatforms, int index,
                            cl_uint *platform_pos, cl_uint *device_pos, char *msg)
{
    int seen = 0;
    for (cl_uint p = 0; p < nplatforms; p++) {
        cl_uint n = 0;
        ladder_status st = platform_devices(platforms[p], NULL, 0, &n, msg);
        if (st != LADDER_OK)
            return st;
        if (index < seen + (int)n) {
            *platform_pos = p;
            *device_pos = (cl_uint)(index - seen);
            return LADDER_OK;
        }
        seen += (int)n;
    }
    return ladder_fail(msg, LADDER_ERROR, "no device opencl:%d: this machine has %d OpenCL "
                       "device%s (numbered from 0)", index, seen, seen == 1 ? "" : "s");
}

ladder_status ocl_find_device(int index, cl_platform_id *platform, cl_device_id *device,
                              char *msg)
{
    if (index < 0)
        return ladder_fail(msg, LADDER_ERROR, "no device opencl:%d: indices start at 0", index);
    cl_platform_id *platforms = NULL;
    cl_uint nplatforms = 0;
    ladder_status st = list_platforms(&platforms, &nplatforms, msg);
    if (st != LADDER_OK)
        return st;
    cl_uint p = 0, d = 0;
    st = locate(platforms, nplatforms, index, &p, &d, msg);
    cl_device_id *devices = NULL;
    cl_uint n = 0;
    if (st == LADDER_OK)
        st = platform_devices(platforms[p], NULL, 0, &n, msg);
    if (st == LADDER_OK) {
        devices = malloc(n * sizeof *devices);
        if (!devices)
            st = ladder_fail(msg, LADDER_ERROR, "out of memory listing OpenCL devices");
    }
    if (st == LADDER_OK)
        st = platform_devices(platforms[p], devices, n, &n, msg);
    if (st == LADDER_OK) {
        *platform = platforms[p];
        *device = devices[d];
    }
    free(devices);
    free(platforms);
    return st;
}

/* ---- device_query: one small reader per kind of value ---- */

/* A device string of any length, malloc'd (the extension list can be kilobytes long). */
static ladder_status device_string(cl_device_id device, cl_device_info param, const char *what,
                                   char **out, char *msg)
{
    size_t size = 0;
    cl_int err = clGetDeviceInfo(device, param, 0, NULL, &size);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetDeviceInfo(%s)", what);
    *out = malloc(size + 1);
    if (!*out)
        return ladder_fail(msg, LADDER_ERROR, "out of memory reading %s", what);
    err = clGetDeviceInfo(device, param, size, *out, NULL);
    if (err != CL_SUCCESS) {
        free(*out);
        *out = NULL;
        return ocl_fail(msg, err, "clGetDeviceInfo(%s)", what);
    }
    (*out)[size] = '\0';
    return LADDER_OK;
}

/* A device string copied into a fixed field, cut short if it does not fit. */
static ladder_status device_string_into(cl_device_id device, cl_device_info param,
                                        const char *what, char *field, size_t size, char *msg)
{
    char *text = NULL;
    ladder_status st = device_string(device, param, what, &text, msg);
    if (st == LADDER_OK) {
        snprintf(field, size, "%s", text);
        free(text);
    }
    return st;
}

/* A fixed-size value (cl_uint, cl_ulong, size_t, bitfield): `bytes` must match its type. */
static ladder_status device_value(cl_device_id device, cl_device_info param, const char *what,
                                  void *value, size_t bytes, char *msg)
{
    cl_int err = clGetDeviceInfo(device, param, bytes, value, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetDeviceInfo(%s)", what);
    return LADDER_OK;
}

/* Whole-word search in a space-separated extension list ("cl_khr_subgroups" must not match
 * inside a longer name). */
static int has_extension(const char *extensions, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(extensions, name); at; at = strstr(at + 1, name)) {
        int starts = at == extensions || at[-1] == ' ';
        int ends = at[len] == '\0' || at[len] == ' ';
        if (starts && ends)
            return 1;
    }
    return 0;
}

/* The platform's name, cut short if it does not fit (asking with a too-small buffer would
 * be an error, so ask for the length first). */
static ladder_status platform_name(cl_platform_id platform, char *field, size_t size,
                                   char *msg)
{
    size_t needed = 0;
    cl_int err = clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, &needed);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetPlatformInfo(CL_PLATFORM_NAME)");
    char *name = malloc(needed + 1);
    if (!name)
        return ladder_fail(msg, LADDER_ERROR, "out of memory reading CL_PLATFORM_NAME");
    err = clGetPlatformInfo(platform, CL_PLATFORM_NAME, needed, name, NULL);
    if (err == CL_SUCCESS) {
        name[needed] = '\0';
        snprintf(field, size, "%s", name);
    }
    free(name);
    if (err != CL_SUCCESS)
        return ocl_fail(msg, err, "clGetPlatformInfo(CL_PLATFORM_NAME)");
    return LADDER_OK;
}

/* Names and versions. The driver field keeps only "OpenCL X.Y <vendor word>" of the device
 * version: PoCL appends a long build string that would swamp tables. */
static ladder_status query_names(cl_platform_id platform, cl_device_id device,
                                 device_info *info, int *version, char *msg)
{
    ladder_status st = device_string_into(device, CL_DEVICE_NAME, "CL_DEVICE_NAME",
                                          info->name, sizeof info->name, msg);
    if (st == LADDER_OK)
        st = device_string_into(device, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR", info->vendor,
                                sizeof info->vendor, msg);
    if (st != LADDER_OK)
        return st;
    st = platform_name(platform, info->platform, sizeof info->platform, msg);
    if (st != LADDER_OK)
        return st;

    char *driver = NULL, *device_version = NULL;
    st = device_string(device, CL_DRIVER_VERSION, "CL_DRIVER_VERSION", &driver, msg);
    if (st == LADDER_OK)
        st = device_string(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION", &device_version,
                           msg);
    if (st == LADDER_OK) {
        char word[3][32] = {"", "", ""};
        sscanf(device_version, "%31s %31s %31s", word[0], word[1], word[2]);
        snprintf(info->driver, sizeof info->driver, "%s (%s %s%s%s)", driver, word[0],
                 word[1], word[2][0] ? " " : "", word[2]);
        int major = 1, minor = 0;
        sscanf(device_version, "OpenCL %d.%d", &major, &minor);
        *version = major * 10 + minor;
    }
    free(driver);
    free(device_version);
    return st;
}

/* Sizes and limits the harness checks rungs against. */
static ladder_status query_limits(cl_device_id device, device_info *info, char *msg)
{
    cl_device_type type = 0;
    cl_uint units = 0, clock = 0, dims = 0;
    cl_ulong local = 0, global = 0, max_alloc = 0;
    size_t group = 0;
    ladder_status st = device_value(device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE", &type,
                                    sizeof type, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS",
                          &units, sizeof units, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_MAX_CLOCK_FREQUENCY,
                          "CL_DEVICE_MAX_CLOCK_FREQUENCY", &clock, sizeof clock, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE", &local,
                          sizeof local, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE",
                          &global, sizeof global, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                          &max_alloc, sizeof max_alloc, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                          "CL_DEVICE_MAX_WORK_GROUP_SIZE", &group, sizeof group, msg);
    if (st == LADDER_OK)
        st = device_value(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                          "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", &dims, sizeof dims, msg);
    if (st != LADDER_OK)
        return st;

    /* The spec guarantees at least 3 dimensions; the array must hold all of them. */
    size_t sizes[16] = {0};
    if (dims < 3 || dims > 16)
        return ladder_fail(msg, LADDER_ERROR, "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS is %u, "
                           "expected 3 to 16", dims);
    st = device_value(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, "CL_DEVICE_MAX_WORK_ITEM_SIZES",
                      sizes, dims * sizeof sizes[0], msg);
    if (st != LADDER_OK)
        return st;

    info->is_gpu = (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    info->compute_units = (int)units;
    info->clock_mhz = (int)clock;
    info->local_mem_bytes = (size_t)local;
    info->global_mem_bytes = (size_t)global;
    info->max_alloc_bytes = (size_t)max_alloc;
    info->max_work_group_size = group;
    for (int d = 0; d < 3; d++)
        info->max_work_item_sizes[d] = sizes[d];
    return LADDER_OK;
}

/* Subgroups (OpenCL 2.1+ core, or the cl_khr_subgroups extension), double precision (an
 * optional extension: many small GPUs lack it) and, on NVIDIA, the CUDA compute
 * capability, which is what lets the FP32 peak be computed rather than guessed. */
static ladder_status query_features(cl_device_id device, int version, device_info *info,
                                    char *msg)
{
    char *extensions = NULL;
    ladder_status st = device_string(device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS",
                                     &extensions, msg);
    if (st != LADDER_OK)
        return st;
    info->subgroups = has_extension(extensions, "cl_khr_subgroups");
    info->fp64 = has_extension(extensions, "cl_khr_fp64");
    if (!info->subgroups && version >= 21) {
        /* Asking a 1.2 device for this would be an error, hence the version test. */
        cl_uint max_sub_groups = 0;
        st = device_value(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, "CL_DEVICE_MAX_NUM_SUB_GROUPS",
                          &max_sub_groups, sizeof max_sub_groups, msg);
        info->subgroups = max_sub_groups > 0;
    }
    if (st == LADDER_OK && has_extension(extensions, "cl_nv_device_attribute_query")) {
        cl_uint major = 0, minor = 0;
        st = device_value(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
                          "CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV", &major, sizeof major, msg);
        if (st == LADDER_OK)
            st = device_value(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV,
                              "CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV", &minor, sizeof minor,
                              msg);
        info->cc_major = (int)major;
        info->cc_minor = (int)minor;
    }
    free(extensions);
    return st;
}

ladder_status ocl_device_query(int index, device_info *info, char *msg)
{
    cl_platform_id platform;
    cl_device_id device;
    ladder_status st = ocl_find_device(index, &platform, &device, msg);
    if (st != LADDER_OK)
        return st;
    memset(info, 0, sizeof *info);
    snprintf(info->backend, sizeof info->backend, "opencl");
    info->index = index;
    int version = 12;
    st = query_names(platform, device, info, &version, msg);
    if (st == LADDER_OK)
        st = query_limits(device, info, msg);
    if (st == LADDER_OK)
        st = query_features(device, version, info, msg);
    if (st != LADDER_OK)
        return st;
    /* Only NVIDIA devices tell us their compute capability; the table returns 0 (unknown)
     * for anything it does not know, and every other device stays unknown. */
    if (info->cc_major > 0)
        info->fp32_peak_gflops = nvidia_fp32_peak_gflops(info->cc_major, info->cc_minor,
                                                         info->compute_units, info->clock_mhz);
    return LADDER_OK;
}
