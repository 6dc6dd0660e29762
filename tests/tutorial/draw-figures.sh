#!/usr/bin/env bash
# tools/draw-figures.sh on the plot fixtures (invented numbers): it draws the sweep figures
# from the manifest's `figures` files only, the shapes figures from its `shapes-figures`
# files alone, and the lineage figure; it leaves other pictures in the folder alone; and a
# bad manifest or argument stops it with exit status 2. Needs gnuplot.
# Usage: draw-figures.sh LADDER SOURCE_DIR
set -euo pipefail
export LADDER=$1
script=$2/tools/draw-figures.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
f=tests/fixtures/plot   # manifest paths are relative to the repository root
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

printf '# a test manifest\n%s\t%s\t%s\n' \
  "$f/gpu-a-cuda-opencl.csv" "tables,figures" "a sweep" \
  "$f/cpu-pocl.csv" "figures" "another device's sweep" \
  "$f/shapes-gpu.csv" "shapes-figures" "the shape set" \
  "$f/gpu-b-opencl.csv" "tables" "read by tables only" >"$work/sources.tsv"
mkdir -p "$work/out"
echo "not drawn by the script" >"$work/out/roofline.svg"

if LADDER_SOURCES=$work/sources.tsv bash "$script" --out "$work/out" >"$work/stdout" 2>"$work/stderr"; then
  for want in fixture-gpu-a-cuda-gflops fixture-gpu-a-bars-4096 fixture-gpu-a-cuda-steps-4096 \
              compare-devices fixture-gpu-s-cuda-shapes lineage; do
    for ext in png svg; do
      [ -s "$work/out/$want.$ext" ] || fail "no $want.$ext"
      grep -qx "$work/out/$want.$ext" "$work/stdout" || fail "$want.$ext was not listed"
    done
  done
  # The shape set is not drawn into the sweep figures, and a sweep makes no shapes figure.
  ls "$work/out" | grep -q "fixture-gpu-s-cuda-gflops" && fail "the shape set was drawn as a sweep"
  ls "$work/out" | grep -v "fixture-gpu-s" | grep -q -- "-shapes\." && fail "a sweep file made a shapes figure"
  # A file read by tables only makes no figure.
  ls "$work/out" | grep -q "fixture-gpu-b" && fail "a file listed for tables only was drawn"
  [ "$(cat "$work/out/roofline.svg")" = "not drawn by the script" ] || fail "another picture was touched"
else
  fail "draw-figures.sh failed: $(cat "$work/stderr")"
fi

# expect_bad MESSAGE ARGS...: exit status 2 and MESSAGE on stderr.
expect_bad() {
  local message=$1 rc=0
  shift
  "$@" >/dev/null 2>"$work/stderr" || rc=$?
  [ $rc -eq 2 ] || fail "$*: exit status $rc, expected 2"
  grep -qF -- "$message" "$work/stderr" || fail "stderr lacks '$message': $(cat "$work/stderr")"
}
printf '%s\ttables\tno figures here\n' "$f/gpu-a-cuda-opencl.csv" >"$work/none.tsv"
expect_bad "lists no file for figures" env LADDER_SOURCES="$work/none.tsv" bash "$script" --out "$work/x"
printf '%s\tfigures\n' "$f/gpu-a-cuda-opencl.csv" >"$work/short.tsv"
expect_bad "$work/short.tsv:1: expected three tab-separated fields" \
  env LADDER_SOURCES="$work/short.tsv" bash "$script" --out "$work/x"
printf '%s\tfigures\twhy\n' "$f/no-such.csv" >"$work/missing.tsv"
expect_bad "$work/missing.tsv:1: $f/no-such.csv: no such file" \
  env LADDER_SOURCES="$work/missing.tsv" bash "$script" --out "$work/x"
expect_bad "unknown argument --bogus" bash "$script" --bogus
expect_bad "--out needs a folder" bash "$script" --out
expect_bad "no ladder binary at $work/none" env LADDER="$work/none" bash "$script" --out "$work/x"

[ $failures -eq 0 ] || { echo "$failures draw-figures check(s) failed" >&2; exit 1; }
echo "draw-figures.sh: all checks passed"
