#!/usr/bin/env bash
# Rebuilds the kernel files the runs here measured, byte for byte, from the patches: each
# patch applies to the committed kernel it names (kernels-cuda/17-banks.cu as of the snake
# order, or kernels-cuda/18-scatter.cu). 17-before.cu is rung 17 as it was before this
# session (the "committed" rows of runs 1-4). Run it before any run.sh here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
for p in "$here"/*.patch; do
  base=$(sed -n '1s|^--- ||p' "$p")
  out=$(sed -n '2s|^+++ ||p' "$p")
  patch --quiet -o "$here/$out" "$root/$base" <"$p"
done
