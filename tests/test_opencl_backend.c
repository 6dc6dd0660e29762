/* Unit test of the OpenCL backend on its own, on whatever OpenCL device is present (PoCL on
 * a machine without a GPU): devices, buffers, compiling and launching a small kernel with
 * every kind of argument, the timer, the errors a student will meet (a kernel that does not
 * compile, a work-group that is too large), the CLBlast baseline, that every rung
 * kernel marked as taking double or transposes builds in each of them, and the helpers'
 * route_pair, which makes two operands' copies in one launch, and the timer's hold.
 *
 * Exits 77 (ctest's "skipped") when there is no OpenCL platform at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/opencl/opencl_hold.h"
#include "base/kernel_path.h"
#include "core/operand_route.h"
#include "rungs/registry.h"

static int failures = 0;

/* Reports a failed check with the backend's message, and carries on with the next. */
#define CHECK(cond, msg)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: FAILED: %s\n    message: %s\n", __FILE__, __LINE__,   \
                    #cond, (msg));                                                         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* ---- small helpers ---- */

/* Writes a kernel source into dir/name and returns the path (static storage, one at a time). */
static const char *write_source(const char *dir, const char *name, const char *source)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(source, f) == EOF || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    return path;
}

/* Deterministic values in [-1, 1], never all zero: enough for a unit test. */
static float next_value(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)((*state >> 8) & 0xFFFF) / 32767.5f - 1.0f;
}

/* ---- the tests ---- */

static void test_devices(const backend_ops *ops, int count)
{
    char msg[LADDER_MSG] = "";
    for (int i = 0; i < count; i++) {
        device_info info;
        ladder_status st = ops->device_query(i, &info, msg);
        CHECK(st == LADDER_OK, msg);
        if (st != LADDER_OK)
            continue;
        printf("opencl:%d  %s | %s | %s | %s | %s | %d CUs @ %d MHz | wg %zu | local %zu KiB"
               " | max alloc %zu MiB | subgroups %d | cc %d.%d | peak %.0f GFLOPS\n",
               i, info.name, info.vendor, info.platform, info.driver,
               info.is_gpu ? "GPU" : "CPU", info.compute_units, info.clock_mhz,
               info.max_work_group_size, info.local_mem_bytes / 1024,
               info.max_alloc_bytes >> 20, info.subgroups, info.cc_major, info.cc_minor,
               info.fp32_peak_gflops);
        CHECK(strcmp(info.backend, "opencl") == 0 && info.index == i, info.backend);
        CHECK(info.name[0] != '\0' && info.compute_units > 0, info.name);
        CHECK(info.max_work_group_size > 0 && info.max_alloc_bytes > 0, info.name);
        CHECK(info.fp32_peak_gflops >= 0.0, info.name);
    }
    device_info info;
    CHECK(ops->device_query(count, &info, msg) == LADDER_ERROR, "index past the end accepted");
}

static void test_buffers(const backend_ops *ops, backend_session *s, const device_info *dev)
{
    char msg[LADDER_MSG] = "";
    enum { n = 1000 };
    float in[n], out[n];
    for (int i = 0; i < n; i++) {
        in[i] = (float)i * 0.5f - 7.0f;
        out[i] = NAN;
    }
    gpu_buffer *b = NULL;
    ladder_status st = ops->alloc(s, sizeof in, &b, msg);
    CHECK(st == LADDER_OK, msg);
    if (st == LADDER_OK) {
        CHECK(ops->upload(s, b, in, sizeof in, msg) == LADDER_OK, msg);
        CHECK(ops->download(s, out, b, sizeof out, msg) == LADDER_OK, msg);
        CHECK(memcmp(in, out, sizeof in) == 0, "download differs from upload");
        CHECK(ops->upload(s, b, in, sizeof in + 4, msg) == LADDER_ERROR,
              "upload larger than the buffer accepted");
        ops->release(b);
    }
    gpu_buffer *none = NULL;
    CHECK(ops->alloc(s, 0, &none, msg) == LADDER_ERROR && none == NULL, "0-byte alloc accepted");
    printf("0 bytes: %s\n", msg);
    CHECK(ops->alloc(s, dev->max_alloc_bytes + 1, &none, msg) == LADDER_UNSUPPORTED,
          "alloc above CL_DEVICE_MAX_MEM_ALLOC_SIZE accepted");
    printf("too large: %s\n", msg);
}

/* y[i] = a * x[i] + OFFSET over a 2D range; OFFSET arrives as a -D define. */
static const char *axpb_source =
    "__kernel void axpb(const int n, const float a, __global const float *x,\n"
    "                   __global float *y)\n"
    "{\n"
    "    int i = get_global_id(0) + get_global_id(1) * get_global_size(0);\n"
    "    if (i < n)\n"
    "        y[i] = a * x[i] + OFFSET;\n"
    "}\n";

static void run_axpb(const backend_ops *ops, backend_session *s, gpu_program *p)
{
    char msg[LADDER_MSG] = "";
    enum { n = 100, total = 128 }; /* 16 x 8 work-items, the last 28 do nothing */
    float x[total], y[total];
    for (int i = 0; i < total; i++) {
        x[i] = (float)i;
        y[i] = -1.0f; /* sentinel: must survive past n */
    }
    gpu_buffer *bx = NULL, *by = NULL;
    ladder_status st = ops->alloc(s, sizeof x, &bx, msg);
    CHECK(st == LADDER_OK, msg);
    if (st == LADDER_OK)
        st = ops->alloc(s, sizeof y, &by, msg);
    CHECK(st == LADDER_OK, msg);
    if (st == LADDER_OK) {
        CHECK(ops->upload(s, bx, x, sizeof x, msg) == LADDER_OK, msg);
        CHECK(ops->upload(s, by, y, sizeof y, msg) == LADDER_OK, msg);
        kernel_arg args[4] = {{.kind = ARG_INT, .i = n}, {.kind = ARG_FLOAT, .f = 2.0f},
                              {.kind = ARG_BUFFER, .buffer = bx},
                              {.kind = ARG_BUFFER, .buffer = by}};
        launch_dims dims = {.global = {16, 8}, .local = {4, 2}};
        CHECK(ops->timer_start(s, msg) == LADDER_OK, msg);
        for (int rep = 0; rep < 3; rep++)
            CHECK(ops->launch(s, p, "axpb", &dims, args, 4, msg) == LADDER_OK, msg);
        double ms = -1.0;
        CHECK(ops->timer_stop(s, &ms, msg) == LADDER_OK, msg);
        printf("3 launches of axpb: %.4f ms\n", ms);
        CHECK(ms > 0.0, "the timer returned no positive time");
        CHECK(ops->download(s, y, by, sizeof y, msg) == LADDER_OK, msg);
        int wrong = 0;
        for (int i = 0; i < total; i++)
            wrong += y[i] != (i < n ? 2.0f * x[i] + 3.0f : -1.0f);
        CHECK(wrong == 0, "axpb computed wrong values");

        /* Mistakes the harness could make must come back as clear errors. */
        CHECK(ops->launch(s, p, "axpb", &dims, args, 3, msg) == LADDER_ERROR,
              "a missing argument was accepted");
        printf("3 arguments: %s\n", msg);
        CHECK(ops->launch(s, p, "no_such_kernel", &dims, args, 4, msg) == LADDER_ERROR,
              "an unknown kernel name was accepted");
        launch_dims ragged = {.global = {15, 8}, .local = {4, 2}};
        CHECK(ops->launch(s, p, "axpb", &ragged, args, 4, msg) == LADDER_ERROR,
              "a global size that is not a multiple of the local size was accepted");
        CHECK(ops->finish(s, msg) == LADDER_OK, msg);
    }
    ops->release(bx);
    ops->release(by);
}

/* More work-items per group than this kernel may have on this device: unsupported, not an
 * error, because a smaller device is not a bug. */
static void test_too_large_group(const backend_ops *ops, backend_session *s, gpu_program *p,
                                 const device_info *dev)
{
    char msg[LADDER_MSG] = "";
    gpu_buffer *b = NULL;
    ladder_status st = ops->alloc(s, 64, &b, msg);
    CHECK(st == LADDER_OK, msg);
    if (st != LADDER_OK)
        return;
    kernel_arg args[4] = {{.kind = ARG_INT, .i = 0}, {.kind = ARG_FLOAT, .f = 1.0f},
                          {.kind = ARG_BUFFER, .buffer = b}, {.kind = ARG_BUFFER, .buffer = b}};
    size_t x = dev->max_work_item_sizes[0] < dev->max_work_group_size
                   ? dev->max_work_item_sizes[0] : dev->max_work_group_size;
    launch_dims dims = {.global = {x, 2}, .local = {x, 2}}; /* 2 * x > the group limit */
    CHECK(ops->launch(s, p, "axpb", &dims, args, 4, msg) == LADDER_UNSUPPORTED,
          "a too-large work-group was accepted");
    CHECK(strstr(msg, "allows at most") != NULL, msg);
    printf("too-large work-group: %s\n", msg);
    CHECK(ops->finish(s, msg) == LADDER_OK, msg);
    ops->release(b);
}

/* Each work-item of this kernel holds R floats in registers, so a full-size work-group may
 * not fit a compute unit: the launch must then be unsupported (NVIDIA refuses 1024 of these
 * at enqueue with CL_OUT_OF_RESOURCES), never an error. A CPU simply runs it. */
static const char *heavy_source =
    "__kernel void heavy(const int n, const float a, __global const float *x,\n"
    "                    __global float *y)\n"
    "{\n"
    "    float acc[R];\n"
    "    for (int j = 0; j < R; j++)\n"
    "        acc[j] = x[(get_global_id(0) + 7 * j) % n];\n"
    "    for (int r = 0; r < n % 7 + 3; r++)\n"
    "        for (int j = 0; j < R; j++)\n"
    "            acc[j] = acc[j] * a + acc[(j + 1) % R];\n"
    "    float sum = 0.0f;\n"
    "    for (int j = 0; j < R; j++)\n"
    "        sum += acc[j] * (float)j;\n"
    "    y[get_global_id(0)] = sum;\n"
    "}\n";

static void test_heavy_kernel(const backend_ops *ops, backend_session *s,
                              const device_info *dev, const char *dir)
{
    char msg[LADDER_MSG] = "";
    gpu_program *p = NULL;
    const char *path = write_source(dir, "heavy.cl", heavy_source);
    ladder_status st = ops->compile(s, path, "-DR=128", &p, msg);
    CHECK(st == LADDER_OK, msg);
    size_t x = dev->max_work_item_sizes[0] < dev->max_work_group_size
                   ? dev->max_work_item_sizes[0] : dev->max_work_group_size;
    gpu_buffer *b = NULL;
    if (st == LADDER_OK)
        st = ops->alloc(s, x * sizeof(float), &b, msg);
    CHECK(st == LADDER_OK, msg);
    if (st == LADDER_OK) {
        kernel_arg args[4] = {{.kind = ARG_INT, .i = (int)x}, {.kind = ARG_FLOAT, .f = 0.5f},
                              {.kind = ARG_BUFFER, .buffer = b},
                              {.kind = ARG_BUFFER, .buffer = b}};
        launch_dims dims = {.global = {x, 1}, .local = {x, 1}};
        st = ops->launch(s, p, "heavy", &dims, args, 4, msg);
        CHECK(st == LADDER_OK || (st == LADDER_UNSUPPORTED && strstr(msg, "allows at most")),
              msg);
        printf("heavy kernel, %zu work-items per group: %s\n", x,
               st == LADDER_OK ? "runs" : msg);
        CHECK(ops->finish(s, msg) == LADDER_OK, msg);
    }
    ops->release(b);
    ops->release_program(p);
    remove(path);
}

static void test_kernels(const backend_ops *ops, backend_session *s, const device_info *dev,
                         const char *dir)
{
    char msg[LADDER_MSG] = "";
    gpu_program *p = NULL;
    const char *path = write_source(dir, "axpb.cl", axpb_source);
    ladder_status st = ops->compile(s, path, "-DOFFSET=3.0f", &p, msg);
    CHECK(st == LADDER_OK, msg);
    if (st == LADDER_OK) {
        run_axpb(ops, s, p);
        test_too_large_group(ops, s, p, dev);
        ops->release_program(p);
    }

    /* Without the define the source does not compile: the log must name the culprit. */
    p = NULL;
    st = ops->compile(s, path, "", &p, msg);
    CHECK(st == LADDER_ERROR && p == NULL, "a kernel that cannot compile was accepted");
    CHECK(strstr(msg, "clBuildProgram") != NULL && strstr(msg, "OFFSET") != NULL, msg);
    printf("broken kernel:\n%s\n", msg);

    CHECK(ops->compile(s, "/nonexistent/kernel.cl", "", &p, msg) == LADDER_ERROR,
          "a missing source file was accepted");

    double ms = 0.0;
    CHECK(ops->timer_start(s, msg) == LADDER_OK, msg);
    CHECK(ops->timer_stop(s, &ms, msg) == LADDER_ERROR, "an empty timer window was timed");

    test_heavy_kernel(ops, s, dev, dir);
}

/* ---- the helpers' route_pair ---- */

/* Element (row, col) of a route's copy of src, as pad_copy or pad_transpose makes it. */
static float routed_value(const operand_route *r, const float *src, long row, long col)
{
    const int t = route_kind(r) == ROUTE_TRANSPOSE;
    const long sr = t ? col : row, sc = t ? row : col; /* the source element */
    return sr < r->src_rows && sc < r->src_cols ? src[sr + sc * r->src_rows] : 0.0f;
}

enum { ROUTE_GUARD = 64 }; /* elements after each copy that no work-item may write */

/* Runs route_pair on the launch plan_helper_launch makes for routes a and b, then checks
 * every element of both copies, and the guard after each, which holds a sentinel. */
static void check_route_pair(const backend_ops *ops, backend_session *s, gpu_program *p,
                             operand_route a, operand_route b)
{
    char msg[LADDER_MSG] = "";
    const operand_route *route[2] = {&a, &b};
    helper_launch h;
    CHECK(plan_helper_launch(&a, &b, &h) == 1 && h.routes == 2, "no route_pair planned");
    gpu_buffer *src[2] = {NULL, NULL}, *dst[2] = {NULL, NULL};
    float *host_src[2] = {NULL, NULL}, *host_dst[2] = {NULL, NULL};
    size_t src_n[2], dst_n[2];
    unsigned state = 11;
    ladder_status st = LADDER_OK;
    kernel_arg args[14];
    for (int i = 0; i < 2 && st == LADDER_OK; i++) {
        const operand_route *r = route[h.operand[i]];
        src_n[i] = (size_t)(r->src_rows * r->src_cols);
        dst_n[i] = (size_t)(r->dst_rows * r->dst_cols) + ROUTE_GUARD;
        host_src[i] = malloc(src_n[i] * sizeof(float));
        host_dst[i] = malloc(dst_n[i] * sizeof(float));
        if (!host_src[i] || !host_dst[i]) {
            perror("malloc");
            exit(1);
        }
        for (size_t e = 0; e < src_n[i]; e++)
            host_src[i][e] = next_value(&state);
        for (size_t e = 0; e < dst_n[i]; e++)
            host_dst[i][e] = -99.0f;
        st = ops->alloc(s, src_n[i] * sizeof(float), &src[i], msg);
        if (st == LADDER_OK)
            st = ops->alloc(s, dst_n[i] * sizeof(float), &dst[i], msg);
        if (st == LADDER_OK)
            st = ops->upload(s, src[i], host_src[i], src_n[i] * sizeof(float), msg);
        if (st == LADDER_OK)
            st = ops->upload(s, dst[i], host_dst[i], dst_n[i] * sizeof(float), msg);
        /* Each route: its kind, then a helper's six arguments (helpers.cl). */
        kernel_arg *g = &args[7 * i];
        g[0] = (kernel_arg){.kind = ARG_INT, .i = route_kind(r)};
        g[1] = (kernel_arg){.kind = ARG_INT, .i = (int)r->src_rows};
        g[2] = (kernel_arg){.kind = ARG_INT, .i = (int)r->src_cols};
        g[3] = (kernel_arg){.kind = ARG_BUFFER, .buffer = src[i]};
        g[4] = (kernel_arg){.kind = ARG_INT, .i = (int)r->dst_rows};
        g[5] = (kernel_arg){.kind = ARG_INT, .i = (int)r->dst_cols};
        g[6] = (kernel_arg){.kind = ARG_BUFFER, .buffer = dst[i]};
    }
    if (st == LADDER_OK)
        st = ops->launch(s, p, h.kernel, &h.dims, args, 14, msg);
    for (int i = 0; i < 2 && st == LADDER_OK; i++)
        st = ops->download(s, host_dst[i], dst[i], dst_n[i] * sizeof(float), msg);
    CHECK(st == LADDER_OK, msg);
    for (int i = 0; i < 2 && st == LADDER_OK; i++) {
        const operand_route *r = route[h.operand[i]];
        long wrong = 0;
        for (long c = 0; c < r->dst_cols; c++)
            for (long row = 0; row < r->dst_rows; row++)
                wrong += host_dst[i][row + c * r->dst_rows] !=
                         routed_value(r, host_src[i], row, c);
        for (size_t e = dst_n[i] - ROUTE_GUARD; e < dst_n[i]; e++)
            wrong += host_dst[i][e] != -99.0f;
        snprintf(msg, sizeof msg, "route_pair: route %d (%s %ldx%ld -> %ldx%ld): %ld wrong "
                 "elements", i, r->helper, r->src_rows, r->src_cols, r->dst_rows,
                 r->dst_cols, wrong);
        CHECK(wrong == 0, msg);
    }
    for (int i = 0; i < 2; i++) {
        ops->release(src[i]);
        ops->release(dst[i]);
        free(host_src[i]);
        free(host_dst[i]);
    }
}

/* route_pair does two helpers' work in one launch, each route on its own side of the
 * grid: the routes here differ in tiles along rows and along columns, and end in partial
 * tiles, so that a work-group given the wrong route or tile, or one past the shorter
 * route's tiles that writes, shows as a wrong element or a broken guard. */
/* The timer's hold (opencl_hold.h): built and calibrated at the first window, it spins for
 * about OCL_HOLD_NS on this device, before each window opens. */
static void test_timer_hold(backend_session *s)
{
    char msg[LADDER_MSG] = "";
    double ns = 0.0;
    CHECK(ocl_hold_measure(s, &ns, msg) == LADDER_OK, msg);
    printf("timer hold: %.1f us (target %.0f us)\n", ns / 1e3, OCL_HOLD_NS / 1e3);
    CHECK(ns >= 0.5 * OCL_HOLD_NS, "the hold is much shorter than OCL_HOLD_NS");
    CHECK(ns <= 50.0 * OCL_HOLD_NS, "the hold is much longer than OCL_HOLD_NS");
}

static void test_route_pair(const backend_ops *ops, backend_session *s)
{
    char path[1024], msg[LADDER_MSG] = "";
    kernel_path("opencl", "helpers", path, sizeof path);
    gpu_program *p = NULL;
    ladder_status st = ops->compile(s, path, "", &p, msg);
    CHECK(st == LADDER_OK, msg);
    if (st != LADDER_OK)
        return;
    const operand_route copy = {"pad_copy", 37, 53, 40, 70};             /* 2 x 3 tiles */
    const operand_route transpose = {"pad_transpose", 53, 70, 100, 20};  /* 4 x 1 */
    const operand_route crop = {"pad_transpose", 90, 45, 33, 65};        /* 2 x 3 */
    const operand_route tall = {"pad_copy", 130, 7, 140, 3};             /* 5 x 1 */
    check_route_pair(ops, s, p, copy, transpose);
    check_route_pair(ops, s, p, transpose, copy);
    check_route_pair(ops, s, p, crop, transpose);
    check_route_pair(ops, s, p, tall, copy);
    ops->release_program(p);
    printf("route_pair: 4 pairs checked\n");
}

/* ---- CLBlast ---- */

static int sgemm_matches(int M, int N, int K, const float *A, const float *B, const float *C)
{
    const double u = ldexp(1.0, -24);
    int wrong = 0;
    for (int n = 0; n < N; n++) {
        for (int m = 0; m < M; m++) {
            double ref = 0.0, mag = 0.0;
            for (int k = 0; k < K; k++) {
                ref += (double)A[m + k * M] * B[k + n * K];
                mag += fabs((double)A[m + k * M] * B[k + n * K]);
            }
            double c = C[m + n * M];
            if (!(fabs(c - ref) <= K * u * mag)) /* written so that NaN fails */
                wrong++;
        }
    }
    return wrong;
}

static void test_clblast(const backend_ops *ops, backend_session *s)
{
    char msg[LADDER_MSG] = "";
    enum { M = 64, N = 48, K = 40 };
    static float A[M * K], B[K * N], C[M * N];
    unsigned seed = 12345;
    for (int i = 0; i < M * K; i++)
        A[i] = next_value(&seed);
    for (int i = 0; i < K * N; i++)
        B[i] = next_value(&seed);
    for (int i = 0; i < M * N; i++)
        C[i] = NAN; /* beta = 0 must overwrite, never read, C */
    gpu_buffer *dA = NULL, *dB = NULL, *dC = NULL;
    ladder_status st = ops->alloc(s, sizeof A, &dA, msg);
    if (st == LADDER_OK)
        st = ops->alloc(s, sizeof B, &dB, msg);
    if (st == LADDER_OK)
        st = ops->alloc(s, sizeof C, &dC, msg);
    CHECK(st == LADDER_OK, msg);
    if (st == LADDER_OK) {
        CHECK(ops->upload(s, dA, A, sizeof A, msg) == LADDER_OK, msg);
        CHECK(ops->upload(s, dB, B, sizeof B, msg) == LADDER_OK, msg);
        CHECK(ops->upload(s, dC, C, sizeof C, msg) == LADDER_OK, msg);
        /* Once untimed (CLBlast compiles its kernels on first use), then timed. */
        gemm_call call;
        gemm_call_tight(&GEMM_CASE_DEFAULT, M, N, K, &call);
        CHECK(ops->library_gemm(s, &call, dA, dB, dC, msg) == LADDER_OK, msg);
        CHECK(ops->timer_start(s, msg) == LADDER_OK, msg);
        CHECK(ops->library_gemm(s, &call, dA, dB, dC, msg) == LADDER_OK, msg);
        double ms = -1.0;
        CHECK(ops->timer_stop(s, &ms, msg) == LADDER_OK, msg);
        printf("CLBlast sgemm %dx%dx%d: %.4f ms\n", M, N, K, ms);
        CHECK(ms > 0.0, "the timer returned no positive time for CLBlast");
        CHECK(ops->download(s, C, dC, sizeof C, msg) == LADDER_OK, msg);
        CHECK(sgemm_matches(M, N, K, A, B, C) == 0, "CLBlast result outside the FP32 bound");
        call.M = -1;
        CHECK(ops->library_gemm(s, &call, dA, dB, dC, msg) == LADDER_ERROR,
              "M = -1 accepted");
        call.M = M;
        call.lda = M - 1;
        CHECK(ops->library_gemm(s, &call, dA, dB, dC, msg) == LADDER_ERROR &&
              strstr(msg, "lda"), "lda below M accepted");
    }
    ops->release(dA);
    ops->release(dB);
    ops->release(dC);
}

/* Compiles `stem` of kernels-opencl with `options`; a failure is reported with the build log
 * (the backend's message). */
static void check_build(const backend_ops *ops, backend_session *s, const char *stem,
                        const char *options)
{
    char path[1024], msg[LADDER_MSG] = "";
    kernel_path("opencl", stem, path, sizeof path);
    gpu_program *p = NULL;
    ladder_status st = ops->compile(s, path, options, &p, msg);
    if (st != LADDER_OK)
        fprintf(stderr, "%s with %s:\n", stem, options);
    CHECK(st == LADDER_OK && p != NULL, msg);
    if (p)
        ops->release_program(p);
}

/* Every OpenCL rung that takes double (registry: takes_double) builds with -DLADDER_DOUBLE=1
 * at its default and small-device parameters, and every rung that takes transposes in
 * each transpose pair, in both precisions; the helper kernels (pad, transpose) build in
 * double too. Only builds: running them is the harness's (ladder run --precision double,
 * test_blas_semantics). */
static void test_precision_builds(const backend_ops *ops, backend_session *s,
                                  const device_info *dev)
{
    int count = 0, built = 0;
    const rung *all = registry_all(&count);
    check_build(ops, s, "helpers", "-DLADDER_DOUBLE=1");
    for (int i = 0; i < count; i++) {
        const rung *r = &all[i];
        if (r->kind != RUNG_KERNEL || !rung_on_backend(r, "opencl") ||
            !(r->takes_double || r->takes_transposes))
            continue;
        for (int small = 0; small <= 1; small++) {
            int values[RUNG_MAX_PARAMS];
            rung_defaults(r, small, values);
            /* Float builds only for the transposes: plain float is every run's. */
            for (int dbl = r->takes_transposes ? 0 : 1; dbl <= r->takes_double; dbl++)
                for (int trans = 0; trans < (r->takes_transposes ? 4 : 1); trans++) {
                    gemm_case c = GEMM_CASE_DEFAULT;
                    c.precision = dbl ? PRECISION_DOUBLE : PRECISION_SINGLE;
                    c.trans_a = trans / 2;
                    c.trans_b = trans % 2;
                    char options[600], msg[LADDER_MSG];
                    CHECK(rung_check_case(r, &c, msg) == LADDER_OK, msg);
                    if (rung_check_device(r, values, dev, c.precision, msg) != LADDER_OK)
                        continue; /* e.g. more local memory than this device has */
                    /* The harness's own options: it adds the precision and the pair. */
                    rung_compile_options(r, values, dev, &c, options, sizeof options);
                    check_build(ops, s, r->id, options);
                    built++;
                }
        }
    }
    printf("%d builds of rungs in double or transposed\n", built);
    CHECK(built > 0, "no rung takes double or transposes");
}

/* Usage: test_opencl_backend [device index]. The default, 0, is the first OpenCL device. */
int main(int argc, char **argv)
{
    char msg[LADDER_MSG] = "";
    int index = argc > 1 ? atoi(argv[1]) : 0;
    const backend_ops *ops = opencl_backend(msg);
    if (!ops) {
        fprintf(stderr, "opencl_backend: %s\n", msg);
        return 1;
    }
    CHECK(strcmp(ops->name, "opencl") == 0, ops->name);
    int count = 0;
    ladder_status st = ops->device_count(&count, msg);
    if (st == LADDER_UNSUPPORTED || (st == LADDER_OK && count == 0)) {
        printf("SKIP: %s\n", st == LADDER_OK ? "no OpenCL device" : msg);
        return 77;
    }
    if (st != LADDER_OK) {
        fprintf(stderr, "device_count: %s\n", msg);
        return 1;
    }
    test_devices(ops, count);

    device_info dev;
    backend_session *s = NULL;
    if (ops->device_query(index, &dev, msg) != LADDER_OK ||
        ops->open(index, &s, msg) != LADDER_OK) {
        fprintf(stderr, "opening opencl:%d: %s\n", index, msg);
        return 1;
    }
    printf("testing opencl:%d, %s\n", index, dev.name);
    char dir[] = "/tmp/ladder-opencl-test-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_buffers(ops, s, &dev);
    test_kernels(ops, s, &dev, dir);
    test_precision_builds(ops, s, &dev);
    test_route_pair(ops, s);
    test_timer_hold(s);
#ifdef LADDER_HAVE_CLBLAST
    CHECK(ops->library_gemm != NULL, "built with CLBlast but library_gemm is NULL");
#endif
    if (ops->library_gemm)
        test_clblast(ops, s);
    else
        printf("CLBlast not built in: library test skipped\n");
    ops->close(s);

    char path[600];
    snprintf(path, sizeof path, "%s/axpb.cl", dir);
    remove(path);
    rmdir(dir);
    printf("%s: %d failure%s\n", failures ? "FAILED" : "passed", failures,
           failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
