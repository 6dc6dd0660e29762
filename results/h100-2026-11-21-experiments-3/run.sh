#!/usr/bin/env bash
# Session-3 experiments on the H100 (issue 6 variants, rung 1 noise). Run from the repo root.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_TUNING_DIR=/nonexistent
E=$OUT/e; mkdir -p $E
L=$PWD/.devbuild/ladder; LX=$PWD/.devbuild/exp/ladder
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $E/gpu.txt
kdir() { # kernels-cuda with one variant's files on top
  local d=/tmp/k_$1; rm -rf $d; cp -r kernels-cuda $d; cp exp-s3/$1/* $d/; echo $d; }
go() { # name, binary, kernel dir, ladder run args...
  local name=$1 bin=$2 kd=$3; shift 3
  LADDER_CUDA_KERNELS=$kd $bin run --device H100 --backend cuda --defaults "$@" --output $E/$name.csv > $E/$name.log 2>&1
  echo "== $name: $*"; grep -E "^cuda" $E/$name.log | cut -c1-150
}
K=$PWD/kernels-cuda
S="--sizes 4096,8192"
go control      $L $K --rungs 9,13,cublas $S
go r9-lb1-128   $L $(kdir r9-lb1) --rungs 9,cublas $S
go r9-lb1-128x256 $L $(kdir r9-lb1) --rungs 9 $S --param TSN=256 --param WPTN=16
go r9-lb1-256x128 $L $(kdir r9-lb1) --rungs 9 $S --param TSM=256 --param WPTM=16
go r9-lb1-256x128-k8 $L $(kdir r9-lb1) --rungs 9 $S --param TSM=256 --param WPTM=16 --param TSK=8
for g in 4 8 16; do go r9-swz$g $L $(kdir r9-swz$g) --rungs 9 $S; done
go r9-dyn-k16   $LX $(kdir r9-dyn) --rungs 9 $S
go r9-dyn-k32   $LX $(kdir r9-dyn) --rungs 9 $S --param TSK=32
go r9-dyn-lb1-128x256-k32 $LX $(kdir r9-dyn-lb1) --rungs 9 $S --param TSK=32 --param TSN=256 --param WPTN=16
for st in 3 4 6; do go r13-dyn-k16-s$st $LX $(kdir r13-dyn) --rungs 13 $S --param TSK=16 --param WM=32 --param STAGES=$st; done
for st in 4 8; do go r13-dyn-k8-s$st $LX $(kdir r13-dyn) --rungs 13 $S --param TSK=8 --param WM=32 --param STAGES=$st; done
go control-2    $L $K --rungs 9,13,cublas $S
# the dynamic path at awkward sizes, under the sanitizer
LADDER_CUDA_KERNELS=$(kdir r13-dyn) /usr/local/cuda/bin/compute-sanitizer --tool memcheck $LX run --device H100 --backend cuda --defaults --rungs 13 --param STAGES=4 --param TSK=16 --param WM=32 --sizes 257x129x65,130x67x35,4096x4096x64 --output $E/san-r13-dyn.csv > $E/san-r13-dyn.log 2>&1
echo "== sanitizer"; tail -3 $E/san-r13-dyn.log
# rung 1: noise between processes, and __restrict__
for i in 1 2 3; do go r1-ts32-$i $L $K --rungs 1 --sizes 2048,4096 --reps 30; done
go r1-ts16 $L $K --rungs 1 --sizes 2048,4096 --reps 30 --param TS=16
go r1-restrict-ts32 $L $(kdir r1-restrict) --rungs 1 --sizes 2048,4096 --reps 30
go r1-restrict-ts16 $L $(kdir r1-restrict) --rungs 1 --sizes 2048,4096 --reps 30 --param TS=16
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $E/gpu.txt
cp -r exp-s3 $E/sources
tar czf $OUT/e.tgz -C $OUT e && rm -rf $E
