/* Hopper's own instructions, shared by rungs 21-23 (compute capability 9.0, sm_90a).
 *
 * Three pieces of hardware that Ampere does not have, each reached through inline PTX:
 *
 *   TMA, the tensor memory accelerator (cp.async.bulk.tensor): one thread asks for a whole
 *     box (tile) of a matrix. The copy engine computes every address from a tensor map, a
 *     128-byte description of the matrix made on the host (cuTensorMapEncodeTiled: base
 *     address, extents, leading dimension, box size, swizzle), and writes zeros where the
 *     box leaves the matrix: the edges cost the kernel nothing.
 *   mbarriers: barrier objects in shared memory. A copy announces how many bytes it will
 *     bring (expect_tx); the barrier's phase completes when they have all landed; threads
 *     wait for a phase by its parity (0, 1, 0, ...), so one barrier serves a stage of a
 *     pipeline for the whole kernel.
 *   wgmma, warpgroup MMA: the four warps of a warpgroup (128 threads) issue one
 *     asynchronous 64 x N x 8 product (TF32 inputs, float32 sums). B comes from shared
 *     memory through a 64-bit descriptor (address, strides, swizzle); A from registers
 *     here; D stays in registers, N/2 floats per thread.
 *
 * The shared-memory layout both the copy engine and the tensor cores agree on here is the
 * 128-byte swizzle: a box whose rows are 128 bytes (32 floats) is stored row after row,
 * but the 16-byte piece p of row r lands at piece p ^ (r % 8). Eight consecutive rows then
 * spread any one column over all 32 banks. Boxes start at multiples of 1024 bytes (eight
 * rows), so the pattern starts afresh at each.
 */
#ifndef LADDER_HOPPER_CUH
#define LADDER_HOPPER_CUH

/* The tensor map as the kernel sees it: 128 opaque bytes, aligned to 64, passed by value
 * as a __grid_constant__ parameter so that its address is in the constant bank where the
 * copy engine can read it. (cuda.h's CUtensorMap; NVRTC has no cuda.h.) */
struct __align__(64) TensorMap {
    unsigned long long opaque[16];
};

__device__ inline unsigned smem_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* ---- mbarriers ---------------------------------------------------------------------- */

/* A barrier whose phase completes after `arrivals` arrivals and the bytes they announce. */
__device__ inline void barrier_init(unsigned long long *bar, int arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(bar)),
                 "r"(arrivals));
}
/* Makes the initialized barriers visible to the copy engine (the async proxy). */
__device__ inline void barrier_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
/* One arrival that also announces `bytes` still to come from copies. */
__device__ inline void barrier_expect(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smem_address(bar)),
                 "r"(bytes)
                 : "memory");
}
/* A plain arrival (the consumers' "this stage is free again"). */
__device__ inline void barrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_address(bar))
                 : "memory");
}
/* Waits until the phase of parity `parity` has completed. */
__device__ inline void barrier_wait(unsigned long long *bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait;\n"
                 "}" ::"r"(smem_address(bar)),
                 "r"(parity)
                 : "memory");
}

/* ---- TMA ---------------------------------------------------------------------------- */

/* Copies the box whose first element is (row, col) of the matrix of `map` into dst
 * (1024-byte aligned), completing on `bar`. Rows count along dimension 0 (contiguous). */
__device__ inline void tma_load(void *dst, const TensorMap *map, int row, int col,
                                unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                 "bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_address(dst)),
                 "l"((unsigned long long)map), "r"(row), "r"(col), "r"(smem_address(bar))
                 : "memory");
}

/* The copies of one k-tile, announced on `bar`: A's TSM x 32 tile (from row m0, column
 * k0) as TSM/32 boxes of 32 x 32 into `a`, B's 32 x TSN tile (from row k0, column n0) as
 * one box into `b`. The boxes' shapes are the registry's (rungs_hopper.c). */
__device__ inline void tma_load_tiles(float *a, float *b, const TensorMap *mapA,
                                      const TensorMap *mapB, int m0, int n0, int k0,
                                      unsigned long long *bar)
{
    barrier_expect(bar, (TSM + TSN) * 32 * 4);
    for (int j = 0; j < TSM / 32; j++)
        tma_load(a + j * 32 * 32, mapA, m0 + j * 32, k0, bar);
    tma_load(b, mapB, k0, n0, bar);
}

/* The producer's loop (rungs 23 and up): the copies of every k-tile into stage kt %
 * STAGES, each stage refilled once the consumers have released it on `empty` (the
 * release of tile kt - STAGES completes that barrier's phase (kt - STAGES) / STAGES). */
__device__ inline void produce_tiles(int tiles, float *As, float *Bs, const TensorMap *mapA,
                                     const TensorMap *mapB, int m0, int n0,
                                     unsigned long long *full, unsigned long long *empty)
{
    for (int kt = 0; kt < tiles; kt++) {
        const int s = kt % STAGES;
        if (kt >= STAGES)
            barrier_wait(&empty[s], ((kt - STAGES) / STAGES) & 1);
        tma_load_tiles(As + s * TSM * 32, Bs + s * TSN * 32, mapA, mapB, m0, n0, kt * 32,
                       &full[s]);
    }
}

/* The dynamic shared memory from its first multiple of 1024 bytes (the 128-byte swizzle
 * repeats every 8 rows of 128 bytes; the kernels ask for 1024 bytes more than they use). */
__device__ inline float *aligned_shared(unsigned char *raw)
{
    return (float *)(raw + ((1024 - (smem_address(raw) & 1023)) & 1023));
}

/* ---- wgmma -------------------------------------------------------------------------- */

/* The descriptor of a K-major operand in shared memory with the 128-byte swizzle: rows of
 * 32 floats (128 bytes), groups of 8 rows 1024 bytes apart (the stride byte offset, SBO),
 * the leading byte offset unused by this layout (1 by convention). Addresses and offsets
 * are in units of 16 bytes; 1 in bits 62-63 selects the 128-byte swizzle. */
__device__ inline unsigned long long smem_descriptor(const float *tile)
{
    const unsigned long long address = (smem_address(tile) & 0x3FFFF) >> 4;
    return address | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

/* Orders this thread's register and shared-memory accesses before the wgmmas that
 * follow (required before the first wgmma and whenever the accumulators were touched). */
__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
/* Closes the group of wgmmas issued since the last commit. */
__device__ inline void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
/* Waits until at most N committed groups are still running. */
template <int N> __device__ inline void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/* Shared memory written by ordinary stores that the tensor cores or the copy engine read
 * next: each writing thread fences before the barrier that publishes it. */
__device__ inline void fence_async_shared()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* Warp specialization: a warpgroup gives registers back (the producer, which only
 * copies) or takes more (the consumers, which hold the accumulators). Takes effect only
 * with a register cap at entry (__launch_bounds__(threads, 1)). */
template <int REGS> __device__ inline void registers_down()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGS));
}
template <int REGS> __device__ inline void registers_up()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGS));
}

/* A barrier among `threads` threads only (named barrier `id`, 1-15; 0 is __syncthreads). */
__device__ inline void group_sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/* x rounded to the nearest TF32 value (10 mantissa bits, ties away from zero), as a
 * float's bits: add half of the last kept bit, drop the 13 bits below it. This is what
 * cvt.rna.tf32.f32 computes for finite x, in 2 integer instructions where the compiler
 * makes 4 of cvt.rna (it also guards infinities; here an infinity stays one, and a NaN
 * stays a NaN or becomes an infinity, whose split then gives NaN all the same). */
__device__ inline unsigned to_tf32(float x)
{
    return (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
}

/* Element (m, k) of an A tile copied as boxes of 32 (m) x 32 (k) floats with the 128-byte
 * swizzle: box m / 32 (1024 floats each), row k (32 floats), 16-byte piece (m % 32) / 4
 * moved to piece ((m % 32) / 4) ^ (k % 8). */
__device__ inline float a_swizzled(const float *tile, int m, int k)
{
    const int piece = ((m >> 2) & 7) ^ (k & 7);
    return tile[(m >> 5) * 1024 + k * 32 + piece * 4 + (m & 3)];
}

/* 3xTF32's split of a tile the tensor cores read from shared memory, shared by WORKERS
 * threads (this one is `worker`): each float x of `tile` becomes its TF32 big part in
 * place, big = x rounded to TF32, and its small part in `small`, (x - big) rounded to
 * TF32. Element by element, so any layout (a swizzled one too) carries over to `small`.
 * Four 16-byte loads are in flight before the first conversion. */
template <int FLOATS, int WORKERS>
__device__ inline void split_tf32(float *tile, float *small, int worker)
{
    constexpr int PIECES = FLOATS / 4, BATCH = 4;
#pragma unroll
    for (int base = 0; base < PIECES; base += WORKERS * BATCH) {
        float4 x[BATCH];
#pragma unroll
        for (int b = 0; b < BATCH; b++) {
            const int i = base + b * WORKERS + worker;
            if (i < PIECES)
                x[b] = reinterpret_cast<const float4 *>(tile)[i];
        }
#pragma unroll
        for (int b = 0; b < BATCH; b++) {
            const int i = base + b * WORKERS + worker;
            if (i >= PIECES)
                continue;
            const float xs[4] = {x[b].x, x[b].y, x[b].z, x[b].w};
            float big[4], rest[4];
#pragma unroll
            for (int e = 0; e < 4; e++) {
                big[e] = __uint_as_float(to_tf32(xs[e]));
                rest[e] = __uint_as_float(to_tf32(xs[e] - big[e]));
            }
            reinterpret_cast<float4 *>(tile)[i] = make_float4(big[0], big[1], big[2], big[3]);
            reinterpret_cast<float4 *>(small)[i] =
                make_float4(rest[0], rest[1], rest[2], rest[3]);
        }
    }
    fence_async_shared(); /* the tensor cores read these next */
}

/* C = alpha * D + beta * C for this thread's accumulators (the layout of wgmma_tf32) of
 * the 64 x TSN block whose row `row` (this thread's first: g) starts at C's row m and
 * column n0, for the elements inside C; C is read only when beta is not 0. */
__device__ inline void store_block(const float *d, int M, int N, float alpha, float beta,
                                   float *C, int ldc, int m, int n0, int t)
{
#pragma unroll
    for (int j = 0; j < TSN / 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int r = m + (e / 2) * 8, n = n0 + 8 * j + 2 * t + e % 2;
            if (r < M && n < N) {
                float *c = &C[r + (size_t)n * ldc];
                *c = beta != 0.0f ? alpha * d[4 * j + e] + beta * *c : alpha * d[4 * j + e];
            }
        }
}

/* The accumulator operands of one wgmma, TSN/2 floats per thread: the lists are written
 * out because inline assembly cannot loop over operands. */
#define F4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define F16(i) F4(i), F4(i + 4), F4(i + 8), F4(i + 12)
#define F32(i) F16(i), F16(i + 16)
#define F64(i) F32(i), F32(i + 32)
#define F128(i) F64(i), F64(i + 64)
#if TSN == 64
#define WGMMA_SHAPE "m64n64k8"
#define WGMMA_D_LIST \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, " \
    "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define WGMMA_A_LIST "{%32, %33, %34, %35}"
#define WGMMA_DESC "%36"
#define WGMMA_D_OPERANDS F32(0)
#elif TSN == 128
#define WGMMA_SHAPE "m64n128k8"
#define WGMMA_D_LIST \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, " \
    "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, " \
    "%34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, " \
    "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define WGMMA_A_LIST "{%64, %65, %66, %67}"
#define WGMMA_DESC "%68"
#define WGMMA_D_OPERANDS F64(0)
#elif TSN == 256
#define WGMMA_SHAPE "m64n256k8"
#define WGMMA_D_LIST \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, " \
    "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, " \
    "%34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, " \
    "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, " \
    "%66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, " \
    "%82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, " \
    "%98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, " \
    "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, " \
    "%124, %125, %126, %127}"
#define WGMMA_A_LIST "{%128, %129, %130, %131}"
#define WGMMA_DESC "%132"
#define WGMMA_D_OPERANDS F128(0)
#else
#error TSN must be 64, 128 or 256 (the wgmma shapes written out here)
#endif

/* d (64 x TSN, this warpgroup's) += a (64 x 8, from registers: the thread's four TF32
 * values) * b (8 x TSN, K-major in shared memory, described by desc). Asynchronous: the
 * result is there after wgmma_commit() and wgmma_wait(). Register layout (PTX ISA,
 * "wgmma .tf32"): warp w of the warpgroup owns rows 16w to 16w + 15; its lane (g = lane/4,
 * t = lane%4) gives a[0..3] = A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4) and holds
 * d[4j .. 4j + 3] = D(g, 8j + 2t), D(g, 8j + 2t + 1), D(g + 8, 8j + 2t), D(g + 8, 8j + 2t + 1). */
__device__ inline void wgmma_tf32(float *d, const unsigned *a, unsigned long long desc)
{
    /* scale-d (the predicate, true: D += A B) and the scales of A and B (1: no negation). */
    asm volatile("{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned." WGMMA_SHAPE ".f32.tf32.tf32 " WGMMA_D_LIST
                 ", " WGMMA_A_LIST ", " WGMMA_DESC ", accumulate, 1, 1;\n}"
                 : WGMMA_D_OPERANDS
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

/* 3xTF32's 12 wgmmas of one 32-deep k-tile of this warpgroup's 64 x TSN block, as one
 * committed group: A's big and small parts from registers (the layout of wgmma_tf32),
 * B's big and small parts described by b_big and b_small; small products first. The
 * registers must stay untouched until the group is waited for. */
__device__ inline void mma_3xtf32_issue(float *d, const unsigned (&big)[4][4],
                                        const unsigned (&small)[4][4],
                                        unsigned long long b_big, unsigned long long b_small)
{
    wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < 4; ks++) {
        const int step = ks * 8 * 4 >> 4; /* 8 k further: 32 bytes, in 16-byte units */
        wgmma_tf32(d, small[ks], b_big + step);
        wgmma_tf32(d, big[ks], b_small + step);
        wgmma_tf32(d, big[ks], b_big + step);
    }
    wgmma_commit();
}

/* This thread's A values of a 32-deep k-tile (rows row and row + 8 of the swizzled A
 * tile, the layout of wgmma_tf32), split in registers into big and small TF32 parts. */
__device__ inline void load_split_a(const float *a_tile, int row, int t, unsigned (&big)[4][4],
                                    unsigned (&small)[4][4])
{
#pragma unroll
    for (int ks = 0; ks < 4; ks++)
#pragma unroll
        for (int e = 0; e < 4; e++) { /* A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4) */
            const float x = a_swizzled(a_tile, row + (e % 2) * 8, ks * 8 + t + (e / 2) * 4);
            big[ks][e] = to_tf32(x);
            small[ks][e] = to_tf32(x - __uint_as_float(big[ks][e]));
        }
}

/* Both: one k-tile of 3xTF32 issued from the A tile. */
__device__ inline void mma_3xtf32(float *d, const float *a_tile, int row, int t,
                                  unsigned long long b_big, unsigned long long b_small)
{
    unsigned big[4][4], small[4][4];
    load_split_a(a_tile, row, t, big, small);
    mma_3xtf32_issue(d, big, small, b_big, b_small);
}

#endif
