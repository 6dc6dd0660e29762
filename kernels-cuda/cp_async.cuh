/* cp.async, the copy from global to shared memory that bypasses registers (compute
 * capability 8.0+), as rungs 13 and 18 use it, in either precision (real.cuh).
 *
 * A copy moves `bytes` (4, 8 or 16) from global src to shared dst, of which only the first
 * `valid` bytes are read from src; the rest of dst is filled with zeros (the src-size
 * operand), which is how the kernels zero-fill the edges of their tiles without a branch
 * per element. Copies are grouped (commit_group) and waited for by group (wait_group):
 * the kernels keep one group per step of their pipeline.
 * .cg (16 bytes only) keeps the data out of L1: each tile is read once per block, so only
 * L2 helps. Smaller copies must go through L1 (.ca), which also catches the other lanes'
 * reads of the same sector.
 */
#ifndef LADDER_CP_ASYNC_CUH
#define LADDER_CP_ASYNC_CUH

#include "real.cuh"

/* A piece of 4 reals: one 16-byte copy in float, two in double (no copy is wider). A half
 * that reads nothing keeps the piece's own address, so no address outside the matrix is
 * formed when the caller passes a valid one. */
__device__ inline void copy16(void *dst, const real *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if (sizeof(real4) == 16) { /* float: the piece is one copy */
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                     "r"(valid));
    } else { /* double: two halves of 2 doubles */
        const int v1 = min(valid, 16), v2 = max(valid - 16, 0);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                     "r"(v1));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d + 16),
                     "l"(v2 ? src + 2 : src), "r"(v2));
    }
}

/* One real: 4 bytes, or 8 in double. */
__device__ inline void copy4(void *dst, const real *src, int valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src),
                 "n"((int)sizeof(real)), "r"(valid));
}

__device__ inline void commit_group() { asm volatile("cp.async.commit_group;\n" ::); }

/* Waits until at most N of this thread's groups are still in flight. */
template <int N> __device__ inline void wait_group()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* Bytes of a run of `len` reals starting at `start` that lie before `end`:
 * sizeof(real) * clamp(end - start, 0, len). */
__device__ inline int valid_bytes(int start, int end, int len)
{
    const int n = end - start;
    return (int)sizeof(real) * (n < 0 ? 0 : n > len ? len : n);
}

#endif
