/* Rung 8: vendor-specific features (OpenCL)
 * Change since rung 7: OpenCL's portable counterparts of the two CUDA features of this
 *   rung, each behind its own switch (the same switches as the CUDA version, so the two
 *   can be compared).
 *   - USE_LDG=1: A, B^T and C are declared `restrict` (no other pointer reaches what they
 *     point to) and A and B^T `const`. That is what CUDA's read-only path needs, and the
 *     way OpenCL asks for it: NVIDIA's OpenCL compiler then loads A and B^T through the
 *     read-only cache (ld.global.nc in its PTX), as __ldg() does in CUDA. Other compilers
 *     may use the promise to reorder and batch the loads.
 *   - USE_SHUFFLE=1: the fragments of B travel between the work-items of a sub-group
 *     instead of being re-read from local memory, with sub_group_shuffle()
 *     (cl_khr_subgroup_shuffle), the counterpart of CUDA's __shfl_sync. The RTSM
 *     work-items with the same tidn (a segment of RTSM consecutive work-items) need the
 *     same values of B at every step k. At the start of a tile, work-item s of a segment
 *     reads the fragments of rows k = s, s + RTSM, ... once; at step k every work-item
 *     takes the fragment from work-item k % RTSM of its segment.
 * Why it matches rung 7 where these are missing: OpenCL has no __ldg() and no way to
 *   name the read-only cache; `const restrict` is only a promise that a compiler may use
 *   or ignore. And OpenCL C has no sub-group functions unless the device offers
 *   cl_khr_subgroups and cl_khr_subgroup_shuffle and the program is built as OpenCL C 2.0
 *   or later (NVIDIA's OpenCL offers neither extension). With USE_LDG=0 and USE_SHUFFLE=0
 *   the kernel is rung 7's.
 * What the H100 says (kernels-notes.md): in NVIDIA's OpenCL the read-only path changes
 *   nothing measurable (within 0.5%), as in CUDA, where the shuffles also lose about a
 *   quarter (a step takes WPTN shuffles where rung 7 took WPTN/WIDTH vector loads, and
 *   the kernel is limited by instruction issue). USE_LDG defaults to 1, USE_SHUFFLE to 0,
 *   which also lets the rung run on every device.
 * Parameters: TSM, TSN, TSK, WIDTH, WPTM, WPTN (as rung 7), USE_LDG (0/1), USE_SHUFFLE
 *   (0/1).
 * Constraints: as rung 7; USE_SHUFFLE=1 needs RTSM = TSM/WPTM a power of two <= 32, a
 *   sub-group size that is a multiple of RTSM (else the kernel falls back on local
 *   memory), and sub-groups made of consecutive work-items (dimension 0 fastest), as on
 *   every device known to us. It needs OpenCL C 2.0 or later (-cl-std=CL2.0 or CL3.0).
 * Sizes: M, N, K multiples of TSM, TSN, TSK.
 * Precision: float, or double under -DLADDER_DOUBLE=1 (real.h).
 */
#include "real.h"

#if USE_SHUFFLE
#if !(defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)) || \
    !defined(cl_khr_subgroup_shuffle)
#error "USE_SHUFFLE=1 needs sub-group shuffles (cl_khr_subgroups or __opencl_c_subgroups, and cl_khr_subgroup_shuffle, with -cl-std=CL2.0 or later); this device or build does not offer them: use USE_SHUFFLE=0"
#endif
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#endif

#if USE_LDG
#define RESTRICT restrict
#else
#define RESTRICT
#endif

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

#if USE_SHUFFLE
#if RTSM > 32 || (RTSM & (RTSM - 1)) != 0
#error "USE_SHUFFLE=1 needs TSM/WPTM to be a power of two no larger than 32"
#endif
#define SLOTS ((TSK + RTSM - 1) / RTSM) /* rows of B each work-item holds per tile */
#endif

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void gemm(const int M, const int N, const int K, const __global real *RESTRICT A,
          const __global real *RESTRICT Bt, __global real *RESTRICT C)
{
    const __global realX *RESTRICT Av = (const __global realX *)A;
    const __global realX *RESTRICT Bv = (const __global realX *)Bt;
    __global realX *RESTRICT Cv = (__global realX *)C;

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
#if USE_SHUFFLE
    /* Segments must not straddle sub-groups: otherwise take B from local memory. The
     * test is the same for every work-item of the work-group. */
    const int shuffle = get_max_sub_group_size() % RTSM == 0;
    const uint seg0 = get_sub_group_local_id() & ~(uint)(RTSM - 1); /* segment's first */
    real Bown[SLOTS][WPTN];
#endif
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

#if USE_SHUFFLE
        /* This work-item's share of the tile's B fragments: rows k = tidm + s*RTSM. */
        if (shuffle)
            for (int s = 0; s < SLOTS; s++) {
                const int k = tidm + s * RTSM;
                for (int wn = 0; wn < WPTNV; wn++)
                    if (SLOTS * RTSM == TSK || k < TSK) {
                        const realX b = Bsub[k][tidn + wn * RTSN];
                        SPLIT(&Bown[s][wn * WIDTH], b);
                    }
            }
#endif

        for (int k = 0; k < TSK; k++) {
            for (int wm = 0; wm < WPTMV; wm++)
                Areg[wm] = Asub[k][tidm + wm * RTSM];
#if USE_SHUFFLE
            if (shuffle) {
                for (int wn = 0; wn < WPTN; wn++)
                    Breg[wn] = sub_group_shuffle(Bown[k / RTSM][wn], seg0 + k % RTSM);
            } else
#endif
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
