#!/usr/bin/env bash
# Probe v2: the kernels compiled by NVRTC as the ladder does (sources/overlap-kernels.cu),
# a warp-per-tile helper that fits beside rung 17's blocks; cuBLAS, helper alone,
# helper-then-GEMM, overlapped (with and without programmatic dependent launch), GEMM
# alone, at 2048, 4096, 8192, twice.
set -u
O=$OUT/run2; mkdir -p $O
NVCC=/usr/local/cuda/bin/nvcc
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=results/h100-2026-11-21-overlap/sources
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; $NVCC --version | tail -2
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > $O/environment.txt 2>&1
$NVCC -O2 -std=c++17 $S/overlap-probe.cu -lcublas -lcuda -lnvrtc -o /tmp/probe > $O/build.log 2>&1 || { cat $O/build.log; exit 1; }
/tmp/probe $PWD/kernels-cuda $PWD/$S 2048 4096 8192 2>&1 | tee $O/probe.txt
/tmp/probe $PWD/kernels-cuda $PWD/$S 4096 8192 2>&1 | tee $O/probe-again.txt
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv >> $O/environment.txt 2>&1
tar czf $OUT/run2.tgz -C $OUT run2 && rm -rf $O
