#!/usr/bin/env bash
# Session-5 experiment: rung 9 with scalar C stores (register banks) against rung 9 and cuBLAS.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_TUNING_DIR=/nonexistent
E=$OUT/e; mkdir -p $E
L=$PWD/.devbuild/ladder
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $E/gpu.txt
kdir() { local d=/tmp/k_$1; rm -rf $d; cp -r kernels-cuda $d; cp .devbuild/exp/$1/* $d/; echo $d; }
go() { local name=$1 kd=$2; shift 2
  LADDER_CUDA_KERNELS=$kd $L run --device H100 --backend cuda --defaults "$@" --output $E/$name.csv > $E/$name.log 2>&1
  echo "== $name: $*"; grep -E "^cuda" $E/$name.log | cut -c1-140; }
K=$PWD/kernels-cuda; S="--sizes 2048,4096,8192,4096x4096x1024,8192x1024x8192"
go control $K --rungs 9,cublas $S
go r9s $(kdir r9s) --rungs 9 $S
go r9s-k8 $(kdir r9s) --rungs 9 --sizes 4096,8192 --param TSK=8
go control-2 $K --rungs 9,cublas --sizes 4096,8192
go r9s-2 $(kdir r9s) --rungs 9 --sizes 4096,8192
M=gpu__time_duration.sum,launch__registers_per_thread,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for s in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle not_selected short_scoreboard wait no_instruction; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for v in control r9s; do kd=$K; [ $v = r9s ] && kd=$(kdir r9s)
  LADDER_CUDA_KERNELS=$kd timeout 200 /usr/local/cuda/bin/ncu --launch-count 1 -k gemm --metrics $M $L run --device H100 --backend cuda --defaults --rungs 9 --sizes 4096 --reps 3 --output $E/ncu-$v.csv > $E/ncu-$v.txt 2>&1
  echo "== ncu $v"; grep -E "issue_active|dispatch|fma_cycles|short_score" $E/ncu-$v.txt; done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $E/gpu.txt
tar czf $OUT/e.tgz -C $OUT e && rm -rf $E
