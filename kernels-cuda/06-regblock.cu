/* Rung 6: 2D register blocking (CUDA)
 * Change since rung 5: each thread now computes a WPTM x WPTN block of C instead of
 *   WIDTH x WPTN: its rows are WPTM/WIDTH vectors spaced RTSM vectors apart, its columns
 *   WPTN columns spaced RTSN apart. At each step k of the tile it first copies its
 *   fragments into registers, WPTM values of A (Areg, as vectors) and WPTN values of B
 *   (Breg), and then forms their outer product into the WPTM x WPTN accumulators.
 * Why it should help: the inner loop does WPTM*WPTN multiply-adds for WPTM/WIDTH + WPTN
 *   shared-memory loads. With WPTM = WPTN = 8 and WIDTH = 4 that is 64 multiply-adds for
 *   10 loads, where rung 5 (4 x 16 per thread) did 64 for 17. Fewer, bigger threads also
 *   mean a bigger tile for the same block size, so each value loaded from global memory
 *   serves more of C. The price is registers: WPTM*WPTN accumulators per thread.
 * Registers decide how many blocks share an SM, so the kernel now tells the compiler its
 *   block size and asks for room for at least 512 threads per SM (__launch_bounds__): at
 *   most 128 registers per thread. Left alone, the compiler sometimes takes a few more
 *   than 128 and halves the number of resident blocks.
 * Why the rows are spread out: the threads of a warp read Asub[k][tidm + ...] with
 *   consecutive tidm, so their vectors lie side by side in shared memory (no bank
 *   conflicts). Keeping each thread's rows together instead would make neighbouring
 *   threads read WPTM floats apart.
 * Parameters: TSM, TSN, TSK (tile sizes), WIDTH (1, 2, 4 or 8), WPTM, WPTN (the block of C
 *   per thread). The block of threads is TSM/WPTM x TSN/WPTN.
 * Constraints: WIDTH divides WPTM and TSN; WPTM divides TSM; WPTN divides TSN; the block
 *   size divides TSM*TSK/WIDTH and TSN*TSK/WIDTH.
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

#define RTSM (TSM / WPTM)           /* threads along M */
#define RTSN (TSN / WPTN)           /* threads along N */
#define THREADS (RTSM * RTSN)
/* blocks per SM, at least (in double, half as many threads: real.cuh) */
#define MIN_BLOCKS (THREADS * REAL_WORDS < 512 ? 512 / (THREADS * REAL_WORDS) : 1)
#define WPTMV (WPTM / WIDTH)        /* vectors of rows per thread */
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
    const int n0 = blockIdx.y * TSN;

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
            const real *bk = reinterpret_cast<const real *>(Bsub[k]);
#pragma unroll
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[k][tidm + wm * RTSM];
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                Breg[wn] = bk[tidn + wn * RTSN];
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
        __syncthreads();
    }
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTMV; wm++)
            Cv[(mv0 + tidm + wm * RTSM) + (n0 + tidn + wn * RTSN) * (M / WIDTH)] =
                acc[wn][wm];
}
