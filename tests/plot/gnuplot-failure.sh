#!/usr/bin/env bash
# When gnuplot is missing or fails, `ladder plot` says so, exits non-zero, and leaves no
# empty or half-drawn picture behind.
# Usage: gnuplot-failure.sh LADDER FIXTURES_DIR PLOTS_DIR
set -uo pipefail
ladder=$1
fixtures=$2
plots=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- no gnuplot ---
LADDER_GNUPLOT=/nonexistent/gnuplot "$ladder" plot --out "$work/out" \
    "$fixtures/gpu-b-opencl.csv" 2> "$work/stderr" && fail "exited 0 without gnuplot"
grep -qF "gnuplot not found: install it (apt-get install gnuplot-nox) or run tools/install-deps.sh" \
    "$work/stderr" || fail "message without gnuplot: $(cat "$work/stderr")"
[ ! -e "$work/out" ] || fail "pictures folder made without gnuplot"
LADDER_GNUPLOT=/nonexistent/gnuplot "$ladder" plot --check 2> /dev/null && fail "--check passed"

# --- a figure script that fails half way: its pictures are removed, the others kept ---
cp -r "$plots" "$work/plots"
printf 'plot no_such_variable with lines\n' >> "$work/plots/steps.gp"
# An old picture of that name must not survive as if it were new.
mkdir -p "$work/out"
echo stale > "$work/out/fixture-gpu-b-opencl-steps-2048.png"
LADDER_PLOTS_DIR="$work/plots" "$ladder" plot --out "$work/out" \
    "$fixtures/gpu-b-opencl.csv" > "$work/stdout" 2> "$work/stderr" && fail "exited 0 after a gnuplot error"
grep -q "gnuplot failed on .*steps.*no_such_variable" "$work/stderr" \
    || fail "gnuplot's error not reported: $(cat "$work/stderr")"
[ ! -e "$work/out/fixture-gpu-b-opencl-steps-2048.png" ] || fail "a failed picture was left"
[ ! -e "$work/out/fixture-gpu-b-opencl-steps-2048.svg" ] || fail "a failed picture was left"
[ -s "$work/out/fixture-gpu-b-opencl-gflops.png" ] || fail "the figures that worked were not kept"

# --- scripts folder missing ---
LADDER_PLOTS_DIR="$work/nowhere" "$ladder" plot --out "$work/out2" "$fixtures/gpu-b-opencl.csv" \
    2> "$work/stderr" && fail "exited 0 without scripts"
grep -qF "the gnuplot scripts are not in $work/nowhere" "$work/stderr" || fail "scripts message"
echo "plot gnuplot failure: ok"
