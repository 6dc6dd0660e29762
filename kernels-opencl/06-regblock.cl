/* Rung 6: 2D register blocking (OpenCL)
 * Change since rung 5: each work-item now computes a WPTM x WPTN block of C instead of
 *   WIDTH x WPTN: its rows are WPTM/WIDTH vectors spaced RTSM vectors apart, its columns
 *   WPTN columns spaced RTSN apart. At each step k of the tile it first copies its
 *   fragments into registers, WPTM values of A (Areg, as vectors) and WPTN values of B
 *   (Breg), and then forms their outer product into the WPTM x WPTN accumulators.
 * Why it should help: the inner loop does WPTM*WPTN multiply-adds for WPTM/WIDTH + WPTN
 *   local-memory loads. With WPTM = WPTN = 8 and WIDTH = 4 that is 64 multiply-adds for
 *   10 loads, where rung 5 (4 x 16 per work-item) did 64 for 17. Fewer, bigger work-items
 *   also mean a bigger tile for the same work-group size, so each value loaded from global
 *   memory serves more of C. The price is registers: WPTM*WPTN accumulators per work-item.
 * Registers decide how many work-groups share a compute unit, so the kernel now tells
 *   the compiler its work-group size (reqd_work_group_size), which it needs to budget
 *   them. (The CUDA version also asks for room for 512 threads per SM; OpenCL C has no
 *   way to say that.)
 * Why the rows are spread out: the work-items of a work-group read Asub[k][tidm + ...]
 *   with consecutive tidm, so their vectors lie side by side in local memory (no bank
 *   conflicts). Keeping each work-item's rows together instead would make neighbouring
 *   work-items read WPTM floats apart.
 * Parameters: TSM, TSN, TSK (tile sizes), WIDTH (1, 2, 4 or 8), WPTM, WPTN (the block of C
 *   per work-item). The work-group is TSM/WPTM x TSN/WPTN.
 * Constraints: WIDTH divides WPTM and TSN; WPTM divides TSM; WPTN divides TSN; the
 *   work-group size divides TSM*TSK/WIDTH and TSN*TSK/WIDTH.
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

#if WIDTH == 1
typedef real realX;
#elif WIDTH == 2
typedef real2 realX;
#elif WIDTH == 4
typedef real4 realX;
#elif WIDTH == 8
typedef real8 realX;
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

#define RTSM (TSM / WPTM)           /* work-items along M */
#define RTSN (TSN / WPTN)           /* work-items along N */
#define THREADS (RTSM * RTSN)
#define WPTMV (WPTM / WIDTH)        /* vectors of rows per work-item */
#define TSMV (TSM / WIDTH)
#define TSNV (TSN / WIDTH)
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSNV * TSK / THREADS)

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void gemm(const int M, const int N, const int K,
          const __global real *A, const __global real *Bt, __global real *C)
{
    const __global realX *Av = (const __global realX *)A;
    const __global realX *Bv = (const __global realX *)Bt;
    __global realX *Cv = (__global realX *)C;

    const int tidm = get_local_id(0);
    const int tidn = get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int mv0 = get_group_id(0) * TSMV;
    const int nv0 = get_group_id(1) * TSNV;
    const int n0 = get_group_id(1) * TSN;

    __local realX Asub[TSK][TSMV];
    __local realX Bsub[TSK][TSNV];

    realX Areg[WPTMV];
    real Breg[WPTN];
    realX acc[WPTN][WPTMV];
    for (int wn = 0; wn < WPTN; wn++)
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = 0;

    for (int t = 0; t < K / TSK; t++) {
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l * THREADS;
            const int k = i / TSMV, v = i % TSMV;
            Asub[k][v] = Av[(mv0 + v) + (t * TSK + k) * (M / WIDTH)];
        }
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l * THREADS;
            const int k = i / TSNV, v = i % TSNV;
            Bsub[k][v] = Bv[(nv0 + v) + (t * TSK + k) * (N / WIDTH)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TSK; k++) {
            const __local real *bk = (const __local real *)Bsub[k];
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[k][tidm + wm * RTSM];
            for (int wn = 0; wn < WPTN; wn++)
                Breg[wn] = bk[tidn + wn * RTSN];
            for (int wn = 0; wn < WPTN; wn++)
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int wn = 0; wn < WPTN; wn++)
        for (int wm = 0; wm < WPTMV; wm++)
            Cv[(mv0 + tidm + wm * RTSM) + (n0 + tidn + wn * RTSN) * (M / WIDTH)] =
                acc[wn][wm];
}
