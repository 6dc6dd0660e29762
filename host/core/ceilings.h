/* A device's ceilings, measured: how fast it multiply-adds when nothing else holds it back
 * (in float and in double) and how fast it reads memory, the two limits a roofline is
 * drawn against (`ladder ceilings`, cli/cli_ceilings.c).
 *
 * Each is a small probe kernel of its own (kernels-opencl/ceilings/, kernels-cuda/ceilings/;
 * their opening comments say how they are built and why), compiled at run time through the
 * backend as a rung is, and timed by measure() as a rung is: a warm-up, then repetitions
 * timed with the backend's device timer, the median the figure. The median, not the best:
 * a rung's row reports its median too, so "85% of the ceiling" compares like with like,
 * and one lucky repetition cannot raise the roof. Every probe's output is checked on the
 * host, so a probe that skipped work is an error, never a figure.
 */
#ifndef LADDER_CEILINGS_H
#define LADDER_CEILINGS_H

#include "base/gemm_case.h"
#include "core/measure.h"
#include "core/targets.h"

/* The read probe's default buffer: 1 GiB on a GPU (an H100's L2 is 50 MB), 2 GiB on a CPU
 * (past any CPU's last-level cache, the largest about 1.1 GiB), at most the device's
 * largest buffer and half its memory, a multiple of 16 bytes. */
size_t ceilings_default_bytes(const device_info *d);

/* The read probe reads float4s, counted by an int: a buffer of 16 bytes to this. */
#define CEILINGS_MAX_BYTES (16ULL << 30)

typedef struct {
    size_t read_bytes;  /* the read probe's buffer: a multiple of 16, at most the above */
    int reps;           /* timed repetitions of each probe, at most */
    double max_seconds; /* stop repeating a probe after this many seconds (not before 3) */
} ceilings_plan;

typedef struct {
    ladder_status status;  /* LADDER_OK: measured; LADDER_UNSUPPORTED: `why` says why */
    double value;          /* GFLOPS (the FMA probes) or GB/s (the read), from the median */
    double work;           /* flops or bytes of one timed run */
    measure_result timing; /* the timed runs: how many, median, min and max ms */
    int chains;            /* the FMA probes: chains per work-item of the figure */
    char why[LADDER_MSG];
} ceiling_figure;

/* The FMA probe's chain counts, each tried; the fastest gives the figure. How many
 * independent chains cover the FMA's latency depends on the device: a GPU interleaves
 * many work-items on each SM, so a few chains each suffice (8); a CPU core runs one
 * work-item at a time and its compiler packs that work-item's chains into SIMD vectors,
 * so it needs lanes x FMA pipes x latency of them (16 x 2 x 4 = 128 on AVX-512). */
#define CEILINGS_CHAIN_COUNTS 3
extern const int ceilings_chain_counts[CEILINGS_CHAIN_COUNTS];

/* The FMA probe in precision `p` on an open target: 2 x FMAs / median time, in GFLOPS,
 * with each chain count; the figure is the fastest.
 * LADDER_OK with out->status LADDER_UNSUPPORTED when the device has no double;
 * LADDER_ERROR (msg says why) when the probe could not run or computed a wrong sum. */
ladder_status ceiling_fma(const run_target *t, gemm_precision p, const ceilings_plan *plan,
                          ceiling_figure *out, char *msg);

/* The read probe: bytes read / median time, in GB/s (10^9 bytes per second). */
ladder_status ceiling_read(const run_target *t, const ceilings_plan *plan,
                           ceiling_figure *out, char *msg);

/* The defines the probes are compiled with (the NVRTC test compiles them so too): the FMA
 * probe's in precision `p` with `chains` chains, the read probe's on device `d`. */
void ceilings_fma_options(gemm_precision p, int chains, char *out, size_t size);
const char *ceilings_read_options(const device_info *d);

#endif
