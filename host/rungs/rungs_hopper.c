/* Registry entries for rungs 21 and up: Hopper's own path (compute capability 9.0 only).
 * Kernel sources: kernels-cuda/2N-*.cu, with the PTX wrappers they share in
 * kernels-cuda/hopper.cuh.
 *
 * The tiles come in by TMA copies (cp.async.bulk.tensor): the kernels take tensor maps of
 * A and B (rung.tma_boxes), and the products are warpgroup MMAs (wgmma), which exist only
 * in the arch-specific target sm_90a (rung.cuda_arch_specific). The copy engine fills the
 * parts of a box outside the matrix with zeros and the kernels guard their stores of C, so
 * every size runs; but it steps between columns in 16-byte units, so M and K (the leading
 * dimensions the harness passes) are padded to multiples of 4 when they are not.
 * Their pipelines need more than 48 KiB of shared memory, which the kernels take
 * dynamically (backend_cuda.c, read_dynamic_shared).
 */
#include "rungs/registry.h"

#include <stddef.h>

enum { P_TSM, P_TSN, P_STAGES };

/* The depth of every k-tile: one 128-byte swizzled row of floats. Matches the kernels. */
#define HOPPER_TSK 32

static size_t tiles(int n, int tile) { return (size_t)((n + tile - 1) / tile); }

static ladder_status hopper_validate(const int *p, char *msg)
{
    if (p[P_TSM] != 64 && p[P_TSM] != 128)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "TSM=%d must be 64 or 128 (one or two warpgroups of 64 rows)",
                           p[P_TSM]);
    if (p[P_TSN] != 64 && p[P_TSN] != 128 && p[P_TSN] != 256)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "TSN=%d must be 64, 128 or 256 (the wgmma shapes the kernels have)",
                           p[P_TSN]);
    if (p[P_STAGES] < 2)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "STAGES=%d: a pipeline needs 2 or more",
                           p[P_STAGES]);
    return LADDER_OK;
}

/* M and K padded to multiples of 4: the leading dimensions of A and B are then whole
 * 16-byte units, as the copy engine needs. N may be anything. */
static void hopper_multiples(const int *p, int mult[3])
{
    (void)p;
    mult[0] = 4;
    mult[1] = 1;
    mult[2] = 4;
}

/* One block of TSM/64 warpgroups per TSM x TSN tile of C. */
static void hopper_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)(p[P_TSM] / 64 * 128);
    d->local[1] = 1;
    d->global[0] = tiles(M, p[P_TSM]) * d->local[0];
    d->global[1] = tiles(N, p[P_TSN]);
}

/* STAGES tiles of A (TSM x 32) and B (32 x TSN), a barrier per stage and 1024 bytes to
 * align the tiles (the kernels' SHARED_BYTES). */
static size_t wgmma_shared(const int *p)
{
    return (size_t)p[P_STAGES] * ((size_t)(p[P_TSM] + p[P_TSN]) * HOPPER_TSK * 4 + 8) + 1024;
}

/* Rung 22 adds two buffers of B's small parts (TSN x 32). */
static size_t wgmma3x_shared(const int *p)
{
    return wgmma_shared(p) + 2 * (size_t)p[P_TSN] * HOPPER_TSK * 4;
}

/* Rungs 23 and up: one more warpgroup (the producer) and one more barrier per stage. */
static void specialized_geometry(const int *p, int M, int N, launch_dims *d)
{
    hopper_geometry(p, M, N, d);
    d->global[0] += d->global[0] / d->local[0] * 128;
    d->local[0] += 128;
}
static size_t specialized_shared(const int *p)
{
    return wgmma3x_shared(p) + (size_t)p[P_STAGES] * 16;
}

/* Rung 24: rung 21's stages with rung 23's two barriers per stage. */
static size_t pipe_shared(const int *p)
{
    return wgmma_shared(p) + (size_t)p[P_STAGES] * 8;
}

/* A's tile as boxes of 32 x 32 (128 bytes of rows), B's as one box of 32 (k) x TSN. */
static void hopper_boxes(const int *p, rung_tma_boxes *out)
{
    out->a_rows = 32;
    out->a_cols = HOPPER_TSK;
    out->b_rows = HOPPER_TSK;
    out->b_cols = p[P_TSN];
    out->swizzle_bytes = 128;
}

/* A tensor map describes a matrix of at least one column: with K = 0 there is no A or B
 * to map (C = beta * C is a library's call, or any other BLAS-call rung's). */
static ladder_status hopper_check_size(const int *p, const gemm_size *s, char *msg)
{
    (void)p;
    if (s->K == 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "K = 0: its TMA copies need matrices of at least one column");
    return LADDER_OK;
}

/* The three parameters every Hopper rung has: `who` says which warpgroups own the rows,
 * then the default stage count and the counts the tuner tries. HOPPER_PARAM_LIST is the
 * list alone, for a rung that adds one of its own (rung 24's GROUP). */
#define HOPPER_PARAM_LIST(who, stages, ...)                                              \
    {"TSM", 128, 0, 64, 128, "tile rows (M): 64 per " who, CHOICES(64, 128)},           \
    {"TSN", 256, 0, 64, 256, "tile columns (N): the wgmma's N", CHOICES(64, 128, 256)}, \
    {"STAGES", stages, 0, 2, 8, "k-tiles in flight (shared-memory stages)",              \
     CHOICES(__VA_ARGS__)}
#define HOPPER_PARAMS(who, stages, ...)                                                  \
    .nparams = 3, .params = {HOPPER_PARAM_LIST(who, stages, __VA_ARGS__)}

#define HOPPER_COMMON                                                                    \
    .kind = RUNG_KERNEL, .validate = hopper_validate, .multiples = hopper_multiples,      \
    .check_size = hopper_check_size, .pads = 1,                                          \
    .sizes = "any M, N, K >= 1 (M and K padded to multiples of 4 when not)",              \
    .blas_args = 1, .tma_boxes = hopper_boxes,   \
    .only_backend = "cuda",                                                              \
    .only_reason = "CUDA only (compute capability 9.0): TMA copies and warpgroup MMAs "  \
                   "are Hopper's instructions, with nothing like them in OpenCL",        \
    .cuda_min_cc = 90, .cuda_arch_specific = 1, .takes_double = 0,                       \
    .no_double_reason = "the TF32 tensor cores multiply floats only"

const rung rungs_hopper[] = {
    {
        .number = 21, .id = "21-wgmma", .name = "wgmma",
        .title = "Hopper's path: TMA copies and warpgroup MMA (TF32)",
        .idea = "TMA copies whole tiles on mbarriers; a warpgroup's wgmma multiplies from "
                "shared memory; 1xTF32",
        .parent = 16,
        HOPPER_COMMON,
        HOPPER_PARAMS("warpgroup", 4, 2, 3, 4, 5),
        .geometry = hopper_geometry,
        .local_mem_bytes = wgmma_shared,
        /* TF32 keeps 10 mantissa bits of each input (the rest dropped): a product is off
         * by up to 2^-9 + 2^-20 of itself; the tensor cores' float32 sums may round toward
         * zero (2^-23 each). See the kernel. */
        .unit_roundoff = 0x1p-23,
        .input_roundoff = 0x1p-10, /* TF32 inputs: products off by 2^-9 + 2^-20 */
    },
    {
        .number = 22, .id = "22-wgmma3x", .name = "wgmma3x",
        .title = "3xTF32 on wgmma: float32 accuracy on Hopper's path",
        .idea = "rung 16's split on rung 21's instructions: three wgmmas per step, B split "
                "in shared memory",
        .parent = 21, .second_parent = 16,
        HOPPER_COMMON,
        HOPPER_PARAMS("warpgroup", 3, 2, 3, 4),
        .geometry = hopper_geometry,
        .local_mem_bytes = wgmma3x_shared,
        /* Rung 16's bound: the split's roundings and the tensor cores' sums. */
        .unit_roundoff = 0x1p-20,
    },
    {
        .number = 23, .id = "23-specialized", .name = "specialized",
        .title = "Warp specialization: a producer warpgroup, and wgmmas always in flight",
        .idea = "a producer copies; consumers release stages by mbarrier and keep a "
                "k-tile of wgmmas in flight",
        .parent = 22,
        HOPPER_COMMON,
        HOPPER_PARAMS("consumer warpgroup", 3, 2, 3, 4),
        .geometry = specialized_geometry,
        .local_mem_bytes = specialized_shared,
        .unit_roundoff = 0x1p-20,
    },
    {
        .number = 24, .id = "24-tf32pipe", .name = "tf32pipe",
        .title = "Rung 23's pipeline in plain TF32",
        .idea = "no split: one wgmma per step on the warp-specialized pipeline, against "
                "cuBLAS's TF32",
        .parent = 23, .second_parent = 21,
        HOPPER_COMMON,
        .nparams = 4,
        .params = {HOPPER_PARAM_LIST("consumer warpgroup", 4, 2, 3, 4),
                   GROUPED_TILE_PARAM(16, 0, 8, 16, 32)},
        .geometry = specialized_geometry,
        .local_mem_bytes = pipe_shared,
        /* Rung 21's arithmetic. */
        .unit_roundoff = 0x1p-23,
        .input_roundoff = 0x1p-10, /* TF32 inputs: products off by 2^-9 + 2^-20 */
    },
};
const int rungs_hopper_count = (int)(sizeof rungs_hopper / sizeof rungs_hopper[0]);
