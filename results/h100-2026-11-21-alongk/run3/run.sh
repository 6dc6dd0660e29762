#!/usr/bin/env bash
# Session 7, run 3: the same profiles as run 2 at rung 17's default tile (128 x 128 x 16,
# 8 x 8 per thread, 256 threads, 2 stages) for rungs 17 and 18, and of rung 19 at the
# tile its search found best (64 x 64 x 16, 4 x 16, 3 stages).
set -u
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run3; mkdir -p $O
NCU=/usr/local/cuda/bin/ncu
prof() { # NAME RUNG PARAMS...
  local name=$1 r=$2; shift 2
  timeout 150 $NCU --kernel-name gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats --section LaunchStats \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    $LADDER run --backend cuda --rungs $r --sizes 4096 --reps 3 --verify off "$@" --output $O/ncu-$name.csv > $O/ncu-$name.txt 2>&1
  echo "ncu $name exit $?"; grep -E " Duration|Issue Slots Busy|Registers Per|inst_executed.sum|bank_conflicts" $O/ncu-$name.txt | head -8
  grep -E "stalled_(dispatch|long_scoreboard|short_scoreboard|mio|wait|lg_throttle)[a-z_]*_per_issue_active" $O/ncu-$name.txt | awk '{print $1, $NF}' | sed 's/smsp__average_warps_issue_stalled_//'
}
prof 17-default 17
prof 18-default 18
prof 19-best 19 --param TSM=64 --param TSN=64 --param TSK=16 --param WPTM=4 --param WPTN=16 --param STAGES=3
tar czf $OUT/run3.tgz -C $OUT run3 && rm -rf $O
