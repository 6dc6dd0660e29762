/* Holding the CUDA stream while the host enqueues the work it times.
 *
 * The timer records an event before the timed work and one after. On an idle stream the
 * first event fires the moment it is recorded, and the GPU then waits for the host to
 * launch the kernel (a few microseconds per launch, more for a library call): that wait
 * would be timed as if the kernel ran. At large sizes it is noise; a GEMV-like call that
 * moves 64 MB in about 22 us would lose a third of its bandwidth to it.
 *
 * So the timer first launches a one-thread kernel that spins for a fixed while (longer
 * than the host needs to enqueue the timed work), then records the start event behind it:
 * by the time the hold ends, the work is queued behind the event and runs at once.
 */
#ifndef LADDER_STREAM_HOLD_H
#define LADDER_STREAM_HOLD_H

#include <cuda.h>

#include "base/status.h"

/* How long the hold spins: enough for cuBLAS's host side and a split-K rung's two
 * launches; it is spent before the start event, so it is never timed. */
#define STREAM_HOLD_NS 100000ull

/* Compiles the hold kernel for `arch` ("sm_90") with NVRTC and loads it into the current
 * context. *module must be unloaded with cuModuleUnload. */
ladder_status stream_hold_load(const char *arch, CUmodule *module, CUfunction *hold,
                               char *msg);

/* Enqueues the hold (STREAM_HOLD_NS of spinning) on `stream`. */
ladder_status stream_hold_launch(CUfunction hold, CUstream stream, char *msg);

#endif
