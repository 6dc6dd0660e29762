#!/usr/bin/env bash
# Measures the ladder on this machine for results/: the result file plus the metadata a
# reader needs to trust it (device report, GPU state, software versions, the command).
#
#   tools/measure.sh OUTDIR [ladder run options...]
#
# Writes OUTDIR/results.csv, OUTDIR/devices.txt, OUTDIR/environment.txt, OUTDIR/lscpu.txt
# (the host's caches) and, where nvidia-smi exists, OUTDIR/nvidia-smi.txt. LADDER (default build/ladder) names the binary.
set -uo pipefail
out=${1:?usage: tools/measure.sh OUTDIR [ladder run options...]}
shift
ladder=${LADDER:-build/ladder}
mkdir -p "$out"

"$ladder" devices >"$out/devices.txt" 2>&1
if command -v lscpu >/dev/null 2>&1; then
  lscpu >"$out/lscpu.txt" 2>&1
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi -q >"$out/nvidia-smi.txt" 2>&1
fi
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) cores)"
  echo "ladder: $("$ladder" --version)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    echo "gpu clocks at start: $(nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader 2>&1)"
  fi
  echo "command: $ladder run --output $out/results.csv $*"
} >"$out/environment.txt"

"$ladder" run --output "$out/results.csv" "$@"
status=$?
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu clocks at end: $(nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader 2>&1)" >>"$out/environment.txt"
fi
echo "exit status: $status" >>"$out/environment.txt"
exit $status
