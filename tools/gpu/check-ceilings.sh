#!/usr/bin/env bash
# Measures the H100's ceilings with `ladder ceilings` (issues 17 and 19): the FP32 and FP64
# FMA ceilings and the read bandwidth (1 GiB), once through CUDA and once through NVIDIA's
# OpenCL, each into a ceilings file that `ladder plot --ceilings` reads, and prints the
# files. Two files, not one: a file keeps one line per device, and both backends name the
# H100 alike, so the second run would replace the first's line. For comparison, the
# one-off probes of results/h100-2026-11-24-ceilings measured 65,100 GFLOPS and 3,066 GB/s,
# and issue 19 cites an FP64 FMA ceiling of 33,300 GFLOPS.
# Run it on the GPU machine from the source tree, after building and staging as the lead
# does (tools/stage-for-gpu.sh) and `source .stage/env.sh`, or with LADDER set:
#
#   tools/gpu/check-ceilings.sh [OUTDIR]      (default: $OUT if set, else ceilings-check)
#
# Writes OUTDIR/ceilings.tsv (CUDA), OUTDIR/ceilings-opencl.tsv and a log of each run.
# Expected run time: under a minute. Exit status: 0 when both runs wrote their file.
set -uo pipefail
ladder=${LADDER:-build/ladder}
[ -x "$ladder" ] || { echo "check-ceilings: no ladder at $ladder: set LADDER" >&2; exit 2; }
out=${1:-${OUT:-ceilings-check}}
mkdir -p "$out" || exit 2
status=0
for run in "cuda:ceilings.tsv:--backend cuda" \
           "opencl:ceilings-opencl.tsv:--backend opencl --device H100"; do
  IFS=: read -r name file options <<<"$run"
  echo "== ladder ceilings $options"
  # shellcheck disable=SC2086 # the options are words
  "$ladder" ceilings $options --output "$out/$file" 2>&1 | tee "$out/$name.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "ladder ceilings failed on $name"; status=1; }
  [ -f "$out/$file" ] && cat "$out/$file"
done
exit "$status"
