#!/usr/bin/env bash
# Session 7, run 2: like-for-like profiles of rungs 17, 18 and 19 on one tile (rung 17's
# tuned one) at 4096, with the stall reasons per issued instruction; the last wave's
# cost (rung 17 and cuBLAS at N = 4096, where 2048 tiles fill 3.88 waves of 528 blocks,
# and at N = 4224, exactly 4 waves); an exhaustive search of rung 17's tiles and stages
# at 8 x 16 per thread.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run2; mkdir -p $O
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s\n", $2, $(NF-6), $(NF-4), $(NF-3)}'; }
TILE="--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
NCU=/usr/local/cuda/bin/ncu
for r in 17 18 19; do
  timeout 150 $NCU --kernel-name gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats --section LaunchStats \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    $LADDER run --backend cuda --rungs $r --sizes 4096 --reps 3 --verify off $TILE --output $O/ncu-$r.csv > $O/ncu-$r.txt 2>&1
  echo "ncu $r exit $?"; grep -E " Duration|Issue Slots Busy|Registers Per|inst_executed.sum|bank_conflicts" $O/ncu-$r.txt | head -8
  grep -E "stalled_(barrier|dispatch|long_scoreboard|short_scoreboard|math_pipe|mio|wait|not_selected|selected|lg_throttle|no_inst)[a-z_]*_per_issue_active" $O/ncu-$r.txt | awk '{print $1, $NF}' | sed 's/smsp__average_warps_issue_stalled_//'
done
export LADDER_TUNING_DIR=$PWD/tuning
tools/measure.sh $O/waves --device H100 --backend cuda --rungs 17,cublas \
  --sizes 4096x4096x4096,4096x4224x4096,4096x2048x4096,4096x2112x4096 > $O/waves.log 2>&1
echo "waves exit $?"; show $O/waves.log
timeout 260 $LADDER tune --rung 17 --backend cuda --device H100 --sizes 4096 --budget 220s --strategy exhaustive \
  --param WPTM=8 --param WPTN=16 --candidates $O/tune-17-4096.csv --db $O/tuning.tsv > $O/tune.log 2>&1
echo "tune exit $?"; tail -4 $O/tune.log
tar czf $OUT/run2.tgz -C $OUT run2 && rm -rf $O
