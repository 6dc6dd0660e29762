/* The registry: the table of rungs and baselines.
 *
 * A rung is a pair of kernel sources (kernels-opencl/<id>.cl, kernels-cuda/<id>.cu) plus one
 * entry here: its parameters and their defaults, the sizes it accepts, its launch geometry,
 * the helper kernels it needs and the local memory it uses. Adding a rung means adding two
 * kernel files and one entry; the runner, the verifier and the CLI read everything else
 * from this table.
 *
 * Kernel contract (both languages): a kernel named `gemm` taking
 *     (const int M, const int N, const int K, const float *A, const float *B, float *C)
 * column-major: A is MxK (A[m + k*M]), B is KxN (B[k + n*K]), C is MxN (C[m + n*M]).
 * If the rung sets `transposes_b`, the B argument is B^T, an NxK column-major matrix
 * (Bt[n + k*N]) made by the helper kernel. If it sets `pads`, M, N and K are the padded
 * sizes (multiples of the rung's tiles) and A, B, C the padded copies. If it sets
 * `aligns`, M, N and K are the true sizes and C is C, but A and B^T have leading
 * dimensions rounded up to a multiple of RUNG_ALIGNED_COLUMN (A[m + k*lda], lda = M
 * rounded up).
 * Parameters reach the source as preprocessor defines (-DTS=32 ...).
 * A rung that sets `blas_args` takes the arguments of a BLAS SGEMM instead:
 *     (M, N, K, float alpha, A, int lda, B, int ldb, float beta, C, int ldc)
 * and computes C = alpha * A * B + beta * C, reading C only when beta is not 0. The
 * harness passes the case's alpha and beta (ladder run --alpha, --beta: 1 and 0 unless
 * asked) and tight leading dimensions, as it calls the libraries; with alpha = 0 it
 * passes K = 0, so that A and B are never read (BLAS). A rung whose call is several kernels (rung.launches: split-K's GEMM and
 * reduction) takes those arguments in every kernel, and a workspace W after ldc.
 *
 * The rest of a BLAS call (precision, transposes, layout):
 *   - Precision. A rung that sets `takes_double` computes in double when compiled with
 *     -DLADDER_DOUBLE=1: its source includes the folder's precision header
 *     (kernels-opencl/real.h, kernels-cuda/real.cuh), which defines `real` (float or
 *     double) and its vector types, and uses them for every matrix element. Without the
 *     define it is the float kernel, unchanged. The harness then hands it buffers of
 *     doubles, alpha and beta as doubles (ARG_DOUBLE), and scales local_mem_bytes() (given
 *     for float) by the element size.
 *   - Transposes. A `blas_args` rung that sets `takes_transposes` honors -DTRANS_A=0|1 and
 *     -DTRANS_B=0|1 (both always given to it): with TRANS_A=1 the A argument holds A^T, a
 *     KxM column-major matrix (A(m,k) = A[k + m*lda], lda >= K); with TRANS_B=1 B holds
 *     B^T, NxK (B(k,n) = B[n + k*ldb], ldb >= N). A rung that runs helper kernels
 *     (transposes_b, pads) and takes no BLAS arguments gets every pair without these
 *     defines: its helpers copy the operands into the layout its kernel reads
 *     (rung_transposes_by_helpers).
 *   - Layout. No kernel sees row-major: a row-major C = op(A) op(B) is the column-major
 *     C^T = op(B)^T op(A)^T, so the harness swaps A and B (and M and N, and the transpose
 *     flags' operands) and calls the same column-major kernel, as BLAS wrappers do.
 */
#ifndef LADDER_REGISTRY_H
#define LADDER_REGISTRY_H

#include <stddef.h>
#include "backends/backend.h"
#include "base/sizes.h"
#include "base/status.h"

#define RUNG_MAX_PARAMS 8

/* The multiple that a rung which `aligns` gets its columns of A and B^T rounded up to, in
 * elements: 32, so that in float every column starts on a 128-byte cache line (in double
 * on every second one). The kernel gets it as -DCOLUMN (rung_compile_options);
 * kernels-cuda/29-unpadded.cu says why. */
#define RUNG_ALIGNED_COLUMN 32

typedef struct {
    const char *name;  /* the preprocessor define, e.g. "TS" */
    int value;         /* default: chosen to be fast on the H100 */
    int small_value;   /* default for small devices (32 KiB local memory, 256 work-items);
                          0 means the same as `value` */
    int min, max;      /* accepted range, before the rung's own validate() */
    const char *meaning;
    /* The values `ladder tune` tries (write them with CHOICES(...)); NULL means the powers
     * of two from min to max (and 0 when min is 0). The tuner tries every combination
     * of these lists that validate() and the device accept, so keep them short: the
     * product of the list lengths is the size of the search. */
    const int *choices;
    int nchoices;
    /* PER_SHAPE when the best value depends on the shape more than on the device (split-K's
     * split count): the profiler of the shape-aware entry tries each of its choices on
     * every shape, on top of the tuned or default values of the rest. 0 otherwise. */
    int per_shape;
} rung_param;

/* Written after CHOICES(...) in a rung_param: see rung_param.per_shape. */
#define PER_SHAPE 1

/* CHOICES(8, 16, 32) fills both `choices` and `nchoices` of a rung_param. */
#define CHOICES(...)                                                                     \
    (const int[]){__VA_ARGS__}, (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int))

/* The GROUP parameter of kernels-cuda/grouped_tile.cuh (rungs 24 and 25): rows of tiles
 * per group of consecutive blocks, so that a wave shares panels of A in the L2. */
#define GROUPED_TILE_PARAM(value, ...)                                                   \
    {"GROUP", value, 0, 0, 64,                                                           \
     "rows of tiles per group of blocks (0: one column of tiles after another)",         \
     CHOICES(__VA_ARGS__)}

/* What `ladder tune` tries for the tile of rungs 5 and up: 64 to 256 on a side, 8 to 32
 * deep (rungs_classic.c says why). */
#define TILE_EDGES CHOICES(64, 128, 256)
#define TILE_DEPTHS CHOICES(8, 16, 32)

/* Most candidate values one parameter may have. */
#define RUNG_MAX_CHOICES 16

/* One kernel launch of a call to a rung of several kernels (see rung.launches). */
typedef struct {
    const char *kernel; /* a kernel of the rung's source file: "gemm", "reduce" */
    launch_dims dims;
} rung_launch;

/* Most kernels one call launches. */
#define RUNG_MAX_LAUNCHES 4

/* The boxes (tiles) of A and B that a kernel fed by TMA copies (rung.tma_boxes): boxes of
 * a_rows x a_cols of A (rows along M) and b_rows x b_cols of B (rows along K), laid out in
 * shared memory with the given swizzle (0, 32, 64 or 128 bytes). */
typedef struct {
    int a_rows, a_cols, b_rows, b_cols;
    int swizzle_bytes;
} rung_tma_boxes;

/* The sizes a call's kernels see, the device's compute units and the bytes of one matrix
 * element (for kernels that size their grid to the device: Stream-K's wave is as many
 * blocks as fit on it at once, twice as many in float as in double). */
typedef struct {
    int M, N, K;
    int compute_units;
    int element_bytes; /* 4 (float) or 8 (double); 0 is read as 4 */
    int trans_a, trans_b; /* the pair the kernels were compiled for (TRANS_A, TRANS_B):
                             0 where the rung takes no transposes (or its helpers do) */
} launch_shape;

typedef enum {
    RUNG_KERNEL,  /* one of our kernels, compiled at run time */
    RUNG_LIBRARY, /* the backend's vendor library (cuBLAS, CLBlast); `library_call` says
                     which of the backend's library calls */
    RUNG_HOST,    /* the CPU's BLAS through CBLAS, timed on the host */
    RUNG_AUTO,    /* the shape-aware entry "auto": for each shape it runs the rung and the
                     parameters a selection table names (params/selection.h) */
} rung_kind;

/* The calls of a vendor library that the baselines make (backend_ops). */
typedef enum {
    LIBRARY_SGEMM,      /* library_sgemm: float32 arithmetic, the bar for the rungs */
    LIBRARY_SGEMM_TF32, /* library_sgemm_tf32: SGEMM on the TF32 tensor cores */
} library_call;

typedef struct rung {
    int number;        /* 1, 2, ... for kernels; 0 for baselines and "auto" */
    const char *id;    /* file stem "01-naive"; for baselines "cublas", "clblast", "cpu" */
    const char *name;  /* short name: "naive" */
    const char *title; /* chapter title */
    const char *idea;  /* one line for `ladder list` */
    /* The lineage: the rung whose kernel this one changes, the base of `ladder diff` and of
     * the step gain (the chapters say which; kernel rungs from 2 on name a lower-numbered
     * one, so the ladder is a tree); 0 for rung 1 and the baselines. */
    int parent;
    /* A second rung whose idea this one takes without starting from its kernel (rung 17
     * is rung 9's kernel with rung 13's pipeline); 0 for none. The lineage figure draws it
     * dashed; the diff and the step gain stay with `parent`. */
    int second_parent;
    rung_kind kind;
    const char *library_backend; /* for RUNG_LIBRARY: "cuda" or "opencl" */
    library_call library_call;   /* for RUNG_LIBRARY: which call of the backend's library */

    int nparams;
    rung_param params[RUNG_MAX_PARAMS];

    /* Checks a parameter combination (divisibility and the like). Returns
     * LADDER_UNSUPPORTED with the reason in msg when the combination is invalid. May be
     * NULL when any values in the declared ranges work. */
    ladder_status (*validate)(const int *p, char *msg);

    /* The multiples of M, N and K the kernel needs (1 = any size). NULL = any size. */
    void (*multiples)(const int *p, int mult[3]);
    /* For a rung designed for some shapes only (rung 20: M or N up to 16): returns
     * LADDER_UNSUPPORTED with the reason in msg for a size it refuses, after `multiples`
     * (rung_check_size calls both). NULL: every size that `multiples` allows. */
    ladder_status (*check_size)(const int *p, const gemm_size *s, char *msg);
    /* What `ladder list` says of the sizes it takes, when check_size refuses some (e.g.
     * "M or N from 1 to 16, any K"); NULL: said from `multiples` and `pads`. */
    const char *sizes;
    int pads;         /* 1: the runner pads A and B with zeros up to the multiples and
                         strips C afterwards, so every size runs */
    int transposes_b; /* 1: the kernel reads B^T, made by a helper kernel */
    /* 1 (with transposes_b, without pads): the kernel takes the true M, N and K, handles
     * the tiles' edges itself and writes C as it lies, but reads A and B^T in 16-byte
     * pieces that must not straddle cache lines: the helpers give it A and B^T with
     * leading dimensions of M and N rounded up to a multiple of RUNG_ALIGNED_COLUMN (their
     * extra rows zero), A as it lies when M is one already. Rung 29. */
    int aligns;
    int blas_args;    /* 1: the kernel takes alpha, beta and leading dimensions (above) */
    /* Unit roundoff u of the kernel's arithmetic, for the verification bound
     * |c - r| <= K u (|A||B|); 0 means float32's 2^-24. Larger for kernels that multiply in
     * a narrower format (rung 16's split TF32 products). */
    double unit_roundoff;
    /* Unit roundoff of the format each input is rounded to before it is multiplied (cuBLAS
     * TF32: 2^-10, TF32's 10 fraction bits, truncated); 0 means the inputs are used as
     * they are. The bound then adds the inputs' rounding to the sums' (core/verify.h). */
    double input_roundoff;

    /* The precision switch (above): 1 when the source computes in double under
     * -DLADDER_DOUBLE=1. When 0, a double case is reported unsupported with
     * no_double_reason (NULL: "its kernel is written for float only"). The tensor-core
     * rungs say why they cannot. */
    int takes_double;
    const char *no_double_reason;
    /* Its mirror, for a rung that computes in double only (rung 25, on the FP64 tensor
     * cores): non-NULL says why, and a single-precision case is then reported unsupported
     * with this reason. NULL for every rung that takes single. */
    const char *no_single_reason;
    /* 1 for a blas_args rung whose kernels honor TRANS_A and TRANS_B (above). A rung with
     * helper kernels (transposes_b or pads, without blas_args) takes every pair without
     * it: its helpers put op(A) and op(B) into the layout its kernel reads
     * (rung_transposes_by_helpers). A transposed case on any other rung is reported
     * unsupported. */
    int takes_transposes;

    /* Launch geometry for the sizes the kernel sees (padded sizes if `pads`). For a rung
     * of several kernels: the main kernel's, whose work-group is the largest. */
    void (*geometry)(const int *p, int M, int N, launch_dims *dims);

    /* Rungs of several kernels (split-K's reduction, a kernel that scales C first): fills
     * `out` with the kernels one call launches, in order, and returns how many (at most
     * RUNG_MAX_LAUNCHES). NULL: the one kernel `gemm`, launched with `geometry`. Such a
     * rung sets blas_args, and every kernel of its file takes the BLAS arguments and a
     * workspace:  (M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, W). */
    int (*launches)(const int *p, const launch_shape *shape, rung_launch *out);
    /* Floats of device scratch memory W those kernels need at this shape; NULL: none (W
     * is then a buffer of one float, never read). The harness fills W with NaN before the
     * verified run, so a kernel that reads what no kernel wrote fails verification. */
    size_t (*workspace_floats)(const int *p, const launch_shape *shape);
    /* Of those, the last ones that hold counters the kernels keep between calls (rung 28:
     * one int per tile of C, counting the slices done): the harness sets them to zero
     * bits, not NaN, and each call must leave them so. NULL: none. */
    size_t (*workspace_counters)(const int *p, const launch_shape *shape);
    /* CUDA only: defines that depend on the call's shape, added to that call's compile
     * options (rung_call_options). NVRTC compiles every kernel of a file; rung 20's holds
     * ten and a call launches one of them (and `reduce`), so it names that one and the
     * others compile empty: 0.5 s instead of 3.6, most of what a candidate costs `ladder
     * select`. The OpenCL files are compiled whole. NULL: none. */
    void (*cuda_call_defines)(const int *p, const launch_shape *shape, char *out,
                              size_t size);
    /* Whether a call at this shape reads parameter `param` (an index into params): its
     * kernels' work depends on it. NULL: every parameter counts everywhere. Rung 20's
     * tall kernels never read the wide path's KL, WC and WU, nor its wide kernels the
     * tall path's RX and TQ; ladder select measures one candidate, not one per value of
     * a parameter the shape ignores. */
    int (*reads_param)(int param, const launch_shape *shape);
    /* The fallback rule of `ladder run --rungs auto` (params/selection.c), at a shape no
     * selection table has: `p` holds the parameters a run gives the rung (tuned for the
     * size class, else the defaults), and the rung sets its PER_SHAPE ones for this shape
     * and device without measuring (split-K: its tile from M and N, and enough slices to
     * fill the compute units). NULL: those parameters stand. */
    void (*rule_params)(int *p, const gemm_size *s, const device_info *dev);

    /* Local (shared) memory one work-group uses, in bytes. NULL = none. */
    size_t (*local_mem_bytes)(const int *p);

    /* The one backend that has this rung ("cuda"), or NULL when both have it; elsewhere
     * the rung is reported unsupported with `only_reason`. */
    const char *only_backend;
    const char *only_reason;
    /* Lowest NVIDIA compute capability (major * 10 + minor) the CUDA kernel needs; 0 =
     * any. */
    int cuda_min_cc;
    /* 1 when the CUDA kernel uses instructions that only the arch-specific target of
     * exactly that generation has (wgmma: sm_90a): it is compiled for sm_XYa, XY =
     * cuda_min_cc, and a device of another compute capability reports it unsupported.
     * Such kernels take their shared memory dynamically (backend_cuda.c says how), so
     * they may use up to the device's opt-in limit. */
    int cuda_arch_specific;
    /* 1 when the CUDA kernel takes its shared memory dynamically (it names a
     * <kernel>_dynamic_shared global: backend_cuda.c, read_dynamic_shared), so it may use
     * up to the device's opt-in limit instead of static memory's 48 KiB. Arch-specific
     * kernels always do. */
    int cuda_dynamic_shared;
    /* For a blas_args rung whose kernel loads its tiles with TMA copies: the boxes. The
     * kernel then takes two tensor maps after the BLAS arguments, of A (M x K, lda) and
     * of B (K x N, ldb), made by the backend from those boxes (ARG_TENSOR_MAP). NULL:
     * none. */
    void (*tma_boxes)(const int *p, rung_tma_boxes *out);

    /* 1 when these parameters use OpenCL sub-group functions (CUDA always has warp
     * shuffles). Such a build gets an OpenCL C 2.0+ standard option, and a device
     * without sub-groups reports the rung unsupported. NULL = never. */
    int (*uses_subgroups)(const int *p);
} rung;

/* The unit roundoff that verification uses for this rung in precision `p`: in single,
 * rung.unit_roundoff (2^-24 when 0); in double, 2^-53 (a rung that multiplies in a
 * narrower format does not take double). */
double rung_unit_roundoff(const rung *r, gemm_precision p);

/* The precision a rung computes in when the case does not say: double for a rung that
 * takes no single (no_single_reason), else single. What checks of "the rung as it runs"
 * (its defaults fit a device, it compiles, it can be tuned) ask for. */
gemm_precision rung_own_precision(const rung *r);

/* 1 when kernel rung `r` takes transposed operands through its helper kernels, not in its
 * kernel: a rung that already runs helpers before its GEMM (transposes_b: B^T made from
 * B; pads: padded copies) and takes no BLAS arguments. Its helpers then copy each operand
 * from the layout the caller gave into the one the kernel reads (A^T is transposed into
 * A; B^T, given, is what a transposes_b kernel reads: copied only if padded, else passed
 * as it is), as CLBlast's indirect GEMM does. The kernel multiplies NN in every pair,
 * so its tuned NN entry serves every pair (rung_kernel_case). */
int rung_transposes_by_helpers(const rung *r);

/* 1 when `r` takes the transpose pairs NT, TN and TT: in its kernel (takes_transposes) or
 * through its helpers. */
int rung_takes_pairs(const rung *r);

/* The case rung `r`'s kernel computes when the harness runs case `c`: `c` itself, with the
 * pair NN for a rung whose helpers do the transposing. What a tuned entry is looked up
 * by, and tuned in. */
gemm_case rung_kernel_case(const rung *r, const gemm_case *c);

/* LADDER_UNSUPPORTED with the reason when entry `r` cannot run case `c`: double on a
 * rung without takes_double, single on one with no_single_reason, transposes on one that
 * takes no pairs (rung_takes_pairs), alpha != 1 or beta != 0 on one without blas_args. Every layout runs (registry comment above). The
 * baselines take every case; "auto" is decided when its choice is known. */
ladder_status rung_check_case(const rung *r, const gemm_case *c, char *msg);

/* 1 when the rung's arithmetic is float32's: u = 2^-24 and inputs used as they are. A
 * vendor library that is not (cuBLAS in TF32) is a baseline of its own, labelled reduced
 * precision, and never the bar other rows are a fraction of (vs_library). */
int rung_float32_accurate(const rung *r);

/* All entries: kernel rungs in order, the shape-aware entry "auto", then the baselines. */
const rung *registry_all(int *count);

/* By number ("3"), name ("tiling"), id ("03-tiling"), baseline name ("cublas") or
 * "auto"; NULL if none matches. */
const rung *registry_find(const char *key);

/* The kernel rung numbered `number`, or NULL. */
const rung *registry_find_number(int number);

/* The kernel rung that `r` changes (rung.parent), or NULL for rung 1 and the baselines. */
const rung *rung_parent(const rung *r);

/* The nearest ancestor of kernel rung `number` (its parent, else the parent's parent, ...)
 * for which ran(ancestor, ctx) is 1: what a step gain compares a rung with when its parent
 * has no figure. 0 when none has, or `number` is no kernel rung's. */
int rung_nearest_ancestor(int number, int (*ran)(int ancestor, const void *ctx),
                          const void *ctx);

/* Index of parameter `name` in `r`, or -1. */
int rung_param_index(const rung *r, const char *name);

/* The rung's default parameter values; `small` selects the small-device defaults. */
void rung_defaults(const rung *r, int small, int *values);

/* The candidate values of parameter `p` for the tuner (see rung_param.choices), at most
 * RUNG_MAX_CHOICES of them, into `out`; returns how many. */
int rung_param_choices(const rung_param *p, int *out);

/* For validate() functions: LADDER_OK when `divisor` divides `value`, else
 * LADDER_UNSUPPORTED with "<what> (<divisor> does not divide <value>)" in msg. */
ladder_status rung_need_divides(int divisor, int value, const char *what, char *msg);

/* For rungs whose first parameters are TSM, TSN, TSK: M, N and K must be multiples of
 * them (a `multiples` function). */
void rung_tile_multiples(const int *p, int mult[3]);

/* For rungs whose first parameters are TSM, TSN, TSK and whose local memory is rung 9's
 * two buffers of a TSK x TSM tile of A and a TSK x TSN tile of B^T, unpadded (rungs 9, 10
 * and 30): its bytes in float. Defined in rungs_classic.c. */
size_t prefetch_tiles_local_mem(const int *p);

/* ceil(n / d), for the grids and workspaces the rung files compute. */
size_t rung_ceil_div(size_t n, size_t d);

/* Floats of workspace one call of rung `r` needs at `shape`: 0 for a rung of one kernel,
 * at least 1 for a rung of several (their kernels always take a W; see rung.launches). */
size_t rung_workspace(const rung *r, const int *values, const launch_shape *shape);

/* Fills `w`, a host copy of that workspace (`elems` elements of `elem_bytes`), as a call
 * must find it: NaN, so that a kernel that reads what no kernel wrote fails verification,
 * except the rung's counters (rung.workspace_counters), which are zero. */
void rung_workspace_fill(const rung *r, const int *values, const launch_shape *shape,
                         void *w, size_t elems, size_t elem_bytes);

/* Checks values against the declared ranges and the rung's validate(). */
ladder_status rung_check_params(const rung *r, const int *values, char *msg);

/* LADDER_UNSUPPORTED (with the reason) when rung `r` with these parameters cannot take
 * the size: rungs that do not pad need multiples of their tiles, and a rung with a
 * check_size may refuse shapes it is not designed for. */
ladder_status rung_check_size(const rung *r, const int *values, const gemm_size *s,
                              char *msg);

/* "TS=32 WPT=8" (for tables and result files). */
void rung_params_string(const rung *r, const int *values, char *out, size_t size);

/* The inverse of rung_params_string: "TS=32 WPT=8" into values. Every parameter of the
 * rung must appear exactly once; LADDER_ERROR with the reason otherwise. (Ranges are
 * rung_check_params's job.) */
ladder_status rung_params_parse(const rung *r, const char *text, int *values, char *msg);

/* The compile options of one call: rung_compile_options, then on CUDA the rung's
 * cuda_call_defines for the call's shape. */
void rung_call_options(const rung *r, const int *values, const device_info *dev,
                       const gemm_case *kc, const launch_shape *shape, char *out, size_t size);

/* "-DTS=32 -DWPT=8" (compiler options). */
void rung_params_defines(const rung *r, const int *values, char *out, size_t size);

/* The compiler options for a backend: the defines, plus for OpenCL sub-group builds the
 * OpenCL C standard that has them, plus the case (registry comment above): -DLADDER_DOUBLE=1
 * in double, and -DTRANS_A=0|1 -DTRANS_B=0|1 for a rung that takes transposes. `kc` is the
 * case as the column-major call makes it (gemm_colmajor); NULL is the default case. */
void rung_compile_options(const rung *r, const int *values, const device_info *dev,
                          const gemm_case *kc, char *out, size_t size);

/* For a RUNG_LIBRARY entry: 1 when `ops` is its library's backend and has its call. */
int rung_library_present(const rung *r, const backend_ops *ops);

/* 1 when the backend ("opencl", "cuda") has this rung (see only_backend). */
int rung_on_backend(const rung *r, const char *backend);

/* Checks the parameters against what the device has (local memory, work-group size) in
 * precision `p` (local_mem_bytes, given for float, scaled by the element size).
 * LADDER_UNSUPPORTED with the reason when the device cannot take them. */
ladder_status rung_check_device(const rung *r, const int *values, const device_info *dev,
                                gemm_precision p, char *msg);

/* The tables, one file each, concatenated by registry.c. */
extern const rung rungs_basic[];   /* rungs 1-3: rungs_basic.c */
extern const int rungs_basic_count;
extern const rung rungs_classic[]; /* rungs 4-10: rungs_classic.c */
extern const int rungs_classic_count;
extern const rung rungs_modern[];  /* rungs 11-18: rungs_modern.c */
extern const int rungs_modern_count;
extern const rung rungs_splitk[];  /* rung 19: rungs_splitk.c */
extern const int rungs_splitk_count;
extern const rung rungs_skinny[];  /* rung 20: rungs_skinny.c */
extern const int rungs_skinny_count;
extern const rung rungs_hopper[];  /* rungs 21-24: rungs_hopper.c */
extern const int rungs_hopper_count;
extern const rung rungs_dmma[];    /* rung 25: rungs_dmma.c */
extern const int rungs_dmma_count;
extern const rung rungs_streamk[]; /* rung 26: rungs_streamk.c */
extern const int rungs_streamk_count;
extern const rung rungs_cpucore[]; /* rung 27: rungs_cpucore.c */
extern const int rungs_cpucore_count;
extern const rung rungs_lastslice[]; /* rung 28: rungs_lastslice.c */
extern const int rungs_lastslice_count;
extern const rung rungs_unpadded[]; /* rung 29: rungs_unpadded.c */
extern const int rungs_unpadded_count;
extern const rung rungs_scalars[]; /* rung 30: rungs_scalars.c */
extern const int rungs_scalars_count;

#endif
