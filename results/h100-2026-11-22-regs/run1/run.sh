#!/usr/bin/env bash
# Session 8, run 1: rung 18 with B through registers (sources/18-regs.cu: 16-byte loads of
# B as it lies, stored float by float into rung 18's padded [k][n] tile; no helper) on the
# H100. Correctness first (awkward shapes, BLAS semantics, memcheck), then against rung 17
# (committed tuning), rung 18 and cuBLAS at 4096 and 8192, twice, on two tiles.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
R=$PWD/results/h100-2026-11-22-regs
KV=/tmp/kernels-regs; mkdir -p $KV; cp kernels-cuda/* $KV/; cp $R/sources/18-regs.cu $KV/18-scatter.cu
O=$OUT/run1; mkdir -p $O/checks
SAN=/usr/local/cuda/bin/compute-sanitizer
T17="--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s %s\n", $2, $3, $(NF-6), $(NF-4), $(NF-3), $NF}'; }
export LADDER_CUDA_KERNELS=$KV
.devbuild/test_blas_semantics cuda > $O/checks/blas-semantics.log 2>&1; echo "blas semantics (variant) exit $?: $(tail -1 $O/checks/blas-semantics.log)"
for p in "" "$T17"; do
  $LADDER run --backend cuda --rungs 18 --verify full $p \
    --sizes 257x129x65,130x67x35,1000x1003x997,512,4097x33x1,33x4097x9,64x64x4099 > $O/checks/shapes.txt 2>&1; echo "shapes ($p) exit $?: $(tail -1 $O/checks/shapes.txt)"
done
$SAN --tool memcheck $LADDER run --backend cuda --rungs 18 --verify full $T17 \
  --sizes 257x129x65,130x67x35,512 --output $O/checks/memcheck.csv > $O/checks/memcheck.txt 2>&1
$SAN --tool racecheck $LADDER run --backend cuda --rungs 18 --verify full $T17 \
  --sizes 257x129x65,512 --output $O/checks/racecheck.csv > $O/checks/racecheck.txt 2>&1
grep -H "ERROR SUMMARY\|RACECHECK SUMMARY" $O/checks/*.txt
for rep in 1 2; do
  export LADDER_CUDA_KERNELS=$PWD/kernels-cuda
  tools/measure.sh $O/committed-$rep --device H100 --backend cuda --rungs 17,18,cublas --sizes 4096,8192 > $O/committed-$rep.log 2>&1
  echo "committed-$rep exit $?"; show $O/committed-$rep.log
  export LADDER_CUDA_KERNELS=$KV
  tools/measure.sh $O/regs17tile-$rep --device H100 --backend cuda --rungs 18,cublas --sizes 4096,8192 $T17 > $O/regs17tile-$rep.log 2>&1
  echo "regs17tile-$rep exit $?"; show $O/regs17tile-$rep.log
  tools/measure.sh $O/regsdef-$rep --device H100 --backend cuda --rungs 18,cublas --sizes 4096,8192 > $O/regsdef-$rep.log 2>&1
  echo "regsdef-$rep exit $?"; show $O/regsdef-$rep.log
done
tar czf $OUT/run1.tgz -C $OUT run1 && rm -rf $O
