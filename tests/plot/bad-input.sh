#!/usr/bin/env bash
# Every bad input to `ladder plot` gets its own clear message and a non-zero exit, and no
# picture is left behind.
# Usage: bad-input.sh LADDER FIXTURES_DIR
set -uo pipefail
ladder=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect MESSAGE ARGS...: ladder plot ARGS must exit non-zero, print MESSAGE on stderr and
# write no picture.
expect() {
    local message=$1
    shift
    rm -rf "$work/out"
    "$ladder" plot --out "$work/out" "$@" > "$work/stdout" 2> "$work/stderr"
    local rc=$?
    if [ $rc -eq 0 ]; then
        echo "FAIL: ladder plot $* exited 0" >&2
        failures=$((failures + 1))
    elif ! grep -qF -- "$message" "$work/stderr"; then
        echo "FAIL: ladder plot $*: expected '$message', got: $(cat "$work/stderr")" >&2
        failures=$((failures + 1))
    elif [ -d "$work/out" ] && [ -n "$(ls -A "$work/out")" ]; then
        echo "FAIL: ladder plot $* left pictures: $(ls "$work/out")" >&2
        failures=$((failures + 1))
    else
        echo "ok: $(head -n 1 "$work/stderr")"
    fi
}

f=$fixtures
expect "empty.csv: empty file: no header line"                   "$f/empty.csv"
expect "header-only.csv: no rows with status ok (it has a header and no rows): nothing to draw" \
                                                                 "$f/header-only.csv"
expect "only-failed.csv: no rows with status ok (3 FAILED, 2 unsupported): nothing to draw" \
                                                                 "$f/only-failed.csv"
# A bad file among good ones is still an error: nothing it held can be trusted.
expect "only-failed.csv: no rows with status ok"                 "$f/gpu-b-opencl.csv" "$f/only-failed.csv"
expect "wrong-columns.csv:3: 27 fields, the header has 29"       "$f/wrong-columns.csv"
expect "bad-gflops.csv:3: column gflops: 'fast' is not a number" "$f/bad-gflops.csv"
expect "ok-without-gflops.csv: data row 1 (rung 2 tiling): status ok but GFLOPS is not a positive number" \
                                                                 "$f/ok-without-gflops.csv"
expect "no-such-file.csv: cannot open"                           "$f/no-such-file.csv"
expect "no result files given"
expect "unknown option --bogus"                                  --bogus "$f/gpu-b-opencl.csv"
expect "--format: 'jpg' is not png or svg"                       --format jpg "$f/gpu-b-opencl.csv"
expect "--size: '0' is not a positive size"                      --size 0 "$f/gpu-b-opencl.csv"
expect "--size 777: no rung was measured at that size (measured: 512 1024 2048)" \
                                                                 --size 777 "$f/gpu-b-opencl.csv"
expect "--peak 'MI300=100': no device name contains 'MI300'"     --peak MI300=100 "$f/gpu-b-opencl.csv"
expect "--peak 'GPU B=fast': 'fast' is not a positive number"    --peak "GPU B=fast" "$f/gpu-b-opencl.csv"
expect "--normalize: 'best' is not library or peak"              --normalize best "$f/gpu-b-opencl.csv"
expect "--out needs a value"                                     "$f/gpu-b-opencl.csv" --out

[ $failures -eq 0 ] || { echo "$failures bad-input checks failed" >&2; exit 1; }
echo "plot bad input: ok"
