/* Rung 7: wider loads with register blocking (OpenCL)
 * Change since rung 6: the fragment of B also moves as vectors. A work-item's WPTN
 *   columns become WPTN/WIDTH groups of WIDTH neighbouring columns, the groups spaced
 *   RTSN vectors apart (with TSN = 128, WPTN = 8, WIDTH = 4: columns 4*tidn..4*tidn+3 and
 *   64+4*tidn..64+4*tidn+3), so at each step k it reads Breg with WPTN/WIDTH vector loads
 *   from local memory instead of WPTN scalar ones. Its rows were already laid out this
 *   way in rung 6. The vectors of B are then taken apart into floats for the outer product.
 * Why it should help: since rung 4 every load from global memory has been a vector, and
 *   since rung 6 the loads of A from local memory too; the scalar loads of B were the
 *   last narrow accesses, and with register blocking they dominated the inner loop. With
 *   WPTM = WPTN = 8 and WIDTH = 4 a step now costs 4 local loads for 64 multiply-adds
 *   instead of 10, leaving the instruction issue to the multiply-adds. The layout keeps
 *   local memory free of bank conflicts: work-items with neighbouring tidm read
 *   neighbouring vectors of A, and those of one warp share at most a few vectors of B,
 *   which are broadcast.
 * Parameters: TSM, TSN, TSK, WIDTH (1, 2, 4 or 8), WPTM, WPTN, as in rung 6.
 * Constraints: as rung 6, and WIDTH divides WPTN.
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

#if WIDTH == 1
typedef real realX;
#define SPLIT(r, v) ((r)[0] = (v))
#elif WIDTH == 2
typedef real2 realX;
#define SPLIT(r, v) ((r)[0] = (v).s0, (r)[1] = (v).s1)
#elif WIDTH == 4
typedef real4 realX;
#define SPLIT(r, v) ((r)[0] = (v).s0, (r)[1] = (v).s1, (r)[2] = (v).s2, (r)[3] = (v).s3)
#elif WIDTH == 8
typedef real8 realX;
#define SPLIT(r, v) ((r)[0] = (v).s0, (r)[1] = (v).s1, (r)[2] = (v).s2, (r)[3] = (v).s3, \
                     (r)[4] = (v).s4, (r)[5] = (v).s5, (r)[6] = (v).s6, (r)[7] = (v).s7)
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif
/* SPLIT(r, v) copies the WIDTH components of vector v into scalars r[0] .. r[WIDTH-1]. */

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define WPTMV (WPTM / WIDTH)
#define WPTNV (WPTN / WIDTH)        /* vectors of columns per work-item */
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
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[k][tidm + wm * RTSM];
            for (int wn = 0; wn < WPTNV; wn++) {
                const realX b = Bsub[k][tidn + wn * RTSN];
                SPLIT(&Breg[wn * WIDTH], b);
            }
            for (int wn = 0; wn < WPTN; wn++)
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* Column j of group wn is column (nv0 + tidn + wn*RTSN)*WIDTH + j of C. */
    for (int wn = 0; wn < WPTNV; wn++)
        for (int j = 0; j < WIDTH; j++)
            for (int wm = 0; wm < WPTMV; wm++)
                Cv[(mv0 + tidm + wm * RTSM) +
                   ((nv0 + tidn + wn * RTSN) * WIDTH + j) * (M / WIDTH)] =
                    acc[wn * WIDTH + j][wm];
}
