/* Rung 10: incomplete tiles and arbitrary sizes (CUDA)
 * Change since rung 9: none in this file: the kernel is rung 9's, line for line. What
 *   changes is the host. Before the GEMM, helper kernels (helpers.cu) copy A into an
 *   Mp x Kp matrix and B^T into an Np x Kp one, where Mp, Np, Kp are M, N, K rounded up to
 *   multiples of TSM, TSN, TSK and the added rows and columns are zeros; the kernel then
 *   computes the Mp x Np product, and a last helper copies its top-left M x N corner
 *   into C. All of them are timed with the rung. (The transpose of B was a helper since
 *   rung 5; it now pads as it transposes.)
 * Why it is correct: a zero row or column of the padded inputs adds nothing to any sum,
 *   so the M x N corner of the padded product is exactly A*B; the rest is thrown away.
 * Why this way: the alternative, bounds checks inside the kernel, would put a comparison
 *   on every load of the inner loops of every size, and break the vector loads at the
 *   edges. Padding costs one pass over A, B and C, which is small next to the
 *   O(M*N*K) product for all but thin matrices, and nothing at all when the sizes are
 *   already multiples of the tiles (the host then skips the copies, except B's
 *   transpose, which every rung since 5 does).
 * The price: for small or thin matrices the padded product can be much larger than the
 *   real one (a 1 x 1 x 1 product becomes 128 x 128 x 16), and the copies need memory.
 * Parameters: TSM, TSN, TSK, WIDTH, WPTM, WPTN, as in rung 9.
 * Constraints: as rung 9.
 * Sizes: any M, N, K >= 1.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh). A double takes two
 *   registers, so in double __launch_bounds__ asks for room for 256 threads per SM, not
 *   512. The two buffers of the default tile (TSK = 16) need 64 KiB of shared memory in
 *   double: the small-device defaults (TSK = 8) fit in 48 KiB.
 */
#include "real.cuh"

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
