#!/usr/bin/env bash
# Session 5, run A: rung 17 on the H100: GPU CLI test, sanitizers, a tuning search.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=/nonexistent
O=$OUT/banks; mkdir -p $O
L=$PWD/.devbuild/ladder
SAN=/usr/local/cuda/bin/compute-sanitizer
bash tests/cli/cuda_gpu.sh $L > $O/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/cuda_gpu-test.log)"
S17="--backend cuda --rungs 17 --verify full --sizes 257x129x65,130x67x35,1000x1003x997,512,256x128x16"
{ echo "== memcheck"; $SAN --tool memcheck $L run $S17 --output $O/san-memcheck.csv 2>&1 | tail -4
  echo "== memcheck, small-device parameters"; $SAN --tool memcheck $L run $S17 --small-defaults --output $O/san-memcheck-small.csv 2>&1 | tail -4
  echo "== racecheck"; $SAN --tool racecheck $L run --backend cuda --rungs 17 --verify full --sizes 257x129x65,512 --output $O/san-racecheck.csv 2>&1 | tail -4
  echo "== synccheck"; $SAN --tool synccheck $L run --backend cuda --rungs 17 --verify full --sizes 257x129x65,512 --output $O/san-synccheck.csv 2>&1 | tail -4
} > $O/compute-sanitizer.txt 2>&1
grep -E "ERROR SUMMARY|rows:" $O/compute-sanitizer.txt
$L tune --rung 17 --backend cuda --device H100 --sizes 1024,4096,8192x1024x8192 --budget 170s --db $O/tuning.tsv --candidates $O/tune-17-cuda.csv > $O/tune-17-cuda.log 2>&1
echo "tune exit $?"; tail -12 $O/tune-17-cuda.log | cut -c1-160
tar czf $OUT/banksA.tgz -C $OUT banks && rm -rf $O
