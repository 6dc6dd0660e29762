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

/* C = beta * C over the call's M x N, in its layout; beta 0 writes zeros without reading
 * C, so a NaN there does not survive (the reference BLAS's rule). */
static void scale_c(const gemm_call *g, void *C)
{
    const int dbl = g->c.precision == PRECISION_DOUBLE, row = g->c.layout == LAYOUT_ROW;
    const long outer = row ? g->M : g->N, inner = row ? g->N : g->M;
    for (long o = 0; o < outer; o++)
        for (long i = 0; i < inner; i++) {
            const long at = o * g->ldc + i;
            if (dbl)
                ((double *)C)[at] = g->c.beta == 0 ? 0.0 : g->c.beta * ((double *)C)[at];
            else
                ((float *)C)[at] =
                    g->c.beta == 0 ? 0.0f : (float)g->c.beta * ((float *)C)[at];
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
