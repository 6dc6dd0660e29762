#!/usr/bin/env bash
# Every bad input to `ladder plot` gets its own clear message and a non-zero exit, and no
# picture is left behind: 2 for a wrong command line (as every subcommand), 1 for files
# that cannot be drawn from.
# Usage: bad-input.sh LADDER FIXTURES_DIR
set -uo pipefail
ladder=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect STATUS MESSAGE ARGS...: ladder plot ARGS must exit with STATUS, print MESSAGE on
# stderr and write no picture.
expect() {
    local status=$1 message=$2
    shift 2
    rm -rf "$work/out"
    "$ladder" plot --out "$work/out" "$@" > "$work/stdout" 2> "$work/stderr"
    local rc=$?
    if [ $rc -ne "$status" ]; then
        echo "FAIL: ladder plot $* exited $rc, expected $status" >&2
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
expect 1 "empty.csv: empty file: no header line"                   "$f/empty.csv"
expect 1 "header-only.csv: no rows with status ok (it has a header and no rows): nothing to draw" \
                                                                 "$f/header-only.csv"
expect 1 "only-failed.csv: no rows with status ok (3 FAILED, 2 unsupported): nothing to draw" \
                                                                 "$f/only-failed.csv"
# A bad file among good ones is still an error: nothing it held can be trusted.
expect 1 "only-failed.csv: no rows with status ok"                 "$f/gpu-b-opencl.csv" "$f/only-failed.csv"
expect 1 "wrong-columns.csv:3: 27 fields, the header has 29"       "$f/wrong-columns.csv"
expect 1 "bad-gflops.csv:3: column gflops: 'fast' is not a number" "$f/bad-gflops.csv"
expect 1 "ok-without-gflops.csv: data row 1 (rung 2 tiling): status ok but GFLOPS is not a positive number" \
                                                                 "$f/ok-without-gflops.csv"
expect 1 "no-such-file.csv: cannot open"                           "$f/no-such-file.csv"
expect 2 "no result files given"
expect 2 "unknown option --bogus"                                  --bogus "$f/gpu-b-opencl.csv"
expect 2 "--format: 'jpg' is not png or svg"                       --format jpg "$f/gpu-b-opencl.csv"
expect 2 "--size: '0' is not a positive size"                      --size 0 "$f/gpu-b-opencl.csv"
expect 1 "--size 777: no rung was measured at that size (measured: 512 1024 2048)" \
                                                                 --size 777 "$f/gpu-b-opencl.csv"
expect 1 "--peak 'MI300=100': no device name contains 'MI300'"     --peak MI300=100 "$f/gpu-b-opencl.csv"
expect 2 "--peak 'GPU B=fast': 'fast' is not a positive number"    --peak "GPU B=fast" "$f/gpu-b-opencl.csv"
expect 2 "--normalize: 'best' is not library or peak"              --normalize best "$f/gpu-b-opencl.csv"
expect 2 "--out needs a value"                                     "$f/gpu-b-opencl.csv" --out

# The options have the spellings of the other subcommands, old ones kept as aliases.
expect 2 "--sizes: '0' is not a positive size"                  --sizes 0 "$f/gpu-b-opencl.csv"
expect 2 "--output is empty: give a folder"                      --output '' "$f/gpu-b-opencl.csv"
touch "$work/a-file"
expect 2 "is a file: the figures go into a folder"               --output "$work/a-file" "$f/gpu-b-opencl.csv"

[ $failures -eq 0 ] || { echo "$failures bad-input checks failed" >&2; exit 1; }
echo "plot bad input: ok"
