/* The OpenCL timer's hold (host/backends/opencl/opencl_hold.h): how many steps of its
 * kernel make OCL_HOLD_NS, from two timed runs. The kernel itself is timed on PoCL in
 * tests/test_opencl_backend.c. */
#include <stdio.h>

#include "backends/opencl/opencl_hold.h"

static int failures = 0;
#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);            \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

int main(void)
{
    /* 1 ns a step once the launch's 6 us are taken out: 100 us is 100,000 steps. */
    CHECK(ocl_hold_steps_for(100000.0, 4096, 6000.0 + 4096, 65536, 6000.0 + 65536) == 100000);
    /* 4 ns a step: 25,000 steps, and a fraction of a step rounds up. */
    CHECK(ocl_hold_steps_for(100000.0, 4096, 20000.0, 65536, 20000.0 + 4.0 * 61440) == 25000);
    CHECK(ocl_hold_steps_for(100001.0, 4096, 20000.0, 65536, 20000.0 + 4.0 * 61440) == 25001);
    /* Slow steps (16 ns): 6,250; slower still, never fewer than the shorter run's. */
    CHECK(ocl_hold_steps_for(100000.0, 4096, 1000.0, 65536, 1000.0 + 16.0 * 61440) == 6250);
    CHECK(ocl_hold_steps_for(100000.0, 4096, 1000.0, 65536, 1e8) == 4096);
    /* Steps too fast to see: at most 2^28. */
    CHECK(ocl_hold_steps_for(100000.0, 4096, 5000.0, 65536, 5000.001) == (1u << 28));
    /* Times that say nothing (the longer run no longer, or a clock that did not move). */
    CHECK(ocl_hold_steps_for(100000.0, 4096, 5000.0, 65536, 5000.0) == 65536);
    CHECK(ocl_hold_steps_for(100000.0, 4096, 5000.0, 65536, 0.0) == 65536);
    CHECK(ocl_hold_steps_for(100000.0, 4096, 0.0, 4096, 1000.0) == 4096);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
