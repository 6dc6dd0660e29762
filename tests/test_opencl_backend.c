/* Unit test of the OpenCL backend on its own, on whatever OpenCL device is present (PoCL on
 * a machine without a GPU): devices, buffers, compiling and launching a small kernel with
 * every kind of argument, the timer, the errors a student will meet (a kernel that does not
 * compile, a work-group that is too large) and the CLBlast baseline.
 *
 * Exits 77 (ctest's "skipped") when there is no OpenCL platform at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"

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
