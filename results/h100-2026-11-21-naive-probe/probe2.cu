// Issue 2 probe: the tutorial's naive kernel and ours, compiled by nvcc, timed two ways.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <sys/time.h>
#define TS 32
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
__global__ void anchor(const int M, const int N, const int K, const float* A, const float* B, float* C) {
    const int globalRow = blockDim.x*blockIdx.x + threadIdx.x;
    const int globalCol = blockDim.y*blockIdx.y + threadIdx.y;
    float acc = 0.0f;
    for (int k=0; k<K; k++) acc += A[k*M + globalRow] * B[globalCol*K + k];
    C[globalCol*M + globalRow] = acc;
}

__global__ void ours(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockIdx.x * TS + threadIdx.x, n = blockIdx.y * TS + threadIdx.y;
    if (m >= M || n >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++) acc += A[m + k * M] * B[k + n * K];
    C[m + n * M] = acc;
}
// anchor's index arithmetic plus the early return
__global__ void exit_blockdim(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockDim.x * blockIdx.x + threadIdx.x, n = blockDim.y * blockIdx.y + threadIdx.y;
    if (m >= M || n >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++) acc += A[k * M + m] * B[n * K + k];
    C[n * M + m] = acc;
}
// ours without the early return (valid only for multiples of TS)
__global__ void noexit(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockIdx.x * TS + threadIdx.x, n = blockIdx.y * TS + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < K; k++) acc += A[m + k * M] * B[k + n * K];
    C[m + n * M] = acc;
}
// threads outside C read a row/column that exists (clamped) and skip only the store
__global__ void clamp(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockIdx.x * TS + threadIdx.x, n = blockIdx.y * TS + threadIdx.y;
    const int mr = min(m, M - 1), nr = min(n, N - 1);
    float acc = 0.0f;
    for (int k = 0; k < K; k++) acc += A[mr + k * M] * B[k + nr * K];
    if (m < M && n < N) C[m + n * M] = acc;
}
// the whole body inside the bounds test
__global__ void inside(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockIdx.x * TS + threadIdx.x, n = blockIdx.y * TS + threadIdx.y;
    if (m < M && n < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++) acc += A[m + k * M] * B[k + n * K];
        C[m + n * M] = acc;
    }
}
// early return, loop unrolling off
__global__ void nounroll(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockIdx.x * TS + threadIdx.x, n = blockIdx.y * TS + threadIdx.y;
    if (m >= M || n >= N) return;
    float acc = 0.0f;
#pragma unroll 1
    for (int k = 0; k < K; k++) acc += A[m + k * M] * B[k + n * K];
    C[m + n * M] = acc;
}
// early return, pointers walked instead of indexed
__global__ void walk(const int M, const int N, const int K, const float *A, const float *B, float *C) {
    const int m = blockIdx.x * TS + threadIdx.x, n = blockIdx.y * TS + threadIdx.y;
    if (m >= M || n >= N) return;
    const float *a = A + m, *b = B + (size_t)n * K;
    float acc = 0.0f;
    for (int k = 0; k < K; k++, a += M) acc += *a * b[k];
    C[m + n * M] = acc;
}
static double now() { timeval t; gettimeofday(&t, 0); return t.tv_sec + 1e-6 * t.tv_usec; }
int main(int argc, char **argv) {
    int S = argc > 1 ? atoi(argv[1]) : 4096;
    int positive = argc > 2 ? atoi(argv[2]) : 0; // 1: values in [0,1] like the tutorial
    size_t n = (size_t)S * S;
    std::vector<float> h(n);
    srand(1);
    float *A, *B, *C;
    CK(cudaMalloc(&A, n * 4)); CK(cudaMalloc(&B, n * 4)); CK(cudaMalloc(&C, n * 4));
    for (auto &x : h) x = positive ? (float)rand() / RAND_MAX : 2.0f * rand() / RAND_MAX - 1.0f;
    CK(cudaMemcpy(A, h.data(), n * 4, cudaMemcpyHostToDevice));
    for (auto &x : h) x = positive ? (float)rand() / RAND_MAX : 2.0f * rand() / RAND_MAX - 1.0f;
    CK(cudaMemcpy(B, h.data(), n * 4, cudaMemcpyHostToDevice));
    dim3 blocks(S / TS, S / TS), threads(TS, TS);
    double flops = 2.0 * S * (double)S * S;
    const char *names[] = {"anchor", "ours", "exit_blockdim", "noexit", "clamp", "inside", "nounroll", "walk"};
    void (*kern[])(int, int, int, const float *, const float *, float *) = {anchor, ours, exit_blockdim, noexit, clamp, inside, nounroll, walk};
    for (int which = 0; which < 8; which++) {
        auto launch = [&]() { kern[which]<<<blocks, threads>>>(S, S, S, A, B, C); };
        for (int w = 0; w < 3; w++) launch();
        CK(cudaDeviceSynchronize());
        // the tutorial's way: host wall clock around 4 runs
        double t0 = now();
        for (int r = 0; r < 4; r++) launch();
        CK(cudaDeviceSynchronize());
        double wall = (now() - t0) / 4;
        // events, one per launch, median of 30
        cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
        std::vector<float> ms;
        for (int r = 0; r < 30; r++) { CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float t; CK(cudaEventElapsedTime(&t, e0, e1)); ms.push_back(t); }
        std::sort(ms.begin(), ms.end());
        printf("%-14s S=%d positive=%d wall-avg4 %.0f GFLOPS  events median %.0f (min %.0f max %.0f)\n",
               names[which], S, positive, flops / wall * 1e-9, flops / (ms[15] * 1e-3) * 1e-9,
               flops / (ms[29] * 1e-3) * 1e-9, flops / (ms[0] * 1e-3) * 1e-9);
    }
    return 0;
}
