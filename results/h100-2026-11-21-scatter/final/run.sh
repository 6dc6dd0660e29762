#!/usr/bin/env bash
# Session 6, run 4: the final tree. GPU tests, the whole CUDA ladder at its defaults (the
# figures' source, as h100-2026-11-21-sweep-2), then rungs 9, 15-18 and cuBLAS with the
# committed tuning database at the sizes.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run4; mkdir -p $O/checks $O/sweep-cuda
bash tests/cli/cuda_gpu.sh $LADDER > $O/checks/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/checks/cuda_gpu-test.log)"
.devbuild/test_blas_semantics cuda > $O/checks/blas-semantics.log 2>&1; echo "blas semantics exit $?: $(tail -1 $O/checks/blas-semantics.log)"
tools/measure.sh $O/sweep-cuda --device H100 --backend cuda --rungs kernels,cublas \
  --sizes 1024,2048,3072,4096,6144,8192,4096x4096x1024,8192x1024x8192,2048x8192x4096,1000x1003x997 > $O/sweep-cuda/run.log 2>&1
echo "sweep exit $?: $(grep -c ',ok,' $O/sweep-cuda/results.csv) ok rows"
LADDER_TUNING_DIR=$PWD/tuning tools/measure.sh $O/tuned --device H100 --backend cuda --rungs 9,15,16,17,18,cublas \
  --sizes 2048,4096,8192,4096x4096x1024,8192x1024x8192 > $O/tuned.log 2>&1
echo "tuned exit $?"; grep -E "^cuda" $O/tuned.log | awk '{printf "%s %s %s %s\n", $2, $(NF-6), $(NF-4), $(NF-3)}'
cp $O/tuned.log $O/tuned/run.log
tar czf $OUT/run4.tgz -C $OUT run4 && rm -rf $O
