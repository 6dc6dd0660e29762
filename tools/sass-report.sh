#!/usr/bin/env bash
# The machine code (SASS) the CUDA compiler makes of each rung for the H100 (sm_90), with
# the default parameters: one listing per rung in OUTDIR. The tutorial counts instructions
# per tile step in these listings. Needs nvcc and cuobjdump (CUDA toolkit, or the
# nvidia-cuda-cuobjdump wheel), not a GPU.
#
#   tools/sass-report.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/sass-report.sh OUTDIR}
ladder=${LADDER:-build/ladder}
nvcc=${NVCC:-nvcc}
cuobjdump=${CUOBJDUMP:-cuobjdump}
command -v "$cuobjdump" >/dev/null || { echo "sass-report: cuobjdump not found (set CUOBJDUMP)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ladder" list --defines | while read -r stem set defines; do
  [ "$set" = default ] || continue
  # shellcheck disable=SC2086  # the defines are separate words on purpose
  "$nvcc" -arch=sm_90 -cubin $defines "kernels-cuda/$stem.cu" -o "$tmp/$stem.cubin"
  { echo "// $stem, sm_90, $defines, $("$nvcc" --version | tail -1)"
    "$cuobjdump" -sass "$tmp/$stem.cubin"; } >"$out/$stem.sass"
done
