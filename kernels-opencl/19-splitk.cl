/* Rung 19: split-K (OpenCL)
 * Parent: rung 15 (full SGEMM semantics). Its kernel is rung 15's, and a call takes the
 *   same BLAS arguments, plus a workspace W that the host allocates.
 * Change since rung 15: the K loop is shared out. Each work-group computes its TSM x TSN
 *   tile of C over one slice of K only: SPLITS slices at most, each a whole number of TSK
 *   tiles deep (the last may be shorter; K need not be a multiple of anything). Work-group
 *   (tile of M, slice) is group tile_m + tiles_m * slice of dimension 0; dimension 1 is
 *   the tile of N, as in rung 15. The partial tiles of one tile of C must then be summed,
 *   in one of two ways (the parameter ATOMIC):
 *   ATOMIC=0, deterministic: kernel `gemm` writes each slice's partial tile into its own
 *     M x N matrix of W; kernel `reduce` then sums the slices of each element in a fixed
 *     order and writes C = alpha * sum + beta * C. The same inputs give the same bits on
 *     every run.
 *   ATOMIC=1, atomics: kernel `scale_c` first makes C = beta * C; kernel `gemm` then adds
 *     alpha * its partial tile into C, element by element, with an atomic addition. The
 *     slices arrive in whatever order the work-groups finish, and float addition is not
 *     associative, so the last bits of C can differ from run to run: NOT deterministic.
 *     OpenCL 1.2 has atomic additions of integers only; atomic_add_real below builds one
 *     for floats out of a compare-and-swap.
 *   When K fits in one slice, `gemm` alone runs and writes C as rung 15 does.
 * Why: a GEMM with a small C and a long K has too few tiles to fill a GPU. 128 x 128 x
 *   32768 has 4 tiles of 64 x 64 (1 of rung 15's 128 x 128): 4 work-groups for the H100's
 *   132 SMs, each running a loop of 4096 steps (TSK = 8) while 128 SMs idle. With 256
 *   slices there are 1024 work-groups, about 8 per SM, each 128 deep in K.
 * What it costs: the partial tiles' memory traffic, and a second kernel. At 128 x 128 x
 *   32768 with 256 slices, ATOMIC=0 writes 256 partial 128 x 128 matrices, 16 MiB, and
 *   `reduce` reads them back: 32 MiB of traffic beside the 32 MiB of A and B that any
 *   SGEMM reads, twice the traffic (though 16 MiB fits in the H100's 50 MB L2, so
 *   little of it need reach DRAM). ATOMIC=1 makes 4 million atomic additions into a
 *   64 KiB C instead: no workspace and no second pass, but each element of C is updated
 *   256 times, one after another. Both are pure waste at a shape that has tiles enough
 *   (set SPLITS=1 there: then this is rung 15 with its own tile sizes).
 * Parameters: TSM, TSN, TSK, WM as rung 15 (and its constraints); SPLITS, the most slices
 *   of K (any count >= 1: a K of fewer tiles gets one slice per tile, and no slice is
 *   empty); ATOMIC (0 or 1). The host computes the same slices (host/rungs/rungs_splitk.c).
 * Sizes: any M, N, K >= 1; lda >= M, ldb >= K, ldc >= M. W holds
 *   slices x (M rounded up to a multiple of 4) x N floats for ATOMIC=0, nothing otherwise.
 * Transposes: TRANS_A, TRANS_B as rung 15 (the tile loads of blas_tiles.h); lda >= K with
 *   TRANS_A=1, ldb >= N with TRANS_B=1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h): the floats and float4s of
 *   this comment are then doubles and double4s (real4), W holds doubles, and ATOMIC=1
 *   needs 64-bit atomics (cl_khr_int64_base_atomics) for its compare-and-swap.
 */
#include "real.h"

#define WN (2048 / WM)             /* a warp's 32 lanes x 64 elements */
#define WARPS_M (TSM / WM)
#define WARPS_N (TSN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define LM (WM / 8)                /* lanes along m */
#define LN (32 / LM)               /* lanes along n */
#define LPTA (TSM * TSK / THREADS) /* elements of the A tile each work-item loads */
#define LPTB (TSN * TSK / THREADS) /* elements of the B tile each work-item loads */
#define REDUCE_DEPTH 8 /* most slices one work-item of `reduce` adds (see there) */
#include "blas_tiles.h"

/* K tiles per slice: SPLITS slices of whole TSK tiles, rounded up. */
int slice_tiles(const int K)
{
    const int ktiles = (K + TSK - 1) / TSK;
    const int per = (ktiles + SPLITS - 1) / SPLITS;
    return per > 0 ? per : 1;
}

/* The slices that hold K tiles (at most SPLITS): only these are launched and summed. */
int slice_count(const int K)
{
    const int ktiles = (K + TSK - 1) / TSK, per = slice_tiles(K);
    const int n = (ktiles + per - 1) / per;
    return n > 0 ? n : 1;
}

/* Rows of a partial matrix in W: M rounded up to whole real4s, so every real4 of W is
 * aligned (16 bytes in float, 32 in double). */
int partial_rows(const int M) { return (M + 3) / 4 * 4; }

/* *p += v as one indivisible step, for a float (double) in global memory.
 * OpenCL 1.2's atomic_add takes integers only, but atomic_cmpxchg(p, expected, new)
 * writes `new` only if *p still holds `expected`, and returns what *p held. So: read the
 * float, compute the sum, and write it back only if nobody changed the float meanwhile;
 * if somebody did, try again from what they left. The comparison is on the float's bits
 * (an unsigned integer of its size), not on its value: NaN != NaN as floats, and a C
 * holding NaN would make a float comparison loop forever. A double's 64 bits need the
 * 64-bit compare-and-swap, atom_cmpxchg of cl_khr_int64_base_atomics; a device without
 * it runs double with ATOMIC=0 only. */
#if !defined(LADDER_DOUBLE)
typedef uint real_bits;
#define AS_BITS(x) as_uint(x)
#define AS_REAL(b) as_float(b)
#define CMPXCHG(p, expected, new) atomic_cmpxchg(p, expected, new)
#elif defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef ulong real_bits;
#define AS_BITS(x) as_ulong(x)
#define AS_REAL(b) as_double(b)
#define CMPXCHG(p, expected, new) atom_cmpxchg(p, expected, new)
#elif ATOMIC
#error "ATOMIC=1 in double needs 64-bit atomics (cl_khr_int64_base_atomics), which this device does not offer: use ATOMIC=0"
#else
#define atomic_add_real(p, v) ((void)0) /* never called: ATOMIC=0 adds nothing into C */
#endif
#ifndef atomic_add_real
void atomic_add_real(volatile __global real *p, const real v)
{
    volatile __global real_bits *bits = (volatile __global real_bits *)p;
    real_bits seen = *bits;
    for (;;) {
        const real_bits sum = AS_BITS(AS_REAL(seen) + v);
        const real_bits was = CMPXCHG(bits, seen, sum);
        if (was == seen)
            return;
        seen = was; /* another work-item added first: add to its result */
    }
}
#endif

void gemm_body(__local struct Tiles *sm, const int vec, const int M, const int N,
               const int K, const real alpha, const __global real *A, const int lda,
               const __global real *B, const int ldb, const real beta,
               __global real *C, const int ldc, __global real *W)
{
    const int tid = get_local_id(0);
    const int warp = tid / 32, lane = tid % 32;
    /* This work-item's place: real4 columns am and am + WM/8 of the A tile, real4
     * columns bq and bq + WN/8 of the B tile. */
    const int am = ((warp % WARPS_M) * WM) / 4 + lane % LM;
    const int bq = ((warp / WARPS_M) * WN) / 4 + lane / LM;
    /* This work-group's corner of C and its slice of K, [kbegin, kend). */
    const int tiles_m = (M + TSM - 1) / TSM;
    const int slice = get_group_id(0) / tiles_m;
    const int m0 = (get_group_id(0) % tiles_m) * TSM;
    const int n0 = get_group_id(1) * TSN;
    const int kbegin = slice * slice_tiles(K) * TSK;
    const int kend = min(K, kbegin + slice_tiles(K) * TSK);
    __local real4(*Asub)[TSK][(TSM + APAD) / 4] = sm->A;
    __local real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm->B;

    real4 acc[8][2];
    for (int j = 0; j < 8; j++)
        acc[j][0] = acc[j][1] = 0;

    struct Share next; /* this work-item's share of the next tiles */
    load_share(&next, vec, kbegin, tid, m0, n0, M, N, kend, A, lda, B, ldb);

    const int steps = (kend - kbegin + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, &next, buf, tid);
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < steps)
            load_share(&next, vec, kbegin + (t + 1) * TSK, tid, m0, n0, M, N, kend, A, lda,
                       B, ldb);

        /* Rung 11's inner loop, for this lane's float4s of rows and of columns. */
        for (int k = 0; k < TSK; k++) {
            const real4 a0 = Asub[buf][k][am], a1 = Asub[buf][k][am + WM / 8];
            const real4 b0 = Bsub[buf][k][bq], b1 = Bsub[buf][k][bq + WN / 8];
            for (int j = 0; j < 8; j++) {
                const real b = component(j < 4 ? b0 : b1, j % 4);
                acc[j][0] += a0 * b;
                acc[j][1] += a1 * b;
            }
        }
    }

    /* Where the tile goes: into C when K is one slice (rung 15's epilogue), else into the
     * slice's partial matrix in W, or added into C. The same for every work-item
     * (slice_count depends on K alone), so none diverges. Only elements that exist are
     * written. */
    enum { TO_C, TO_W, ADD_TO_C };
    const int dest = slice_count(K) == 1 ? TO_C : ATOMIC ? ADD_TO_C : TO_W;
    const int ldw = partial_rows(M); /* the leading dimension of W's partial matrices */
    for (int j = 0; j < 8; j++) {
        const int n = n0 + 4 * (bq + (j / 4) * (WN / 8)) + j % 4;
        for (int h = 0; h < 2; h++) {
            const int m = m0 + 4 * (am + h * (WM / 8));
            if (m >= M || n >= N)
                continue;
            if (dest == TO_W) {
                /* Rows m..m+3 of the slice's partial matrix exist even past M (ldw is
                 * whole float4s): one aligned real4 store. `reduce` applies alpha and
                 * beta. */
                const size_t at = ((size_t)slice * N + n) * ldw + m;
                *(__global real4 *)(W + at) = acc[j][h];
                continue;
            }
            for (int i = 0; i < 4 && m + i < M; i++) {
                __global real *c = &C[(m + i) + (size_t)n * ldc];
                const real v = alpha * component(acc[j][h], i);
                if (dest == TO_C) /* C read only when beta != 0, as in rung 15 */
                    *c = beta == 0 ? v : v + beta * *c;
                else              /* `scale_c` has already made C = beta * C */
                    atomic_add_real(c, v);
            }
        }
    }
}

/* Whether the real4 loads are aligned is the same for every work-item: one branch (rung
 * 15's). */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real *restrict A, const int lda,
          const __global real *restrict B, const int ldb, const real beta,
          __global real *restrict C, const int ldc, __global real *restrict W)
{
    __local struct Tiles sm;
    if (lda % 4 == 0 && ldb % 4 == 0)
        gemm_body(&sm, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W);
    else
        gemm_body(&sm, 0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W);
}

/* ATOMIC=0, after `gemm`: C = alpha * (sum of the slices' partials) + beta * C.
 * The work-items that share one real4 of C (4 rows of one column), `groups` of them, each
 * add every groups-th slice, and work-item 0 of them adds their sums in the order g = 0,
 * 1, 2, ...: the same order on every run, so the same bits. `groups` is as small as keeps
 * each work-item's sum at REDUCE_DEPTH slices or fewer (a power of two that divides
 * THREADS), and the host sizes the grid by the same rule (reduce_groups in
 * host/rungs/rungs_splitk.c): with few slices one work-item per real4, neighbours on
 * neighbouring real4s of a partial matrix; with many slices (256 at 128 x 128 x 32768)
 * up to 32 work-items per real4, so that a small C still makes many work-groups. The
 * CUDA file's comment says what the first version, a fixed 8 real4s per work-group, cost.
 * W is read exactly once. */
int reduce_groups(const int slices)
{
    int g = 1;
    while (g * REDUCE_DEPTH < slices && THREADS % (2 * g) == 0)
        g *= 2;
    return g;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void reduce(const int M, const int N, const int K, const real alpha,
            const __global real *restrict A, const int lda,
            const __global real *restrict B, const int ldb, const real beta,
            __global real *restrict C, const int ldc, const __global real *restrict W)
{
    __local real4 sums[THREADS];
    const int slices = slice_count(K);
    const int groups = reduce_groups(slices), cols = THREADS / groups;
    const int col = get_local_id(0) % cols, g = get_local_id(0) / cols;
    const size_t rows4 = partial_rows(M) / 4;
    const size_t per_slice = rows4 * N; /* float4s in one partial matrix */
    const size_t q = get_group_id(0) * (size_t)cols + col; /* this real4 */
    const __global real4 *w = (const __global real4 *)W;

    real4 sum = 0;
    if (q < per_slice)
        for (int s = g; s < slices; s += groups)
            sum += w[s * per_slice + q];
    /* Even with one group (nothing to add here) every work-item passes the barrier: with
     * it inside `if (groups > 1)`, a condition the same for every work-item, PoCL summed
     * wrong on the CPU (tests/test_blas_semantics.c caught it). */
    sums[get_local_id(0)] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g != 0 || q >= per_slice)
        return;
    for (int i = 1; i < groups; i++)
        sum += sums[i * cols + col];

    const int m = 4 * (int)(q % rows4), n = (int)(q / rows4);
    for (int i = 0; i < 4 && m + i < M; i++) {
        __global real *c = &C[(m + i) + (size_t)n * ldc];
        const real v = alpha * component(sum, i);
        *c = beta == 0 ? v : v + beta * *c; /* BLAS: beta = 0 never reads C */
    }
}

/* ATOMIC=1, before `gemm`: C = beta * C, element by element, so that the atomic additions
 * of alpha * A * B land on it. beta = 0 writes zeros without reading C (it may hold NaN);
 * beta = 1 leaves C as it is. */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void scale_c(const int M, const int N, const int K, const real alpha,
             const __global real *restrict A, const int lda,
             const __global real *restrict B, const int ldb, const real beta,
             __global real *restrict C, const int ldc, __global real *restrict W)
{
    const size_t e = get_global_id(0); /* element e of C, column by column */
    if (beta == 1 || e >= (size_t)M * N)
        return;
    __global real *c = &C[e % M + (e / M) * ldc];
    *c = beta == 0 ? 0 : beta * *c;
}
