/* The CPU baseline: the host's BLAS (through CBLAS), and a description of the host CPU. */
#ifndef LADDER_HOST_BLAS_H
#define LADDER_HOST_BLAS_H

#include "backends/backend.h"

/* Describes the host CPU as a device of the "cpu" backend (name from /proc/cpuinfo, BLAS
 * library and version as the driver). */
void host_cpu_info(device_info *info);

/* C = A * B, column-major, float32, with the host BLAS. */
void host_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

/* Monotonic wall clock in milliseconds (for host timing only). */
double host_now_ms(void);

#endif
