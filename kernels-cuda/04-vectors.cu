/* Rung 4: wider data types (CUDA)
 * Change since rung 3: what a thread calls "its row" becomes WIDTH consecutive rows,
 *   held in one vector (floatX = float2, float4 or a float8 made of two float4s). Every
 *   access that runs along the contiguous direction of memory moves a whole vector: the
 *   loads of A (along M), the loads of B (along K), the stores of C (along M), and the
 *   multiply-adds, which now update WIDTH elements of C at once. The block shrinks to
 *   TS/WIDTH x TS/WPT threads and each computes a WIDTH x WPT block of C.
 * Why it should help: one vector load or store instruction moves WIDTH floats (up to 16
 *   bytes), so the loads, stores and address calculations per multiply-add fall by about
 *   WIDTH. In the inner loop one vector of A read from shared memory now serves
 *   WIDTH x WPT multiply-adds instead of WPT.
 * Why the pointers are cast: reading through a (floatX *) pointer tells the compiler the
 *   address is WIDTH-float aligned, so it can emit one wide load. That holds because the
 *   buffers are aligned and M and K are multiples of TS, itself a multiple of WIDTH.
 * The default tile is rung 3's (TS = 32), so that only the vectors change; on the H100
 *   TS = 64 is faster again (by a third in CUDA, two thirds in OpenCL), a first taste of
 *   rung 5's lesson (kernels-notes.md).
 * Parameters: TS (tile edge), WIDTH (1, 2, 4 or 8; divides TS), WPT (columns of C per
 *   thread; divides TS).
 * Sizes: M, N and K multiples of TS.
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

#define RTS (TS / WPT)   /* threads along the columns of a tile */
#define TSV (TS / WIDTH) /* vectors along one column of a tile */

extern "C" __global__ void gemm(const int M, const int N, const int K,
                                const float *A, const float *B, float *C)
{
    const floatX *Av = reinterpret_cast<const floatX *>(A);
    const floatX *Bv = reinterpret_cast<const floatX *>(B);
    floatX *Cv = reinterpret_cast<floatX *>(C);

    const int row = threadIdx.x; /* vector of rows inside the tile: 0 .. TSV-1 */
    const int col = threadIdx.y; /* 0 .. RTS-1 */
    const int mv = blockIdx.x * TSV + row; /* this thread's vector of rows of C */
    const int n0 = blockIdx.y * TS + col;  /* first of this thread's columns */

    /* Asub[k][row] holds rows row*WIDTH.. of A at column k of the tile; Bsub[n][kv]
     * holds B(kv*WIDTH.., n). Bs reads Bsub one float at a time. */
    __shared__ floatX Asub[TS][TSV];
    __shared__ floatX Bsub[TS][TSV];
    const float *Bs = reinterpret_cast<const float *>(Bsub);

    floatX acc[WPT];
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
            const floatX a = Asub[k][row]; /* WIDTH rows of A, used WPT times */
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
