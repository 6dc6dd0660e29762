#!/usr/bin/env bash
# Rebuilds the kernel files the runs here measured, byte for byte, from the patches. Each
# patch applies to the kernel it names (kernels-cuda/17-banks.cu or 18-scatter.cu) as it was
# in commit a70a062, the commit that added them; in a git checkout the base is taken from
# that commit, so later edits of the kernels do not matter. Without git history it falls
# back to the files in kernels-cuda/. Either way every file made is checked against
# SHA256SUMS, and a mismatch stops the script. 17-before.cu is rung 17 as it was before
# this session (the "committed" rows of runs 1-4). Run it before any run.sh here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
base_rev=a70a062
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "$here"/*.patch; do
  base=$(sed -n '1s|^--- ||p' "$p")
  out=$(sed -n '2s|^+++ ||p' "$p")
  if git -C "$root" cat-file -e "$base_rev:$base" 2>/dev/null; then
    git -C "$root" show "$base_rev:$base" >"$tmp/base"
  else
    cp "$root/$base" "$tmp/base"
  fi
  patch --quiet -o "$here/$out" "$tmp/base" <"$p"
done
cd "$here"
sha256sum --quiet -c SHA256SUMS || {
  echo "make-sources.sh: the files above differ from what the runs measured (has $base_rev's" >&2
  echo "  kernels-cuda changed and no git history is here?); use a checkout with history" >&2
  exit 1
}
