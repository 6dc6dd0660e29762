#!/usr/bin/env bash
# Session 6, run 3: rung 18 with pairs of depths (8-byte copies) on the H100. GPU tests (awkward shapes, BLAS semantics,
# compute-sanitizer), then rungs 17 (committed tuning) and 18 (defaults, and rung 17's
# tuned tile) against cuBLAS, then a 150 s tuning search of rung 18 at 4096.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_CUDA_KERNELS=$PWD/kernels-cuda LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
O=$OUT/run3; mkdir -p $O/checks
SAN=/usr/local/cuda/bin/compute-sanitizer
bash tests/cli/cuda_gpu.sh $LADDER > $O/checks/cuda_gpu-test.log 2>&1; echo "cuda_gpu.sh exit $?: $(tail -1 $O/checks/cuda_gpu-test.log)"
.devbuild/test_blas_semantics cuda > $O/checks/blas-semantics.log 2>&1; echo "blas semantics exit $?: $(tail -1 $O/checks/blas-semantics.log)"
$SAN --tool memcheck $LADDER run --backend cuda --rungs 18 --verify full \
  --sizes 257x129x65,130x67x35,1000x1003x997,512,4097x33x1 --output $O/checks/memcheck.csv > $O/checks/memcheck.txt 2>&1
for tool in racecheck synccheck; do
  $SAN --tool $tool $LADDER run --backend cuda --rungs 18 --verify full --reps 3 \
    --sizes 257x129x65,256 --output $O/checks/$tool.csv > $O/checks/$tool.txt 2>&1
done
grep -H "ERROR SUMMARY" $O/checks/*.txt
tools/measure.sh $O/compare --device H100 --backend cuda --rungs 17,18,cublas \
  --sizes 2048,4096,8192,4096x4096x1024,8192x1024x8192 > $O/compare.log 2>&1
echo "compare exit $?"; grep -E "^cuda" $O/compare.log | awk '{printf "%s %s %s %s\n", $2, $(NF-6), $(NF-4), $(NF-3)}'
tools/measure.sh $O/tile17 --device H100 --backend cuda --rungs 18,cublas --sizes 4096,8192 \
  --param TSN=64 --param WPTN=16 > $O/tile17.log 2>&1
echo "tile17 exit $?"; grep -E "^cuda" $O/tile17.log | awk '{printf "%s %s %s %s\n", $2, $(NF-6), $(NF-4), $(NF-3)}'
$LADDER tune --rung 18 --backend cuda --device H100 --sizes 4096 --budget 150s \
  --candidates $O/tune-18-4096.csv --db $O/tuning.tsv > $O/tune.log 2>&1
echo "tune exit $?"; tail -5 $O/tune.log
tar czf $OUT/run3.tgz -C $OUT run3 && rm -rf $O
