#!/usr/bin/env bash
# The H100, CUDA: ladder select writes the selection table of the shape-aware entry over
# the public shape set. Run from the source tree with a staged build
# (tools/stage-for-gpu.sh); the table, every candidate's row and the log go to $OUT/select-cuda.
set -u
source .stage/env.sh
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_SELECTION_DB=/nonexistent/selection.tsv
O=$OUT/select-cuda; mkdir -p $O tuning/selection
T=tuning/selection/nvidia-h100-80gb-hbm3-cuda.tsv
rm -f $T
$LADDER devices > $O/devices.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv > $O/gpu-before.txt 2>&1
timeout 560 $LADDER select --backend cuda --budget 500s --db $T --output $O/select.csv > $O/select.log 2>&1
echo "select exit $?"; tail -32 $O/select.log
cp $T $O/
tar czf $OUT/select-cuda.tgz -C $OUT select-cuda
