#!/usr/bin/env bash
# The shapes chart (plot_fig_shapes.c) from tests/fixtures/plot/shapes-gpu.csv: drawn as a
# real PNG and SVG, shape by shape in class order, each the fastest rung's and auto's
# fraction of cuBLAS at that shape; shapes without cuBLAS and FAILED rows left out; auto
# rows never taken for a vendor library in the other charts or by ladder table's
# "baselines"; and no shapes chart from a square sweep without auto.
# Usage: shapes.sh LADDER FIXTURES_DIR
source "$(dirname "$0")/lib.bash"

draw_kept "$fixtures/shapes-gpu.csv"
name=fixture-gpu-s-cuda-shapes
check_picture "$name"

# One line per shape that has cuBLAS and a rung or auto, in class order (square, long-k,
# skinny-n, gemv, odd), smaller first within a class: 8192x8192x32 has no cuBLAS row.
shapes=$(sed -n 's/^[0-9]* "\([0-9x]*\)" .*/\1/p' "$data/$name.dat" | tr '\n' ' ')
[ "$shapes" = "1024x1024x1024 4096x4096x4096 128x128x32768 16384x64x4096 1x4096x4096 997x1013x1009 " ] \
    || fail "shapes: $shapes"
# 128x128x32768: rung 15 at 350 of cuBLAS's 22,600 GFLOPS; auto (rung 19) at 24,000.
grep -q '^2 "128x128x32768" "long-k" 0.0154867 "15" 1.06195 "19"$' "$data/$name.dat" \
    || fail "long-k line: $(grep 32768 "$data/$name.dat")"
# 4096: the fastest rung is 15 (rung 17 was not measured there); auto ran rung 17.
grep -q '^1 "4096x4096x4096" "square" 0.94 "15" 1.03 "17"$' "$data/$name.dat" || fail "4096 line"
# The odd shape's auto row FAILED: no auto point there.
grep -q '^5 "997x1013x1009" "odd" 0.72 "17" ? ""$' "$data/$name.dat" || fail "odd line"
grep -q "^best_title = 'fastest rung (its number above): geometric mean 0.27x cuBLAS, lowest 0.02x (6 shapes)'" \
    "$data/$name.gp" || fail "best title: $(grep best_title "$data/$name.gp")"
grep -q "^auto_title = 'auto (the rung it chose below): geometric mean 0.84x cuBLAS, lowest 0.50x (5 shapes)'" \
    "$data/$name.gp" || fail "auto title: $(grep auto_title "$data/$name.gp")"
grep -q "^n_classes = 5$" "$data/$name.gp" && grep -q "^class_name\[3\] = 'skinny-n'$" "$data/$name.gp" \
    && grep -q "^class_first\[3\] = 3$" "$data/$name.gp" || fail "classes"

# auto's square rows are not a vendor library in the bar chart: cuBLAS is its only line.
grep -q "^n_libraries = 1$" "$data/fixture-gpu-s-bars-4096.gp" || fail "auto drawn as a library"

# ladder table: "baselines" are the libraries, not auto; "auto" names it.
"$ladder" table --size 4096 --rungs baselines "$fixtures/shapes-gpu.csv" > "$work/table" \
    || fail "ladder table --rungs baselines"
grep -q "cuBLAS" "$work/table" && ! grep -q "auto" "$work/table" || fail "baselines: $(cat "$work/table")"
"$ladder" table --size 4096 --rungs auto "$fixtures/shapes-gpu.csv" | grep -q "| auto " \
    || fail "ladder table --rungs auto"

# A square sweep without auto draws no shapes chart.
"$ladder" plot --out "$work/square" "$fixtures/gpu-a-cuda-opencl.csv" > /dev/null 2>&1 \
    || fail "plot of the square sweep"
if ls "$work/square" | grep -q shapes; then fail "a shapes chart from a square sweep"; fi
echo "ok: the shapes chart"
