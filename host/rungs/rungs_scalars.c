/* Registry entry for rung 30 (OpenCL): rung 10's kernel with its accumulators and its
 * stores of C as single floats, rung 17's register idea without cp.async. It takes rung
 * 11's parameters and checks, with the tile's edges set per shape as rung 17 does
 * (rungs/banks.h), and rung 10's inputs: A and B^T padded by the host to whole tiles.
 * Kernel source: kernels-opencl/30-scalars.cl.
 */
#include "rungs/registry.h"
#include "rungs/banks.h"

/* Two buffers of a TSK x TSM tile of A and a TSK x TSN tile of B^T, in float (the harness
 * doubles it for double). p = TSM, TSN, TSK, WPTM, WPTN. */
static size_t scalars_local_mem(const int *p)
{
    return 2 * (size_t)p[2] * ((size_t)p[0] + (size_t)p[1]) * sizeof(float);
}

const rung rungs_scalars[] = {
    {
        .number = 30, .id = "30-scalars", .name = "scalars",
        .title = "Accumulators and C one float at a time (OpenCL)",
        .idea = "single-float accumulators and stores of C free the register allocator: "
                "rung 17's register idea, without cp.async",
        .parent = 10, .second_parent = 17,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        .params = {EDGES_PARAMS_PER_SHAPE},
        .validate = edges_validate,
        .multiples = rung_tile_multiples,
        .pads = 1,
        .transposes_b = 1,
        .geometry = edges_geometry,
        .local_mem_bytes = scalars_local_mem,
        .only_backend = "opencl",
        .only_reason = "OpenCL only: in CUDA, rung 17 has this idea and adds cp.async "
                       "copies of both tiles",
        .takes_double = 1,
    },
};
const int rungs_scalars_count = (int)(sizeof rungs_scalars / sizeof rungs_scalars[0]);
