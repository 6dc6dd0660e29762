/* Probe v2, host code (not a rung): can rung 17's helper hide behind its GEMM? See
 * ../README.md. The kernels (overlap-kernels.cu, which includes kernels-cuda/17-banks.cu)
 * are compiled at run time by NVRTC with the ladder's options, so the GEMM is the same
 * machine code as `ladder run`'s; v1 (overlap-probe-v1.cu) was built by nvcc, which made
 * different code.
 *
 * Times, median of REPS calls with CUDA events around each, on one non-blocking stream:
 *   cublas     cuBLAS SGEMM
 *   helper     the helper alone
 *   seq        helper, then rung 17's GEMM (what the ladder times for rung 17)
 *   overlap    helper and gemm_overlap with programmatic dependent launch
 *   nopdl      the same pair without that launch attribute (the GEMM waits for the
 *              helper to end: if this equals overlap, the attribute did nothing)
 *   gemm       rung 17's GEMM alone, B^T already made
 * and checks seq's and overlap's C against cuBLAS's, each from a B^T full of NaNs.
 *
 *   nvcc -O2 -std=c++17 overlap-probe.cu -lcublas -lcuda -lnvrtc -o probe
 *   ./probe KERNEL_DIR SOURCE_DIR 4096 8192
 */
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_; \
    cuGetErrorString(r_, &s_); fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, s_); exit(1); } } while (0)
#define REPS 20
/* Rung 17's committed tuning for the large class on the H100. */
#define TSM 128
#define TSN 64
#define WPTM 8
#define WPTN 16

static std::string read_file(const std::string &path)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path.c_str()); exit(1); }
    std::string s;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

static CUmodule compile(const std::string &kdir, const std::string &sdir)
{
    const std::string src = read_file(sdir + "/overlap-kernels.cu");
    nvrtcProgram p;
    nvrtcCreateProgram(&p, src.c_str(), "overlap-kernels.cu", 0, NULL, NULL);
    const std::string inc = "-I" + kdir;
    const char *opts[] = {"--gpu-architecture=sm_90", "-std=c++17", "-lineinfo", inc.c_str(),
                          "-DTSM=128", "-DTSN=64", "-DTSK=16", "-DWPTM=8", "-DWPTN=16",
                          "-DSTAGES=2"};
    const nvrtcResult r = nvrtcCompileProgram(p, 10, opts);
    size_t ls;
    nvrtcGetProgramLogSize(p, &ls);
    std::string log(ls, '\0');
    nvrtcGetProgramLog(p, &log[0]);
    if (r != NVRTC_SUCCESS) { fprintf(stderr, "NVRTC: %s\n", log.c_str()); exit(1); }
    size_t n;
    nvrtcGetCUBINSize(p, &n);
    std::vector<char> cubin(n);
    nvrtcGetCUBIN(p, cubin.data());
    nvrtcDestroyProgram(&p);
    CUmodule m;
    CU(cuModuleLoadData(&m, cubin.data()));
    return m;
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* Max |x - ref| / max |ref|; infinite when x holds a NaN or an infinity. */
static double rel_diff(const float *dx, const float *dref, size_t n)
{
    std::vector<float> x(n), r(n);
    CK(cudaMemcpy(x.data(), dx, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r.data(), dref, n * 4, cudaMemcpyDeviceToHost));
    double d = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i])) return INFINITY;
        d = fmax(d, fabs((double)x[i] - r[i]));
        m = fmax(m, fabs((double)r[i]));
    }
    return d / m;
}

static void fill(float *d, size_t n, unsigned seed)
{
    std::vector<float> h(n);
    unsigned s = seed;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        h[i] = (s >> 8) / 8388608.0f - 1.0f;
    }
    CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: %s KERNEL_DIR SOURCE_DIR N...\n", argv[0]); return 2; }
    CK(cudaFree(0)); /* the runtime's primary context, which the driver calls then use */
    CUmodule mod = compile(argv[1], argv[2]);
    CUfunction f_gemm, f_overlap, f_helper;
    CU(cuModuleGetFunction(&f_gemm, mod, "gemm"));
    CU(cuModuleGetFunction(&f_overlap, mod, "gemm_overlap"));
    CU(cuModuleGetFunction(&f_helper, mod, "transpose_warps"));
    int regs[3];
    cuFuncGetAttribute(&regs[0], CU_FUNC_ATTRIBUTE_NUM_REGS, f_gemm);
    cuFuncGetAttribute(&regs[1], CU_FUNC_ATTRIBUTE_NUM_REGS, f_overlap);
    cuFuncGetAttribute(&regs[2], CU_FUNC_ATTRIBUTE_NUM_REGS, f_helper);
    printf("# registers: gemm %d, gemm_overlap %d, transpose_warps %d\n", regs[0], regs[1], regs[2]);
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSetStream(h, st);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("# size    cublas    helper       seq   overlap     nopdl      gemm   cublas/seq  cublas/overlap  cublas/gemm  diff_seq  diff_overlap\n");
    for (int a = 3; a < argc; a++) {
        int n = atoi(argv[a]), M = n, N = n, K = n;
        const size_t nn = (size_t)n * n;
        float *A, *B, *Bt, *C, *Cref;
        int *flags;
        CK(cudaMalloc(&A, nn * 4)); CK(cudaMalloc(&B, nn * 4)); CK(cudaMalloc(&Bt, nn * 4));
        CK(cudaMalloc(&C, nn * 4)); CK(cudaMalloc(&Cref, nn * 4));
        CK(cudaMalloc(&flags, (K / 32 + 1) * sizeof(int)));
        CK(cudaMemset(flags, 0, (K / 32 + 1) * sizeof(int)));
        fill(A, nn, 1u);
        fill(B, nn, 2u);
        const float one = 1.0f, zero = 0.0f;
        int epoch = 0, target = 0;
        void *helper_args[] = {&B, &Bt, &K, &N, &flags};
        void *gemm_args[] = {&M, &N, &K, &A, &Bt, &C};
        void *overlap_args[] = {&M, &N, &K, &A, &Bt, &C, &flags, &target};
        auto launch = [&](CUfunction f, unsigned gx, unsigned gy, unsigned bx, unsigned by,
                          void **args, int pdl) {
            CUlaunchConfig cfg = {};
            cfg.gridDimX = gx; cfg.gridDimY = gy; cfg.gridDimZ = 1;
            cfg.blockDimX = bx; cfg.blockDimY = by; cfg.blockDimZ = 1;
            cfg.hStream = (CUstream)st;
            CUlaunchAttribute at;
            at.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
            at.value.programmaticStreamSerializationAllowed = 1;
            cfg.attrs = &at;
            cfg.numAttrs = pdl ? 1 : 0;
            CU(cuLaunchKernelEx(&cfg, f, args, NULL));
        };
        const unsigned gx = M / TSM, gy = N / TSN, bx = TSM / WPTM, by = TSN / WPTN;
        auto helper = [&] { launch(f_helper, sms, 1, 128, 1, helper_args, 0); epoch++; };
        auto cublas = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, A, M, B,
                                        K, &zero, Cref, M); };
        auto gemm = [&] { launch(f_gemm, gx, gy, bx, by, gemm_args, 0); };
        auto seq = [&] { helper(); gemm(); };
        auto pair = [&](int pdl) {
            helper();
            target = epoch * (N / 32);
            launch(f_overlap, gx, gy, bx, by, overlap_args, pdl);
        };
        auto overlap = [&] { pair(1); };
        auto nopdl = [&] { pair(0); };
        auto time = [&](auto f) {
            std::vector<float> ms;
            for (int r = 0; r < 3; r++) f();
            for (int r = 0; r < REPS; r++) {
                CK(cudaEventRecord(e0, st));
                f();
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float t;
                CK(cudaEventElapsedTime(&t, e0, e1));
                ms.push_back(t);
            }
            CK(cudaGetLastError());
            return median(ms);
        };
        cublas();
        CK(cudaMemsetAsync(Bt, 0xff, nn * 4, st));
        overlap();
        CK(cudaStreamSynchronize(st));
        const double dov = rel_diff(C, Cref, nn);
        CK(cudaMemsetAsync(Bt, 0xff, nn * 4, st));
        CK(cudaMemsetAsync(C, 0xff, nn * 4, st));
        seq();
        CK(cudaStreamSynchronize(st));
        const double dseq = rel_diff(C, Cref, nn);
        for (int round = 0; round < 2; round++) {
            const float tc = time(cublas), th = time(helper), ts = time(seq);
            const float to = time(overlap), tn = time(nopdl), tg = time(gemm);
            printf("%6d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %12.3f %15.3f %12.3f %9.1e %13.1e\n",
                   n, tc, th, ts, to, tn, tg, tc / ts, tc / to, tc / tg, dseq, dov);
            fflush(stdout);
        }
        cudaFree(A); cudaFree(B); cudaFree(Bt); cudaFree(C); cudaFree(Cref); cudaFree(flags);
    }
    return 0;
}
