#include "backends/host_blas.h"

#include <cblas.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The value after "key<spaces>: " on the first /proc/cpuinfo line starting with key. */
static void cpuinfo_field(const char *key, char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    size_t klen = strlen(key);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(out, size, "%s", colon);
        break;
    }
    fclose(f);
}

void host_cpu_info(device_info *info)
{
    memset(info, 0, sizeof *info);
    snprintf(info->backend, sizeof info->backend, "cpu");
    snprintf(info->name, sizeof info->name, "host CPU");
    cpuinfo_field("model name", info->name, sizeof info->name);
    cpuinfo_field("vendor_id", info->vendor, sizeof info->vendor);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    info->compute_units = cores > 0 ? (int)cores : 0;
    /* OpenBLAS says which kernels and threading it uses; other CBLAS libraries do not
     * have the call, so look it up rather than link against it. */
    char *(*config)(void);
    void *symbol = dlsym(RTLD_DEFAULT, "openblas_get_config");
    memcpy(&config, &symbol, sizeof config);
    snprintf(info->driver, sizeof info->driver, "%s", symbol ? config() : "CBLAS");
    snprintf(info->platform, sizeof info->platform, "CBLAS");
}

/* C = beta * C without a product (K = 0 or alpha = 0, where BLAS reads neither A nor B),
 * as the GPU baselines do it: beta = 0 writes zeros, never multiplying, so a NaN in C does
 * not survive; otherwise each run of C (gemm_c_runs) is scaled by the CBLAS's own scal. */
static void scale_c(const gemm_call *g, void *C)
{
    const gemm_case *c = &g->c;
    const size_t elem = gemm_elem_bytes(c->precision);
    size_t runs, length, stride;
    gemm_c_runs(g, &runs, &length, &stride);
    for (size_t l = 0; l < runs; l++) {
        char *run = (char *)C + l * stride * elem;
        if (c->beta == 0)
            memset(run, 0, length * elem); /* all bits zero: 0 in float and in double */
        else if (c->precision == PRECISION_DOUBLE)
            cblas_dscal((int)length, c->beta, (double *)run, 1);
        else
            cblas_sscal((int)length, (float)c->beta, (float *)run, 1);
    }
}

ladder_status host_gemm(const gemm_call *g, const void *A, const void *B, void *C,
                        char *msg)
{
    const gemm_case *c = &g->c;
    const int dbl = c->precision == PRECISION_DOUBLE;
    ladder_status st = gemm_check_call(dbl ? "cblas_dgemm" : "cblas_sgemm", g, msg);
    if (st != LADDER_OK)
        return st;
    /* alpha = 0 or K = 0: the reference BLAS reads neither A nor B and leaves C = beta * C.
     * OpenBLAS 0.3.21 (Debian 12) multiplies anyway at some small shapes on CPUs with
     * AVX-512 BF16 (its Cooper Lake kernels: 64x64x32 and 37x8x2000 at alpha 0 gave NaN
     * from a NaN in A, 2026-11-29), so the baseline does the reference's work itself. */
    if (c->alpha == 0 || g->K == 0) {
        scale_c(g, C);
        return LADDER_OK;
    }
    const enum CBLAS_ORDER order = c->layout == LAYOUT_ROW ? CblasRowMajor : CblasColMajor;
    const enum CBLAS_TRANSPOSE ta = c->trans_a ? CblasTrans : CblasNoTrans;
    const enum CBLAS_TRANSPOSE tb = c->trans_b ? CblasTrans : CblasNoTrans;
    if (dbl)
        cblas_dgemm(order, ta, tb, (int)g->M, (int)g->N, (int)g->K, c->alpha, A, (int)g->lda,
                    B, (int)g->ldb, c->beta, C, (int)g->ldc);
    else
        cblas_sgemm(order, ta, tb, (int)g->M, (int)g->N, (int)g->K, (float)c->alpha, A,
                    (int)g->lda, B, (int)g->ldb, (float)c->beta, C, (int)g->ldc);
    return LADDER_OK;
}

double host_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
