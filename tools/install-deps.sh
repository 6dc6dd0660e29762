#!/usr/bin/env bash
# Installs what gemm-ladder needs to build, test and plot on Debian or Ubuntu:
# CMake and a C compiler, the OpenCL ICD loader and headers, PoCL (OpenCL on the CPU, so
# every machine has at least one device), CLBlast, OpenBLAS (CBLAS), gnuplot.
# The CUDA toolkit is not installed here: install it from NVIDIA where you have a GPU;
# the build finds it if present.
#
# As root (or with password-less sudo) it runs apt-get; otherwise it prints the exact
# command to run and stops. It does nothing when everything is already there.
set -euo pipefail

packages=(cmake make gcc pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
          libclblast-dev libopenblas-dev gnuplot-nox)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: this is not a Debian/Ubuntu system (no apt-get). Install the" >&2
  echo "equivalents of: ${missing[*]}" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "Run this (as an administrator), then try again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
