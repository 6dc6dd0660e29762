#!/usr/bin/env bash
# Session 7, run 1: rung 19 on the H100. GPU tests (awkward shapes, BLAS semantics,
# memcheck), then rungs 17 (committed tuning), 18 and 19 (defaults) against cuBLAS, rung
# 19 on four other tiles, and a 180 s tuning search of rung 19 at 4096.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run1; mkdir -p $O/checks
SAN=/usr/local/cuda/bin/compute-sanitizer
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s\n", $2, $4, $(NF-6), $(NF-4), $(NF-3)}'; }
bash tests/cli/cuda_gpu.sh $LADDER > $O/checks/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/checks/cuda_gpu-test.log)"
.devbuild/test_blas_semantics cuda > $O/checks/blas-semantics.log 2>&1; echo "blas semantics exit $?: $(tail -1 $O/checks/blas-semantics.log)"
$SAN --tool memcheck $LADDER run --backend cuda --rungs 19 --verify full \
  --sizes 257x129x65,130x67x35,1000x1003x997,512,4097x33x1 --output $O/checks/memcheck.csv > $O/checks/memcheck.txt 2>&1
grep -H "ERROR SUMMARY" $O/checks/*.txt
tools/measure.sh $O/compare --device H100 --backend cuda --rungs 17,18,19,cublas \
  --sizes 4096,8192 > $O/compare.log 2>&1
echo "compare exit $?"; show $O/compare.log
i=0
for p in "--param TSN=64 --param WPTN=16" "--param WPTN=16" "--param TSN=64 --param WPTN=16 --param STAGES=3" "--param TSM=64 --param WPTM=4 --param WPTN=16"; do
  i=$((i+1))
  tools/measure.sh $O/tile$i --device H100 --backend cuda --rungs 19,cublas --sizes 4096,8192 $p > $O/tile$i.log 2>&1
  echo "tile$i ($p) exit $?"; show $O/tile$i.log
done
timeout 240 $LADDER tune --rung 19 --backend cuda --device H100 --sizes 4096 --budget 180s \
  --candidates $O/tune-19-4096.csv --db $O/tuning.tsv > $O/tune.log 2>&1
echo "tune exit $?"; tail -5 $O/tune.log
tar czf $OUT/run1.tgz -C $OUT run1 && rm -rf $O
