/* Registry entry for rung 25: the FP64 tensor cores (DMMA: mma.sync with doubles), double
 * precision only, on CUDA GPUs of compute capability 9.0 and up. Kernel source:
 * kernels-cuda/25-dmma.cu (no OpenCL version: standard OpenCL C cannot reach the tensor
 * cores).
 *
 * Rung 16's structure (warps of 16 x 8 mma blocks, both tiles by cp.async, a BLAS call's
 * arguments, edges zero-filled by the copies) in double, with deeper pipelines than 48 KiB
 * of static shared memory holds: the kernel takes its tiles dynamically.
 */
#include "rungs/registry.h"
#include "rungs/mma_warps.h"

#include <stddef.h>

enum { P_TSM, P_TSN, P_TSK, P_WM, P_WN, P_STAGES, P_MMAK, P_GROUP };

/* Rung 16's warps and copies (rungs/mma_warps.h), with an mma of depth MMAK and room in
 * the registers for the fragments beside the accumulators. */
static ladder_status dmma_validate(const int *p, char *msg)
{
    if (mma_warps_validate(p, msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    if (p[P_MMAK] != 4 && p[P_MMAK] != 8 && p[P_MMAK] != 16)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "MMAK=%d must be 4, 8 or 16 (the depths of Hopper's double mma)",
                           p[P_MMAK]);
    if (rung_need_divides(p[P_MMAK], p[P_TSK], "MMAK must divide TSK", msg))
        return LADDER_UNSUPPORTED;
    /* 64 doubles are 128 of a lane's 255 registers; more leave too few for the fragments. */
    if (p[P_WM] * p[P_WN] > 2048)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "a %dx%d warp tile is %d accumulators a lane, over 64 (128 registers "
                           "of doubles)", p[P_WM], p[P_WN], p[P_WM] * p[P_WN] / 32);
    return LADDER_OK;
}

/* STAGES x (A's TSK x LDA_S and B's TSN x LDB_S) elements: the kernel's SHARED_BYTES,
 * with its rows' padding (25-dmma.cu: 2, and 8 or none, doubles when MMAK = 8, whose loads
 * take two doubles at a time, else 4 and 4). Counted in floats' bytes, as every rung's is
 * (the registry doubles them in double, the only precision this rung takes). */
static size_t dmma_local_mem(const int *p)
{
    const int paired = p[P_MMAK] == 8;
    const size_t row_a = (size_t)p[P_TSM] + (paired ? 2 : 4);
    const size_t row_b = (size_t)p[P_TSK] + (!paired ? 4 : p[P_TSK] % 16 == 0 ? 8 : 0);
    return (size_t)p[P_STAGES] * ((size_t)p[P_TSK] * row_a + (size_t)p[P_TSN] * row_b) *
           sizeof(float);
}

const rung rungs_dmma[] = {
    {
        .number = 25, .id = "25-dmma", .name = "dmma",
        .title = "The FP64 tensor cores (DMMA), double only",
        .idea = "rung 16's warps of mma.sync in double, on the FP64 tensor cores (DMMA)",
        .parent = 16,
        .kind = RUNG_KERNEL,
        .nparams = 8,
        /* The defaults: a 128 x 128 x 32 tile of eight 64 x 32 warps (64 accumulators a
         * lane, one block per SM), three stages (217.5 KiB), the middle mma depth (the
         * one whose loads take two doubles), GROUP = 16: 55.8 TFLOPS at 4096 on the H100,
         * 0.92x cuBLAS DGEMM; no other set of tools/gpu/check-dmma.sh's sweep beat them by
         * more than 0.5% (results/h100-2026-11-25-dmma2). The small ones: four warps of
         * 32 x 32 in 16 KiB. */
        .params = {{"TSM", 128, 64, 16, 256, "tile rows (M)", CHOICES(64, 128)},
                   {"TSN", 128, 64, 8, 256, "tile columns (N)", CHOICES(64, 128)},
                   {"TSK", 32, 8, 8, 64, "tile depth (K)", CHOICES(8, 16, 32)},
                   {"WM", 64, 32, 16, 128, "warp tile rows", CHOICES(32, 64)},
                   {"WN", 32, 0, 8, 128, "warp tile columns", CHOICES(16, 32, 64)},
                   {"STAGES", 3, 2, 2, 8, "tiles in flight (shared-memory stages)",
                    CHOICES(2, 3, 4, 5)},
                   {"MMAK", 8, 0, 4, 16, "depth of one mma (4, 8 or 16)", CHOICES(4, 8, 16)},
                   GROUPED_TILE_PARAM(16, 0, 8, 16)},
        .validate = dmma_validate,
        .geometry = mma_warps_geometry,
        .local_mem_bytes = dmma_local_mem,
        .only_backend = "cuda",
        .only_reason = "CUDA only (compute capability 9.0+): standard OpenCL C has no "
                       "instructions for the tensor cores",
        .cuda_min_cc = 90,
        .cuda_dynamic_shared = 1,
        .blas_args = 1,
        .takes_double = 1,
        .no_single_reason = "FP64 tensor cores: double only; run with --precision double",
    },
};
const int rungs_dmma_count = (int)(sizeof rungs_dmma / sizeof rungs_dmma[0]);
