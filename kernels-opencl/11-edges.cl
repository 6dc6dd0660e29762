/* Rung 11: edges inside the kernel (OpenCL)
 * Change since rung 10: no helper kernels and no copies. Rung 10 padded A and B with
 *   zeros into new buffers, transposed B, and cut C out of a padded result: up to three
 *   extra kernels and three extra matrices. This kernel reads A, B and C where they lie:
 *   - At the edges of the matrices a work-item loads a zero instead of an element that
 *     is not there (row >= M, column >= N or depth >= K) and stores only the elements of
 *     C that exist. The tiles of the last row and column of work-groups are simply
 *     incomplete.
 *   - B is read as it is stored, along k, and transposed on its way into local memory:
 *     each work-item writes the values it loaded into Bsub[k][n], so the inner loop is
 *     rung 9's, and no transposing kernel is needed.
 * Why it should help: at sizes that are not tile multiples, rung 10 moved every matrix
 *   through memory an extra time and allocated copies as big as the inputs; at tile
 *   multiples it still transposed B. The guards cost a compare per element loaded,
 *   a few instructions per tile against the thousand multiply-adds each tile feeds.
 *   The loads stay float4s where they can: a float4 must start 16-byte aligned, which
 *   every column of A and B does when M and K are multiples of 4. Other sizes take the
 *   same elements one float at a time (the kernel body is called both ways and every
 *   work-group takes the branch its sizes allow), and edge elements are always single
 *   guarded floats.
 * The price: the transposed stores into Bsub are four single floats per float4 loaded,
 *   with some bank conflicts, where rung 9 stored whole float4s.
 * Parameters: TSM, TSN, TSK (tile), WPTM, WPTN (C elements per work-item in m and n).
 *   Everything else is rung 9's: two tile buffers, loads of the next tiles in flight
 *   while the current ones are computed, one barrier per step.
 * Constraints: 4 divides WPTM, WPTN and TSK; the work-item count divides the float4s of
 *   each tile.
 * Sizes: any M, N, K >= 1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h). The float4s of this
 *   comment are then double4s (real4), 32 bytes, and "16-byte aligned" reads 32-byte.
 */
#include "real.h"

#define RTSM (TSM / WPTM)          /* work-items along m */
#define RTSN (TSN / WPTN)          /* work-items along n */
#define THREADS (RTSM * RTSN)
#define WPTMV (WPTM / 4)           /* float4s of C per work-item along m */
#define WPTNV (WPTN / 4)           /* float4s of B per work-item along n */
#define LPTA (TSM * TSK / THREADS) /* floats of the A tile each work-item loads */
#define LPTB (TSN * TSK / THREADS) /* floats of the B tile each work-item loads */
#define BPAD 4 /* Bsub rows are TSN + 4 floats: the 16 depths that half a warp (a sub-group
                * of 32 work-items on NVIDIA) stores for one column fall in 8 banks, not
                * all in one, and rows stay 16-byte aligned */

/* Component i of a real4, for an i the compiler knows (once it unrolls the loops). */
real component(real4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    real4 A[2][TSK][TSM / 4];          /* A tile, k-major: [k][m] */
    real4 B[2][TSK][(TSN + BPAD) / 4]; /* B tile, transposed: [k][n] */
};

/* One work-item's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    real4 a[LPTA / 4], b[LPTB / 4];
};

/* Loads this work-item's share of the tiles at depth k0. Consecutive work-items read
 * consecutive addresses (A along m, B along k): coalesced. An element outside the matrix
 * is loaded as a zero, which adds nothing to any sum.
 * vec: real4 loads, 4 rows of A or 4 depths of B at once. They must start 16-byte
 *   aligned, which holds when M and K are multiples of 4 (every column then starts on a
 *   multiple of 4 floats). Otherwise the same elements come one element at a time. */
void load_share(struct Share *sh, const int vec, int k0, int tid, int m0, int n0, int M,
                int N, int K, const __global real *A, const __global real *B)
{
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        const int m = m0 + 4 * (i % (TSM / 4)), k = k0 + i / (TSM / 4);
        const __global real *src = A + m + k * M;
        if (vec && m + 3 < M && k < K) {
            sh->a[l] = *(const __global real4 *)src;
        } else {
            sh->a[l].x = (m + 0 < M && k < K) ? src[0] : 0;
            sh->a[l].y = (m + 1 < M && k < K) ? src[1] : 0;
            sh->a[l].z = (m + 2 < M && k < K) ? src[2] : 0;
            sh->a[l].w = (m + 3 < M && k < K) ? src[3] : 0;
        }
    }
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = k0 + 4 * (i % (TSK / 4)), n = n0 + i / (TSK / 4);
        const __global real *src = B + k + n * K;
        if (vec && k + 3 < K && n < N) {
            sh->b[l] = *(const __global real4 *)src;
        } else {
            sh->b[l].x = (k + 0 < K && n < N) ? src[0] : 0;
            sh->b[l].y = (k + 1 < K && n < N) ? src[1] : 0;
            sh->b[l].z = (k + 2 < K && n < N) ? src[2] : 0;
            sh->b[l].w = (k + 3 < K && n < N) ? src[3] : 0;
        }
    }
}

/* Stores a share into buffer `buf`: A's real4 as it is, B's four depths of one column
 * into four rows of the transposed tile. */
void store_share(__local struct Tiles *sm, const struct Share *sh, int buf, int tid)
{
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        sm->A[buf][i / (TSM / 4)][i % (TSM / 4)] = sh->a[l];
    }
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = 4 * (i % (TSK / 4)), n = i / (TSK / 4);
        __local real *bt = (__local real *)sm->B[buf];
        bt[(k + 0) * (TSN + BPAD) + n] = sh->b[l].x;
        bt[(k + 1) * (TSN + BPAD) + n] = sh->b[l].y;
        bt[(k + 2) * (TSN + BPAD) + n] = sh->b[l].z;
        bt[(k + 3) * (TSN + BPAD) + n] = sh->b[l].w;
    }
}

void gemm_body(__local struct Tiles *sm, const int vec, const int M, const int N,
               const int K, const __global real *A, const __global real *B,
               __global real *C)
{
    const int tidm = get_local_id(0);
    const int tidn = get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int m0 = get_group_id(0) * TSM; /* this work-group's corner of C */
    const int n0 = get_group_id(1) * TSN;
    __local real4(*Asub)[TSK][TSM / 4] = sm->A;
    __local real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm->B;

    real4 acc[WPTN][WPTMV];
    for (int wn = 0; wn < WPTN; wn++)
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = 0;

    struct Share next; /* this work-item's share of the next tiles */
    load_share(&next, vec, 0, tid, m0, n0, M, N, K, A, B);

    const int steps = (K + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, &next, buf, tid);
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < steps)
            load_share(&next, vec, (t + 1) * TSK, tid, m0, n0, M, N, K, A, B);

        /* Rung 9's inner loop: per k a real4 of A per row group, a real4 of B per
         * column group, WPTM x WPTN multiply-adds. */
        for (int k = 0; k < TSK; k++) {
            real4 Areg[WPTMV], Breg[WPTNV];
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[buf][k][tidm + wm * RTSM];
            for (int wn = 0; wn < WPTNV; wn++)
                Breg[wn] = Bsub[buf][k][tidn + wn * RTSN];
            for (int wn = 0; wn < WPTNV; wn++)
                for (int j = 0; j < 4; j++)
                    for (int wm = 0; wm < WPTMV; wm++)
                        acc[wn * 4 + j][wm] += Areg[wm] * component(Breg[wn], j);
        }
    }

    /* Only the elements of C that exist are written. */
    for (int wn = 0; wn < WPTN; wn++) {
        const int n = n0 + (tidn + (wn / 4) * RTSN) * 4 + wn % 4;
        for (int wm = 0; wm < WPTMV; wm++) {
            const int m = m0 + (tidm + wm * RTSM) * 4;
            for (int j = 0; j < 4; j++)
                if (m + j < M && n < N)
                    C[(m + j) + n * M] = component(acc[wn][wm], j);
        }
    }
}

/* Whether the real4 loads are aligned is the same for every work-item: one branch.
 * OpenCL C has no templates, so `vec` is an argument, a constant at each of the two
 * calls; a compiler that inlines the calls keeps only one side of its tests in each. */
__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void gemm(const int M, const int N, const int K,
          const __global real *restrict A, const __global real *restrict B,
          __global real *restrict C)
{
    __local struct Tiles sm;
    if (M % 4 == 0 && K % 4 == 0)
        gemm_body(&sm, 1, M, N, K, A, B, C);
    else
        gemm_body(&sm, 0, M, N, K, A, B, C);
}
