#!/usr/bin/env bash
# Session-3 tuning on the H100: JOBS="cuda:9 opencl:9 ..." BUDGET=85 TAG=b1 bash exp-s3/tune3.sh
# Each search measures every candidate at one size of each class (small 1024, large 4096,
# skinny 8192x1024x8192), starting from the committed database.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
L=$PWD/.devbuild/ladder
O=$OUT/$TAG; mkdir -p $O
cp ${START_DB:-tuning/nvidia-h100-80gb-hbm3.tsv} $O/tuning.tsv
start=$(date +%s)
for job in $JOBS; do
  now=$(date +%s)
  if (( now - start + BUDGET + 15 > ${LIMIT:-560} )); then echo "$job: skipped (time)"; continue; fi
  b=${job%%:*}; r=${job##*:}
  $L tune --rung $r --backend $b --device H100 --sizes ${SIZES:-1024,4096,8192x1024x8192} \
     --budget ${BUDGET}s --candidates $O/tune-$r-$b.csv --db $O/tuning.tsv > $O/tune-$r-$b.log 2>&1
  echo "$job ($(( $(date +%s) - now )) s): $(grep -c . $O/tune-$r-$b.csv) rows; $(tail -4 $O/tune-$r-$b.log | tr '\n' ' ' | cut -c1-400)"
done
mkdir -p build && cp $O/tuning.tsv build/tuning-$TAG.tsv
cd $OUT && tar czf $TAG.tgz $TAG && rm -rf $TAG
