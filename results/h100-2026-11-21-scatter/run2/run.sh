#!/usr/bin/env bash
# Session 6, run 2: why rung 18 trails rung 17. Four ways of dividing the copies among
# threads (kernel copies in .devbuild/v0-v3, see ../README.md), three tiles each, at 4096;
# Nsight Compute on rung 18 (v0, defaults) and rung 17 (tuned).
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
L=$PWD/.devbuild/ladder
O=$OUT/run2; mkdir -p $O
for v in v0 v1 v2 v3; do
  export LADDER_CUDA_KERNELS=$PWD/.devbuild/$v
  $L run --backend cuda --rungs 18,cublas --sizes 4096 --output $O/$v-default.csv > $O/$v-default.log 2>&1
  $L run --backend cuda --rungs 18 --sizes 4096 --param TSN=64 --param WPTN=16 --output $O/$v-tile17.csv > $O/$v-tile17.log 2>&1
  $L run --backend cuda --rungs 18 --sizes 4096 --param TSN=64 --param STAGES=3 --output $O/$v-64s3.csv > $O/$v-64s3.log 2>&1
  for f in default tile17 64s3; do echo "$v $f $(grep -E '^cuda +18|^cuda +cublas' $O/$v-$f.log | awk '{printf "%s %s %s; ", $2, $(NF-4), $(NF-3)}')"; done
done
export LADDER_CUDA_KERNELS=$PWD/kernels-cuda
NCU=/usr/local/cuda/bin/ncu
for r in 17 18; do
  $NCU --kernel-name gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy \
    $L run --backend cuda --rungs $r --sizes 4096 --reps 3 --verify off --output $O/ncu-$r.csv > $O/ncu-$r.txt 2>&1
  echo "ncu $r exit $?"; grep -E "Duration|Issue Slots Busy|Stall|No Eligible|L1/TEX Hit|Shared.*Wavefronts|Registers Per" $O/ncu-$r.txt | head -20
done
tar czf $OUT/run2.tgz -C $OUT run2 && rm -rf $O
