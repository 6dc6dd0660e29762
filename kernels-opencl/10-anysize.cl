/* Rung 10: incomplete tiles and arbitrary sizes (OpenCL)
 * Change since rung 9: none in this file: the kernel is rung 9's, line for line. What
 *   changes is the host. Before the GEMM, helper kernels (helpers.cl) copy A into an
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
