#!/usr/bin/env bash
# Session 8, run 2: does the per-step edge branch inside rung 18's loop cost the speed?
# sources/*-nobranch.cu pick the checked or unchecked loop once per block (blocks wholly
# inside the matrices, K a multiple of TSK, run a loop with no checks). Correctness, then
# speed on rung 17's tile and on rung 18's defaults, then Nsight Compute on rung 17's tile.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
R=$PWD/results/h100-2026-11-22-regs
O=$OUT/run2; mkdir -p $O/checks
T17="--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
NCU=/usr/local/cuda/bin/ncu
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s %s\n", $2, $3, $(NF-6), $(NF-4), $(NF-3), $NF}'; }
for v in scatter-nobranch regs-nobranch regs; do
  mkdir -p /tmp/k-$v; cp kernels-cuda/* /tmp/k-$v/; cp $R/sources/18-$v.cu /tmp/k-$v/18-scatter.cu
done
for v in scatter-nobranch regs-nobranch; do
  export LADDER_CUDA_KERNELS=/tmp/k-$v
  .devbuild/test_blas_semantics cuda > $O/checks/blas-$v.log 2>&1; echo "$v blas semantics exit $?: $(tail -1 $O/checks/blas-$v.log)"
  for p in "" "$T17"; do
    $LADDER run --backend cuda --rungs 18 --verify full $p \
      --sizes 257x129x65,130x67x35,1000x1003x997,512,4097x33x1,33x4097x9,64x64x4099,256x128x64 > $O/checks/shapes-$v.txt 2>&1; echo "$v shapes ($p) exit $?: $(tail -1 $O/checks/shapes-$v.txt)"
  done
done
for rep in 1 2; do
  for v in scatter-nobranch regs-nobranch; do
    export LADDER_CUDA_KERNELS=/tmp/k-$v
    tools/measure.sh $O/$v-17tile-$rep --device H100 --backend cuda --rungs 18,cublas --sizes 4096,8192 $T17 > $O/$v-17tile-$rep.log 2>&1
    echo "$v 17tile-$rep exit $?"; show $O/$v-17tile-$rep.log
    tools/measure.sh $O/$v-def-$rep --device H100 --backend cuda --rungs 18,cublas --sizes 4096,8192 > $O/$v-def-$rep.log 2>&1
    echo "$v def-$rep exit $?"; show $O/$v-def-$rep.log
  done
done
for v in committed scatter-nobranch regs-nobranch regs; do
  r=18; export LADDER_CUDA_KERNELS=/tmp/k-$v
  [ $v = committed ] && { r=17; export LADDER_CUDA_KERNELS=$PWD/kernels-cuda; }
  timeout 150 $NCU --kernel-name gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section LaunchStats --section MemoryWorkloadAnalysis \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    $LADDER run --backend cuda --rungs $r --sizes 4096 --reps 3 --verify off $T17 --output $O/ncu-$v.csv > $O/ncu-$v.txt 2>&1
  echo "ncu $v exit $?"; grep -E " Duration|Issue Slots Busy|Registers Per|inst_executed.sum|bank_conflicts" $O/ncu-$v.txt | head -8
  grep -E "stalled_(barrier|dispatch|long_scoreboard|short_scoreboard|math_pipe|mio|wait|lg_throttle|no_inst)[a-z_]*_per_issue_active" $O/ncu-$v.txt | awk '{print $1, $NF}' | sed 's/smsp__average_warps_issue_stalled_//' | tr '\n' ' '; echo
done
tar czf $OUT/run2.tgz -C $OUT run2 && rm -rf $O
