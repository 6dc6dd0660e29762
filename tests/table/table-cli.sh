#!/usr/bin/env bash
# `ladder table` on the fixtures in tests/fixtures/table/ (invented numbers): the exact
# Markdown of every layout, single values, and the message and exit status of bad input.
# Usage: table-cli.sh LADDER FIXTURES_DIR
set -euo pipefail
ladder=$1
cd "$2"   # file names in captions are as given: keep them short and machine-independent
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_table NAME ARGS...: the output must equal expected/NAME.md byte for byte, twice.
expect_table() {
  local name=$1
  shift
  if ! "$ladder" table "$@" >"$work/out" 2>"$work/err"; then
    fail "ladder table $* exited non-zero: $(cat "$work/err")"
  elif ! diff -u "expected/$name.md" "$work/out" >&2; then
    fail "ladder table $*: output differs from expected/$name.md"
  elif ! "$ladder" table "$@" | cmp -s - "$work/out"; then
    fail "ladder table $*: two runs printed different output"
  else
    echo "ok: $name"
  fi
}

# expect_value TEXT ARGS...: `ladder table --value ARGS` prints TEXT and a newline.
expect_value() {
  local want=$1 got
  shift
  if ! got=$("$ladder" table --value "$@" 2>"$work/err"); then
    fail "ladder table --value $* exited non-zero: $(cat "$work/err")"
  elif [ "$got" != "$want" ]; then
    fail "ladder table --value $*: printed '$got', expected '$want'"
  else
    echo "ok: --value $* = $got"
  fi
}

# expect_error STATUS MESSAGE ARGS...: exit status STATUS, MESSAGE on stderr (one line),
# nothing on stdout.
expect_error() {
  local status=$1 message=$2 rc=0
  shift 2
  "$ladder" table "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ $rc -ne "$status" ]; then
    fail "ladder table $*: exit status $rc, expected $status ($(cat "$work/err"))"
  elif ! grep -qF -- "$message" "$work/err"; then
    fail "ladder table $*: expected '$message' on stderr, got: $(cat "$work/err")"
  elif [ "$(wc -l <"$work/err")" -ne 1 ] || [ -s "$work/out" ]; then
    fail "ladder table $*: expected one line on stderr and nothing on stdout"
  else
    echo "ok: $(cat "$work/err")"
  fi
}

gpu=fixture-gpu.csv

# --- the layouts ---
expect_table rows-256            --size 256 --caption $gpu
expect_table rows-512-all-status --size 512 --all-status $gpu
expect_table rows-rerun          --backend cuda --size 256 --rungs 2-3 $gpu fixture-gpu-rerun.csv
expect_table rows-device         --size 256 --device "gpu u" $gpu fixture-other-gpu.csv
expect_table sizes               --layout sizes $gpu
expect_table sizes-opencl        --layout sizes --backend opencl --size 256,512 --all-status \
                                 --caption $gpu
expect_table backends-512        --layout backends --shape 512x512x512 --all-status --caption $gpu
expect_table backends-baselines  --layout backends --size 256 --rungs baselines $gpu
# GB/s in place of GFLOPS: 4 (MK + KN + MN) bytes over the median time (rung 20's figure)
expect_table sizes-gbps          --layout sizes --metric gbps --backend cuda --caption $gpu
expect_table rows-256-gbps       --size 256 --backend cuda --metric gbps $gpu
# Step gains follow the ladder's tree (rungs/registry.h): 15 against its parent 12, 17
# against 9 (not 16), 12 against 9 when 10 and 11 did not run.
expect_table rows-branch         --backend cuda --size 4096 fixture-branch.csv
# The one-page summary: parent and idea from the registry, each backend's best over the
# sizes (4096 here) with its fraction of the library there; a rung one backend lacks or
# that did not run there has "–".
expect_table summary-branch      --layout summary --caption fixture-branch.csv
expect_table summary-two-backends --layout summary --size 256 --all-status $gpu

# --- single values ---
expect_value "3,150"        gflops --backend cuda --rung 3 --size 256 $gpu
expect_value "12,000"       gflops --backend opencl --rungs clblast --size 512 $gpu
expect_value "0.0107"       ms --backend cuda --rung 3 --size 256 $gpu
expect_value "1,342"        ms --rung cpu --size 2048 $gpu
expect_value "12.8"         gflops --backend cpu --size 2048 $gpu
expect_value "0.35"         vs-library --backend cuda --rung wpt --size 256 $gpu
expect_value "1.00"         vs-library --backend cuda --rung cublas --size 512 $gpu
expect_value "2.25×"        step-gain --backend cuda --rung 3 --size 256 $gpu
expect_value "4.27× (vs 1)" step-gain --backend opencl --rung 3 --size 512 $gpu
expect_value "1.20× (vs 9)" step-gain --rung 17 --size 1024 fixture-branch.csv
expect_value "0.92×"        step-gain --rung 18 --size 1024 fixture-branch.csv
expect_value "73.8"         gbps --backend cuda --rung 3 --size 256 $gpu  # 786,432 B / 10.65 us
expect_value "0.01"         err-bound --backend cuda --rung 3 --size 256 $gpu
# One rung measured with two parameter sets: --params picks one; without it the later row
# (a rerun) is the one shown.
expect_value "3,150"        gflops --rung 3 --size 256 --params WPT=8 fixture-params.csv
expect_value "2,500"        gflops --rung 3 --size 256 --params "TS=32 WPT=4" fixture-params.csv
expect_value "2,500"        gflops --rung 3 --size 256 fixture-params.csv
expect_value "9,000"        gflops --rung cublas --size 256 --params WPT=8 fixture-params.csv
expect_value "700"          gflops --backend cuda --shape 512x256x128 $gpu
expect_value "1,500"        gflops --backend cuda --rung 2 --size 256 $gpu fixture-gpu-rerun.csv

# --- the files do not hold what was asked: exit 1 ---
expect_error 1 "no ok rows for backend cuda at 4096 in $gpu"  --backend cuda --size 4096 $gpu
expect_error 1 "has no rel_error (not verified, or a file older than the column)" \
             --value rel-error --backend cuda --rung 3 --size 256 $gpu
expect_error 2 "--params: the text is empty" --params "" $gpu
expect_error 1 "--rungs: no row of fixture-params.csv with parameters 'WPT=2' is rung '3'" \
  --rungs 3 --params WPT=2 --size 256 fixture-params.csv
expect_error 1 "no ok rows for backend opencl, rungs 3 at 256 in $gpu" \
                                                  --backend opencl --rungs 3 --size 256 $gpu
expect_error 1 "no ok rows for device 'GPU Z' in $gpu, fixture-other-gpu.csv" \
                                                  --device "GPU Z" $gpu fixture-other-gpu.csv
expect_error 1 "rows of more than one CUDA device match ('Fixture GPU T', 'Fixture GPU U'): choose one with --device" \
                                                  --size 256 $gpu fixture-other-gpu.csv
expect_error 1 "--layout rows shows one size and the selected rows have 4 (256, 512x256x128, 512, 2048): choose one with --size" \
                                                  $gpu
expect_error 1 "--layout backends shows one size and the selected rows have 3" \
                                                  --layout backends $gpu
expect_error 1 "--rungs: no row of $gpu is rung 'cublsa'"  --rungs 1-3,cublsa --size 256 $gpu
expect_error 1 "--rungs: no row of $gpu is rung '7'"       --rungs 7 $gpu
expect_error 1 "--value needs exactly one row and 4 match (CUDA rung 1 naive at 256; CUDA rung 2 tiling at 256; CUDA rung 3 wpt at 256; CUDA cuBLAS at 256)" \
                                                  --value gflops --backend cuda --size 256 $gpu
expect_error 1 "CUDA rung 1 naive at 512x256x128 has no fraction of the library" \
                                                  --value vs-library --shape 512x256x128 $gpu
expect_error 1 "CUDA rung 1 naive at 256 has no step gain" \
                                                  --value step-gain --backend cuda --rung 1 --size 256 $gpu
expect_error 1 "ok-without-gflops.csv: data row 2 (cuda rung 2 tiling): status ok but GFLOPS is not a positive number" \
                                                  ok-without-gflops.csv
expect_error 1 "no-such-file.csv: cannot open"    no-such-file.csv
expect_error 1 "README.md:1: no header line before the first row" README.md

# --- the command line is wrong: exit 2 ---
expect_error 2 "no result files given"            --size 256
expect_error 2 "unknown option --bogus"           --bogus $gpu
expect_error 2 "--backend: 'metal' is not opencl, cuda, cpu or all" --backend metal $gpu
expect_error 2 "--layout: 'wide' is not rows, sizes, backends or summary" --layout wide $gpu
expect_error 2 "--value: 'flops' is not gflops, ms, vs-library, step-gain, gbps, err-bound or rel-error" --value flops $gpu
expect_error 2 "--metric: 'gbs' is not gflops or gbps"              --metric gbs $gpu
expect_error 2 "--metric is for tables: for one number in GB/s use --value gbps" \
             --value gflops --metric gbps --rung 3 --size 256 --backend cuda $gpu
expect_error 2 "--size: size '0': dimensions must be at least 1"    --size 0 $gpu
expect_error 2 "--shape: size '12x' is not understood"              --shape 12x $gpu
expect_error 2 "option --size needs a value"      $gpu --size
expect_error 2 "--rungs: '3-' is not a rung number, range or name"  --rungs 3- $gpu
expect_error 2 "--rungs: the range '3-1' is empty"                  --rungs 3-1 $gpu
expect_error 2 "--rungs: '0': rung numbers start at 1"              --rungs 0 $gpu
expect_error 2 "--rungs: an empty item"           --rungs 1,,2 $gpu
expect_error 2 "--device: the name is empty"      --device "" $gpu
expect_error 2 "--value prints one number: leave out --layout"      --value ms --layout rows $gpu
expect_error 2 "--value needs an ok row: leave out --all-status"    --value ms --all-status $gpu
expect_error 2 "--value prints one number: leave out --caption"     --value ms --caption $gpu
expect_error 2 "--layout backends compares OpenCL with CUDA: leave out --backend" \
                                                  --layout backends --backend cuda $gpu

if "$ladder" table --help | grep -q "^usage: ladder table"; then echo "ok: --help"
else fail "ladder table --help prints no usage line"; fi

[ $failures -eq 0 ] || { echo "$failures ladder table check(s) failed" >&2; exit 1; }
echo "ladder table: all checks passed"
