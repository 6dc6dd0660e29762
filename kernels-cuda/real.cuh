/* The precision switch, included by every CUDA kernel that can compute in double.
 *
 * A kernel writes its matrix elements, accumulators and vectors as `real`, `real2`,
 * `real4`; the host compiles it once per precision, with -DLADDER_DOUBLE=1 for double
 * (host/rungs/registry.h, "The rest of a BLAS call"). One source, two precisions: a
 * second copy of each kernel would drift from the first.
 * Why it is not free: a double is 8 bytes, so a tile of the same edge takes twice the
 * shared memory and registers, a real4 is 32 bytes (two 16-byte loads: no load is wider
 * on this hardware), and most GPUs multiply doubles at a fraction of the float rate (1/2
 * on datacenter cards, 1/32 or 1/64 on consumer ones).
 * Write literals as (real)1 rather than 1.0f, which would round a double operand to float.
 */
#ifndef LADDER_REAL_CUH
#define LADDER_REAL_CUH

#ifdef LADDER_DOUBLE
typedef double real;
typedef double2 real2;
#define make_real2 make_double2
/* CUDA 13 names the 32-byte vector by its alignment; older toolkits call it double4. */
#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 13
typedef double4_32a real4;
#define make_real4 make_double4_32a
#else
typedef double4 real4;
#define make_real4 make_double4
#endif
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
#define make_real2 make_float2
#define make_real4 make_float4
#endif

/* 32-bit registers one element takes (1 or 2). Kernels that ask __launch_bounds__ for
 * room for 512 threads per SM ask for 512 / REAL_WORDS: the same register file holds half
 * as many double accumulators, and a cap of 128 registers would make a double kernel
 * spill. */
#define REAL_WORDS ((int)(sizeof(real) / 4))

/* The rest of the case: the transposes of a BLAS-call rung that takes them (registry.h).
 * The harness always gives both; a compile that leaves them out (ptxas reports, a student
 * trying a kernel) gets NN, the kernel as it was before transposes. */
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

#endif
