#!/usr/bin/env bash
# Session 8, run 3: the order of the multiply-adds. Rung 17 (committed tuning) with four
# orders of its inner loop (sources/17-order-*.cu), and rung 18's two helper-free copies
# with order vb, against cuBLAS at 4096 and 8192, twice, interleaved.
#   vb: a value reused across the 16 columns (m outer, n inner)
#   vc: as committed (b reused across 8 rows), rows visited forth and back in float4s
#   vd: as vc, rows visited forth and back one float at a time
#   ve: as vb, columns visited forth and back
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.devlibs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export LADDER_OPENCL_KERNELS=$PWD/kernels-opencl LADDER_SOURCE_DIR=$PWD
export LADDER_TUNING_DB=/nonexistent/db.tsv LADDER_TUNING_DIR=$PWD/tuning
export LADDER=$PWD/.devbuild/ladder
R=$PWD/results/h100-2026-11-22-regs
O=$OUT/run3; mkdir -p $O/checks
T17="--param TSM=128 --param TSN=64 --param TSK=16 --param WPTM=8 --param WPTN=16 --param STAGES=2"
show() { grep -E "^cuda" "$1" | awk '{printf "%s %s %s %s %s %s\n", $2, $3, $(NF-6), $(NF-4), $(NF-3), $NF}'; }
mk() { mkdir -p /tmp/k-$1; cp kernels-cuda/* /tmp/k-$1/; cp $R/sources/$2 /tmp/k-$1/$3; }
for v in vb vc vd ve; do mk 17$v 17-order-$v.cu 17-banks.cu; done
mk regsvb 18-regs-nobranch-vb.cu 18-scatter.cu; mk scattervb 18-scatter-nobranch-vb.cu 18-scatter.cu
for v in 17vb 17vc 17vd 17ve regsvb scattervb; do
  r=17; case $v in regsvb|scattervb) r=18;; esac
  LADDER_CUDA_KERNELS=/tmp/k-$v $LADDER run --backend cuda --rungs $r --verify full $T17 \
    --sizes 256x128x64,512,1000x1003x997,4097x33x1 > $O/checks/shapes-$v.txt 2>&1; echo "$v shapes exit $?: $(tail -1 $O/checks/shapes-$v.txt)"
done
for rep in 1 2; do
  LADDER_CUDA_KERNELS=$PWD/kernels-cuda tools/measure.sh $O/committed-$rep --device H100 --backend cuda --rungs 17,cublas --sizes 4096,8192 > $O/committed-$rep.log 2>&1
  echo "committed-$rep exit $?"; show $O/committed-$rep.log
  for v in 17vb 17vc 17vd 17ve regsvb scattervb; do
    r=17; p="$T17"; case $v in regsvb|scattervb) r=18;; esac
    LADDER_CUDA_KERNELS=/tmp/k-$v tools/measure.sh $O/$v-$rep --device H100 --backend cuda --rungs $r,cublas --sizes 4096,8192 $p > $O/$v-$rep.log 2>&1
    echo "$v-$rep exit $?"; show $O/$v-$rep.log
  done
done
tar czf $OUT/run3.tgz -C $OUT run3 && rm -rf $O
