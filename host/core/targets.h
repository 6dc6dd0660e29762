/* Which backends this machine has, and which devices a run uses. */
#ifndef LADDER_TARGETS_H
#define LADDER_TARGETS_H

#include "backends/backend.h"

/* A device to run on: a backend device, or the host CPU (ops == NULL). */
typedef struct {
    const backend_ops *ops;
    backend_session *session;
    device_info dev;
} run_target;

typedef struct {
    const char *name;        /* "opencl", "cuda" */
    const backend_ops *ops;  /* NULL when unavailable */
    int count;               /* devices */
    char why[LADDER_MSG];    /* why unavailable */
} backend_slot;

#define BACKEND_SLOTS 2

/* Loads both backends and counts their devices; an absent runtime is not an error. */
void backends_probe(backend_slot slots[BACKEND_SLOTS]);

/* Chooses and opens the devices of a run.
 *   backend: "opencl", "cuda" or "all"
 *   device:  NULL (each backend's best device: a GPU if there is one), "opencl:1",
 *            an index within each chosen backend, "gpu" or "cpu" (the first device of
 *            that type), or a substring of the device name
 *   with_cpu: also add the host CPU target (for the cpu baseline)
 * Returns LADDER_ERROR with a message when nothing matches. */
ladder_status targets_open(const char *backend, const char *device, int with_cpu,
                           run_target **targets, int *count, char *msg);
void targets_close(run_target *targets, int count);

#endif
