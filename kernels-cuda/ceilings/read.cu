/* Probe: the read bandwidth (CUDA), for `ladder ceilings` (host/core/ceilings.c)
 * Not a rung: it multiplies no matrices. It measures how many bytes per second the GPU
 *   reads from its memory, the slope of the roofline that bounds every kernel with few
 *   flops per byte (GEMV-like shapes: rung 20). The OpenCL twin,
 *   kernels-opencl/ceilings/read.cl, says the same in the same way.
 * How it is built, and why:
 *   - The buffer is far larger than the L2 cache (1 GiB by default; an H100 has 50 MB of
 *     L2), so the bytes come from memory, not from a cache that kept them from the last
 *     run. fill_pattern writes it first, so every page is backed and holds known values.
 *   - Loads are float4, 16 bytes, and neighbouring threads read neighbouring float4s, so
 *     a warp's 32 loads fall on 512 consecutive bytes: whole cache lines, the fewest
 *     memory transactions (coalescing).
 *   - A grid-stride loop: a fixed number of threads (a few per lane of the GPU, whatever
 *     the buffer's size) each step through the buffer a whole grid apart, so a larger
 *     buffer means longer loops, not more blocks to schedule.
 *   - Four loads per trip into four sums: four independent loads in flight per thread
 *     before it waits for the first. Memory answers after hundreds of cycles; only many
 *     loads in flight keep it busy (Little's law).
 *   - One store per thread, of its sum: without it the compiler would delete the loads.
 *     The stores are a few bytes per thousands read.
 *   - The pattern (element i of the buffer is i mod 7) lets the host check that the sums
 *     add up to the buffer's: every float4 read exactly once. All the sums are whole
 *     numbers far below 2^24, so they are exact in float whatever the order.
 * What can make it read low: a buffer small enough to stay in L2 reads high, not low;
 *   too few threads or loads in flight; a memory clock that drops when idle and has not
 *   risen yet (the host warms up first); ECC, on by default on datacenter GPUs, costs a
 *   few per cent of the datasheet's figure.
 * Launch: 1-D, any number of threads (at most 2^31 - 1 float4s: n4 is an int); sums
 *   holds one value per thread.
 */

extern "C" __global__ void fill_pattern(const int n4, float4 *data)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n4;
         i += stride) {
        const float v = (float)(i % 7);
        data[i] = make_float4(v, v, v, v);
    }
}

/* CUDA's float4 has no operators: a sum of two, component by component. */
__device__ static inline void add_to(float4 &sum, const float4 v)
{
    sum.x += v.x;
    sum.y += v.y;
    sum.z += v.z;
    sum.w += v.w;
}

extern "C" __global__ void read_sum(const int n4, const float4 *__restrict__ data,
                                    float *sums)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x, n = (size_t)n4;
    const size_t id = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i = id;
    float4 s0 = make_float4(0, 0, 0, 0), s1 = s0, s2 = s0, s3 = s0;
    for (; i + 3 * stride < n; i += 4 * stride) {
        add_to(s0, data[i]);
        add_to(s1, data[i + stride]);
        add_to(s2, data[i + 2 * stride]);
        add_to(s3, data[i + 3 * stride]);
    }
    for (; i < n; i += stride)
        add_to(s0, data[i]);
    add_to(s0, s1);
    add_to(s2, s3);
    add_to(s0, s2);
    sums[id] = (s0.x + s0.y) + (s0.z + s0.w);
}
