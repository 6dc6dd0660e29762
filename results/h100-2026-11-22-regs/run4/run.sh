#!/usr/bin/env bash
# Session 8, run 4: more orders of rung 17's multiply-adds, all with rows visited forth
# and back (run 3's vd, the one that gained): vd2 columns in the order 0,4,8,12,1,5,..;
# vd3 columns forth on even depths and back on odd ones; vd4 columns 0,8,1,9,...
# Committed tuning's tile, against cuBLAS at 4096 and 8192, three times interleaved; then
# Nsight Compute on the committed loop, vd and vd3.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
R=$PWD/results/h100-2026-11-22-regs
O=$OUT/run4; mkdir -p $O/checks
T17="--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
NCU=/usr/local/cuda/bin/ncu
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s %s\n", $2, $3, $(NF-6), $(NF-4), $(NF-3), $NF}'; }
mkdir -p /tmp/k-committed; cp kernels-cuda/* /tmp/k-committed/
for v in vd vd2 vd3 vd4; do mkdir -p /tmp/k-$v; cp kernels-cuda/* /tmp/k-$v/; cp $R/sources/17-order-$v.cu /tmp/k-$v/17-banks.cu
  LADDER_CUDA_KERNELS=/tmp/k-$v $LADDER run --backend cuda --rungs 17 --verify full $T17 \
    --sizes 256x128x64,512,1000x1003x997,4097x33x1 > $O/checks/shapes-$v.txt 2>&1; echo "$v shapes exit $?: $(tail -1 $O/checks/shapes-$v.txt)"
done
for rep in 1 2 3; do
  for v in committed vd vd2 vd3 vd4; do
    LADDER_CUDA_KERNELS=/tmp/k-$v tools/measure.sh $O/$v-$rep --device H100 --backend cuda --rungs 17,cublas --sizes 4096,8192 $T17 > $O/$v-$rep.log 2>&1
    echo "$v-$rep exit $?: $(show $O/$v-$rep.log | grep '^17' | awk '{print $3, $4}' | tr '\n' ' ')"
  done
done
for v in committed vd vd3; do
  LADDER_CUDA_KERNELS=/tmp/k-$v timeout 150 $NCU --kernel-name gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section LaunchStats \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    $LADDER run --backend cuda --rungs 17 --sizes 4096 --reps 3 --verify off $T17 --output $O/ncu-$v.csv > $O/ncu-$v.txt 2>&1
  echo "ncu $v exit $?"; grep -E " Duration|Issue Slots Busy|Registers Per" $O/ncu-$v.txt | head -4
  grep -E "stalled_(dispatch|long_scoreboard|short_scoreboard|no_inst|wait)[a-z_]*_per_issue_active" $O/ncu-$v.txt | awk '{print $1, $NF}' | sed 's/smsp__average_warps_issue_stalled_//' | tr '\n' ' '; echo
done
tar czf $OUT/run4.tgz -C $OUT run4 && rm -rf $O
