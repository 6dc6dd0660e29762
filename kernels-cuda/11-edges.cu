/* Rung 11: edges inside the kernel (CUDA)
 * Change since rung 10: no helper kernels and no copies. Rung 10 padded A and B with
 *   zeros into new buffers, transposed B, and cut C out of a padded result: up to three
 *   extra kernels and three extra matrices. This kernel reads A, B and C where they lie:
 *   - At the edges of the matrices a thread loads a zero instead of an element that is
 *     not there (row >= M, column >= N or depth >= K) and stores only the elements of C
 *     that exist. The tiles of the last row and column of blocks are simply incomplete.
 *   - B is read as it is stored, along k, and transposed on its way into shared memory:
 *     each thread writes the values it loaded into Bsub[k][n], so the inner loop is
 *     rung 9's, and no transposing kernel is needed.
 * Why it should help: at sizes that are not tile multiples, rung 10 moved every matrix
 *   through memory an extra time and allocated copies as big as the inputs; at tile
 *   multiples it still transposed B. The guards cost a compare per element loaded,
 *   a few instructions per tile against the thousand multiply-adds each tile feeds.
 *   The loads stay float4s where they can: a float4 must start 16-byte aligned, which
 *   every column of A and B does when M and K are multiples of 4. Other sizes take the
 *   same elements one float at a time (the kernel is compiled both ways and every block
 *   takes the branch its sizes allow), and edge elements are always single guarded
 *   floats.
 * The price: the transposed stores into Bsub are four single floats per float4 loaded,
 *   with some bank conflicts, where rung 9 stored whole float4s.
 * Parameters: TSM, TSN, TSK (tile), WPTM, WPTN (C elements per thread in m and n).
 *   Everything else is rung 9's: two tile buffers, loads of the next tiles in flight
 *   while the current ones are computed, one barrier per step.
 * Constraints: 4 divides WPTM, WPTN and TSK; the thread count divides the float4s of
 *   each tile.
 * Sizes: any M, N, K >= 1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh): every float4 is then a
 *   real4 of four doubles, 32 bytes, moved by two 16-byte accesses; the alignment rules
 *   (multiples of 4 elements) stay. In double __launch_bounds__ asks room for 256 threads
 *   per SM (a double takes two registers), and the default tile (TSK = 16) needs 66 KiB
 *   of shared memory, over the 48 KiB a block may declare: the small-device defaults (TSK
 *   = 8) fit.
 */
#include "real.cuh"

#define RTSM (TSM / WPTM)          /* threads along m */
#define RTSN (TSN / WPTN)          /* threads along n */
#define THREADS (RTSM * RTSN)
#define MIN_BLOCKS (THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define WPTMV (WPTM / 4)           /* float4s of C per thread along m */
#define WPTNV (WPTN / 4)           /* float4s of B per thread along n */
#define LPTA (TSM * TSK / THREADS) /* floats of the A tile each thread loads */
#define LPTB (TSN * TSK / THREADS) /* floats of the B tile each thread loads */
#define BPAD 4 /* Bsub rows are TSN + 4 floats: the 16 depths a half-warp stores for one
                * column fall in 8 banks, not all in one, and rows stay 16-byte aligned */

__device__ inline void fma4(real4 &acc, real4 a, real b)
{
    acc.x += a.x * b; acc.y += a.y * b; acc.z += a.z * b; acc.w += a.w * b;
}

/* The tiles of one step, double-buffered as in rung 9. */
struct Tiles {
    real4 A[2][TSK][TSM / 4];          /* A tile, k-major: [k][m] */
    real4 B[2][TSK][(TSN + BPAD) / 4]; /* B tile, transposed: [k][n] */
};

/* One thread's share of a step's tiles, held in registers from its load to its store. */
struct Share {
    real4 a[LPTA / 4], b[LPTB / 4];
};

/* Loads this thread's share of the tiles at depth k0. Consecutive threads read
 * consecutive addresses (A along m, B along k): coalesced. An element outside the matrix
 * is loaded as a zero, which adds nothing to any sum.
 * VEC: float4 loads, 4 rows of A or 4 depths of B at once. They must start 16-byte
 *   aligned, which holds when M and K are multiples of 4 (every column then starts on a
 *   multiple of 4 floats). Otherwise the same elements come one float at a time. */
template <bool VEC>
__device__ inline void load_share(Share &sh, int k0, int tid, int m0, int n0, int M, int N,
                                  int K, const real *A, const real *B)
{
#pragma unroll
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        const int m = m0 + 4 * (i % (TSM / 4)), k = k0 + i / (TSM / 4);
        const real *src = A + m + k * M;
        if (VEC && m + 3 < M && k < K) {
            sh.a[l] = *(const real4 *)src;
        } else {
            sh.a[l].x = (m + 0 < M && k < K) ? src[0] : 0;
            sh.a[l].y = (m + 1 < M && k < K) ? src[1] : 0;
            sh.a[l].z = (m + 2 < M && k < K) ? src[2] : 0;
            sh.a[l].w = (m + 3 < M && k < K) ? src[3] : 0;
        }
    }
#pragma unroll
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = k0 + 4 * (i % (TSK / 4)), n = n0 + i / (TSK / 4);
        const real *src = B + k + n * K;
        if (VEC && k + 3 < K && n < N) {
            sh.b[l] = *(const real4 *)src;
        } else {
            sh.b[l].x = (k + 0 < K && n < N) ? src[0] : 0;
            sh.b[l].y = (k + 1 < K && n < N) ? src[1] : 0;
            sh.b[l].z = (k + 2 < K && n < N) ? src[2] : 0;
            sh.b[l].w = (k + 3 < K && n < N) ? src[3] : 0;
        }
    }
}

/* Stores a share into buffer `buf`: A's float4 as it is, B's four depths of one column
 * into four rows of the transposed tile. */
__device__ inline void store_share(Tiles &sm, const Share &sh, int buf, int tid)
{
#pragma unroll
    for (int l = 0; l < LPTA / 4; l++) {
        const int i = tid + l * THREADS;
        sm.A[buf][i / (TSM / 4)][i % (TSM / 4)] = sh.a[l];
    }
#pragma unroll
    for (int l = 0; l < LPTB / 4; l++) {
        const int i = tid + l * THREADS;
        const int k = 4 * (i % (TSK / 4)), n = i / (TSK / 4);
        real *bt = (real *)sm.B[buf];
        bt[(k + 0) * (TSN + BPAD) + n] = sh.b[l].x;
        bt[(k + 1) * (TSN + BPAD) + n] = sh.b[l].y;
        bt[(k + 2) * (TSN + BPAD) + n] = sh.b[l].z;
        bt[(k + 3) * (TSN + BPAD) + n] = sh.b[l].w;
    }
}

template <bool VEC>
__device__ inline void gemm_body(Tiles &sm, const int M, const int N, const int K,
                                 const real *A, const real *B, real *C)
{
    const int tidm = threadIdx.x;
    const int tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int m0 = blockIdx.x * TSM; /* this block's corner of C */
    const int n0 = blockIdx.y * TSN;
    real4(*Asub)[TSK][TSM / 4] = sm.A;
    real4(*Bsub)[TSK][(TSN + BPAD) / 4] = sm.B;

    real4 acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = make_real4(0, 0, 0, 0);

    Share next; /* this thread's share of the next tiles */
    load_share<VEC>(next, 0, tid, m0, n0, M, N, K, A, B);

    const int steps = (K + TSK - 1) / TSK;
    for (int t = 0; t < steps; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        store_share(sm, next, buf, tid);
        __syncthreads();

        if (t + 1 < steps)
            load_share<VEC>(next, (t + 1) * TSK, tid, m0, n0, M, N, K, A, B);

        /* Rung 9's inner loop: per k a float4 of A per row group, a float4 of B per
         * column group, WPTM x WPTN multiply-adds. */
#pragma unroll
        for (int k = 0; k < TSK; k++) {
            real4 Areg[WPTMV], Breg[WPTNV];
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[buf][k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++)
                Breg[wn] = Bsub[buf][k][tidn + wn * RTSN];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++) {
                const real b[4] = {Breg[wn].x, Breg[wn].y, Breg[wn].z, Breg[wn].w};
#pragma unroll
                for (int j = 0; j < 4; j++)
#pragma unroll
                    for (int wm = 0; wm < WPTMV; wm++)
                        fma4(acc[wn * 4 + j][wm], Areg[wm], b[j]);
            }
        }
    }

    /* Only the elements of C that exist are written. */
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++) {
        const int n = n0 + (tidn + (wn / 4) * RTSN) * 4 + wn % 4;
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++) {
            const int m = m0 + (tidm + wm * RTSM) * 4;
            const real v[4] = {acc[wn][wm].x, acc[wn][wm].y, acc[wn][wm].z, acc[wn][wm].w};
#pragma unroll
            for (int j = 0; j < 4; j++)
                if (m + j < M && n < N)
                    C[(m + j) + n * M] = v[j];
        }
    }
}

/* Whether the float4 loads are aligned is the same for every thread: one branch. */
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *__restrict__ A,
     const real *__restrict__ B, real *__restrict__ C)
{
    __shared__ Tiles sm;
    if (M % 4 == 0 && K % 4 == 0)
        gemm_body<true>(sm, M, N, K, A, B, C);
    else
        gemm_body<false>(sm, M, N, K, A, B, C);
}
