#!/usr/bin/env bash
# The H100, NVIDIA OpenCL: ladder select writes the OpenCL selection table; then the final
# sweep of the public shape set in both backends: every rung from 11 up, the shape-aware
# entry (with the committed CUDA table and this OpenCL one), cuBLAS and CLBlast in the same
# run. Run from the source tree with a staged build (tools/stage-for-gpu.sh).
set -u
source .stage/env.sh
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_SELECTION_DB=/nonexistent/selection.tsv
O=$OUT/final; mkdir -p $O/select-opencl
T=tuning/selection/nvidia-h100-80gb-hbm3-opencl.tsv
rm -f $T
timeout 290 $LADDER select --backend opencl --device H100 --budget 250s --db $T \
  --output $O/select-opencl/select.csv > $O/select-opencl/select.log 2>&1
echo "select exit $?"; tail -31 $O/select-opencl/select.log | cut -c1-160
cp $T $O/select-opencl/
timeout 270 tools/measure.sh $O/shapes --backend all --device H100 --rungs 11-20,auto,cublas,clblast \
  --sizes shapes --reps 20 --max-time 0.3 > $O/shapes.log 2>&1
echo "shapes exit $?"
$LADDER table --layout sizes --rungs auto,cublas,clblast $O/shapes/results.csv 2>&1 | cut -c1-300
tar czf $OUT/final.tgz -C $OUT final
