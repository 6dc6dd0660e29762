/* Registry entries for rungs 11 to 18, past the classic tutorial: edges inside the
 * kernel, warp tiling, asynchronous copies, cuBLAS's tile shape, a BLAS call's
 * arguments, the tensor cores at float32 accuracy, register banks, and copies that
 * transpose. Kernel sources:
 * kernels-cuda/1N-*.cu and, where the idea exists in OpenCL, kernels-opencl/1N-*.cl.
 *
 * Rungs 11-16 transpose and pad nothing: every kernel reads A and B where they lie and
 * handles incomplete tiles itself, so every size runs and the launch grid is rounded up to
 * whole tiles. Rung 17 goes back to rung 10's inputs (B^T, padded by the host), because
 * 16-byte cp.async copies can copy B^T's tiles as they lie but cannot transpose B's.
 * Rung 18 copies B 4 bytes at a time, which can, and reads A and B where they lie again.
 */
#include "rungs/registry.h"
#include "rungs/banks.h"
#include "rungs/mma_warps.h"
#include "rungs/warptile.h"

#include <stddef.h>

static size_t tiles(int n, int tile) { return (size_t)((n + tile - 1) / tile); }

/* Padding of B's tile rows in local memory, in floats (see the kernels of rungs 11-13). */
#define BPAD 4

/* Rungs 11 and 12: two buffers of a TSK x TSM tile of A and a TSK x (TSN + BPAD) tile of
 * B^T. */
size_t double_tiles(const int *p)
{
    return 2 * ((size_t)p[2] * p[0] + (size_t)p[2] * (p[1] + BPAD)) * sizeof(float);
}

/* Rungs 15 and 19: rung 12's tiles, with A's rows padded too, as they are when A comes
 * transposed (TRANS_A=1: its tile is then filled by transposing stores, as B's is): the
 * most that any transpose pair takes. */
size_t blas_tiles(const int *p)
{
    return double_tiles(p) + 2 * (size_t)p[2] * BPAD * sizeof(float);
}

/* Rung 13: STAGES of A's tile (TSK x TSM) and rung 12's two of B^T. */
static size_t staged_tiles(const int *p)
{
    return ((size_t)p[4] * p[2] * p[0] + 2 * (size_t)p[2] * (p[1] + BPAD)) * sizeof(float);
}

/* Every thread loads the same number of float4s of each tile (4 rows of A, 4 depths of
 * B): the thread count divides TSM/4 * TSK and TSN * TSK/4. */
static ladder_status check_loads(int tsm, int tsn, int tsk, int threads, char *msg)
{
    if (rung_need_divides(4, tsk, "TSK must be a multiple of 4 (B is loaded 4 k at a time)", msg) ||
        rung_need_divides(threads, tsm / 4 * tsk,
                     "the thread count must divide the float4s of an A tile (TSM*TSK/4)",
                     msg) ||
        rung_need_divides(threads, tsn * tsk / 4,
                     "the thread count must divide the float4s of a B tile (TSN*TSK/4)", msg))
        return LADDER_UNSUPPORTED;
    return LADDER_OK;
}

/* ---- rung 11: edges inside the kernel ----------------------------------------------- */
/* p = TSM, TSN, TSK, WPTM, WPTN. Work-group TSM/WPTM x TSN/WPTN, as rungs 6-10. */
/* Its parameters: EDGES_PARAMS (rungs/banks.h). */
/* Threads of a block: TSM/WPTM x TSN/WPTN. Rungs 17 and 18 share it. */
static int edges_threads(const int *p) { return (p[0] / p[3]) * (p[1] / p[4]); }
ladder_status edges_validate(const int *p, char *msg)
{
    if (rung_need_divides(4, p[3], "WPTM must be a multiple of 4 (float4s of rows)", msg) ||
        rung_need_divides(p[3], p[0], "WPTM must divide TSM", msg) ||
        rung_need_divides(4, p[4], "WPTN must be a multiple of 4 (float4s of columns)", msg) ||
        rung_need_divides(p[4], p[1], "WPTN must divide TSN", msg))
        return LADDER_UNSUPPORTED;
    return check_loads(p[0], p[1], p[2], edges_threads(p), msg);
}
void edges_geometry(const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)(p[0] / p[3]);
    d->local[1] = (size_t)(p[1] / p[4]);
    d->global[0] = tiles(M, p[0]) * d->local[0];
    d->global[1] = tiles(N, p[1]) * d->local[1];
}

/* ---- rungs 12 and up: warp tiles ---------------------------------------------------- */
/* p = TSM, TSN, TSK, WM[, STAGES]. A warp holds WM x WN elements of C with WN = 2048/WM
 * (32 lanes of 8 x 8); a lane grid of LM = WM/8 by 32/LM lanes. */
static int warp_cols(int wm) { return 2048 / wm; }
int warptile_threads(const int *p) { return (p[0] / p[3]) * (p[1] / warp_cols(p[3])) * 32; }

ladder_status warptile_validate(const int *p, char *msg)
{
    const int wm = p[3];
    if (wm < 8 || wm % 8 != 0 || 32 % (wm / 8) != 0)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "WM=%d must be 8, 16, 32, 64, 128 or 256 (WM/8 lanes divide 32)", wm);
    if (rung_need_divides(wm, p[0], "WM must divide TSM", msg) ||
        rung_need_divides(warp_cols(wm), p[1], "WN = 2048/WM must divide TSN", msg))
        return LADDER_UNSUPPORTED;
    return check_loads(p[0], p[1], p[2], warptile_threads(p), msg);
}
/* Rungs 12-16 launch one-dimensional blocks of `threads`, one per TSM x TSN tile of C
 * (p[0] = TSM, p[1] = TSN in all of them). */
static void tile_blocks(int threads, const int *p, int M, int N, launch_dims *d)
{
    d->local[0] = (size_t)threads;
    d->local[1] = 1;
    d->global[0] = tiles(M, p[0]) * d->local[0];
    d->global[1] = tiles(N, p[1]);
}
static void warptile_geometry(const int *p, int M, int N, launch_dims *d)
{
    tile_blocks(warptile_threads(p), p, M, N, d);
}

/* Rungs 13, 14, 16 and 17 keep STAGES tiles in flight. */
static ladder_status check_stages(int stages, char *msg)
{
    if (stages < 2)
        return ladder_fail(msg, LADDER_UNSUPPORTED, "STAGES=%d: a pipeline needs 2 or more",
                           stages);
    return LADDER_OK;
}

/* Rung 13 adds p[4] = STAGES; its copies are rung 12's float4s, 16-byte pieces. */
static ladder_status async_validate(const int *p, char *msg)
{
    if (warptile_validate(p, msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    return check_stages(p[4], msg);
}

/* ---- rung 14: big thread tiles ----------------------------------------------------- */
/* p = TSM, TSN, TSK, STAGES. Warps of 64 x 64, threads of 16 x 8 (fixed in the kernel). */
static int bigtile_threads(const int *p) { return (p[0] / 64) * (p[1] / 64) * 32; }
static ladder_status bigtile_validate(const int *p, char *msg)
{
    if (rung_need_divides(64, p[0], "TSM must be a multiple of the 64-row warp tile", msg) ||
        rung_need_divides(64, p[1], "TSN must be a multiple of the 64-column warp tile", msg))
        return LADDER_UNSUPPORTED;
    if (check_stages(p[3], msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    return check_loads(p[0], p[1], p[2], bigtile_threads(p), msg);
}
static void bigtile_geometry(const int *p, int M, int N, launch_dims *d)
{
    tile_blocks(bigtile_threads(p), p, M, N, d);
}
/* STAGES of A's tile (TSK x TSM) and of B's as it lies (TSN x (TSK + BPAD)). */
static size_t bigtile_local_mem(const int *p)
{
    return (size_t)p[3] * ((size_t)p[2] * p[0] + (size_t)p[1] * (p[2] + BPAD)) * sizeof(float);
}

/* What `ladder tune` tries: as rungs 5-10 for the tiles (TILE_EDGES, TILE_DEPTHS), every
 * warp shape, 2-4 stages. */
#define WARP_ROWS CHOICES(16, 32, 64, 128)

/* The parameters of rung 12, which rung 13 extends: a 128 x 128 x 16 tile of 64-row warps. */
#define WARPTILE_PARAMS                                                                  \
    {"TSM", 128, 0, 8, 1024, "tile rows (M)", TILE_EDGES},                              \
    {"TSN", 128, 0, 8, 1024, "tile columns (N)", TILE_EDGES},                           \
    {"TSK", 16, 8, 4, 256, "tile depth (K)", TILE_DEPTHS},                              \
    {"WM", 64, 0, 8, 256, "warp tile rows (WN = 2048 / WM columns)", WARP_ROWS}

/* ---- rung 16: tensor cores, 3xTF32 --------------------------------------------------- */
/* p = TSM, TSN, TSK, WM, WN, STAGES. A warp per WM x WN tile, made of 16 x 8 mma blocks
 * (rungs/mma_warps.h: rung 25 takes them too). */
static int mma_warps_threads(const int *p) { return (p[0] / p[3]) * (p[1] / p[4]) * 32; }
ladder_status mma_warps_validate(const int *p, char *msg)
{
    if (rung_need_divides(16, p[3], "WM must be a multiple of 16 (the mma block's rows)", msg) ||
        rung_need_divides(p[3], p[0], "WM must divide TSM", msg) ||
        rung_need_divides(8, p[4], "WN must be a multiple of 8 (the mma block's columns)", msg) ||
        rung_need_divides(p[4], p[1], "WN must divide TSN", msg) ||
        rung_need_divides(8, p[2], "TSK must be a multiple of 8 (the mma block's depth)", msg))
        return LADDER_UNSUPPORTED;
    if (check_stages(p[5], msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    const int threads = mma_warps_threads(p);
    if (threads > 1024)
        return ladder_fail(msg, LADDER_UNSUPPORTED,
                           "%d warps of %dx%d in a %dx%d tile make %d threads, over 1024",
                           threads / 32, p[3], p[4], p[0], p[1], threads);
    return check_loads(p[0], p[1], p[2], threads, msg); /* whole 16-byte copies */
}
void mma_warps_geometry(const int *p, int M, int N, launch_dims *d)
{
    tile_blocks(mma_warps_threads(p), p, M, N, d);
}
/* STAGES x (A's TSK x (TSM + 8) and B's TSN x (TSK + 4)), see the kernel's padding. */
static size_t tf32x3_local_mem(const int *p)
{
    return (size_t)p[5] * ((size_t)p[2] * (p[0] + 8) + (size_t)p[1] * (p[2] + 4)) *
           sizeof(float);
}

/* ---- rung 17: register banks, both tiles by cp.async ----------------------------------- */
/* p = TSM, TSN, TSK, WPTM, WPTN, STAGES: rung 11's thread blocks (TSM/WPTM x TSN/WPTN of
 * float4s) on rung 10's inputs, A and B^T padded by the host to whole tiles. */
ladder_status banks_validate(const int *p, char *msg)
{
    if (edges_validate(p, msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    return check_stages(p[5], msg);
}
/* STAGES x (A's TSK x TSM and B^T's TSK x TSN), unpadded: the rows are read whole. */
size_t banks_local_mem(const int *p)
{
    return (size_t)p[5] * p[2] * ((size_t)p[0] + p[1]) * sizeof(float);
}

/* ---- rung 18: rung 17 as a BLAS call, B transposed by 4-byte copies -------------------- */
/* p = rung 17's. A thread copies pieces of one row of A's tile (TSK divides the thread
 * count) and one depth of each group of 8 of B's tile, in passes of threads/8 columns
 * (TSK a multiple of 8, threads/8 divides TSN). */
static ladder_status scatter_validate(const int *p, char *msg)
{
    if (banks_validate(p, msg) != LADDER_OK)
        return LADDER_UNSUPPORTED;
    const int threads = edges_threads(p);
    if (rung_need_divides(8, p[2], "TSK must be a multiple of 8 (B is copied 8 depths at a time)",
                          msg) ||
        rung_need_divides(p[2], threads,
                          "TSK must divide the thread count (each thread copies in one row "
                          "of A's tile)", msg) ||
        rung_need_divides(threads / 8, p[1],
                          "the thread count / 8 must divide TSN (B is copied in passes of "
                          "that many columns)", msg))
        return LADDER_UNSUPPORTED;
    return LADDER_OK;
}
/* STAGES x (A's TSK x TSM and B's TSK x (TSN + BPAD)): rung 17's, with B's rows padded,
 * and A's too when A is transposed (its copies then scatter as B's do): the most of any
 * transpose pair. */
static size_t scatter_local_mem(const int *p)
{
    return (size_t)p[5] * p[2] * ((size_t)p[0] + p[1] + 2 * BPAD) * sizeof(float);
}

const rung rungs_modern[] = {
    {
        .number = 11, .id = "11-edges", .name = "edges",
        .title = "Edges inside the kernel",
        .idea = "no padding, no transposing: guarded loads and stores handle every size",
        .parent = 10,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        .params = {EDGES_PARAMS},
        .validate = edges_validate,
        .geometry = edges_geometry,
        .local_mem_bytes = double_tiles,
        .takes_double = 1,
    },
    {
        .number = 12, .id = "12-warptile", .name = "warptile",
        .title = "Warp tiling",
        .idea = "each warp owns a compact WM x WN block of C; lanes share A and B by broadcast",
        .parent = 11,
        .kind = RUNG_KERNEL,
        .nparams = 4,
        .params = {WARPTILE_PARAMS},
        .validate = warptile_validate,
        .geometry = warptile_geometry,
        .local_mem_bytes = double_tiles,
        .takes_double = 1,
    },
    {
        .number = 13, .id = "13-async", .name = "async",
        .title = "Asynchronous copies in a pipeline",
        .idea = "cp.async copies A's tiles straight into shared memory, STAGES steps ahead",
        .parent = 12,
        .kind = RUNG_KERNEL,
        .nparams = 5,
        .params = {WARPTILE_PARAMS,
                   {"STAGES", 3, 2, 2, 8, "tiles of A in flight (shared-memory stages)",
                    CHOICES(2, 3, 4, 5)}},
        .validate = async_validate,
        .geometry = warptile_geometry,
        .local_mem_bytes = staged_tiles,
        .only_backend = "cuda",
        .only_reason = "CUDA only: OpenCL has no copy into local memory that bypasses "
                       "registers and runs stages ahead (async_work_group_copy copies one "
                       "contiguous run per call and is waited for as a whole)",
        .cuda_min_cc = 80,
        .takes_double = 1,
    },
    {
        .number = 14, .id = "14-bigtile", .name = "bigtile",
        .title = "Big thread tiles, B read along k",
        .idea = "16 x 8 elements per thread, one block per SM; B's tile read as it lies",
        .parent = 13,
        .kind = RUNG_KERNEL,
        .nparams = 4,
        .params = {{"TSM", 256, 128, 64, 1024, "tile rows (M)", TILE_EDGES},
                   {"TSN", 128, 0, 64, 1024, "tile columns (N)", TILE_EDGES},
                   {"TSK", 8, 0, 4, 256, "tile depth (K)", CHOICES(4, 8, 16)},
                   {"STAGES", 3, 2, 2, 8, "tiles in flight (shared-memory stages)",
                    CHOICES(2, 3, 4, 5)}},
        .validate = bigtile_validate,
        .geometry = bigtile_geometry,
        .local_mem_bytes = bigtile_local_mem,
        .only_backend = "cuda",
        .only_reason = "CUDA only: it builds on rung 13's cp.async pipeline",
        .cuda_min_cc = 80,
        .no_double_reason = "its fixed 16 x 8 thread tile needs 128 accumulators, which in "
                            "double take 256 registers, more than a thread may have",
    },
    {
        .number = 15, .id = "15-sgemm", .name = "sgemm",
        .title = "Full SGEMM semantics",
        .idea = "C = alpha*A*B + beta*C with leading dimensions, as a BLAS call (rung 12 inside)",
        .parent = 12,
        .kind = RUNG_KERNEL,
        .nparams = 4,
        /* Rung 12's parameters, with the values its CUDA search found best on the H100
         * (results/h100-2026-11-21-tuning-2). In OpenCL that search preferred WM=64 at
         * TSK=8, within 1% of WM=16; one set of defaults serves both backends. */
        .params = {{"TSM", 128, 0, 8, 1024, "tile rows (M)", TILE_EDGES},
                   {"TSN", 128, 0, 8, 1024, "tile columns (N)", TILE_EDGES},
                   {"TSK", 8, 0, 4, 256, "tile depth (K)", TILE_DEPTHS},
                   {"WM", 16, 0, 8, 256, "warp tile rows (WN = 2048 / WM columns)",
                    WARP_ROWS}},
        .validate = warptile_validate,
        .geometry = warptile_geometry,
        .local_mem_bytes = blas_tiles,
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
    {
        .number = 16, .id = "16-tf32x3", .name = "tf32x3",
        .title = "Tensor cores with float32 accuracy (3xTF32)",
        .idea = "each float split into two TF32 parts; three tensor-core products per multiply-add",
        .parent = 15,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        /* The defaults: what the first 210 s search found best at 4096 on the H100
         * (results/h100-2026-11-21-tensor/first-run), four warps of 64 x 64; the second
         * search there agreed within 0.1%. */
        .params = {{"TSM", 128, 64, 16, 1024, "tile rows (M)", TILE_EDGES},
                   {"TSN", 128, 64, 8, 1024, "tile columns (N)", TILE_EDGES},
                   {"TSK", 16, 0, 8, 256, "tile depth (K)", TILE_DEPTHS},
                   {"WM", 64, 32, 16, 256, "warp tile rows", CHOICES(16, 32, 64, 128)},
                   {"WN", 64, 32, 8, 256, "warp tile columns", CHOICES(16, 32, 64)},
                   {"STAGES", 2, 0, 2, 8, "tiles in flight (shared-memory stages)",
                    CHOICES(2, 3, 4)}},
        .validate = mma_warps_validate,
        .geometry = mma_warps_geometry,
        .local_mem_bytes = tf32x3_local_mem,
        .only_backend = "cuda",
        .only_reason = "CUDA only: standard OpenCL C has no instructions for the tensor "
                       "cores (CUDA reaches them through PTX's mma; OpenCL's matrix "
                       "extensions are vendor-specific)",
        .cuda_min_cc = 80,
        .blas_args = 1,
        /* Each product carries up to 12 units of 2^-24 from the split (see the kernel),
         * and the tensor cores may round sums toward zero: 2^-20 covers both for any K. */
        .unit_roundoff = 0x1p-20,
        .no_double_reason = "a tensor-core rung: its mma.sync takes TF32 inputs; the FP64 "
                            "tensor cores need another instruction (DMMA, mma.sync with "
                            ".f64) and kernel: rung 25",
    },
    {
        .number = 17, .id = "17-banks", .name = "banks",
        .title = "Register banks, both tiles asynchronous",
        .idea = "C stored float by float frees the register allocator; cp.async brings A and B^T",
        .parent = 9, .second_parent = 13,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {BANKS_PARAMS("tiles of A and B^T in flight (shared-memory stages)")},
        .validate = banks_validate,
        .multiples = rung_tile_multiples,
        .pads = 1,
        .transposes_b = 1,
        .geometry = edges_geometry,
        .local_mem_bytes = banks_local_mem,
        .only_backend = "cuda",
        .only_reason = STAGED_COPIES_ONLY_REASON,
        .cuda_min_cc = 80,
        .takes_double = 1,
    },
    {
        .number = 18, .id = "18-scatter", .name = "scatter",
        .title = "Scattering copies: rung 17 as a BLAS call",
        .idea = "4-byte cp.async copies transpose B on the way in: no helper, no padding",
        .parent = 17, .second_parent = 15,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {BANKS_PARAMS("tiles of A and B in flight (shared-memory stages)")},
        .validate = scatter_validate,
        .geometry = edges_geometry,
        .local_mem_bytes = scatter_local_mem,
        .only_backend = "cuda",
        .only_reason = STAGED_COPIES_ONLY_REASON,
        .cuda_min_cc = 80,
        .blas_args = 1,
        .takes_double = 1,
        .takes_transposes = 1,
    },
};
const int rungs_modern_count = (int)(sizeof rungs_modern / sizeof rungs_modern[0]);
