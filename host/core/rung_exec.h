/* Running one entry of the registry on one device at one size: buffers, helper kernels
 * (transpose, pad, strip), the GEMM itself, and the measurement. */
#ifndef LADDER_RUNG_EXEC_H
#define LADDER_RUNG_EXEC_H

#include "core/measure.h"
#include "rungs/registry.h"
#include "core/targets.h"

/* What one device holds for one size and case: the inputs and the output, shared by every
 * rung. The matrices are stored as the case says (A is M x K, or K x M when transposed;
 * column- or row-major); kernels get the column-major call `cm` that computes the case. */
typedef struct {
    run_target *target;
    gemm_case cs;                 /* the user's case */
    long M, N, K;                 /* the user's sizes */
    gemm_colmajor cm;             /* the column-major call a kernel makes */
    size_t elem;                  /* bytes of an element: 4 or 8 */
    const void *host_a, *host_b;  /* the inputs, on the host */
    const void *host_c0;          /* C before the call (beta != 0), else NULL */
    void *host_c;                 /* scratch for fetched results */
    gpu_buffer *a, *b, *c;        /* NULL for the host target */
} size_context;

/* A, B and C0 (NULL when beta = 0) hold the case's elements (float or double). */
ladder_status size_context_open(size_context *sc, run_target *t, const gemm_size *s,
                                const gemm_case *cs, const void *A, const void *B,
                                const void *C0, void *scratch, char *msg);
void size_context_close(size_context *sc);

/* Compiled programs of one device, kept across sizes. */
typedef struct program_cache program_cache;
program_cache *program_cache_new(void);
void program_cache_free(program_cache *pc, const backend_ops *ops);
/* Releases the programs of rung `r` with these parameters (one per kernel set, where a
 * rung compiles only the kernels of a call's shape), if compiled: the tuner builds
 * hundreds of variants and needs each only while it measures it. */
void program_cache_drop(program_cache *pc, const run_target *t, const rung *r,
                        const int *values, const gemm_case *kc);

/* The program of kernel file `stem` (kernels-<backend>/<stem>.*) compiled with `options`,
 * compiled now or taken from the cache. The cache holds at most PROGRAM_CACHE_MAX; when
 * full, the program asked for longest ago is released first. */
#define PROGRAM_CACHE_MAX 64
ladder_status program_cache_get(program_cache *pc, const run_target *t, const char *stem,
                                const char *options, gpu_program **out, char *msg);

/* The arguments of one BLAS GEMM call of a kernel, column-major:
 * C = alpha * op(A) * op(B) + beta * C, op(A) is M x K with leading dimension lda, op(B)
 * K x N (ldb), C is M x N (ldc). The transposes are compiled into the kernel (TRANS_A,
 * TRANS_B; rung_compile_options): trans_a and trans_b say which it was compiled with.
 * alpha and beta reach the kernel as floats, or as doubles in double. */
typedef struct {
    int M, N, K;
    double alpha;
    gpu_buffer *A;
    int lda;
    gpu_buffer *B;
    int ldb;
    double beta;
    gpu_buffer *C;
    int ldc;
    int trans_a, trans_b;
    gemm_precision precision;
} blas_call;

/* Enqueues one call of a rung that takes a BLAS call's arguments (rung.blas_args) from
 * program `prog` (its compiled source): the one kernel `gemm` in `geometry`, or every
 * kernel of rung.launches in order, sized for a device of `compute_units` (the device's
 * own, except in tests), each also given the workspace `w` of rung_workspace() floats
 * (the caller allocates it; NULL for a rung of one kernel). A leading dimension below its
 * minimum (gemm_check_call) is LADDER_ERROR with the reason, and M = 0 or N = 0 launches
 * nothing. */
ladder_status rung_enqueue_blas(const run_target *t, gpu_program *prog, const rung *r,
                                const int *values, const blas_call *call, int compute_units,
                                gpu_buffer *w, char *msg);

/* Measures rung `r` with parameter `values` (already resolved for this device) in the
 * size context's case; LADDER_UNSUPPORTED with the reason when the rung cannot take it
 * (rung_check_case). */
ladder_status exec_rung(size_context *sc, program_cache *pc, const rung *r, const int *values,
                        const measure_job *defaults, measure_result *out, char *msg);

#endif
