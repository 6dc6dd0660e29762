#!/usr/bin/env bash
# Session 5, run A2: rung 17 against rungs 9, 15, 16 and cuBLAS, tuned (the committed database).
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
O=$OUT/banks2; mkdir -p $O
export LADDER=$PWD/.devbuild/ladder
S=1024,2048,4096,8192,4096x4096x1024,8192x1024x8192,1000x1003x997
tools/measure.sh $O/tuned --device H100 --backend cuda --rungs 9,15,16,17,cublas --sizes $S > $O/tuned.log 2>&1
echo "tuned exit $?"; grep -E "^cuda" $O/tuned.log | awk '{printf "%s %s %s %s %s\n", $2, $(NF-5), $(NF-4), $(NF-3), $(NF-2)}'
tools/measure.sh $O/default --device H100 --backend cuda --defaults --rungs 17,cublas --sizes 1024,4096,8192,8192x1024x8192 > $O/default.log 2>&1
echo "default exit $?"; grep -E "^cuda" $O/default.log | awk '{printf "%s %s %s %s\n", $2, $(NF-5), $(NF-4), $(NF-3)}'
# the same store change in OpenCL's rung 9 (a probe, not committed as a kernel)
d=/tmp/ocl9s; rm -rf $d; cp -r kernels-opencl $d; cp .devbuild/exp/ocl9s/09-prefetch.cl $d/
for v in committed scalar; do kd=$PWD/kernels-opencl; [ $v = scalar ] && kd=$d
  LADDER_OPENCL_KERNELS=$kd $LADDER run --device H100 --backend opencl --rungs 9 --defaults --param TSM=256 --sizes 4096,8192 --output $O/ocl9-$v.csv > $O/ocl9-$v.log 2>&1
  echo "ocl9 $v"; grep -E "^opencl" $O/ocl9-$v.log | cut -c1-120; done
tar czf $OUT/banks2.tgz -C $OUT banks2 && rm -rf $O
