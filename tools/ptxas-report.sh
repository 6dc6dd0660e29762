#!/usr/bin/env bash
# What the CUDA compiler makes of each rung for the H100 (sm_90): registers per thread,
# shared memory, spills, with the default and the small-device parameters. Needs nvcc, not
# a GPU. The tutorial quotes these figures, so the report is committed with the results.
#
#   tools/ptxas-report.sh [OUTFILE]      (default: standard output)
set -euo pipefail
cd "$(dirname "$0")/.."
ladder=${LADDER:-build/ladder}
nvcc=${NVCC:-nvcc}
out=${1:-/dev/stdout}
{
  echo "# ptxas resource usage, sm_90, $("$nvcc" --version | tail -1)"
  echo "# rung file, parameter set, defines: registers, shared memory, spills"
  "$ladder" list --defines | while read -r stem set defines; do
    # shellcheck disable=SC2086  # the defines are separate words on purpose
    report=$("$nvcc" -arch=sm_90 -Xptxas -v -c -x cu $defines "kernels-cuda/$stem.cu" \
             -o /dev/null 2>&1 | grep -E "Used|spill" | sed 's/^ptxas info *: //' | tr '\n' ' ')
    echo "$stem $set $defines: $report"
  done
} >"$out"
