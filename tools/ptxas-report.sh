#!/usr/bin/env bash
# What the CUDA compiler makes of each rung for the H100 (sm_90): registers per thread,
# stack (spills), shared and local memory of each kernel, with the default and the
# small-device parameters. The CUBINs are NVRTC's, compiled with the options the CUDA
# backend gives each rung on an H100 (build/tests/test_nvrtc_compile --cubins), so the
# figures are those of the code ladder runs; nvcc makes other code of the same file (rung
# 26: 168 bytes of spills under nvcc, none under NVRTC). Needs the build and cuobjdump
# (CUDA toolkit, or the nvidia-cuda-cuobjdump wheel), not a GPU. The report committed
# with the results of 2026-11-21 was nvcc's (`ptxas -v`); its first line says so.
#
#   tools/ptxas-report.sh [OUTFILE]      (default: standard output)
set -euo pipefail
cd "$(dirname "$0")/.."
compile=${LADDER_NVRTC_COMPILE:-build/tests/test_nvrtc_compile}
cuobjdump=${CUOBJDUMP:-cuobjdump}
out=${1:-/dev/stdout}
[ -x "$compile" ] || { echo "ptxas-report: no $compile: run 'make build' (with the CUDA toolkit) first" >&2; exit 2; }
command -v "$cuobjdump" >/dev/null || { echo "ptxas-report: cuobjdump not found (set CUOBJDUMP)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$compile" --cubins "$tmp" >"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
{
  echo "# NVRTC resource usage, sm_90, each rung compiled as ladder compiles it on an H100"
  echo "# rung file, parameter set: per kernel, registers, stack (spills), shared and local memory"
  echo "# (SHARED is the kernel's static shared memory plus the 1 KiB sm_90 reserves per block)"
  for cubin in "$tmp"/*.cubin; do
    name=$(basename "$cubin" .cubin)
    "$cuobjdump" -res-usage "$cubin" |
      awk -v name="${name%-*} ${name##*-}" '
        /Function/ { fn = $2; sub(":$", "", fn) }
        /REG:/ { printf "%s %s: %s %s %s %s\n", name, fn, $1, $2, $3, $4 }'
  done
} >"$out"
