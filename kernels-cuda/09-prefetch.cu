/* Rung 9: software prefetching (CUDA)
 * Change since rung 8: shared memory holds two tiles of A and two of B (double
 *   buffering). While the block computes on the tiles of step t, each thread already has
 *   its share of the tiles of step t+1 on the way from global memory into registers
 *   (Apre, Bpre); at the top of the next step it stores them into the other pair of
 *   buffers. One barrier per step remains instead of two.
 * Why it should help: in rung 8 a thread issued its global loads and then waited at the
 *   barrier until they arrived, so every step began with a full trip to global memory
 *   (hundreds of cycles) with nothing to compute; only other blocks on the same SM could
 *   fill the gap. Now the loads are issued first and the whole computation of a step runs
 *   while they travel. The single barrier is safe: the buffers written at the top of
 *   step t were last read in step t-2, and every thread has passed step t-1's barrier
 *   since.
 * The price: twice the shared memory, and the registers that hold the prefetched values.
 *   It is also why TSK is 16 here where rungs 6-8 take 32: two buffers of 32 would need
 *   64 KiB, more than the 48 KiB a block may declare.
 * Parameters: TSM, TSN, TSK, WIDTH, WPTM, WPTN, as in rung 7. It keeps rung 8's default
 *   features: the read-only data path (const __restrict__ pointers) and no warp shuffles.
 * Constraints: as rung 7.
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh). A double takes two
 *   registers, so in double __launch_bounds__ asks for room for 256 threads per SM, not
 *   512. The two buffers of the default tile (TSK = 16) need 64 KiB of shared memory in
 *   double: the small-device defaults (TSK = 8) fit in 48 KiB.
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

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *__restrict__ A,
     const real *__restrict__ Bt, real *__restrict__ C)
{
    const realX *__restrict__ Av = reinterpret_cast<const realX *>(A);
    const realX *__restrict__ Bv = reinterpret_cast<const realX *>(Bt);
    realX *__restrict__ Cv = reinterpret_cast<realX *>(C);

    const int tidm = threadIdx.x;
    const int tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV;
    const int nv0 = blockIdx.y * TSNV;

    __shared__ realX Asub[2][TSK][TSMV];
    __shared__ realX Bsub[2][TSK][TSNV];

    realX Apre[LPTA], Bpre[LPTB]; /* this thread's share of the next tiles */
    realX Areg[WPTMV];
    real Breg[WPTN];
    realX acc[WPTN][WPTMV];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = zeroX();

    /* Step 0's share of the tiles, into registers. */
#pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l * THREADS;
        Apre[l] = Av[(mv0 + i % TSMV) + (i / TSMV) * (M / WIDTH)];
    }
#pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l * THREADS;
        Bpre[l] = Bv[(nv0 + i % TSNV) + (i / TSNV) * (N / WIDTH)];
    }

    for (int t = 0; t < K / TSK; t++) {
        const int buf = t % 2;
        /* Step t's tiles, already loaded, go into buffer `buf`. Nobody still reads it:
         * it was last read in step t-2, before the barrier of step t-1. */
#pragma unroll
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l * THREADS;
            Asub[buf][i / TSMV][i % TSMV] = Apre[l];
        }
#pragma unroll
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l * THREADS;
            Bsub[buf][i / TSNV][i % TSNV] = Bpre[l];
        }
        __syncthreads();

        /* Step t+1's share: issued now, in flight during the computation below, waited
         * for only when it is stored at the top of the next step. */
        if (t + 1 < K / TSK) {
#pragma unroll
            for (int l = 0; l < LPTA; l++) {
                const int i = tid + l * THREADS;
                Apre[l] = Av[(mv0 + i % TSMV) + ((t + 1) * TSK + i / TSMV) * (M / WIDTH)];
            }
#pragma unroll
            for (int l = 0; l < LPTB; l++) {
                const int i = tid + l * THREADS;
                Bpre[l] = Bv[(nv0 + i % TSNV) + ((t + 1) * TSK + i / TSNV) * (N / WIDTH)];
            }
        }

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[buf][k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++)
                split(&Breg[wn * WIDTH], Bsub[buf][k][tidn + wn * RTSN]);
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
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
