/* Holding the CUDA stream while the host enqueues the work it times (see stream_hold.h). */
#include "backends/cuda/stream_hold.h"

#include <stdlib.h>

#include "backends/cuda/nvrtc_compile.h"
#include "backends/cuda/stream_hold_source.h"


ladder_status stream_hold_load(const char *arch, CUmodule *module, CUfunction *hold,
                               char *msg)
{
    *module = NULL;
    *hold = NULL;
    char *image = NULL;
    size_t image_size = 0;
    ladder_status status =
        nvrtc_compile_text("stream_hold.cu", stream_hold_source, NULL, arch, &image, &image_size, msg);
    if (status != LADDER_OK)
        return status;
    CUresult rc = cuModuleLoadData(module, image);
    free(image);
    if (rc == CUDA_SUCCESS)
        rc = cuModuleGetFunction(hold, *module, "hold_stream");
    if (rc != CUDA_SUCCESS) {
        if (*module)
            cuModuleUnload(*module);
        *module = NULL;
        const char *name = NULL;
        cuGetErrorName(rc, &name);
        return ladder_fail(msg, LADDER_ERROR, "cuda: loading the timer's hold kernel: %s",
                           name ? name : "unknown error");
    }
    return LADDER_OK;
}

ladder_status stream_hold_launch(CUfunction hold, CUstream stream, char *msg)
{
    unsigned long long ns = STREAM_HOLD_NS;
    void *params[] = {&ns};
    CUresult rc = cuLaunchKernel(hold, 1, 1, 1, 1, 1, 1, 0, stream, params, NULL);
    if (rc != CUDA_SUCCESS) {
        const char *name = NULL;
        cuGetErrorName(rc, &name);
        return ladder_fail(msg, LADDER_ERROR, "cuda: launching the timer's hold kernel: %s",
                           name ? name : "unknown error");
    }
    return LADDER_OK;
}
