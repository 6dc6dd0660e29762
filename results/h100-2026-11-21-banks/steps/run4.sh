#!/usr/bin/env bash
# Session 5, run C: the transposing helper with 32 x 32 tiles (32 x 8 threads) against 16 x 16.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_SOURCE_DIR=$PWD LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
O=$OUT/helper; mkdir -p $O
OLD=$PWD/.devbuild/ladder NEW=$PWD/.devbuild/exp/new/ladder
ko=/tmp/k_old; rm -rf $ko; mkdir -p $ko; cp -r kernels-cuda $ko/cuda; cp -r kernels-opencl $ko/opencl
cp .devbuild/exp/oldk/helpers.cu $ko/cuda/; cp .devbuild/exp/oldk/helpers.cl $ko/opencl/
S="--sizes 4096,8192,1000x1003x997"
go() { local name=$1 bin=$2 kc=$3 ko=$4; shift 4
  LADDER_CUDA_KERNELS=$kc LADDER_OPENCL_KERNELS=$ko $bin run --device H100 "$@" --output $O/$name.csv > $O/$name.log 2>&1
  echo "== $name: $*"; grep -E "^(cuda|opencl) " $O/$name.log | awk '{printf "%s %s %s %s %s\n",$1,$2,$(NF-6),$(NF-4),$(NF-3)}'; }
for round in 1 2; do
go old-cuda-$round $OLD $ko/cuda $ko/opencl --backend cuda --rungs 5,10,17,cublas $S
go new-cuda-$round $NEW $PWD/kernels-cuda $PWD/kernels-opencl --backend cuda --rungs 5,10,17,cublas $S
done
go old-opencl $OLD $ko/cuda $ko/opencl --backend opencl --rungs 5,10 $S
go new-opencl $NEW $PWD/kernels-cuda $PWD/kernels-opencl --backend opencl --rungs 5,10 $S
for s in 4096 8192; do
  LADDER_CUDA_KERNELS=$PWD/kernels-cuda timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:'pad_transpose|gemm' --launch-count 2 --metrics gpu__time_duration.sum,dram__bytes.sum $NEW run --device H100 --backend cuda --rungs 17 --sizes $s --reps 3 --output $O/n$s.csv > $O/ncu-helper-$s.txt 2>&1
  grep -E "pad_transpose|duration|dram__bytes" $O/ncu-helper-$s.txt | head -6
done
M=gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
for s in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle not_selected short_scoreboard wait; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
LADDER_CUDA_KERNELS=$PWD/kernels-cuda timeout 120 /usr/local/cuda/bin/ncu --kernel-name gemm --launch-count 1 --metrics $M $NEW run --device H100 --backend cuda --rungs 17 --sizes 4096 --reps 3 --output $O/np.csv > $O/ncu-17-tuned-4096.txt 2>&1
grep -E "registers|warps_active|fma_cycles|issue_active|dispatch|scoreboard|barrier|inst_executed|wavefronts|conflicts|mio|wait" $O/ncu-17-tuned-4096.txt | awk '{print $1, $NF}'
rm -f $O/n*.csv
tar czf $OUT/helper.tgz -C $OUT helper && rm -rf $O
