/* Registry entry for rung 30 (OpenCL): rung 10's kernel with its accumulators and its
 * stores of C as single floats, rung 17's register idea without cp.async. It takes rung
 * 11's parameters and checks, with the tile's edges set per shape as rung 17 does
 * (rungs/banks.h), and rung 10's inputs: A and B^T padded by the host to whole tiles.
 * Kernel source: kernels-opencl/30-scalars.cl.
 */
#include "rungs/registry.h"
#include "rungs/banks.h"

/* The fallback rule's tile depth (rung.rule_params), for a shape no selection table has:
 * on a GPU, 8 where padding K to the tuned depth would add more than an eighth to the
 * work that padding it to 8 leaves. The host pads K to whole tiles, so at K = 8 a 16-deep
 * tile doubles the multiply-adds. On the H200 in NVIDIA's OpenCL, 128 x 128 tiles, K = 8:
 * 4096 x 4096 x 8 ran 5.3k GFLOPS at TSK = 8 against 2.5k at 16, 8192 x 8192 x 8 8.6k
 * against 3.3k; from K = 16 on, 16 was as fast or faster (K = 16: 9.7k against 9.6k and
 * 15.6k against 15.0k; 8192 x 8192 x 32 and 4096 x 4096 x 64 in the search of
 * results/h200-2026-11-30-scalars; results/h200-2026-11-30-scalars/short-sums). */
static void scalars_rule_params(int *p, const gemm_size *s, const device_info *dev)
{
    const size_t k = (size_t)s->K, deep = rung_ceil_div(k, (size_t)p[2]) * (size_t)p[2];
    if (dev->is_gpu && p[2] > 8 && 8 * (deep - rung_ceil_div(k, 8) * 8) > k)
        p[2] = 8;
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
        .local_mem_bytes = prefetch_tiles_local_mem,
        .only_backend = "opencl",
        .only_reason = "OpenCL only: in CUDA, rung 17 has this idea and adds cp.async "
                       "copies of both tiles",
        .takes_double = 1,
        .rule_params = scalars_rule_params,
    },
};
const int rungs_scalars_count = (int)(sizeof rungs_scalars / sizeof rungs_scalars[0]);
