#!/usr/bin/env bash
# The machine code (SASS) of each rung for the H100 (sm_90), with the default parameters:
# one listing per rung in OUTDIR. The CUBINs are NVRTC's, compiled with the options the
# CUDA backend gives each rung on an H100 (build/tests/test_nvrtc_compile --cubins): the
# code ladder runs, which nvcc's is not always (tools/ptxas-report.sh says why). The
# tutorial counts instructions per tile step in these listings. Needs the build and
# cuobjdump (CUDA toolkit, or the nvidia-cuda-cuobjdump wheel), not a GPU.
#
#   tools/sass-report.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/sass-report.sh OUTDIR}
compile=${LADDER_NVRTC_COMPILE:-build/tests/test_nvrtc_compile}
cuobjdump=${CUOBJDUMP:-cuobjdump}
[ -x "$compile" ] || { echo "sass-report: no $compile: run 'make build' (with the CUDA toolkit) first" >&2; exit 2; }
command -v "$cuobjdump" >/dev/null || { echo "sass-report: cuobjdump not found (set CUOBJDUMP)" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$compile" --cubins "$tmp" >"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
for cubin in "$tmp"/*-default.cubin; do
  stem=$(basename "$cubin" -default.cubin)
  { echo "// $stem, sm_90, default parameters, NVRTC as ladder compiles it:"
    grep -m1 "^ok   $stem.cu " "$tmp/log" | sed 's/^ok */\/\/ /'
    "$cuobjdump" -sass "$cubin"; } >"$out/$stem.sass"
done
