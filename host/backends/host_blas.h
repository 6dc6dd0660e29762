/* The CPU baseline: the host's BLAS (through CBLAS), and a description of the host CPU. */
#ifndef LADDER_HOST_BLAS_H
#define LADDER_HOST_BLAS_H

#include "backends/backend.h"

/* Describes the host CPU as a device of the "cpu" backend (name from /proc/cpuinfo, BLAS
 * library and version as the driver). */
void host_cpu_info(device_info *info);

/* The BLAS call `call` describes, on host matrices of its precision, with the host BLAS
 * (cblas_sgemm or cblas_dgemm in the call's layout). A leading dimension below its
 * minimum is LADDER_ERROR with the reason, before the BLAS sees it. */
ladder_status host_gemm(const gemm_call *call, const void *A, const void *B, void *C,
                        char *msg);

/* Monotonic wall clock in milliseconds (for host timing only). */
double host_now_ms(void);

#endif
