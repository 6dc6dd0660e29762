#!/usr/bin/env bash
# Which parameters suit the sizes between 1024 and 4096: defaults, small-class entries
# (tuned at 1024), or large-class entries (tuned at 4096, relabelled small here).
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
L=$PWD/.devbuild/ladder; O=$OUT/bd; mkdir -p $O
S=1024,1536,1792,2048
R="--device H100 --rungs 6-15 --sizes $S --reps 10"
LADDER=$L tools/measure.sh $O/default $R --defaults > $O/default.log 2>&1; echo "default rc=$?"
LADDER=$L tools/measure.sh $O/small $R --db tuning/nvidia-h100-80gb-hbm3.tsv > $O/small.log 2>&1; echo "small rc=$?"
LADDER=$L tools/measure.sh $O/large $R --db exp-s3/large-as-small.tsv > $O/large.log 2>&1; echo "large rc=$?"
cd $OUT && tar czf bd.tgz bd && rm -rf bd
