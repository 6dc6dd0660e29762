#!/usr/bin/env bash
# Rung 15 with 64-bit column offsets, run 2: the kernel's hash changed, so its committed
# tuning entries no longer apply. A new search in each backend (75 s, one size of each
# class), then rung 15 with the entries found against the libraries.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run2; mkdir -p $O
show() { grep -E "^(cuda|opencl)" "$1" | awk '{printf "%s %s %s %s %s\n", $1, $2, $(NF-6), $(NF-4), $(NF-3)}'; }
for be in cuda opencl; do
  timeout 110 $LADDER tune --rung 15 --backend $be --device H100 --sizes 1024,4096,8192x1024x8192 --budget 75s \
    --candidates $O/tune-15-$be.csv --db $O/tuning.tsv > $O/tune-$be.log 2>&1
  echo "tune $be exit $?"; grep -E "sizes: best|candidates in" $O/tune-$be.log
done
for be in cuda opencl; do
  lib=cublas; [ $be = opencl ] && lib=clblast
  tools/measure.sh $O/tuned-$be --device H100 --backend $be --rungs 15,$lib --db $O/tuning.tsv \
    --sizes 1024,4096,8192x1024x8192 > $O/tuned-$be.log 2>&1
  echo "tuned $be exit $?"; show $O/tuned-$be.log
done
tar czf $OUT/run2.tgz -C $OUT run2 && rm -rf $O
