#!/usr/bin/env bash
# Rung 15 with 64-bit column offsets, run 1: the BLAS-semantics test's --large cases (a
# leading dimension times a column number past 2^31) with the new kernels and with the
# previous ones (.devbuild/old: kernels-cuda and kernels-opencl as of commit 0929bb1), the
# ordinary cases, the GPU CLI test, and rung 15 before and after at its defaults against
# cuBLAS and CLBlast.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_SOURCE_DIR=$PWD LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
kern() { # new|old: the kernel directories to use
  local d=$PWD; [ "$1" = old ] && d=$PWD/.devbuild/old
  echo "LADDER_CUDA_KERNELS=$d/kernels-cuda LADDER_OPENCL_KERNELS=$d/kernels-opencl"
}
O=$OUT/run1; mkdir -p $O/checks
show() { grep -E "^(cuda|opencl)" "$1" | awk '{printf "%s %s %s %s %s\n", $1, $2, $(NF-6), $(NF-4), $(NF-3)}'; }
for be in cuda opencl; do
  for k in new old; do
    env $(kern $k) timeout 200 .devbuild/test_blas_semantics $be --large > $O/checks/large-$be-$k.log 2>&1
    echo "large $be $k kernels exit $?: $(tail -1 $O/checks/large-$be-$k.log)"
    grep -E "^(ok|FAIL)|^rung" $O/checks/large-$be-$k.log | cut -c1-110
  done
  env $(kern new) .devbuild/test_blas_semantics $be > $O/checks/blas-semantics-$be.log 2>&1; echo "blas semantics $be exit $?: $(tail -1 $O/checks/blas-semantics-$be.log)"
done
env $(kern new) bash tests/cli/cuda_gpu.sh $LADDER > $O/checks/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/checks/cuda_gpu-test.log)"
for rep in 1 2; do
  for k in old new; do
    for be in cuda opencl; do
      lib=cublas; [ $be = opencl ] && lib=clblast
      env $(kern $k) tools/measure.sh $O/$k-$be-$rep --device H100 --backend $be --rungs 15,$lib --defaults \
        --sizes 2048,4096,8192 > $O/$k-$be-$rep.log 2>&1
      echo "$k $be rep $rep exit $?"; show $O/$k-$be-$rep.log
    done
  done
done
tar czf $OUT/run1.tgz -C $OUT run1 && rm -rf $O
