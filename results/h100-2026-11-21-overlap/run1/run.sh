#!/usr/bin/env bash
# Probe: rung 17's helper overlapped with its GEMM (sources/overlap-probe-v1.cu), against the
# helper-then-GEMM order, the GEMM alone and cuBLAS, at 2048, 4096 and 8192.
set -u
O=$OUT/run1; mkdir -p $O
NVCC=/usr/local/cuda/bin/nvcc
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; $NVCC --version | tail -2
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > $O/environment.txt 2>&1
$NVCC -O3 -arch=sm_90 -std=c++17 -I kernels-cuda -DTSM=128 -DTSN=64 -DTSK=16 -DWPTM=8 -DWPTN=16 -DSTAGES=2 \
  results/h100-2026-11-21-overlap/sources/overlap-probe-v1.cu -lcublas -o /tmp/probe > $O/build.log 2>&1 || { cat $O/build.log; exit 1; }
/tmp/probe 2048 4096 8192 2>&1 | tee $O/probe.txt
/tmp/probe 4096 8192 2>&1 | tee $O/probe-again.txt
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv >> $O/environment.txt 2>&1
tar czf $OUT/run1.tgz -C $OUT run1 && rm -rf $O
