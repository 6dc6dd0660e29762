#!/usr/bin/env bash
# `ladder plot` on the committed fixtures: every expected picture is written, is a real PNG
# or SVG, and the numbers printed on the charts are the right ones.
# Usage: draw.sh LADDER FIXTURES_DIR
source "$(dirname "$0")/lib.bash"

# A real PNG starts with its 8-byte signature; a complete SVG opens and closes.
check_png() {
    [ -s "$1" ] || fail "$1 missing or empty"
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
        || fail "$1 is not a PNG"
}
check_svg() {
    [ -s "$1" ] || fail "$1 missing or empty"
    grep -q "<svg" "$1" || fail "$1 has no <svg"
    grep -q "</svg>" "$1" || fail "$1 is not complete"
    if command -v xmllint > /dev/null; then
        xmllint --noout "$1" || fail "$1 is not well-formed XML"
    fi
}

# --- two machines' files together, with a user-given peak for the third device ---
"$ladder" plot --out "$work/figures" --keep-data --peak "GPU B=30000" \
    "$fixtures/gpu-a-cuda-opencl.csv" "$fixtures/cpu-pocl.csv" "$fixtures/gpu-b-opencl.csv" \
    > "$work/stdout" 2> "$work/stderr" || { cat "$work/stderr"; fail "ladder plot failed"; }

gpu=fixture-gpu-a
cpu=cpu-fixture-fixture-cpu-16-core
expected="$gpu-cuda-gflops $gpu-opencl-gflops $cpu-opencl-gflops fixture-gpu-b-opencl-gflops
          $gpu-bars-4096 $cpu-bars-1024 fixture-gpu-b-bars-2048
          $gpu-cuda-steps-4096 $gpu-opencl-steps-4096 $cpu-opencl-steps-1024
          fixture-gpu-b-opencl-steps-2048 compare-devices
          $gpu-peak-4096 fixture-gpu-b-peak-2048"
for name in $expected; do
    check_png "$work/figures/$name.png"
    check_svg "$work/figures/$name.svg"
    grep -qx "$work/figures/$name.png" "$work/stdout" || fail "$name.png not listed on stdout"
done
count=$(ls "$work/figures" | wc -l)
[ "$count" -eq 28 ] || fail "expected 28 pictures, found $count: $(ls "$work/figures")"
# No roofline without measured ceilings (--ceilings), and no fraction-of-peak chart for the
# CPU, whose peak nobody knows: both said, none guessed.
if ls "$work/figures" | grep -q roofline; then fail "a roofline was drawn without ceilings"; fi
[ ! -e "$work/figures/$cpu-peak-1024.png" ] || fail "a fraction-of-peak chart with no peak"
grep -q "the FP32 peak of .*CPU.* is unknown: no fraction-of-peak chart" "$work/stderr" \
    || fail "no note for the CPU's missing fraction-of-peak chart: $(cat "$work/stderr")"

# The numbers on the charts, from the data tables --keep-data left behind.
data=$(sed -n 's/^ladder plot: data tables and scripts kept in //p' "$work/stderr")
[ -d "$data" ] || fail "--keep-data did not say where the tables are"
trap 'rm -rf "$work" "$data"' EXIT
# Rung 8 on CUDA reached 37,800 of cuBLAS's 51,400 GFLOPS: 74%; OpenCL has no rung 8.
grep -q '^7 "8 vendor" 37800 37800 "74%" ? 0 "n/a"$' "$data/$gpu-bars-4096.dat" \
    || fail "bar labels of rung 8: $(grep vendor "$data/$gpu-bars-4096.dat")"
# Rung 3 on CUDA: 20,200 / 9,100 GFLOPS over rung 2.
grep -q '"3 wpt" 2.21978 "2.22x"' "$data/$gpu-cuda-steps-4096.dat" \
    || fail "step gain of rung 3: $(grep wpt "$data/$gpu-cuda-steps-4096.dat")"
# The OpenCL steps skip the unsupported rung 8 and say so.
grep -q '"9 prefetch (vs 7)"' "$data/$gpu-opencl-steps-4096.dat" || fail "rung 9 is not compared with 7"
# The peak known from the CUDA rows is drawn on the OpenCL chart of the same GPU too.
grep -q 'FP32 peak, 66,900 GFLOPS' "$data/$gpu-opencl-gflops.dat" || fail "no peak on the OpenCL chart"
# The CPU has no peak in its file and none was given: none is drawn.
if grep -q 'FP32 peak' "$data/$cpu-opencl-gflops.dat"; then fail "a peak was invented for the CPU"; fi
grep -q '"CPU BLAS (host)"' "$data/$cpu-opencl-gflops.dat" || fail "no CPU BLAS line on the CPU chart"
grep -q 'GPU B, OpenCL (% of FP32 peak at 2048)' "$data/compare-devices.gp" \
    || fail "GPU B is not normalised to its given peak"
# The fraction-of-peak chart: rung 8 on CUDA, 37,800 of the 66,900 GFLOPS peak, is 57%; the
# axis ends at 100%; cuBLAS's line is at its share of the peak; GPU B's peak was given.
grep -q '^7 "8 vendor" 56.5022 56.5022 "57%" ? 0 "n/a"$' "$data/$gpu-peak-4096.dat" \
    || fail "fraction of peak of rung 8: $(grep vendor "$data/$gpu-peak-4096.dat")"
grep -qx 'y_top = 100' "$data/$gpu-peak-4096.gp" || fail "the peak chart does not end at 100%"
grep -qF "cuBLAS, 51,400 GFLOPS: 77% of peak" "$data/$gpu-peak-4096.gp" || fail "cuBLAS's share of the peak"
grep -qF "of the FP32 peak, 66,900 GFLOPS (nominal)" "$data/$gpu-peak-4096.gp" || fail "the peak chart's axis"
grep -qF "of the FP32 peak, 30,000 GFLOPS (given)" "$data/fixture-gpu-b-peak-2048.gp" || fail "GPU B's given peak"
# Libraries near the bars leave the bar chart's axis to gnuplot.
grep -qx 'y_top = 0' "$data/$gpu-bars-4096.gp" || fail "the GPU's bar chart has a fixed axis"

# --- only PNG, at another size, drawing again over the same folder ---
"$ladder" plot --out "$work/figures" --format png --size 1024 \
    "$fixtures/gpu-a-cuda-opencl.csv" > "$work/stdout" 2> "$work/stderr" \
    || { cat "$work/stderr"; fail "ladder plot --format png --size 1024 failed"; }
check_png "$work/figures/$gpu-bars-1024.png"
[ ! -e "$work/figures/$gpu-bars-1024.svg" ] || fail "--format png wrote an SVG"
[ ! -e "$work/figures/compare-devices-1024.png" ] || fail "unexpected name"
if grep -q '\.svg$' "$work/stdout"; then fail "--format png listed an SVG"; fi

# --- two machines' files concatenated into one (header repeated) draw the same figures ---
cat "$fixtures/gpu-a-cuda-opencl.csv" "$fixtures/cpu-pocl.csv" > "$work/both.csv"
"$ladder" plot --out "$work/concatenated" --format svg "$work/both.csv" > "$work/stdout" \
    2> "$work/stderr" || { cat "$work/stderr"; fail "ladder plot on a concatenated file failed"; }
check_svg "$work/concatenated/compare-devices.svg"
check_svg "$work/concatenated/$cpu-opencl-gflops.svg"
[ "$(wc -l < "$work/stdout")" -eq 10 ] || fail "concatenated: expected 10 pictures: $(cat "$work/stdout")"

# --- a CPU through PoCL beside its own CPU BLAS, ten times faster than any rung: the bar
# chart's axis ends just above the bars and CLBlast (1.15 x rung 4's 15 GFLOPS), and the
# CPU BLAS line runs along its top, its key saying it is above; the GFLOPS chart is log ---
"$ladder" plot --out "$work/pocl" --format png --keep-data "$fixtures/pocl-beside-blas.csv" \
    > "$work/stdout" 2> "$work/stderr" || { cat "$work/stderr"; fail "ladder plot of PoCL beside a BLAS failed"; }
pocl_data=$(sed -n 's/^ladder plot: data tables and scripts kept in //p' "$work/stderr")
[ -d "$pocl_data" ] || fail "--keep-data did not say where the tables are"
trap 'rm -rf "$work" "$data" "$pocl_data"' EXIT
pocl=cpu-fixture-fixture-cpu-2-core
check_png "$work/pocl/$pocl-bars-512.png"
grep -qx 'y_top = 17.25' "$pocl_data/$pocl-bars-512.gp" || fail "bars: $(grep y_top "$pocl_data/$pocl-bars-512.gp")"
grep -qx 'library_off_scale\[1\] = 0' "$pocl_data/$pocl-bars-512.gp" || fail "CLBlast is drawn off the scale"
grep -qx 'library_off_scale\[2\] = 1' "$pocl_data/$pocl-bars-512.gp" || fail "the CPU BLAS is drawn on the scale"
grep -qF "CPU BLAS (host), 150 GFLOPS (10x the tallest bar: above the axis)" "$pocl_data/$pocl-bars-512.gp" \
    || fail "the CPU BLAS's key does not say it is above the axis"
grep -qx 'log_y = 1' "$pocl_data/$pocl-opencl-gflops.gp" || fail "the GFLOPS chart of PoCL beside a BLAS is not log"

# --- --help and --check succeed ---
"$ladder" plot --help | grep -q "usage: ladder plot" || fail "--help"
"$ladder" plot --check || fail "--check with gnuplot installed"
echo "plot draw: ok"
