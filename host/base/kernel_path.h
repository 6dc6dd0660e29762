/* Where kernel sources are found at run time. */
#ifndef LADDER_KERNEL_PATH_H
#define LADDER_KERNEL_PATH_H

#include <stddef.h>

/* The kernel folder of a backend ("opencl" or "cuda"): $LADDER_OPENCL_KERNELS or
 * $LADDER_CUDA_KERNELS when set, else the source tree's kernels-opencl / kernels-cuda. */
const char *kernel_dir(const char *backend);

/* <kernel_dir>/<stem>.cl or .cu */
void kernel_path(const char *backend, const char *stem, char *out, size_t size);

#endif
