/* Rung 4: wider data types (CUDA)
 * Change since rung 3: what a thread calls "its row" becomes WIDTH consecutive rows,
 *   held in one vector (realX = float2, float4 or a float8 made of two float4s). Every
 *   access that runs along the contiguous direction of memory moves a whole vector: the
 *   loads of A (along M), the loads of B (along K), the stores of C (along M), and the
 *   multiply-adds, which now update WIDTH elements of C at once. The block shrinks to
 *   TS/WIDTH x TS/WPT threads and each computes a WIDTH x WPT block of C.
 * Why it should help: one vector load or store instruction moves WIDTH floats (up to 16
 *   bytes), so the loads, stores and address calculations per multiply-add fall by about
 *   WIDTH. In the inner loop one vector of A read from shared memory now serves
 *   WIDTH x WPT multiply-adds instead of WPT.
 * Why the pointers are cast: reading through a (realX *) pointer tells the compiler the
 *   address is WIDTH-float aligned, so it can emit one wide load. That holds because the
 *   buffers are aligned and M and K are multiples of TS, itself a multiple of WIDTH.
 * The default tile is rung 3's (TS = 32), so that only the vectors change; on the H100
 *   TS = 64 is faster again (by a third in CUDA, two thirds in OpenCL), a first taste of
 *   rung 5's lesson (kernels-notes.md).
 * Parameters: TS (tile edge), WIDTH (1, 2, 4 or 8; divides TS), WPT (columns of C per
 *   thread; divides TS).
 * Sizes: M, N and K multiples of TS.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.cuh).
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

#define RTS (TS / WPT)   /* threads along the columns of a tile */
#define TSV (TS / WIDTH) /* vectors along one column of a tile */

extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const real *A, const real *B, real *C)
{
    const realX *Av = reinterpret_cast<const realX *>(A);
    const realX *Bv = reinterpret_cast<const realX *>(B);
    realX *Cv = reinterpret_cast<realX *>(C);

    const int row = threadIdx.x; /* vector of rows inside the tile: 0 .. TSV-1 */
    const int col = threadIdx.y; /* 0 .. RTS-1 */
    const int mv = blockIdx.x * TSV + row; /* this thread's vector of rows of C */
    const int n0 = blockIdx.y * TS + col;  /* first of this thread's columns */

    /* Asub[k][row] holds rows row*WIDTH.. of A at column k of the tile; Bsub[n][kv]
     * holds B(kv*WIDTH.., n). Bs reads Bsub one float at a time. */
    __shared__ realX Asub[TS][TSV];
    __shared__ realX Bsub[TS][TSV];
    const real *Bs = reinterpret_cast<const real *>(Bsub);

    realX acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; w++)
        acc[w] = zeroX();

    for (int t = 0; t < K / TS; t++) {
        /* Same pattern as rung 3, a vector at a time. For B, thread `row` loads the
         * vector of K-values row*WIDTH..: consecutive threads, consecutive vectors. */
#pragma unroll
        for (int w = 0; w < WPT; w++) {
            const int c = col + w * RTS;
            Asub[c][row] = Av[mv + (t * TS + c) * (M / WIDTH)];
            Bsub[c][row] = Bv[(t * TSV + row) + (n0 + w * RTS) * (K / WIDTH)];
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < TS; k++) {
            const realX a = Asub[k][row]; /* WIDTH rows of A, used WPT times */
#pragma unroll
            for (int w = 0; w < WPT; w++)
                acc[w] += a * Bs[(col + w * RTS) * TS + k];
        }
        __syncthreads();
    }
#pragma unroll
    for (int w = 0; w < WPT; w++)
        Cv[mv + (n0 + w * RTS) * (M / WIDTH)] = acc[w];
}
