/* ladder devices: what the machine has, and what a benchmark needs to know about it. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "backends/host_blas.h"
#include "core/targets.h"

static void print_device(const device_info *d)
{
    printf("%s:%d  %s\n", d->backend, d->index, d->name);
    printf("    vendor %s; platform %s; driver %s\n", d->vendor, d->platform, d->driver);
    printf("    %s, %d compute units at %d MHz", d->is_gpu ? "GPU" : "CPU", d->compute_units,
           d->clock_mhz);
    if (d->cc_major)
        printf(", compute capability %d.%d", d->cc_major, d->cc_minor);
    printf("\n    local memory %zu KiB, work-group up to %zu (%zu x %zu x %zu), "
           "global memory %.1f GiB (largest buffer %.1f GiB)\n",
           d->local_mem_bytes / 1024, d->max_work_group_size, d->max_work_item_sizes[0],
           d->max_work_item_sizes[1], d->max_work_item_sizes[2],
           (double)d->global_mem_bytes / 1073741824.0,
           (double)d->max_alloc_bytes / 1073741824.0);
    if (d->fp32_peak_gflops > 0)
        printf("    FP32 peak %.0f GFLOPS\n", d->fp32_peak_gflops);
    else
        printf("    FP32 peak unknown\n");
}

int cmd_devices(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: ladder devices\n\n"
                   "Lists every OpenCL platform/device and CUDA device with its name, vendor,\n"
                   "driver, compute units, clock, local/shared memory, work-group limits,\n"
                   "global memory and FP32 peak (where it can be computed), and the host\n"
                   "CPU that runs the CPU BLAS baseline. Use the 'backend:index' names with\n"
                   "ladder run --device.\n");
            return 0;
        }
        return cli_usage_error("devices", "unknown option '%s' (see ladder devices --help)",
                               argv[i]);
    }
    backend_slot slots[BACKEND_SLOTS];
    backends_probe(slots);
    int any = 0;
    for (int b = 0; b < BACKEND_SLOTS; b++) {
        backend_slot *s = &slots[b];
        if (!s->ops) {
            printf("%s: unavailable: %s\n\n", s->name, s->why);
            continue;
        }
        for (int i = 0; i < s->count; i++) {
            device_info d;
            char msg[LADDER_MSG];
            if (s->ops->device_query(i, &d, msg) != LADDER_OK) {
                printf("%s:%d  (query failed: %s)\n", s->name, i, msg);
                continue;
            }
            print_device(&d);
            any = 1;
        }
        printf("\n");
    }
    device_info cpu;
    host_cpu_info(&cpu);
    printf("cpu  %s (%d cores), BLAS: %s\n", cpu.name, cpu.compute_units, cpu.driver);
    if (!any)
        printf("\nNo OpenCL or CUDA device: install an OpenCL driver (for the CPU: "
               "apt-get install pocl-opencl-icd).\n");
    return 0;
}
