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
 */
/* floatX: a vector of WIDTH floats. CUDA has float2 and float4 but no float8 and no
 * arithmetic on any of them, so the kernel defines the little it needs: a zero, and a
 * vector times a float added into a vector (the compiler fuses them into multiply-adds).
 * A float8 is two float4s, moved with two 16-byte accesses, the widest the GPU has. */
#if WIDTH == 1
typedef float floatX;
__device__ inline floatX zeroX() { return 0.0f; }
#elif WIDTH == 2
typedef float2 floatX;
__device__ inline floatX zeroX() { return make_float2(0.0f, 0.0f); }
__device__ inline floatX operator*(floatX a, float b) { return make_float2(a.x * b, a.y * b); }
__device__ inline void operator+=(floatX &a, floatX b) { a.x += b.x; a.y += b.y; }
#elif WIDTH == 4
typedef float4 floatX;
__device__ inline floatX zeroX() { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
__device__ inline floatX operator*(floatX a, float b)
{
    return make_float4(a.x * b, a.y * b, a.z * b, a.w * b);
}
__device__ inline void operator+=(floatX &a, floatX b)
{
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
#elif WIDTH == 8
struct __align__(32) floatX { float4 lo, hi; };
__device__ inline floatX zeroX()
{
    floatX r;
    r.lo = r.hi = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    return r;
}
__device__ inline floatX operator*(floatX a, float b)
{
    floatX r;
    r.lo = make_float4(a.lo.x * b, a.lo.y * b, a.lo.z * b, a.lo.w * b);
    r.hi = make_float4(a.hi.x * b, a.hi.y * b, a.hi.z * b, a.hi.w * b);
    return r;
}
__device__ inline void operator+=(floatX &a, floatX b)
{
    a.lo.x += b.lo.x; a.lo.y += b.lo.y; a.lo.z += b.lo.z; a.lo.w += b.lo.w;
    a.hi.x += b.hi.x; a.hi.y += b.hi.y; a.hi.z += b.hi.z; a.hi.w += b.hi.w;
}
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

/* split(r, v) copies the WIDTH components of vector v into floats r[0] .. r[WIDTH-1]. */
#if WIDTH == 1
__device__ inline void split(float *r, floatX v) { r[0] = v; }
#elif WIDTH == 2
__device__ inline void split(float *r, floatX v) { r[0] = v.x; r[1] = v.y; }
#elif WIDTH == 4
__device__ inline void split(float *r, floatX v)
{
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
#else
__device__ inline void split(float *r, floatX v)
{
    r[0] = v.lo.x; r[1] = v.lo.y; r[2] = v.lo.z; r[3] = v.lo.w;
    r[4] = v.hi.x; r[5] = v.hi.y; r[6] = v.hi.z; r[7] = v.hi.w;
}
#endif

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define MIN_BLOCKS (THREADS < 512 ? 512 / THREADS : 1)
#define WPTMV (WPTM / WIDTH)
#define WPTNV (WPTN / WIDTH)
#define TSMV (TSM / WIDTH)
#define TSNV (TSN / WIDTH)
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSNV * TSK / THREADS)

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
gemm(const int M, const int N, const int K, const float *__restrict__ A,
     const float *__restrict__ Bt, float *__restrict__ C)
{
    const floatX *__restrict__ Av = reinterpret_cast<const floatX *>(A);
    const floatX *__restrict__ Bv = reinterpret_cast<const floatX *>(Bt);
    floatX *__restrict__ Cv = reinterpret_cast<floatX *>(C);

    const int tidm = threadIdx.x;
    const int tidn = threadIdx.y;
    const int tid = tidn * RTSM + tidm;
    const int mv0 = blockIdx.x * TSMV;
    const int nv0 = blockIdx.y * TSNV;

    __shared__ floatX Asub[2][TSK][TSMV];
    __shared__ floatX Bsub[2][TSK][TSNV];

    floatX Apre[LPTA], Bpre[LPTB]; /* this thread's share of the next tiles */
    floatX Areg[WPTMV];
    float Breg[WPTN];
    floatX acc[WPTN][WPTMV];
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
