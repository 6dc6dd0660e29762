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

ladder_status host_gemm(const gemm_call *g, const void *A, const void *B, void *C,
                        char *msg)
{
    const gemm_case *c = &g->c;
    const int dbl = c->precision == PRECISION_DOUBLE;
    ladder_status st = gemm_check_call(dbl ? "cblas_dgemm" : "cblas_sgemm", g, msg);
    if (st != LADDER_OK)
        return st;
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
