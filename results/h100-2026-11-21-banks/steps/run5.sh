#!/usr/bin/env bash
# Session 5, run D: rung 18 (B's tile as it lies, read along k; no transposing helper).
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_SOURCE_DIR=$PWD LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_OPENCL_KERNELS=$PWD/kernels-opencl
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
O=$OUT/r18; mkdir -p $O
L=$PWD/.devbuild/exp/r18/ladder
go() { local name=$1; shift
  $L run --device H100 --backend cuda "$@" --output $O/$name.csv > $O/$name.log 2>&1
  echo "== $name: $*"; grep -E "^cuda " $O/$name.log | awk '{printf "%s %s %s %s %s %s\n",$2,$(NF-7),$(NF-6),$(NF-5),$(NF-4),$(NF-3)}'; }
go base --rungs 17,18,cublas --sizes 2048,4096,8192,1000x1003x997
go r18-16x8 --rungs 18 --param 18:WPTM=16 --param 18:WPTN=8 --sizes 4096,8192
go r18-64x128 --rungs 18 --param 18:TSM=64 --param 18:TSN=128 --sizes 4096,8192
go r18-k8s3 --rungs 18 --param 18:TSK=8 --param 18:STAGES=3 --sizes 4096,8192
$L tune --rung 18 --backend cuda --device H100 --sizes 4096 --budget 100s --db $O/tuning.tsv --candidates $O/tune-18.csv > $O/tune-18.log 2>&1
tail -5 $O/tune-18.log | cut -c1-150
cat tuning/nvidia-h100-80gb-hbm3.tsv > $O/merged.tsv; grep -v -e '^#' -e '^backend' $O/tuning.tsv >> $O/merged.tsv
go base-2 --rungs 17,18,cublas --sizes 4096,8192 --db $O/merged.tsv
tar czf $OUT/r18.tgz -C $OUT r18 && rm -rf $O
