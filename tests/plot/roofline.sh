#!/usr/bin/env bash
# The roofline (plot_fig_roofline.c) and the ceilings file it needs (--ceilings), from the
# fixtures: every ok row of a device and backend is a point at its arithmetic intensity,
# the shape-aware entry's rows are left out, the ceilings are the file's and only the
# file's, a device without ceilings gets none (said), lines with and without the later
# fp64_fma_gflops field both read, and every bad ceilings file or option is refused with
# its reason before anything is drawn.
# Usage: roofline.sh LADDER FIXTURES_DIR
source "$(dirname "$0")/lib.bash"

"$ladder" plot --out "$work/figures" --keep-data --ceilings "$fixtures/ceilings.tsv" \
    "$fixtures/gpu-a-cuda-opencl.csv" "$fixtures/cpu-pocl.csv" "$fixtures/shapes-gpu.csv" \
    > "$work/stdout" 2> "$work/stderr" || { cat "$work/stderr"; fail "ladder plot --ceilings failed"; }
data=$(sed -n 's/^ladder plot: data tables and scripts kept in //p' "$work/stderr")
[ -d "$data" ] || fail "--keep-data did not say where the tables are"
trap 'rm -rf "$work" "$data"' EXIT

# One roofline per device and backend with ceilings: GPU A (both backends), GPU S (its
# name in the file in lower case); none for the CPU, with a note; a note for the entry
# that matches no device.
for name in fixture-gpu-a-cuda-roofline fixture-gpu-a-opencl-roofline fixture-gpu-s-cuda-roofline; do
    [ "$(head -c 8 "$work/figures/$name.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
        || fail "$name.png is not a PNG"
    grep -q "</svg>" "$work/figures/$name.svg" || fail "$name.svg is not complete"
    grep -qx "$work/figures/$name.png" "$work/stdout" || fail "$name.png not listed on stdout"
done
[ "$(ls "$work/figures" | grep -c roofline)" -eq 6 ] || fail "rooflines: $(ls "$work/figures" | grep roofline)"
grep -q "no ceilings for cpu-fixture-Fixture CPU 16-Core: no roofline for it" "$work/stderr" || fail "no note for the CPU"
grep -q "the ceilings of 'Nothing Like This' match no device" "$work/stderr" \
    || fail "no note for the entry that matches nothing"

# GPU S: its 16 ok rows that are not auto, at 2MNK / 4(MK + KN + MN) flops per byte.
s=$data/fixture-gpu-s-cuda-roofline
[ "$(grep -vc '^#' "$s.dat")" -eq 16 ] || fail "GPU S points: $(grep -vc '^#' "$s.dat"), want 16"
# 1 x 4096 x 4096 (GEMV-like): 0.4998 flops per byte, cuBLAS (series 3) and rung 15 (1).
grep -qx '0.499756 900 3 1 4096 4096' "$s.dat" || fail "cuBLAS at 1x4096x4096: $(grep ' 1 4096 4096$' "$s.dat")"
grep -qx '0.499756 80 1 1 4096 4096' "$s.dat" || fail "rung 15 at 1x4096x4096"
grep -qx '682.667 47000 1 4096 4096 4096' "$s.dat" || fail "rung 15 at 4096^3: $(grep ' 4096 4096 4096$' "$s.dat")"
if grep -q ' 51500 ' "$s.dat"; then fail "an auto row is a point"; fi
grep -qx 'fma = 50000' "$s.gp" || fail "GPU S's FMA ceiling: $(grep '^fma' "$s.gp")"
grep -qx 'bw = 2000' "$s.gp" || fail "GPU S's bandwidth: $(grep '^bw' "$s.gp")"
grep -qF "fma_title = 'FP32 FMA ceiling, 50,000 GFLOPS'" "$s.gp" || fail "the FMA ceiling's key"
grep -qF "bw_title = 'read bandwidth, 2,000 GB/s'" "$s.gp" || fail "the bandwidth's key"
grep -qF "under the ceilings measured 2026-01-02" "$s.gp" || fail "the title does not date the ceilings"
grep -qx 'n_rungs = 2' "$s.gp" && grep -qx 'n_libraries = 1' "$s.gp" || fail "series counts"
grep -qF "series_title[2] = '17 banks'" "$s.gp" && grep -qF "series_title[3] = 'cuBLAS'" "$s.gp" \
    || fail "series titles: $(grep series_title "$s.gp")"
# GPU A's fraction-of-peak chart now shows the measured FMA ceiling too: 65,000 of 66,900.
grep -qF "FP32 FMA ceiling, 65,000 GFLOPS (measured 2026-01-01): 97% of peak" \
    "$data/fixture-gpu-a-peak-4096.gp" || fail "no FMA ceiling on the fraction-of-peak chart"

# --- bad ceilings: a clear line, exit 1 for a bad file and 2 for a bad command line,
# nothing drawn (the output folder is not even made) ---
expect() { # expect STATUS PATTERN ARGS...
    local want=$1 pattern=$2 rc=0
    shift 2
    "$ladder" plot --out "$work/bad" "$@" "$fixtures/gpu-a-cuda-opencl.csv" > /dev/null \
        2> "$work/err" || rc=$?
    [ "$rc" -eq "$want" ] || fail "ladder plot $* exited $rc, expected $want: $(cat "$work/err")"
    grep -q -- "$pattern" "$work/err" || fail "ladder plot $*: '$(cat "$work/err")' lacks '$pattern'"
    [ ! -e "$work/bad" ] || fail "ladder plot $* made the output folder"
}
write() { printf "$2" > "$work/$1"; }
expect 1 "no such file" --ceilings "$work/none.tsv"
write four.tsv 'Fixture GPU A\t65000\t3000\t2026-01-01\n'
expect 1 "four.tsv:1: expected 6 tab-separated fields, found 4" --ceilings "$work/four.tsv"
write seven.tsv 'Fixture GPU A\t65000\t3000\t2026-01-01\tsomewhere\t30000\t1\n'
expect 1 "seven.tsv:1: expected 6 tab-separated fields, found more than 6" --ceilings "$work/seven.tsv"
write fp64.tsv 'Fixture GPU A\t65000\t3000\t2026-01-01\tsomewhere\tlots\n'
expect 1 "fp64.tsv:1: fp64_fma_gflops is not a positive number or -" --ceilings "$work/fp64.tsv"
write fp64zero.tsv 'Fixture GPU A\t65000\t3000\t2026-01-01\tsomewhere\t0\n'
expect 1 "fp64zero.tsv:1: fp64_fma_gflops is not a positive number or -" --ceilings "$work/fp64zero.tsv"
write zero.tsv '# a comment\nFixture GPU A\t65000\t0\t2026-01-01\tsomewhere\n'
expect 1 "zero.tsv:2: read_gbps is not a positive number" --ceilings "$work/zero.tsv"
write word.tsv 'Fixture GPU A\tfast\t3000\t2026-01-01\tsomewhere\n'
expect 1 "word.tsv:1: fp32_fma_gflops is not a positive number" --ceilings "$work/word.tsv"
write nosource.tsv 'Fixture GPU A\t65000\t3000\t2026-01-01\t\n'
expect 1 "the source is empty" --ceilings "$work/nosource.tsv"
write comments.tsv '# only comments\n\n'
expect 1 "no entries in it" --ceilings "$work/comments.tsv"
expect 2 "--ceilings is empty" --ceilings ""
rc=0
"$ladder" plot --out "$work/bad" "$fixtures/gpu-a-cuda-opencl.csv" --ceilings 2> "$work/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "option --ceilings needs a value" "$work/err" \
    || fail "--ceilings without a file: exit $rc, '$(cat "$work/err")'"
echo "plot roofline: ok"
