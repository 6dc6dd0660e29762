#!/usr/bin/env bash
# Session-5 experiment 3: rung 9's layout with cp.async stages for A and B^T, scalar C stores.
set -u
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_SOURCE_DIR=$PWD LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_TUNING_DIR=/nonexistent
E=$OUT/e3; mkdir -p $E
L=$PWD/.devbuild/ladder
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $E/gpu.txt
kdir() { local d=/tmp/k_$1; rm -rf $d; cp -r kernels-cuda $d; cp .devbuild/exp/$1/* $d/; echo $d; }
go() { local name=$1 kd=$2; shift 2
  LADDER_CUDA_KERNELS=$kd $L run --device H100 --backend cuda --defaults "$@" --output $E/$name.csv > $E/$name.log 2>&1
  echo "== $name: $*"; grep -E "^cuda|rror" $E/$name.log | cut -c1-120; }
K=$PWD/kernels-cuda; S="--sizes 4096,8192"
B1="--param TSM=256 --param WPTM=16 --param TSK=8"
go control $K --rungs 9,cublas $S
go r9a3-256x128x8 $(kdir r9a3) --rungs 9 $S $B1
go r9a4-256x128x8 $(kdir r9a4) --rungs 9 $S $B1
go r9a2-128x128x16 $(kdir r9a2) --rungs 9 $S
go r9a3-128x128x16 $(kdir r9a3) --rungs 9 $S
go r9a4-128x128x8 $(kdir r9a4) --rungs 9 $S --param TSK=8
go r9s $(kdir r9s) --rungs 9 $S
go control-2 $K --rungs cublas $S
M=gpu__time_duration.sum,launch__registers_per_thread,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for s in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle not_selected short_scoreboard wait; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
LADDER_CUDA_KERNELS=$(kdir r9a3) timeout 100 /usr/local/cuda/bin/ncu --launch-count 1 -k gemm --metrics $M $L run --device H100 --backend cuda --defaults --rungs 9 $B1 --sizes 4096 --reps 3 --output $E/n1.csv > $E/ncu-r9a3-256x128x8.txt 2>&1
LADDER_CUDA_KERNELS=$(kdir r9a3) timeout 100 /usr/local/cuda/bin/ncu --launch-count 1 -k gemm --metrics $M $L run --device H100 --backend cuda --defaults --rungs 9 --sizes 4096 --reps 3 --output $E/n2.csv > $E/ncu-r9a3-128x128x16.txt 2>&1
for f in $E/ncu-*.txt; do echo "== $f"; grep -E "issue_active|dispatch|fma_cycles|scoreboard|barrier|registers" $f | awk '{print $1, $NF}'; done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $E/gpu.txt
tar czf $OUT/e3.tgz -C $OUT e3 && rm -rf $E
