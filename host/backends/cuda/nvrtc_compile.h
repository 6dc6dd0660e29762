/* Compiling a CUDA kernel file at run time with NVRTC.
 *
 * NVRTC is a compiler in a library: it needs no GPU and no driver, so the same function
 * serves the CUDA backend (which then loads the result onto the device) and the
 * compile-only test that checks every rung on machines without an NVIDIA GPU.
 */
#ifndef LADDER_NVRTC_COMPILE_H
#define LADDER_NVRTC_COMPILE_H

#include <stddef.h>
#include "base/status.h"

/* Compiles the .cu file at `path` into a CUBIN for the real architecture `arch`
 * ("sm_90"). `options` holds preprocessor defines separated by spaces ("-DTS=32 -DWPT=8");
 * it may be NULL or empty. An option --gpu-architecture=sm_XYa among them (a kernel
 * that uses arch-specific instructions such as wgmma) is used instead of `arch`. The directory of `path` is on the include path, so kernel files
 * may include a header that sits next to them.
 *
 * On success *image points to the CUBIN (free() it) and *image_size is its size. On a
 * compile error returns LADDER_ERROR with "nvrtc: <file> with <options>: <log>" in msg. */
ladder_status nvrtc_compile_file(const char *path, const char *options, const char *arch,
                                 char **image, size_t *image_size, char *msg);

/* The same for a source already read: `source` is the text of the file at `path` (which
 * names it in messages and puts its directory on the include path). */
ladder_status nvrtc_compile_text(const char *path, const char *source, const char *options,
                                 const char *arch, char **image, size_t *image_size,
                                 char *msg);

/* Compiles as nvrtc_compile_file does, with ptxas asked for its report (-v), and hands
 * that report back in *report (malloc'd; free it): for each kernel its registers, its
 * stack frame and the bytes it spills to local memory ("ptxas . 0 bytes stack frame, 0
 * bytes spill stores, ..." after "Function properties for <kernel>"). The CUBIN is not
 * kept. Errors as nvrtc_compile_file's. */
ladder_status nvrtc_ptxas_report(const char *path, const char *options, const char *arch,
                                 char **report, char *msg);

/* Compiles as nvrtc_compile_file does and hands back the PTX NVRTC made on the way
 * (malloc'd; free it): the virtual machine's instructions, before ptxas schedules them,
 * where a test can see the loads and branches a kernel's source gave. The CUBIN is not
 * kept. Errors as nvrtc_compile_file's. */
ladder_status nvrtc_ptx_file(const char *path, const char *options, const char *arch,
                             char **ptx, char *msg);

/* "13.0": the NVRTC version, for result files. "unknown" if NVRTC cannot say. */
void nvrtc_version_string(char *out, size_t size);

#endif
