/* Registry entry for rung 29, rung 17 without its padded copies: the same kernel, but it
 * takes the true sizes, zero-fills the tiles that reach past an edge and writes C where it
 * lies. Its parent is rung 17, whose parameters, checks, launch and shared memory it takes
 * (rungs/banks.h); kernel source: kernels-cuda/29-unpadded.cu (CUDA only, as rung 17).
 *
 * What the harness still does for it (rung.aligns): B^T is made by the transposing helper,
 * as for rung 17, and A is copied only when M is not a multiple of 32; both copies have
 * leading dimensions of M and N rounded up to 32 (RUNG_ALIGNED_COLUMN), so that every
 * column starts on a cache line and no 16-byte cp.async copy straddles two.
 */
#include "rungs/registry.h"
#include "rungs/banks.h"

const rung rungs_unpadded[] = {
    {
        .number = 29, .id = "29-unpadded", .name = "unpadded",
        .title = "Rung 17 without padded copies: the kernel takes its edges",
        .idea = "zero-filling copies at the tiles' edges and C stored where it lies: of rung "
                "17's helpers only B's transpose stays (and A's copy when M is not a "
                "multiple of 32)",
        .parent = 17,
        .kind = RUNG_KERNEL,
        .nparams = 6,
        .params = {BANKS_PARAMS("tiles of A and B^T in flight (shared-memory stages)")},
        .validate = banks_validate,
        .transposes_b = 1,
        .aligns = 1,
        .geometry = edges_geometry,
        .local_mem_bytes = banks_local_mem,
        .only_backend = "cuda",
        .only_reason = STAGED_COPIES_ONLY_REASON,
        .cuda_min_cc = 80,
        .takes_double = 1,
    },
};
const int rungs_unpadded_count = (int)(sizeof rungs_unpadded / sizeof rungs_unpadded[0]);
