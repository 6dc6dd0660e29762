#!/usr/bin/env bash
# Session 8, run 5: rung 17 with the snake order (the committed kernels-cuda/17-banks.cu).
# GPU checks, a new greedy tuning search (its file hash changed, so the old entries no
# longer apply), then tuned rung 17 against cuBLAS at issue 6's sizes, twice.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run5; mkdir -p $O/checks
SAN=/usr/local/cuda/bin/compute-sanitizer
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s %s\n", $2, $4, $(NF-6), $(NF-4), $(NF-3), $NF}'; }
bash tests/cli/cuda_gpu.sh $LADDER > $O/checks/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/checks/cuda_gpu-test.log)"
for tile in "" "--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"; do
  $SAN --tool memcheck $LADDER run --backend cuda --rungs 17 --verify full $tile \
    --sizes 257x129x65,130x67x35,1000x1003x997,512,4097x33x1 --output $O/checks/memcheck.csv > $O/checks/memcheck.txt 2>&1
  $SAN --tool racecheck $LADDER run --backend cuda --rungs 17 --verify full $tile \
    --sizes 257x129x65,512 --output $O/checks/racecheck.csv > $O/checks/racecheck.txt 2>&1
  grep -H "ERROR SUMMARY\|RACECHECK SUMMARY" $O/checks/memcheck.txt $O/checks/racecheck.txt
done
timeout 230 $LADDER tune --rung 17 --backend cuda --device H100 --sizes 1024,4096,8192x1024x8192 --budget 170s \
  --candidates $O/tune-17.csv --db $O/tuning.tsv > $O/tune.log 2>&1
echo "tune exit $?"; grep -E "sizes: best|candidates in" $O/tune.log; grep -v "^#" $O/tuning.tsv | cut -f3-7
for rep in 1 2; do
  tools/measure.sh $O/tuned-$rep --device H100 --backend cuda --rungs 17,cublas --db $O/tuning.tsv \
    --sizes 1024,2048,4096,8192,4096x4096x1024,8192x1024x8192 > $O/tuned-$rep.log 2>&1
  echo "tuned-$rep exit $?"; show $O/tuned-$rep.log | grep -v cublas
done
tar czf $OUT/run5.tgz -C $OUT run5 && rm -rf $O
