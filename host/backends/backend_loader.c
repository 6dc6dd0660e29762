/* Finding the backends compiled into this build.
 *
 * The CUDA backend lives in a module (libladder_cuda.so) loaded at run time: linking the
 * CUDA driver library into `ladder` itself would stop the program from starting at all on
 * machines without an NVIDIA driver, where the OpenCL side must still work. */
#include "backends/backend.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef LADDER_HAVE_OPENCL
const backend_ops *opencl_backend(char *msg)
{
    ladder_fail(msg, LADDER_UNSUPPORTED,
                "this build has no OpenCL backend (OpenCL was not found at configure time)");
    return NULL;
}
#endif

#ifdef LADDER_HAVE_CUDA
/* The module sits beside the executable; the build-time path is the fallback. */
static void cuda_module_path(char *out, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char candidate[PATH_MAX + 32];
        snprintf(candidate, sizeof candidate, "%s/libladder_cuda.so", dirname(exe));
        if (access(candidate, R_OK) == 0) {
            snprintf(out, size, "%s", candidate);
            return;
        }
    }
    snprintf(out, size, "%s", LADDER_CUDA_MODULE);
}

const backend_ops *cuda_backend(char *msg)
{
    static const backend_ops *ops = NULL;
    static char why[LADDER_MSG];
    if (ops)
        return ops;
    if (why[0]) {
        ladder_fail(msg, LADDER_UNSUPPORTED, "%s", why);
        return NULL;
    }
    char path[PATH_MAX + 32];
    cuda_module_path(path, sizeof path);
    void *module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        /* Usually libcuda.so.1 is missing: no NVIDIA driver on this machine. */
        snprintf(why, sizeof why, "cannot load the CUDA module: %s", dlerror());
        ladder_fail(msg, LADDER_UNSUPPORTED, "%s", why);
        return NULL;
    }
    /* POSIX guarantees a function address round-trips through dlsym's void *. */
    const backend_ops *(*entry)(void);
    void *symbol = dlsym(module, "ladder_cuda_module");
    memcpy(&entry, &symbol, sizeof entry);
    if (!symbol) {
        snprintf(why, sizeof why, "%.900s has no ladder_cuda_module", path);
        ladder_fail(msg, LADDER_UNSUPPORTED, "%s", why);
        return NULL;
    }
    ops = entry(); /* the module stays loaded for the life of the program */
    return ops;
}
#else
const backend_ops *cuda_backend(char *msg)
{
    ladder_fail(msg, LADDER_UNSUPPORTED,
                "this build has no CUDA backend (the CUDA toolkit was not found at configure "
                "time)");
    return NULL;
}
#endif
