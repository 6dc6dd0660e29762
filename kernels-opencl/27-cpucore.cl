/* Rung 27: a kernel shaped for a CPU core (OpenCL only)
 * DRAFT: header comment to be completed from the measurements.
 */
#include "real.h"

#ifdef LADDER_DOUBLE
typedef double16 real16;
#else
typedef float16 real16;
#endif

/* vreal: the VW rows of A (and of C) one work-item holds, as one vector. */
#if VW == 1
typedef real vreal;
#define VLOAD(p) (*(p))
#elif VW == 2
typedef real2 vreal;
#define VLOAD(p) vload2(0, p)
#elif VW == 4
typedef real4 vreal;
#define VLOAD(p) vload4(0, p)
#elif VW == 8
typedef real8 vreal;
#define VLOAD(p) vload8(0, p)
#elif VW == 16
typedef real16 vreal;
#define VLOAD(p) vload16(0, p)
#else
#error "VW must be 1, 2, 4, 8 or 16"
#endif

/* Lane i of a vreal (a constant i after unrolling). */
real lane(const vreal v, const int i)
{
    union { vreal v; real r[VW]; } u;
    u.v = v;
    return u.r[i];
}

/* K's slices: every slice but the last `slice_len` deep, none empty; 1 when K is 0. */
int slice_len(const int K)
{
    const int per = (K + SPLITS - 1) / SPLITS;
    return per > 0 ? per : 1;
}
int slice_count(const int K)
{
    const int n = (K + slice_len(K) - 1) / slice_len(K);
    return n > 0 ? n : 1;
}

/* Rows mb..mb+VW-1 of op(A) at depth k. The rows exist whenever M >= VW (the host
 * shifted mb back from the edge); below that, rows past M repeat row M-1 (read, never
 * stored). */
vreal load_a(const __global real *A, const int lda, const int M, const int mb, const int k)
{
#if !TRANS_A
    if (M >= VW)
        return VLOAD(A + mb + (size_t)k * lda);
#endif
    union { vreal v; real r[VW]; } u;
    for (int i = 0; i < VW; i++) {
        const int r = min(mb + i, M - 1);
#if TRANS_A
        u.r[i] = A[k + (size_t)r * lda];
#else
        u.r[i] = A[r + (size_t)k * lda];
#endif
    }
    return u.v;
}

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real *restrict A, const int lda,
          const __global real *restrict B, const int ldb, const real beta,
          __global real *restrict C, const int ldc, __global real *restrict W)
{
    const int tiles_n = (N + LY * NR - 1) / (LY * NR);
    const int slice = get_group_id(1) / tiles_n;
    const int m = (int)get_global_id(0) * VW;
    const int n = ((get_group_id(1) % tiles_n) * LY + get_local_id(1)) * NR;
    /* The vector's first row: m, or shifted back so that all VW rows exist. */
    const int mb = M >= VW ? min(m, M - VW) : 0;
    const int kb = slice * slice_len(K), ke = min(K, kb + slice_len(K));

    int col[NR]; /* the columns read: past N, column N-1 again (never stored) */
    for (int j = 0; j < NR; j++)
        col[j] = min(n + j, N - 1);

    vreal acc[NR];
    for (int j = 0; j < NR; j++)
        acc[j] = 0;
    for (int k = kb; k < ke; k++) {
        const vreal a = load_a(A, lda, M, mb, k);
        for (int j = 0; j < NR; j++) {
#if TRANS_B
            const real b = B[col[j] + (size_t)k * ldb];
#else
            const real b = B[k + (size_t)col[j] * ldb];
#endif
            acc[j] += a * b;
        }
    }

    const int slices = slice_count(K);
    for (int j = 0; j < NR; j++) {
        if (n + j >= N)
            break;
        for (int i = 0; i < VW; i++) {
            const int r = mb + i;
            if (r < m || r >= M)
                continue;
            const real v = lane(acc[j], i);
            if (slices > 1) {
                W[((size_t)slice * N + n + j) * M + r] = v;
            } else {
                __global real *c = C + r + (size_t)(n + j) * ldc;
                *c = beta == 0 ? alpha * v : alpha * v + beta * *c;
            }
        }
    }
}

/* When K was split: C = alpha * (the slices' partials, added in slice order) + beta * C. */
__kernel void reduce(const int M, const int N, const int K, const real alpha,
                     const __global real *restrict A, const int lda,
                     const __global real *restrict B, const int ldb, const real beta,
                     __global real *restrict C, const int ldc,
                     __global real *restrict W)
{
    const size_t e = get_global_id(0), count = (size_t)M * N;
    if (e >= count)
        return;
    const int slices = slice_count(K);
    real sum = 0;
    for (int s = 0; s < slices; s++)
        sum += W[s * count + e];
    __global real *c = C + e % M + (e / M) * (size_t)ldc;
    *c = beta == 0 ? alpha * sum : alpha * sum + beta * *c;
}
