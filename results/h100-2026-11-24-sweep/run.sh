#!/usr/bin/env bash
# The H100: every rung of the tree (1-20) at its defaults, in CUDA and in NVIDIA OpenCL,
# with cuBLAS and CLBlast, at the tutorial's sizes: the final sweep its tables and figures
# are drawn from. From the source tree with a staged build (tools/stage-for-gpu.sh).
set -u
source .stage/env.sh
export LADDER_TUNING_DIR=/nonexistent LADDER_TUNING_DB=/nonexistent/tuning.tsv
S=1024,2048,3072,4096,8192,4096x4096x1024,8192x1024x8192,1000x1003x997
O=$OUT/sweep; mkdir -p $O
timeout 330 tools/measure.sh $O/cuda --backend cuda --rungs kernels,cublas --sizes $S \
  --reps 10 --max-time 0.5 > $O/cuda.log 2>&1
echo "cuda exit $? $(grep -c ',ok,' $O/cuda/results.csv) ok"
timeout 210 tools/measure.sh $O/opencl --backend opencl --device H100 --rungs kernels,clblast --sizes $S \
  --reps 10 --max-time 0.5 > $O/opencl.log 2>&1
echo "opencl exit $? $(grep -c ',ok,' $O/opencl/results.csv) ok"
grep -h "ladder: " $O/*.log | head
tar czf $OUT/sweep.tgz -C $OUT sweep
