#!/usr/bin/env bash
# The H100, after commit ebc27de (ladder select's filter): ladder select again on the shapes
# where the first tables lacked split counts (the skinny, long-k, odd and small squares),
# in CUDA and in NVIDIA OpenCL, updating the committed tables in place (an entry is
# replaced only by a faster one). Run from the source tree with a staged build.
set -u
source .stage/env.sh
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_SELECTION_DB=/nonexistent/selection.tsv
O=$OUT/reselect; mkdir -p $O
S=512,3072,128x128x32768,256x256x16384,64x64x65536,64x8192x4096,32x16384x8192,16384x64x4096,8192x32x8192,11008x16x4096,997x1013x1009,333x7777x555
timeout 330 $LADDER select --backend cuda --sizes $S --budget 300s \
  --db tuning/selection/nvidia-h100-80gb-hbm3-cuda.tsv --output $O/select-cuda.csv > $O/select-cuda.log 2>&1
echo "cuda exit $?"; grep -A14 "^shape " $O/select-cuda.log | cut -c1-150
timeout 190 $LADDER select --backend opencl --device H100 --sizes $S --budget 160s \
  --db tuning/selection/nvidia-h100-80gb-hbm3-opencl.tsv --output $O/select-opencl.csv > $O/select-opencl.log 2>&1
echo "opencl exit $?"; grep -A14 "^shape " $O/select-opencl.log | cut -c1-150
cp tuning/selection/nvidia-h100-80gb-hbm3-*.tsv $O/
tar czf $OUT/reselect.tgz -C $OUT reselect
