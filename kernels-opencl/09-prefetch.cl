/* Rung 9: software prefetching (OpenCL)
 * Change since rung 8: local memory holds two tiles of A and two of B (double
 *   buffering). While the work-group computes on the tiles of step t, each work-item
 *   already has its share of the tiles of step t+1 on the way from global memory into
 *   registers (Apre, Bpre); at the top of the next step it stores them into the other
 *   pair of buffers. One barrier per step remains instead of two.
 * Why it should help: in rung 8 a work-item issued its global loads and then waited at
 *   the barrier until they arrived, so every step began with a full trip to global
 *   memory (hundreds of cycles) with nothing to compute; only other work-groups on the
 *   same compute unit could fill the gap. Now the loads are issued first and the whole
 *   computation of a step runs while they travel. The single barrier is safe: the
 *   buffers written at the top of step t were last read in step t-2, and every
 *   work-item has passed step t-1's barrier since.
 * The price: twice the local memory, and the registers that hold the prefetched values.
 *   It is also why TSK is 16 here where rungs 6-8 take 32: two buffers of 32 would need
 *   64 KiB, more than the 48 KiB a work-group may use on the H100.
 * Parameters: TSM, TSN, TSK, WIDTH, WPTM, WPTN, as in rung 7. Like rung 8's default it
 *   uses const restrict pointers and no sub-group functions.
 * Constraints: as rung 7.
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

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define THREADS (RTSM * RTSN)
#define WPTMV (WPTM / WIDTH)
#define WPTNV (WPTN / WIDTH)
#define TSMV (TSM / WIDTH)
#define TSNV (TSN / WIDTH)
#define LPTA (TSMV * TSK / THREADS)
#define LPTB (TSNV * TSK / THREADS)

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void gemm(const int M, const int N, const int K,
          const __global real *restrict A, const __global real *restrict Bt,
          __global real *restrict C)
{
    const __global realX *restrict Av = (const __global realX *)A;
    const __global realX *restrict Bv = (const __global realX *)Bt;
    __global realX *restrict Cv = (__global realX *)C;

    const int tidm = get_local_id(0);
    const int tidn = get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int mv0 = get_group_id(0) * TSMV;
    const int nv0 = get_group_id(1) * TSNV;

    __local realX Asub[2][TSK][TSMV];
    __local realX Bsub[2][TSK][TSNV];

    realX Apre[LPTA], Bpre[LPTB]; /* this work-item's share of the next tiles */
    realX Areg[WPTMV];
    real Breg[WPTN];
    realX acc[WPTN][WPTMV];
    for (int wn = 0; wn < WPTN; wn++)
        for (int wm = 0; wm < WPTMV; wm++)
            acc[wn][wm] = 0;

    /* Step 0's share of the tiles, into registers. */
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l * THREADS;
        Apre[l] = Av[(mv0 + i % TSMV) + (i / TSMV) * (M / WIDTH)];
    }
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l * THREADS;
        Bpre[l] = Bv[(nv0 + i % TSNV) + (i / TSNV) * (N / WIDTH)];
    }

    for (int t = 0; t < K / TSK; t++) {
        const int buf = t % 2;
        /* Step t's tiles, already loaded, go into buffer `buf`. Nobody still reads it:
         * it was last read in step t-2, before the barrier of step t-1. */
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l * THREADS;
            Asub[buf][i / TSMV][i % TSMV] = Apre[l];
        }
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l * THREADS;
            Bsub[buf][i / TSNV][i % TSNV] = Bpre[l];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Step t+1's share: issued now, in flight during the computation below, waited
         * for only when it is stored at the top of the next step. */
        if (t + 1 < K / TSK) {
            for (int l = 0; l < LPTA; l++) {
                const int i = tid + l * THREADS;
                Apre[l] = Av[(mv0 + i % TSMV) + ((t + 1) * TSK + i / TSMV) * (M / WIDTH)];
            }
            for (int l = 0; l < LPTB; l++) {
                const int i = tid + l * THREADS;
                Bpre[l] = Bv[(nv0 + i % TSNV) + ((t + 1) * TSK + i / TSNV) * (N / WIDTH)];
            }
        }

        for (int k = 0; k < TSK; k++) {
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[buf][k][tidm + wm * RTSM];
            for (int wn = 0; wn < WPTNV; wn++) {
                const realX b = Bsub[buf][k][tidn + wn * RTSN];
                SPLIT(&Breg[wn * WIDTH], b);
            }
            for (int wn = 0; wn < WPTN; wn++)
                for (int wm = 0; wm < WPTMV; wm++)
                    acc[wn][wm] += Areg[wm] * Breg[wn];
        }
    }
    for (int wn = 0; wn < WPTNV; wn++)
        for (int j = 0; j < WIDTH; j++)
            for (int wm = 0; wm < WPTMV; wm++)
                Cv[(mv0 + tidm + wm * RTSM) +
                   ((nv0 + tidn + wn * RTSN) * WIDTH + j) * (M / WIDTH)] =
                    acc[wn * WIDTH + j][wm];
}
