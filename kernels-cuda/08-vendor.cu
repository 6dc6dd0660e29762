/* Rung 8: vendor-specific features (CUDA)
 * Change since rung 7: two features of NVIDIA GPUs, each behind its own switch so that
 *   its effect can be measured alone. With USE_LDG=0 and USE_SHUFFLE=0 this is rung 7.
 *   - USE_LDG=1: A and B^T are read through the read-only data path. The pointers are
 *     declared const __restrict__: nothing else writes what they point to during the
 *     kernel. That lets the compiler load them through the read-only (texture) cache
 *     with ld.global.nc, the instruction __ldg() asks for explicitly, and move the loads
 *     more freely. (Writing __ldg() as well gives the same loads, but made the compiler
 *     spill registers at TSK = 32, so the kernel leaves it to the compiler.)
 *   - USE_SHUFFLE=1: the fragments of B travel between the lanes of a warp instead of
 *     being re-read from shared memory. The RTSM threads with the same tidn (a segment
 *     of RTSM consecutive lanes) need the same values of B at every step k; in rung 7
 *     each of them read them from shared memory at every k. Here, at the start of a tile,
 *     lane s of a segment reads the fragments of rows k = s, s + RTSM, ... once, and at
 *     step k every lane takes the fragment from lane k % RTSM of its segment with
 *     __shfl_sync(..., width = RTSM).
 * Why they might help: the read-only path has its own cache and relaxed ordering. The
 *   shuffles cut the shared-memory loads of B by a factor RTSM.
 * What the H100 says (kernels-notes.md): the read-only path changes nothing measurable
 *   here (within 0.5%; the version with __ldg() written out was 2% faster, but spilled).
 *   The shuffles lose about a quarter: a shuffle moves one float, so a step takes WPTN
 *   shuffles where rung 7 took WPTN/WIDTH vector loads, and this kernel is limited by
 *   instruction issue, not by shared-memory bandwidth. USE_LDG is on by default (it
 *   costs nothing and is what the rung is about), USE_SHUFFLE off; the shuffles stay as
 *   the experiment that shows why.
 * Parameters: TSM, TSN, TSK, WIDTH, WPTM, WPTN (as rung 7), USE_LDG (0/1), USE_SHUFFLE
 *   (0/1).
 * Constraints: as rung 7; USE_SHUFFLE=1 needs RTSM = TSM/WPTM a power of two <= 32 (a
 *   segment lies inside one warp) and whole warps.
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh). A double takes two
 *   registers, so in double __launch_bounds__ asks for room for 256 threads per SM, not
 *   512. The default tile (TSK = 32) needs 64 KiB of shared memory in double, over the 48
 *   KiB a block may declare: the small-device defaults (TSK = 16) fit.
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

/* split(r, v) copies the WIDTH components of vector v into reals r[0] .. r[WIDTH-1]. */
#if WIDTH == 1
__device__ inline void split(real *r, realX v) { r[0] = v; }
#elif WIDTH == 2
__device__ inline void split(real *r, realX v) { r[0] = v.x; r[1] = v.y; }
#elif WIDTH == 4
__device__ inline void split(real *r, realX v)
{
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
#else
__device__ inline void split(real *r, realX v)
{
    r[0] = v.lo.x; r[1] = v.lo.y; r[2] = v.lo.z; r[3] = v.lo.w;
    r[4] = v.hi.x; r[5] = v.hi.y; r[6] = v.hi.z; r[7] = v.hi.w;
}
#endif

#if USE_LDG
#define RESTRICT __restrict__
#else
#define RESTRICT
#endif

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define MIN_BLOCKS (THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define WPTMV (WPTM / WIDTH)
#define WPTNV (WPTN / WIDTH)
#define TSMV (TSM / WIDTH)
#define TSNV (TSN / WIDTH)
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSNV * TSK / THREADS)

#if USE_SHUFFLE
#if RTSM > 32 || (RTSM & (RTSM - 1)) != 0
#error "USE_SHUFFLE=1 needs TSM/WPTM to be a power of two no larger than 32"
#endif
#define SLOTS ((TSK + RTSM - 1) / RTSM) /* rows of B each lane holds per tile */
#endif

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *RESTRICT A,
     const real *RESTRICT Bt, real *RESTRICT C)
{
    const realX *RESTRICT Av = reinterpret_cast<const realX *>(A);
    const realX *RESTRICT Bv = reinterpret_cast<const realX *>(Bt);
    realX *RESTRICT Cv = reinterpret_cast<realX *>(C);

    const int tidm = threadIdx.x;
    const int tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV;
    const int nv0 = blockIdx.y * TSNV;

    __shared__ realX Asub[TSK][TSMV];
    __shared__ realX Bsub[TSK][TSNV];

    realX Areg[WPTMV];
    real Breg[WPTN];
    realX acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = zeroX();

    for (int t = 0; t < K / TSK; t++) {
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

#if USE_SHUFFLE
        /* This lane's share of the tile's B fragments: rows k = tidm + s*RTSM. (tidm is
         * the lane's place in its segment: RTSM divides 32, so segments start at lanes
         * that are multiples of RTSM.) */
        real Bown[SLOTS][WPTN];
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            const int k = tidm + s * RTSM;
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++)
                if (SLOTS * RTSM == TSK || k < TSK)
                    split(&Bown[s][wn * WIDTH], Bsub[k][tidn + wn * RTSN]);
        }
#endif

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[k][tidm + wm * RTSM];
#if USE_SHUFFLE
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                Breg[wn] = __shfl_sync(0xffffffffu, Bown[k / RTSM][wn], k % RTSM, RTSM);
#else
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++)
                split(&Breg[wn * WIDTH], Bsub[k][tidn + wn * RTSN]);
#endif
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
        __syncthreads();
    }
#pragma unroll
    for (int wn = 0; wn < WPTNV; wn++)
#pragma unroll
        for (int j = 0; j < WIDTH; j++)
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                Cv[(mv0 + tidm + wm * RTSM) +
                   ((nv0 + tidn + wn * RTSN) * WIDTH + j) * (M / WIDTH)] =
                    acc[wn * WIDTH + j][wm];
}
