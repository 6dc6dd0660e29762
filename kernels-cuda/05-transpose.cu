/* Rung 5: transposed input and rectangular tiles (CUDA)
 * Change since rung 4: two changes that go together.
 *   - The kernel reads B^T (an N x K column-major matrix, Bt[n + k*N]) instead of B. A
 *     helper kernel makes it once before the GEMM and is timed with the rung. Now both
 *     inputs are contiguous along the dimension of C they belong to (A along M, B^T along
 *     N), so both tiles are loaded by the same code, and both are stored k-major in
 *     shared memory: Asub[k][m] and Bsub[k][n].
 *   - The tiles are no longer TS x TS but TSM x TSK for A and TSK x TSN for B. The loads
 *     are decoupled from the threads' share of C: the block walks over each tile as a
 *     flat list of vectors, each thread taking every (block size)-th one.
 *   The computation itself is rung 4's: WIDTH consecutive rows (one vector) by WPTN
 *   columns spaced RTSN apart.
 * Why it should help: in rung 4 the vectors of B ran along K, which only fits a tile that
 *   is as deep as it is wide. With B^T, every load of either matrix is a coalesced vector
 *   along M or N for any tile shape, so the tile can be shaped for reuse: a large TSM x
 *   TSN tile reuses each loaded value more often, while a shallow TSK keeps shared memory
 *   small. In the inner loop the values of B that a thread needs at step k sit in one row
 *   of Bsub (a broadcast to the threads sharing a column) instead of TS floats apart.
 * Parameters: TSM, TSN, TSK (tile sizes), WIDTH (1, 2, 4 or 8), WPTN (columns of C per
 *   thread). The block is TSM/WIDTH x TSN/WPTN.
 * Constraints: WIDTH divides TSM and TSN; WPTN divides TSN; the block size divides
 *   TSM*TSK/WIDTH and TSN*TSK/WIDTH (whole loads per thread).
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh). In double the default
 *   tile (TSK = 32) needs 64 KiB of shared memory, over the 48 KiB a block may declare:
 *   the small-device defaults (TSK = 16) fit.
 */
#include "real.cuh"

/* realX: a vector of WIDTH reals (real.cuh: float or double). CUDA has float2 and float4
 * but no float8 and no arithmetic on any of them, so the kernel defines the little it
 * needs: a zero, and a vector times a real added into a vector (the compiler fuses them
 * into multiply-adds). A float8 is two float4s, moved with two 16-byte accesses, the
 * widest the GPU has; in double each half is itself two 16-byte accesses. */
#if WIDTH == 1
typedef real realX;
__device__ inline realX zeroX() { return 0; }
#elif WIDTH == 2
typedef real2 realX;
__device__ inline realX zeroX() { return make_real2(0, 0); }
__device__ inline realX operator*(realX a, real b) { return make_real2(a.x * b, a.y * b); }
__device__ inline void operator+=(realX &a, realX b) { a.x += b.x; a.y += b.y; }
#elif WIDTH == 4
typedef real4 realX;
__device__ inline realX zeroX() { return make_real4(0, 0, 0, 0); }
__device__ inline realX operator*(realX a, real b)
{
    return make_real4(a.x * b, a.y * b, a.z * b, a.w * b);
}
__device__ inline void operator+=(realX &a, realX b)
{
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
#elif WIDTH == 8
struct __align__(8 * sizeof(real)) realX { real4 lo, hi; };
__device__ inline realX zeroX()
{
    realX r;
    r.lo = r.hi = make_real4(0, 0, 0, 0);
    return r;
}
__device__ inline realX operator*(realX a, real b)
{
    realX r;
    r.lo = make_real4(a.lo.x * b, a.lo.y * b, a.lo.z * b, a.lo.w * b);
    r.hi = make_real4(a.hi.x * b, a.hi.y * b, a.hi.z * b, a.hi.w * b);
    return r;
}
__device__ inline void operator+=(realX &a, realX b)
{
    a.lo.x += b.lo.x; a.lo.y += b.lo.y; a.lo.z += b.lo.z; a.lo.w += b.lo.w;
    a.hi.x += b.hi.x; a.hi.y += b.hi.y; a.hi.z += b.hi.z; a.hi.w += b.hi.w;
}
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

#define RTSM (TSM / WIDTH)          /* threads along M: one vector of rows each */
#define RTSN (TSN / WPTN)           /* threads along N */
#define THREADS (RTSM * RTSN)
#define TSMV (TSM / WIDTH)          /* vectors along M in one column of the A tile */
#define TSNV (TSN / WIDTH)          /* vectors along N in one column of the B^T tile */
#define LPTA (TSMV * TSK / THREADS) /* vector loads of A per thread per tile */
#define LPTB (TSNV * TSK / THREADS) /* vector loads of B^T per thread per tile */

extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const real *A, const real *Bt, real *C)
{
    const realX *Av = reinterpret_cast<const realX *>(A);
    const realX *Bv = reinterpret_cast<const realX *>(Bt);
    realX *Cv = reinterpret_cast<realX *>(C);

    const int tidm = threadIdx.x;         /* 0 .. RTSM-1 */
    const int tidn = threadIdx.y;         /* 0 .. RTSN-1 */
    const int tid = tidn * RTSM + tidm;   /* 0 .. THREADS-1 */
    const int mv0 = blockIdx.x * TSMV;    /* the tile's first vector of rows */
    const int nv0 = blockIdx.y * TSNV;    /* the same along N, for loading B^T */
    const int n0 = blockIdx.y * TSN;      /* the tile's first column */

    __shared__ realX Asub[TSK][TSMV];
    __shared__ realX Bsub[TSK][TSNV];

    realX acc[WPTN];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
        acc[wn] = zeroX();

    for (int t = 0; t < K / TSK; t++) {
        /* Both tiles: vector i of the tile is column i / TSxV, vector i % TSxV within it.
         * Consecutive threads take consecutive vectors: coalesced. */
#pragma unroll
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l * THREADS;
            const int k = i / TSMV, v = i % TSMV;
            Asub[k][v] = Av[(mv0 + v) + (t * TSK + k) * (M / WIDTH)];
        }
#pragma unroll
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l * THREADS;
            const int k = i / TSNV, v = i % TSNV;
            Bsub[k][v] = Bv[(nv0 + v) + (t * TSK + k) * (N / WIDTH)];
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < TSK; k++) {
            const realX a = Asub[k][tidm];
            const real *bk = reinterpret_cast<const real *>(Bsub[k]); /* row k, by float */
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                acc[wn] += a * bk[tidn + wn * RTSN];
        }
        __syncthreads();
    }
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
        Cv[(mv0 + tidm) + (n0 + tidn + wn * RTSN) * (M / WIDTH)] = acc[wn];
}
