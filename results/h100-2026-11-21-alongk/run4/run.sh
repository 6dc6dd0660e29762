#!/usr/bin/env bash
# Session 7, run 4: rung 17 with its copies at constant offsets (sources/17-copies.patch: each
# thread copies pieces of one row of each tile, as rung 18 does for A) against the
# committed rung 17, interleaved twice, on three tiles; its search at 8 x 16 per thread;
# Nsight Compute on it at rung 17's tuned tile.
set -u
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_SOURCE_DIR=$PWD LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run4; mkdir -p $O
V=$(mktemp -d); cp -r kernels-cuda/. $V/
# The kernel that ran: 17-banks.cu with the patch applied (it was run from a copy of that file).
patch -s -p2 -d $V < results/h100-2026-11-21-alongk/sources/17-copies.patch
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s\n", $2, $(NF-6), $(NF-4), $(NF-3)}'; }
T1="--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
T2="--param TSM=64 --param TSN=128 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
for rep in 1 2; do
  for k in committed copies; do
    dir=$PWD/kernels-cuda; [ $k = copies ] && dir=$V
    for t in T1 T2; do
      LADDER_CUDA_KERNELS=$dir tools/measure.sh $O/$k-$t-$rep --device H100 --backend cuda --rungs 17,cublas --sizes 4096,8192 ${!t} > $O/$k-$t-$rep.log 2>&1
      echo "$k $t rep $rep exit $?"; show $O/$k-$t-$rep.log
    done
  done
done
LADDER_CUDA_KERNELS=$V timeout 100 $LADDER tune --rung 17 --backend cuda --device H100 --sizes 4096 --budget 60s --strategy exhaustive \
  --param WPTM=8 --param WPTN=16 --candidates $O/tune-copies-4096.csv --db $O/tuning.tsv > $O/tune.log 2>&1
echo "tune exit $?"; tail -4 $O/tune.log | head -2
LADDER_CUDA_KERNELS=$V timeout 150 /usr/local/cuda/bin/ncu --kernel-name gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats --section LaunchStats --section Occupancy \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    $LADDER run --backend cuda --rungs 17 --sizes 4096 --reps 3 --verify off $T1 --output $O/ncu-copies.csv > $O/ncu-copies.txt 2>&1
echo "ncu exit $?"; grep -E " Duration|Issue Slots Busy|Registers Per|inst_executed.sum|Theoretical Occ|Block Limit Reg" $O/ncu-copies.txt | head -8
grep -E "stalled_(dispatch_stall|long_scoreboard|short_scoreboard|mio_throttle|wait|not_selected)_per_issue_active" $O/ncu-copies.txt | awk '{print $1, $NF}' | sed 's/smsp__average_warps_issue_stalled_//'
tar czf $OUT/run4.tgz -C $OUT run4 && rm -rf $O
