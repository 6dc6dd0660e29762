#include "base/kernel_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *kernel_dir(const char *backend)
{
    int cuda = strcmp(backend, "cuda") == 0;
    const char *env = getenv(cuda ? "LADDER_CUDA_KERNELS" : "LADDER_OPENCL_KERNELS");
    if (env && *env)
        return env;
    return cuda ? LADDER_SOURCE_DIR "/kernels-cuda" : LADDER_SOURCE_DIR "/kernels-opencl";
}

void kernel_path(const char *backend, const char *stem, char *out, size_t size)
{
    snprintf(out, size, "%s/%s.%s", kernel_dir(backend), stem,
             strcmp(backend, "cuda") == 0 ? "cu" : "cl");
}
