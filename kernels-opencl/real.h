/* The precision switch, included by every OpenCL kernel that can compute in double.
 *
 * A kernel writes its matrix elements, accumulators and vectors as `real`, `real2`,
 * `real4`, `real8`; the host compiles it once per precision, with -DLADDER_DOUBLE=1 for
 * double (host/rungs/registry.h, "The rest of a BLAS call"). One source, two precisions,
 * as CLBlast does it: a second copy of each kernel would drift from the first.
 * Why it is not free: a double is 8 bytes, so a tile of the same edge takes twice the
 * local memory and registers, a real4 load moves 32 bytes, and most GPUs multiply doubles
 * at a fraction of the float rate (1/2 on datacenter cards, 1/32 or 1/64 on consumer ones).
 * Write literals as (real)1 rather than 1.0f, which would round a double operand to float.
 */
#ifndef LADDER_REAL_H
#define LADDER_REAL_H

#ifdef LADDER_DOUBLE
/* Optional before OpenCL C 1.2, where double is an extension a kernel must enable. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
#endif

/* The rest of the case: the transposes of a BLAS-call rung that takes them (registry.h).
 * The harness always gives both; a compile that leaves them out (a student trying a
 * kernel) gets NN, the kernel as it was before transposes. */
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

#endif
