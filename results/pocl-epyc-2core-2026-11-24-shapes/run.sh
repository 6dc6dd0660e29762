#!/usr/bin/env bash
# PoCL on this 2-core VM: ladder select writes the CPU's selection table over the CPU-sized
# shape set, then the sweep of that set: the OpenCL rungs from 11 up, auto, CLBlast on
# PoCL and the CPU BLAS. From the source tree, after make build.
set -u
R=results/pocl-epyc-2core-2026-11-24-shapes
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_SELECTION_DB=/nonexistent/selection.tsv
T=tuning/selection/pocl-epyc-2core-opencl.tsv
rm -f $T
build/ladder select --backend opencl --device cpu --sizes shapes-cpu --budget 360s --db $T \
  --output $R/select/select.csv --force > /tmp/pocl-select.log 2>&1
echo "select exit $?"; tail -28 /tmp/pocl-select.log
tools/measure.sh $R/shapes --backend opencl --device cpu --rungs 11-20,auto,clblast,cpu \
  --sizes shapes-cpu --force
echo "shapes exit $?"
