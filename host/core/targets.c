#include "core/targets.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "backends/host_blas.h"

void backends_probe(backend_slot slots[BACKEND_SLOTS])
{
    const char *names[BACKEND_SLOTS] = {"opencl", "cuda"};
    for (int i = 0; i < BACKEND_SLOTS; i++) {
        backend_slot *s = &slots[i];
        memset(s, 0, sizeof *s);
        s->name = names[i];
        s->ops = i == 0 ? opencl_backend(s->why) : cuda_backend(s->why);
        if (s->ops && s->ops->device_count(&s->count, s->why) != LADDER_OK) {
            s->ops = NULL;
            s->count = 0;
        }
        if (s->ops && s->count == 0) {
            snprintf(s->why, sizeof s->why, "no %s device found", s->name);
            s->ops = NULL;
        }
    }
}

/* Case-insensitive substring search. */
static int contains(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++)
        if (strncasecmp(haystack, needle, n) == 0)
            return 1;
    return 0;
}

/* The device this backend uses when none is named: the first GPU, else device 0. */
static int best_device(const backend_slot *s)
{
    for (int i = 0; i < s->count; i++) {
        device_info info;
        char msg[LADDER_MSG];
        if (s->ops->device_query(i, &info, msg) == LADDER_OK && info.is_gpu)
            return i;
    }
    return 0;
}

/* Which device of backend `s` matches `device`; -1 when none does. */
static int match_device(const backend_slot *s, const char *device, char *msg)
{
    if (!device)
        return best_device(s);
    const char *colon = strchr(device, ':');
    if (colon) { /* "opencl:1" */
        size_t len = (size_t)(colon - device);
        if (strlen(s->name) != len || strncmp(device, s->name, len) != 0)
            return -1;
        device = colon + 1;
        if (!text_is_digits(device))
            return -1;
    }
    if (text_is_digits(device)) {
        long i = strtol(device, NULL, 10);
        return i < s->count ? (int)i : -1;
    }
    /* "gpu" and "cpu" pick the first device of that type: names rarely say it (PoCL's CPU
     * device is called "pthread-skylake-avx512-...", say). */
    int want_gpu = strcasecmp(device, "gpu") == 0, want_cpu = strcasecmp(device, "cpu") == 0;
    for (int i = 0; (want_gpu || want_cpu) && i < s->count; i++) {
        device_info info;
        if (s->ops->device_query(i, &info, msg) == LADDER_OK && info.is_gpu == want_gpu)
            return i;
    }
    for (int i = 0; i < s->count; i++) {
        device_info info;
        if (s->ops->device_query(i, &info, msg) == LADDER_OK && contains(info.name, device))
            return i;
    }
    return -1;
}

static ladder_status add_target(run_target **targets, int *count, run_target t, char *msg)
{
    run_target *grown = realloc(*targets, (size_t)(*count + 1) * sizeof **targets);
    if (!grown)
        return ladder_fail(msg, LADDER_ERROR, "out of host memory");
    *targets = grown;
    grown[(*count)++] = t;
    return LADDER_OK;
}

ladder_status targets_open(const char *backend, const char *device, int with_cpu,
                           run_target **targets, int *count, char *msg)
{
    *targets = NULL;
    *count = 0;
    int all = strcmp(backend, "all") == 0;
    if (!all && strcmp(backend, "opencl") != 0 && strcmp(backend, "cuda") != 0)
        return ladder_fail(msg, LADDER_ERROR,
                           "unknown backend '%s': use opencl, cuda or all", backend);
    backend_slot slots[BACKEND_SLOTS];
    backends_probe(slots);
    /* Why each backend asked for is unavailable. Said only when nothing can run: a
     * machine without an NVIDIA driver is no reason to warn on every OpenCL run
     * (ladder devices lists the reasons). */
    char unavailable[LADDER_MSG] = "";
    size_t used = 0;
    for (int b = 0; b < BACKEND_SLOTS; b++) {
        backend_slot *s = &slots[b];
        if (!all && strcmp(backend, s->name) != 0)
            continue;
        if (!s->ops) {
            if (used < sizeof unavailable)
                used += (size_t)snprintf(unavailable + used, sizeof unavailable - used,
                                         "%s%s: %s", used ? "; " : "", s->name, s->why);
            continue;
        }
        int index = match_device(s, device, msg);
        if (index < 0)
            continue;
        run_target t = {.ops = s->ops};
        ladder_status st = s->ops->device_query(index, &t.dev, msg);
        if (st == LADDER_OK)
            st = s->ops->open(index, &t.session, msg);
        if (st == LADDER_OK)
            st = add_target(targets, count, t, msg);
        if (st != LADDER_OK) {
            targets_close(*targets, *count);
            *targets = NULL;
            *count = 0;
            return LADDER_ERROR;
        }
    }
    if (*count == 0) {
        if (device)
            return ladder_fail(msg, LADDER_ERROR,
                               "no %s device matches '%s': run 'ladder devices' to see them",
                               all ? "OpenCL or CUDA" : backend, device);
        return ladder_fail(msg, LADDER_ERROR, "no device to run on: %s",
                           unavailable[0] ? unavailable : "no backend available");
    }
    if (with_cpu) {
        run_target cpu = {0};
        host_cpu_info(&cpu.dev);
        if (add_target(targets, count, cpu, msg) != LADDER_OK) {
            targets_close(*targets, *count);
            return LADDER_ERROR;
        }
    }
    return LADDER_OK;
}

void targets_close(run_target *targets, int count)
{
    for (int i = 0; i < count; i++)
        if (targets[i].ops && targets[i].session)
            targets[i].ops->close(targets[i].session);
    free(targets);
}
