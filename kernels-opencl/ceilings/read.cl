/* Probe: the read bandwidth (OpenCL), for `ladder ceilings` (host/core/ceilings.c)
 * Not a rung: it multiplies no matrices. It measures how many bytes per second the
 *   device reads from its memory, the slope of the roofline that bounds every kernel
 *   with few flops per byte (GEMV-like shapes: rung 20).
 * How it is built, and why:
 *   - The buffer is far larger than the last-level cache (1 GiB on a GPU by default), so
 *     the bytes come from memory, not from a cache that kept them from the last run.
 *     fill_pattern writes it first: a buffer never written may not even be backed by
 *     memory (a CPU maps untouched pages to one page of zeros, read from its cache).
 *   - Loads are float4, 16 bytes: the widest a work-item can ask for in one load.
 *   - A fixed number of work-items (about as many as the device runs at once, whatever
 *     the buffer's size) each loop over their share of the buffer, so a larger buffer
 *     means longer loops, not more work-groups to schedule.
 *   - Who reads what depends on the device (the host chooses, CONTIGUOUS):
 *     a GPU runs a warp's work-items in lockstep, so neighbouring work-items read
 *     neighbouring float4s at once, their loads falling on whole, consecutive cache lines
 *     (coalescing), and step a whole grid apart: a grid-stride loop.
 *     A CPU core runs one work-item at a time, so that pattern would read one float4 of a
 *     64-byte line and leave the other three to work-items that run much later, when the
 *     line is gone: each work-item reads a run of consecutive float4s of its own instead,
 *     which the core's prefetcher streams in. (On the CPU here the grid-stride loop read
 *     4 GB/s, the runs 65 GB/s.)
 *   - Four loads per trip into four sums: four independent loads in flight per
 *     work-item before it waits for the first. Memory answers after hundreds of cycles;
 *     only many loads in flight keep it busy (Little's law).
 *   - One store per work-item, of its sum: without it the compiler would delete the
 *     loads. The stores are a few bytes per thousands read.
 *   - The pattern (element i of the buffer is i mod 7) lets the host check that the sums
 *     add up to the buffer's: every float4 read exactly once. All the sums are whole
 *     numbers far below 2^24, so they are exact in float whatever the order.
 * What can make it read low: too few work-items or loads in flight; the other device's
 *   pattern (above); a device whose memory clock drops when idle and has not risen yet
 *   (the host warms up first). A buffer small enough to stay in a cache reads high.
 * Parameters: CONTIGUOUS (0: grid-stride, for GPUs; 1: runs, for CPUs).
 * Launch: 1-D, any number of work-items (at most 2^31 - 1 float4s: n4 is an int);
 *   sums holds one value per work-item.
 */

#ifndef CONTIGUOUS
#define CONTIGUOUS 0
#endif

__kernel void fill_pattern(const int n4, __global float4 *data)
{
    for (size_t i = get_global_id(0); i < (size_t)n4; i += get_global_size(0))
        data[i] = (float4)((float)(i % 7));
}

__kernel void read_sum(const int n4, __global const float4 *data, __global float *sums)
{
    const size_t id = get_global_id(0), n = (size_t)n4, stride = get_global_size(0);
    float4 s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#if CONTIGUOUS
    /* A CPU: each work-item reads a run of float4s of its own, one after the other. */
    const size_t run = (n + stride - 1) / stride;
    const size_t begin = min(id * run, n), end = min(begin + run, n);
    size_t i = begin;
    for (; i + 3 < end; i += 4) {
        s0 += data[i];
        s1 += data[i + 1];
        s2 += data[i + 2];
        s3 += data[i + 3];
    }
    for (; i < end; i++)
        s0 += data[i];
#else
    /* A GPU: neighbouring work-items read neighbouring float4s, a grid apart each trip. */
    size_t i = id;
    for (; i + 3 * stride < n; i += 4 * stride) {
        s0 += data[i];
        s1 += data[i + stride];
        s2 += data[i + 2 * stride];
        s3 += data[i + 3 * stride];
    }
    for (; i < n; i += stride)
        s0 += data[i];
#endif
    const float4 s = (s0 + s1) + (s2 + s3);
    sums[id] = (s.x + s.y) + (s.z + s.w);
}
