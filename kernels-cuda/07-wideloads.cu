/* Rung 7: wider loads with register blocking (CUDA)
 * Change since rung 6: the fragment of B also moves as vectors. A thread's WPTN columns
 *   become WPTN/WIDTH groups of WIDTH neighbouring columns, the groups spaced RTSN
 *   vectors apart (with TSN = 128, WPTN = 8, WIDTH = 4: columns 4*tidn..4*tidn+3 and
 *   64+4*tidn..64+4*tidn+3), so at each step k it reads Breg with WPTN/WIDTH vector loads
 *   from shared memory instead of WPTN scalar ones. Its rows were already laid out this
 *   way in rung 6. The vectors of B are then taken apart into floats for the outer product.
 * Why it should help: since rung 4 every load from global memory has been a vector, and
 *   since rung 6 the loads of A from shared memory too; the scalar loads of B were the
 *   last narrow accesses, and with register blocking they dominated the inner loop. With
 *   WPTM = WPTN = 8 and WIDTH = 4 a step now costs 4 shared-memory loads (LDS.128) for 64
 *   multiply-adds instead of 10, leaving the instruction issue to the multiply-adds. The
 *   layout keeps shared memory free of bank conflicts: threads with neighbouring tidm
 *   read neighbouring vectors of A, and those of one warp share at most a few vectors of
 *   B, which are broadcast.
 * Parameters: TSM, TSN, TSK, WIDTH (1, 2, 4 or 8), WPTM, WPTN, as in rung 6.
 * Constraints: as rung 6, and WIDTH divides WPTN.
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

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define MIN_BLOCKS (THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define WPTMV (WPTM / WIDTH)
#define WPTNV (WPTN / WIDTH)        /* vectors of columns per thread */
#define TSMV (TSM / WIDTH)
#define TSNV (TSN / WIDTH)
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSNV * TSK / THREADS)

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const real *A, const real *Bt, real *C)
{
    const realX *Av = reinterpret_cast<const realX *>(A);
    const realX *Bv = reinterpret_cast<const realX *>(Bt);
    realX *Cv = reinterpret_cast<realX *>(C);

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

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTNV; wn++)
                split(&Breg[wn * WIDTH], Bsub[k][tidn + wn * RTSN]);
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
        __syncthreads();
    }
    /* Column j of group wn is column (nv0 + tidn + wn*RTSN)*WIDTH + j of C. */
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
