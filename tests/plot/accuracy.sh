#!/usr/bin/env bash
# The accuracy figure (plot_fig_accuracy.c) from tests/fixtures/plot/ksweep-gpu.csv, a K
# sweep of invented numbers: drawn as a real PNG and SVG; one block per method, rungs
# first, the libraries labelled (cuBLAS TF32 as reduced precision), points by K; FAILED,
# unsupported and auto rows never points; cuBLAS TF32 never the bar of the shapes chart;
# the same sweep without its rel_error column (an older file) still reads and draws, and
# says why there is no accuracy figure; so does a file with no sweep.
# Usage: accuracy.sh LADDER FIXTURES_DIR
source "$(dirname "$0")/lib.bash"

draw_kept "$fixtures/ksweep-gpu.csv"
name=fixture-gpu-k-cuda-accuracy-2048x2048
check_picture "$name"

# Methods: the five rungs ascending, then cuBLAS and cuBLAS TF32; not auto.
titles=$(sed -n "s/^method_title\[[1-7]\] = '\(.*\)'$/\1/p" "$data/$name.gp" | tr '\n' '|')
[ "$titles" = "15 sgemm|16 tf32x3|17 banks|18 scatter|21 wgmma-tf32x3|cuBLAS|cuBLAS TF32 (reduced precision)|" ] \
    || fail "methods: $titles"
grep -q "^n_rungs = 5$" "$data/$name.gp" && grep -q "^n_libraries = 2$" "$data/$name.gp" \
    || fail "counts: $(grep '^n_' "$data/$name.gp")"
# One block per method, separated by two blank lines: the K of each block, in order.
blocks=$(awk '/^# [a-z]/ { if (ks) print name ":" ks; name = $2; ks = ""; next }
              NF == 3 { ks = ks (ks ? "," : "") $1 }
              END { print name ":" ks }' "$data/$name.dat" | tr '\n' ' ')
all=4,16,64,256,1024,4096,16384,65536
[ "$blocks" = "sgemm:$all tf32x3:$all banks:${all%,65536} scatter:${all#4,} wgmma-tf32x3:$all cublas:$all cublas-tf32:$all " ] \
    || fail "blocks (rung 18 FAILED at K = 4, rung 17 unsupported at 65536): $blocks"
# A point is K, GFLOPS, rel_error as the row has them.
row=$(grep ',cublas-tf32,' "$fixtures/ksweep-gpu.csv" | grep ',2048,2048,1024,')
gflops=$(echo "$row" | cut -d, -f22); rel=$(echo "$row" | cut -d, -f26)
awk -v g="$gflops" -v e="$rel" '/^# cublas-tf32/ { on = 1 } on && $1 == 1024 { found = ($2 / g - 1)^2 < 1e-10 && $3 == e; on = 0 }
    END { exit !found }' "$data/$name.dat" || fail "cuBLAS TF32's point at 1024 is not its row's ($gflops, $rel)"
grep -q "^k_tics = '4 16 64 256 1024 4096 16384 65536'$" "$data/$name.gp" || fail "K labels"

# The shapes chart of the same rows measures against cuBLAS, not cuBLAS TF32, and never
# takes the TF32 library for the fastest rung.
grep -q "^library_title = 'cuBLAS at the same shape'$" "$data/fixture-gpu-k-cuda-shapes.gp" \
    || fail "shapes chart's library: $(grep library_title "$data/fixture-gpu-k-cuda-shapes.gp")"
grep -q '"2048x2048x4096" "square" 2.1 "21"' "$data/fixture-gpu-k-cuda-shapes.dat" \
    || fail "shapes chart at 4096: $(grep 4096 "$data/fixture-gpu-k-cuda-shapes.dat")"

# ladder table names it as reduced precision.
"$ladder" table --sizes 2048x2048x4096 --rungs cublas,cublas-tf32 "$fixtures/ksweep-gpu.csv" \
    > "$work/table" || fail "ladder table of the sweep"
grep -q "cuBLAS TF32 (reduced precision)" "$work/table" || fail "table: $(cat "$work/table")"

# An older file: the same rows without the rel_error column still read and draw.
rel_col=$(head -1 "$fixtures/ksweep-gpu.csv" | tr ',' '\n' | grep -nx rel_error | cut -d: -f1)
cut -d, -f"$rel_col" --complement "$fixtures/ksweep-gpu.csv" > "$work/older.csv"
head -1 "$work/older.csv" | grep -q rel_error && fail "rel_error not removed"
"$ladder" plot --out "$work/older" "$work/older.csv" > "$work/stdout" 2> "$work/stderr" \
    || { cat "$work/stderr"; fail "ladder plot of a file without rel_error"; }
grep -q "no K sweep in these files .*with rel_error.*: no accuracy figure" "$work/stderr" \
    || fail "no note for the file without rel_error: $(cat "$work/stderr")"
if ls "$work/older" | grep -q accuracy; then fail "an accuracy figure without rel_error"; fi
grep -q shapes "$work/stdout" || fail "the older file's other figures"
"$ladder" table --sizes 2048x2048x4096 --rungs cublas,15 "$work/older.csv" > /dev/null \
    || fail "ladder table of a file without rel_error"

# A square sweep has no K sweep: a note, and the other figures.
"$ladder" plot --out "$work/square" "$fixtures/gpu-a-cuda-opencl.csv" > /dev/null 2> "$work/stderr" \
    || fail "plot of the square sweep"
grep -q "no K sweep in these files" "$work/stderr" || fail "no note for a file without a sweep"
if ls "$work/square" | grep -q accuracy; then fail "an accuracy figure from a square sweep"; fi
echo "ok: the accuracy figure"
