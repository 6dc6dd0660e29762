# ladder run --rungs auto on PoCL: 'all' takes it and 'kernels' and 'baselines' do not;
# without a table it runs its fallback rule; with one it runs the entry of the shape, else
# of the nearest shape of the same class, else the rule; every row says which rung and
# parameters it ran (rung 0, rung_name auto, params "rung=N ...", param_source selected or
# fallback); a stale or corrupt table is one line on stderr, the rule, and exit 0; tables
# are read from the committed folder and beside the user's tuning database, the user's
# winning; --defaults and --db leave them out; bad input gets a one-line error.
source "$(dirname "$0")/lib.bash"
o=(--output "$WORK/out.csv")

expect_error "--param for auto alone" "no selected rung has a parameter TSM" -- run --rungs auto --param TSM=64 --sizes 64 "${o[@]}"
expect_error "unknown shape set" "size 'shapez' is not understood" -- run --rungs auto --sizes shapez "${o[@]}"
expect_error "unknown shape set in a list" "shape set (shapes, shapes-cpu, ksweep, ksweep-cpu)" -- run --rungs auto --sizes 64,shape "${o[@]}"
expect_error "tune auto" "its table is measured by ladder select" -- tune --rung auto --candidates "$WORK/out.csv"
# Usage errors exit 2.
for args in "run --rungs auto --sizes shapez --output $WORK/out.csv" \
            "run --rungs auto --param TSM=64 --sizes 64 --output $WORK/out.csv" \
            "tune --rung auto --candidates $WORK/out.csv"; do
  code=0
  # shellcheck disable=SC2086
  "$LADDER" $args >/dev/null 2>"$WORK/err" || code=$?
  [ "$code" -eq 2 ] && ! grep -q "unknown option" "$WORK/err" && pass || fail "ladder $args: exit $code, not 2"
done

has_opencl_device || { finish; exit $?; }
ocl=(--backend opencl)
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 8 --output "$WORK/probe.csv" >/dev/null 2>&1
device=$(column "$WORK/probe.csv" device)
[ -n "$device" ] && pass || fail "could not read the device name"

# run_auto SIZES [more options]: ladder run --rungs auto into $WORK/run.csv, stderr in
# $WORK/err; sets $code.
run_auto() {
  local sizes=$1
  shift
  code=0
  "$LADDER" run "${ocl[@]}" --rungs auto --sizes "$sizes" "$@" --output "$WORK/run.csv" --force \
    >"$WORK/log" 2>"$WORK/err" || code=$?
}
# rows: "params|param_source" of each row of $WORK/run.csv
rows() { paste -d'|' <(column "$WORK/run.csv" params) <(column "$WORK/run.csv" param_source); }

# 'all' has auto, after every kernel rung; 'kernels' and 'baselines' do not.
"$LADDER" run "${ocl[@]}" --rungs kernels,baselines --sizes 16 --output "$WORK/groups.csv" >/dev/null 2>&1
! column "$WORK/groups.csv" rung_name | grep -qx auto && pass || fail "kernels or baselines took auto"
"$LADDER" run "${ocl[@]}" --rungs all --sizes 16 --output "$WORK/all.csv" >"$WORK/log" 2>&1
names=$(column "$WORK/all.csv" rung_name | tr '\n' ' ')
[ "$(column "$WORK/all.csv" rung_name | grep -cx auto)" -eq 1 ] && pass || fail "all: $names"
case "$names" in *" auto "*cpu*) pass ;; *) fail "auto is not after the rungs: $names" ;; esac
grep -q "^opencl  auto  " "$WORK/log" && pass || fail "the live table does not say auto"

# No table: the rule. For a square shape on OpenCL whose C has as many 128 x 128 tiles as
# the device has compute units, it is rung 30 on a GPU (rung 10 with single-float
# accumulators, OpenCL only) and rung 27 on a CPU (the kernel shaped for a CPU core, first
# in every list there), with the parameters ladder run gives that rung itself.
units=$(column "$WORK/probe.csv" compute_units)
kind=$("$LADDER" devices 2>/dev/null | grep -A2 -F "  $device" | grep -Eo -m1 '^ +(GPU|CPU),' | tr -d ' ,')
[ -n "$kind" ] && pass || fail "could not read the device's kind"
square_rung=27
[ "$kind" = GPU ] && square_rung=30
side=$(( 128 * $(awk -v u="$units" 'BEGIN { s = int(sqrt(u)); if (s * s < u) s++; print s }') ))
"$LADDER" run "${ocl[@]}" --rungs "$square_rung",auto --sizes "${side}x${side}x$side" --output "$WORK/run.csv" --force >/dev/null 2>"$WORK/err"
[ "$(column "$WORK/run.csv" status | sort -u)" = ok ] && pass || fail "fallback rows not ok"
p_square=$(column "$WORK/run.csv" params | sed -n 1p)
[ "$(rows | sed -n 2p)" = "rung=$square_rung $p_square|fallback" ] && pass \
  || fail "fallback row at $side^3: $(rows | sed -n 2p) (rung $square_rung: $p_square)"
[ "$(column "$WORK/run.csv" rung | sed -n 2p)" = 0 ] && [ "$(column "$WORK/run.csv" rung_name | sed -n 2p)" = auto ] \
  && pass || fail "auto's rung columns"
[ -n "$(column "$WORK/run.csv" gflops | sed -n 2p)" ] && pass || fail "auto's row has no GFLOPS"
# A square of one tile, on a device of several compute units: too few tiles to fill it,
# so the rule shares the sum out (split-K, rung 19), with more than one slice; on a CPU
# rung 27, which splits K itself where its blocks are too few.
run_auto 100x90x80
if [ "$kind" = CPU ]; then
  rows | grep -q "^rung=27 .*|fallback$" && pass || fail "a one-tile square on a CPU: $(rows)"
elif [ "$units" -gt 1 ]; then
  rows | grep -q "^rung=19 .*SPLITS=\([2-9]\|[1-9][0-9]\+\) .*|fallback$" && pass \
    || fail "a one-tile square on $units compute units: $(rows)"
else
  rows | grep -q "^rung=15 .*|fallback$" && pass || fail "a one-tile square on one compute unit: $(rows)"
fi
# Skinny shapes on a GPU: the skinny rung where it takes them (M or N up to 16), else
# split-K. On a CPU rung 27 at all three, its vector as wide as M fills (16 rows: 16).
run_auto 16x1024x512,1024x16x512,32x1024x512
if [ "$kind" = CPU ]; then
  want="rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2|fallback"
  [ "$(rows | sort -u)" = "$want" ] && pass \
    || fail "skinny shapes on a CPU without an entry: $(rows | tr '\n' ' ')"
else
  [ "$(rows | sed -n 1p | cut -c1-8)|$(rows | sed -n 2p | cut -c1-8)" = "rung=20 |rung=20 " ] && pass \
    || fail "skinny shapes of 16 rows or columns without an entry: $(rows | tr '\n' ' ')"
  rows | sed -n 3p | grep -q "^rung=19 .*|fallback$" && pass || fail "a skinny shape of 32 rows without an entry: $(rows | sed -n 3p)"
fi
[ "$(column "$WORK/run.csv" status | sort -u)" = ok ] && pass || fail "skinny rows not ok: $(column "$WORK/run.csv" status | tr '\n' ' ')"

# A table, written by hand so the expected choices are known.
# Rung 11's line holds the hash of its file's bytes, as a table written until 2026-11-29
# does; rung 12's the hash of its code, as ladder select writes now. Both name their files.
h11=$(fnv1a64 "$LADDER_SOURCE_DIR/kernels-opencl/11-edges.cl")
h12=$(code_fnv1a64 "$LADDER_SOURCE_DIR/kernels-opencl/12-warptile.cl")
e11="TSM=32 TSN=32 TSK=8 WPTM=4 WPTN=4"
e12="TSM=32 TSN=128 TSK=8 WM=16"
line() { # shape class rung params kernel hash
  printf 'opencl\t%s\t%s\t%s\t%s\t%s\t1.0\tclblast\t2.0\t%s\t%s\td\tt\n' "$device" "$@"; }
table() {
  echo "# a table written by hand"
  line 96x96x96 square 11 "$e11" 11-edges.cl "$h11"
  line 16x16x2048 long-k 12 "$e12" 12-warptile.cl "$h12"
}
table >"$WORK/sel.tsv"
export LADDER_SELECTION_DB="$WORK/sel.tsv"
run_auto 96,100x90x80,20x20x3000,2x300x100
[ "$code" -eq 0 ] && [ "$(column "$WORK/run.csv" status | sort -u)" = ok ] && pass || { fail "auto with a table: exit $code"; cat "$WORK/err" >&2; }
[ "$(rows | sed -n 1p)" = "rung=11 $e11|selected" ] && pass || fail "exact shape: $(rows | sed -n 1p)"
[ "$(rows | sed -n 2p)" = "rung=11 $e11|selected" ] && pass || fail "nearest square: $(rows | sed -n 2p)"
grep -q "auto at 100x90x80 (square) runs the selection of the nearest measured square shape, 96x96x96" "$WORK/err" \
  && pass || { fail "no note for the nearest shape"; cat "$WORK/err" >&2; }
[ "$(rows | sed -n 3p)" = "rung=12 $e12|selected" ] && pass || fail "nearest long-k: $(rows | sed -n 3p)"
# A GEMV-like shape without an entry: the skinny rung on a GPU; on a CPU rung 27 with a
# vector of 2 rows (M = 2).
gemv_want="^rung=20 .*|fallback$"
[ "$kind" = CPU ] && gemv_want="^rung=27 VW=2 NR=8 LX=1 LY=1 GPC=2|fallback$"
rows | sed -n 4p | grep -q "$gemv_want" && pass || fail "gemv without an entry (the rule): $(rows | sed -n 4p)"

# --defaults and --db FILE leave the selection tables out: the rule.
run_auto 96 --defaults
rows | grep -q "|fallback$" && ! rows | grep -q "^rung=11 $e11|" && pass || fail "--defaults used the table: $(rows)"
printf '# empty\n' >"$WORK/empty-tuning.tsv"
run_auto 96 --db "$WORK/empty-tuning.tsv"
rows | grep -q "|fallback$" && pass || fail "--db used the table: $(rows)"

# A kernel edited since: one note, the rule, exit 0.
cp -r "$LADDER_SOURCE_DIR/kernels-opencl" "$WORK/edited"
echo "/* edited */" >>"$WORK/edited/11-edges.cl"
LADDER_OPENCL_KERNELS="$WORK/edited" run_auto 96,100x90x80
[ "$code" -eq 0 ] && [ "$(column "$WORK/run.csv" param_source | sort -u)" = fallback ] \
  && pass || { fail "stale table: exit $code, $(rows | tr '\n' ' ')"; cat "$WORK/err" >&2; }
[ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "entries for rung 11 were measured with another version of 11-edges.cl" "$WORK/err" \
  && pass || { fail "stale table: not one note"; cat "$WORK/err" >&2; }

# Entries that cannot be used: a rung this ladder lacks, one whose arithmetic is not
# float32's, parameters the rung refuses: a note each, then the nearest usable one.
{ table; line 90x90x90 square 999 "X=1" 99-none.cl "$h11"; line 91x91x91 square 16 "$e11" 16-tf32x3.cu "$h11"
  line 92x92x92 square 11 "TSM=7 TSN=32 TSK=8 WPTM=4 WPTN=4" 11-edges.cl "$h11"; } >"$WORK/sel.tsv"
run_auto 90,91,92
[ "$code" -eq 0 ] && [ "$(rows | sort -u)" = "rung=11 $e11|selected" ] && pass || fail "unusable entries: $(rows | tr '\n' ' ')"
grep -q "90x90x90 names rung 999, which this ladder does not have" "$WORK/err" && \
  grep -q "91x91x91 names rung 16, whose arithmetic is not float32's" "$WORK/err" && \
  grep -q "92x92x92 has parameters rung 11 cannot take here" "$WORK/err" && pass || { fail "notes of unusable entries"; cat "$WORK/err" >&2; }

# A corrupt table: one warning naming the file and line, the rule, exit 0.
{ table; printf 'opencl\tbroken line\n'; } >"$WORK/sel.tsv"
run_auto 96
[ "$code" -eq 0 ] && [ "$(column "$WORK/run.csv" param_source)" = fallback ] && pass || fail "corrupt table: exit $code or not the rule"
[ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "sel.tsv:4: expected 13 tab-separated fields" "$WORK/err" \
  && pass || { fail "corrupt table warning"; cat "$WORK/err" >&2; }

# Where tables live: the committed tuning folder's selection/, then selection.tsv beside
# the user's tuning database, which wins.
unset LADDER_SELECTION_DB
mkdir -p "$WORK/committed/selection" "$WORK/user"
table >"$WORK/committed/selection/device.tsv"
export LADDER_TUNING_DIR="$WORK/committed" LADDER_TUNING_DB="$WORK/user/tuning.tsv"
run_auto 96
[ "$(rows)" = "rung=11 $e11|selected" ] && pass || fail "the committed table was not read: $(rows)"
line 96x96x96 square 12 "$e12" 12-warptile.cl "$h12" >"$WORK/user/selection.tsv"
run_auto 96
[ "$(rows)" = "rung=12 $e12|selected" ] && pass || fail "the user's table did not win: $(rows)"
finish
