/* Rung 30: accumulators and C one float at a time (OpenCL)
 * Change since rung 10: the same tiles, the same loads and the same double buffer, with
 *   two changes in how a work-item holds its WPTM x WPTN block of C:
 *   - the accumulators are single floats, acc[WPTN][WPTM], not float4s, and each step's
 *     float4s of A and B read from local memory are split into single floats before the
 *     multiply-adds;
 *   - C is stored one float at a time, not as float4s.
 *   This is the first of rung 17's two ideas (CUDA), the one that needs no cp.async.
 * Why it should help: the SM keeps registers in banks, and a multiply-add whose operands
 *   sit in one bank waits extra cycles to read them (kernels-cuda/17-banks.cu says how
 *   it was found). A float4 store needs its four values in four consecutive registers
 *   that start at a multiple of 4, so in rung 10 the compiler keeps every float4 of
 *   accumulators in such a quad, and each float4 of A lands in one too: the accumulator
 *   of row i and the A value of row i then sit in the same bank in every multiply-add.
 *   Counting banks as register number mod 4 in the machine code of NVIDIA's OpenCL
 *   compiler for the H200 (PTX from the driver, ptxas for sm_90; 128 x 128 x 8 tiles of
 *   8 x 8), 79 of rung 10's 128 multiply-adds per unrolled piece of the loop read two
 *   operands from one bank, and 16 of this kernel's 256.
 * Measured before it became a rung, on an H200 in NVIDIA's OpenCL at 4096^3 with 128 x
 *   128 tiles of 8 x 8 (results/h200-2026-11-30-scalars, README): rung 10 37.7k GFLOPS
 *   at TSK = 8; single-float stores alone 43.2k; single-float accumulators too 45.4k,
 *   and 47.6k at TSK = 16, where rung 11 ran 44.5k and the best OpenCL kernel before it
 *   45.0k. Rung 17's second register idea, the "snake" order of the multiply-adds, made
 *   it 1.4-1.9% slower here at TSK = 16: NVIDIA's OpenCL compiler orders them itself.
 * The price: none in the arithmetic. The stores are four instructions where there was
 *   one, once per work-group; they go to consecutive addresses, so a warp's stores still
 *   fill whole sectors.
 * Parameters: TSM, TSN, TSK (tile), WPTM, WPTN (C elements per work-item), as rung 11's;
 *   rung 10's WIDTH is 4 here, the float4s of the loads.
 * Constraints: 4 divides WPTM, WPTN and TSK; WPTM divides TSM and WPTN divides TSN; the
 *   work-item count divides the float4s of each tile.
 * Sizes: any M, N, K >= 1 (the host pads A and B^T to whole tiles, as for rung 10).
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h): the float4s are then
 *   double4s, 32 bytes.
 */
#include "real.h"

#define RTSM (TSM / WPTM) /* work-items along m */
#define RTSN (TSN / WPTN) /* work-items along n */
#define THREADS (RTSM * RTSN)
#define WPTMV (WPTM / 4)
#define WPTNV (WPTN / 4)
#define TSMV (TSM / 4)
#define TSNV (TSN / 4)
#define LPTA (TSMV * TSK / THREADS) /* float4s of the A tile each work-item loads */
#define LPTB (TSNV * TSK / THREADS) /* and of the B^T tile */

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void gemm(const int M, const int N, const int K,
          const __global real *restrict A, const __global real *restrict Bt,
          __global real *restrict C)
{
    const __global real4 *restrict Av = (const __global real4 *)A;
    const __global real4 *restrict Bv = (const __global real4 *)Bt;

    const int tidm = get_local_id(0);
    const int tidn = get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int mv0 = get_group_id(0) * TSMV;
    const int nv0 = get_group_id(1) * TSNV;

    __local real4 Asub[2][TSK][TSMV];
    __local real4 Bsub[2][TSK][TSNV];

    real4 Apre[LPTA], Bpre[LPTB]; /* this work-item's share of the next tiles */
    /* acc[wn][i]: row 4 * (mv0 + tidm + (i / 4) * RTSM) + i % 4 of C's column
     * 4 * (nv0 + tidn + (wn / 4) * RTSN) + wn % 4, as in rung 10, one float each. */
    real acc[WPTN][WPTM];
    for (int wn = 0; wn < WPTN; wn++)
        for (int i = 0; i < WPTM; i++)
            acc[wn][i] = 0;

    /* Step 0's share of the tiles, into registers (rung 9). */
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l * THREADS;
        Apre[l] = Av[(mv0 + i % TSMV) + (i / TSMV) * (M / 4)];
    }
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l * THREADS;
        Bpre[l] = Bv[(nv0 + i % TSNV) + (i / TSNV) * (N / 4)];
    }

    for (int t = 0; t < K / TSK; t++) {
        const int buf = t % 2;
        /* Step t's tiles go into buffer `buf`, last read in step t-2 (rung 9's argument). */
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l * THREADS;
            Asub[buf][i / TSMV][i % TSMV] = Apre[l];
        }
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l * THREADS;
            Bsub[buf][i / TSNV][i % TSNV] = Bpre[l];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < K / TSK) {
            for (int l = 0; l < LPTA; l++) {
                const int i = tid + l * THREADS;
                Apre[l] = Av[(mv0 + i % TSMV) + ((t + 1) * TSK + i / TSMV) * (M / 4)];
            }
            for (int l = 0; l < LPTB; l++) {
                const int i = tid + l * THREADS;
                Bpre[l] = Bv[(nv0 + i % TSNV) + ((t + 1) * TSK + i / TSNV) * (N / 4)];
            }
        }

        for (int k = 0; k < TSK; k++) {
            /* The float4s come from local memory as before; split into single floats,
             * they bind no register to a quad beyond the load itself. */
            real a[WPTM], b[WPTN];
            for (int wm = 0; wm < WPTMV; wm++) {
                const real4 v = Asub[buf][k][tidm + wm * RTSM];
                a[4 * wm] = v.x;
                a[4 * wm + 1] = v.y;
                a[4 * wm + 2] = v.z;
                a[4 * wm + 3] = v.w;
            }
            for (int wn = 0; wn < WPTNV; wn++) {
                const real4 v = Bsub[buf][k][tidn + wn * RTSN];
                b[4 * wn] = v.x;
                b[4 * wn + 1] = v.y;
                b[4 * wn + 2] = v.z;
                b[4 * wn + 3] = v.w;
            }
            for (int wn = 0; wn < WPTN; wn++)
                for (int i = 0; i < WPTM; i++)
                    acc[wn][i] += a[i] * b[wn];
        }
    }

    /* One float at a time: what leaves the compiler free to place each accumulator. */
    for (int wn = 0; wn < WPTN; wn++) {
        const int n = 4 * (nv0 + tidn + (wn / 4) * RTSN) + wn % 4;
        for (int wm = 0; wm < WPTMV; wm++) {
            __global real *c = &C[4 * (mv0 + tidm + wm * RTSM) + (size_t)n * M];
            for (int i = 0; i < 4; i++)
                c[i] = acc[wn][4 * wm + i];
        }
    }
}
