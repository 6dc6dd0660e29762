/* Rung 4: wider data types (OpenCL)
 * Change since rung 3: what a work-item calls "its row" becomes WIDTH consecutive rows,
 *   held in one vector (floatX = float2, float4 or float8). Every access that runs along
 *   the contiguous direction of memory moves a whole vector: the loads of A (along M),
 *   the loads of B (along K), the stores of C (along M), and the multiply-adds, which
 *   now update WIDTH elements of C at once. The work-group shrinks to TS/WIDTH x TS/WPT
 *   work-items and each computes a WIDTH x WPT block of C.
 * Why it should help: one vector load or store instruction moves WIDTH floats, so the
 *   loads, stores and address calculations per multiply-add fall by about WIDTH. In the
 *   inner loop one vector of A read from local memory now serves WIDTH x WPT
 *   multiply-adds instead of WPT.
 * Why the pointers are cast: vloadX() promises the compiler only float alignment, so it
 *   may emit WIDTH scalar loads; reading through a (floatX *) pointer promises
 *   WIDTH-float alignment, which holds because the buffers are aligned and M and K are
 *   multiples of TS, itself a multiple of WIDTH.
 * The default tile is rung 3's (TS = 32), so that only the vectors change; on the H100
 *   TS = 64 is faster again (by a third in CUDA, two thirds in OpenCL), a first taste of
 *   rung 5's lesson (kernels-notes.md).
 * Parameters: TS (tile edge), WIDTH (1, 2, 4 or 8; divides TS), WPT (columns of C per
 *   work-item; divides TS).
 * Sizes: M, N and K multiples of TS.
 */
#if WIDTH == 1
typedef float floatX;
#elif WIDTH == 2
typedef float2 floatX;
#elif WIDTH == 4
typedef float4 floatX;
#elif WIDTH == 8
typedef float8 floatX;
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

#define RTS (TS / WPT)   /* work-items along the columns of a tile */
#define TSV (TS / WIDTH) /* vectors along one column of a tile */

__kernel void gemm(const int M, const int N, const int K,
                   const __global float *A, const __global float *B, __global float *C)
{
    const __global floatX *Av = (const __global floatX *)A;
    const __global floatX *Bv = (const __global floatX *)B;
    __global floatX *Cv = (__global floatX *)C;

    const int row = get_local_id(0);  /* vector of rows inside the tile: 0 .. TSV-1 */
    const int col = get_local_id(1);  /* 0 .. RTS-1 */
    const int mv = get_group_id(0) * TSV + row;  /* this work-item's vector of rows of C */
    const int n0 = get_group_id(1) * TS + col;   /* first of this work-item's columns */

    /* Asub[k][row] holds rows row*WIDTH.. of A at column k of the tile; Bsub[n][kv]
     * holds B(kv*WIDTH.., n). Bs reads Bsub one float at a time. */
    __local floatX Asub[TS][TSV];
    __local floatX Bsub[TS][TSV];
    const __local float *Bs = (const __local float *)Bsub;

    floatX acc[WPT];
    for (int w = 0; w < WPT; w++)
        acc[w] = 0.0f;

    for (int t = 0; t < K / TS; t++) {
        /* Same pattern as rung 3, a vector at a time. For B, work-item `row` loads the
         * vector of K-values row*WIDTH..: consecutive work-items, consecutive vectors. */
        for (int w = 0; w < WPT; w++) {
            const int c = col + w * RTS;
            Asub[c][row] = Av[mv + (t * TS + c) * (M / WIDTH)];
            Bsub[c][row] = Bv[(t * TSV + row) + (n0 + w * RTS) * (K / WIDTH)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++) {
            const floatX a = Asub[k][row]; /* WIDTH rows of A, used WPT times */
            for (int w = 0; w < WPT; w++)
                acc[w] += a * Bs[(col + w * RTS) * TS + k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int w = 0; w < WPT; w++)
        Cv[mv + (n0 + w * RTS) * (M / WIDTH)] = acc[w];
}
