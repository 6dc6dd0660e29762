#!/usr/bin/env bash
# Session 5, run E: the final tree on the H100: GPU CLI test and memcheck with the new
# helpers, then rungs 9, 15, 16, 17 and cuBLAS with the committed tuning database.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
O=$OUT/final; mkdir -p $O
bash tests/cli/cuda_gpu.sh $LADDER > $O/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/cuda_gpu-test.log)"
/usr/local/cuda/bin/compute-sanitizer --tool memcheck $LADDER run --backend cuda --rungs 5,10,17 --verify full \
  --sizes 257x129x65,130x67x35,1000x1003x997,512 --output $O/san-memcheck.csv > $O/compute-sanitizer.txt 2>&1
grep -E "ERROR SUMMARY|rows:" $O/compute-sanitizer.txt
$LADDER run --backend opencl --device H100 --rungs 5,10 --verify full --sizes 257x129x65,1000x1003x997,4097x33x1 --output $O/opencl-helpers.csv > $O/opencl-helpers.log 2>&1; tail -1 $O/opencl-helpers.log
LADDER_TUNING_DIR=$PWD/tuning tools/measure.sh $O/tuned --device H100 --backend cuda --rungs 9,15,16,17,cublas \
  --sizes 1024,2048,4096,8192,4096x4096x1024,8192x1024x8192,1000x1003x997 > $O/tuned.log 2>&1
echo "tuned exit $?"; grep -E "^cuda" $O/tuned.log | awk '{printf "%s %s %s %s\n", $2, $(NF-6), $(NF-4), $(NF-3)}'
cp $O/tuned.log $O/tuned/run.log
tar czf $OUT/final.tgz -C $OUT final && rm -rf $O
