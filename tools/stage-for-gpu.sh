#!/usr/bin/env bash
# Stages a build for a GPU machine that has the NVIDIA driver and the CUDA toolkit but none
# of the project's other dependencies (no OpenBLAS, CLBlast or OpenCL ICD loader, no CMake
# packages): the binary, the CUDA module beside it, the test programs that need a GPU, and
# the shared libraries they load that such a machine lacks, copied as files (cp -L).
#
#   tools/stage-for-gpu.sh [BUILD_DIR] [STAGE_DIR]        (build, .stage)
#
# On the GPU machine, from the source tree:  source .stage/env.sh
# It points LD_LIBRARY_PATH at the staged libraries and the CUDA toolkit, and the
# LADDER_* variables at this tree's kernels and tuning folder (see README, "The ladder
# command"), and registers NVIDIA's OpenCL driver with the ICD loader if it is not.
set -euo pipefail
build=${1:-build}
stage=${2:-.stage}
[ -x "$build/ladder" ] || { echo "stage-for-gpu: no $build/ladder: run 'make build' first" >&2; exit 2; }
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
cp "$build/ladder" "$stage/bin/"
[ -f "$build/libladder_cuda.so" ] && cp "$build/libladder_cuda.so" "$stage/bin/"
# The test programs sit in bin/tests, as in the build tree (tests/cli/cuda_gpu.sh finds
# them beside the ladder binary), with the CUDA module beside them, which they load from
# their own folder.
mkdir -p "$stage/bin/tests"
for t in test_blas_semantics; do
  [ -x "$build/tests/$t" ] && cp "$build/tests/$t" "$stage/bin/tests/"
done
[ -f "$build/libladder_cuda.so" ] && cp "$build/libladder_cuda.so" "$stage/bin/tests/"
# The libraries the GPU machine lacks: the CPU BLAS (and its Fortran runtime), CLBlast and
# the OpenCL ICD loader. libc, libstdc++ and the CUDA libraries are taken from the machine.
for lib in libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 libclblast.so.1 libOpenCL.so.1; do
  path=$(ldd "$build/ladder" | awk -v l="$lib" '$1 == l {print $3}')
  [ -n "$path" ] && cp -L "$path" "$stage/lib/"
done
# OpenBLAS may be an alternatives link to a library with other dependencies of its own.
for extra in $(ldd "$stage/lib/libopenblas.so.0" 2>/dev/null | awk '$3 ~ /^\// {print $3}'); do
  case $(basename "$extra") in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libgcc_s.so*|libstdc++.so*) ;;
    *) [ -f "$stage/lib/$(basename "$extra")" ] || cp -L "$extra" "$stage/lib/" ;;
  esac
done
cat >"$stage/env.sh" <<'ENV'
# Sourced on the GPU machine from the source tree (tools/stage-for-gpu.sh made it).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
export LD_LIBRARY_PATH="$here/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="$here/bin:/usr/local/cuda/bin:$PATH"
export LADDER="$here/bin/ladder"
export LADDER_SOURCE_DIR="$root" LADDER_OPENCL_KERNELS="$root/kernels-opencl"
export LADDER_CUDA_KERNELS="$root/kernels-cuda" LADDER_TUNING_DIR="$root/tuning"
if [ -e /usr/lib/libnvidia-opencl.so.1 ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  mkdir -p /etc/OpenCL/vendors 2>/dev/null &&
    echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd 2>/dev/null || true
fi
ENV
echo "stage-for-gpu: $(du -sh "$stage" | cut -f1) in $stage"
