#!/usr/bin/env bash
# Session 8, final run: the committed tree (rung 17 in snake order, its new tuning entries
# in tuning/). First the tuned FP32 rungs against cuBLAS at issue 6's sizes, twice (the
# headline); then the CUDA sweep of every rung at its defaults, which the tutorial's
# figures are drawn from.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv
export LADDER=$PWD/.devbuild/ladder
O=$OUT/final; mkdir -p $O/sweep-cuda
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s\n", $2, $4, $(NF-6), $(NF-4), $(NF-3)}'; }
for rep in 1 2; do
  LADDER_TUNING_DIR=$PWD/tuning tools/measure.sh $O/tuned-$rep --device H100 --backend cuda --rungs 15,16,17,18,cublas \
    --sizes 2048,4096,8192,4096x4096x1024,8192x1024x8192 > $O/tuned-$rep.log 2>&1
  echo "tuned-$rep exit $?"; show $O/tuned-$rep.log | grep -E "^(17|cublas)"
  cp $O/tuned-$rep.log $O/tuned-$rep/run.log
done
LADDER_TUNING_DIR=/nonexistent timeout 400 tools/measure.sh $O/sweep-cuda --device H100 --backend cuda --rungs kernels,cublas \
  --sizes 1024,2048,3072,4096,6144,8192,4096x4096x1024,8192x1024x8192,2048x8192x4096,1000x1003x997 > $O/sweep-cuda/run.log 2>&1
echo "sweep exit $?: $(grep -c ',ok,' $O/sweep-cuda/results.csv) ok rows"
tar czf $OUT/final.tgz -C $OUT final && rm -rf $O
