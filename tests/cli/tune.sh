# ladder tune on PoCL with tiny budgets: every strategy writes candidate rows and one
# database entry per key, tied to the kernel source; ladder run uses the entry (and says
# so), --defaults ignores it, an edited kernel or a corrupt database falls back to the
# defaults with a one-line message, a candidate planted to fail verification is never
# chosen, Ctrl-C keeps the best so far, and bad input (a CUDA-only rung on OpenCL too)
# gets a one-line error.
source "$(dirname "$0")/lib.bash"
o=(--candidates "$WORK/out.csv")

expect_error "tune without a rung" "give --rung" -- tune "${o[@]}"
expect_error "tune a baseline" "has no parameters to tune" -- tune --rung cublas "${o[@]}"
expect_error "tune an unknown rung" "unknown rung 'fastest'" -- tune --rung fastest "${o[@]}"
expect_error "unknown strategy" "--strategy 'best'" -- tune --rung 3 --strategy best "${o[@]}"
expect_error "bad budget" "--budget 'soon'" -- tune --rung 3 --budget soon "${o[@]}"
expect_error "zero budget" "--budget '0'" -- tune --rung 3 --budget 0 "${o[@]}"
expect_error "fractional candidates" "--budget '2.5'" -- tune --rung 3 --budget 2.5 "${o[@]}"
expect_error "unknown tune option" "unknown option '--bogus'" -- tune --rung 3 --bogus "${o[@]}"
expect_error "pinned parameter of another rung" "this search is for rung 3" -- tune --rung 3 --param 5:TSM=64 "${o[@]}"
expect_error "bad tune precision" "precision 'half'" -- tune --rung 1 --precision half "${o[@]}"
expect_error "a rung without double" "rung 16 (tf32x3) cannot be tuned in double: no double precision" -- tune --rung 16 --precision double "${o[@]}"
expect_error "a rung without single" "rung 25 (dmma) cannot be tuned in single NN: no single precision: FP64 tensor cores: double only; run with --precision double" -- tune --rung 25 "${o[@]}"
expect_error "bad tune transpose pair" "transpose pair 'NX'" -- tune --rung 15 --trans NX "${o[@]}"
expect_error "two pairs in one search" "--trans 'NN,TN': a search tunes one transpose pair" -- tune --rung 15 --trans NN,TN "${o[@]}"
expect_error "a rung without transposes" "rung 3 (wpt) cannot be tuned in TN" -- tune --rung 3 --trans TN "${o[@]}"
expect_error "a rung whose helpers transpose" "rung 5 (transpose) takes TN through its helper kernels" -- tune --rung 5 --trans TN "${o[@]}"
for bad in "--trans NX" "--trans" "--trans nn" "--trans NN,TN"; do
  code=0
  # shellcheck disable=SC2086 # the option and its value are two words
  "$LADDER" tune --rung 15 $bad "${o[@]}" >/dev/null 2>"$WORK/err" || code=$?
  [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass || { fail "tune $bad: exit $code (not 2) or not one line"; cat "$WORK/err" >&2; }
done

has_opencl_device || { finish; exit $?; }
ocl=(--backend opencl)
expect_error "bad run --db" "--db" -- run "${ocl[@]}" --rungs 3 --sizes 64 --db "$WORK/nonexistent.tsv" --output "$WORK/out.csv"
expect_error "unknown pinned parameter" "has no parameter BOGUS" -- tune "${ocl[@]}" --rung 3 --sizes 64 --param BOGUS=1 "${o[@]}"
expect_error "no candidate fits the sizes" "no candidate of rung 3 fits" -- tune "${ocl[@]}" --rung 3 --sizes 7 "${o[@]}"
expect_error "a CUDA-only rung on OpenCL" "cannot run on opencl: CUDA only" -- tune "${ocl[@]}" --rung async --sizes 64 "${o[@]}"

"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 8 --output "$WORK/probe.csv" >/dev/null 2>&1
device=$(column "$WORK/probe.csv" device)
[ -n "$device" ] && pass || fail "could not read the device name"

hash=$(code_fnv1a64 "$LADDER_SOURCE_DIR/kernels-opencl/03-wpt.cl")

# entries DB: the database's entries (no comments, no header)
entries() { grep -v -e '^#' -e '^backend' "$1"; }
# field DB CLASS N: field N of the rung 3 entry of that class
field() { entries "$1" | awk -F'\t' -v c="$2" -v n="$3" '$3 == 3 && $4 == c { print $n }'; }

# Every strategy, a budget of 4 candidates, into one database.
db="$WORK/db.tsv"
for strategy in greedy random exhaustive; do
  c="$WORK/c-$strategy.csv"
  if "$LADDER" tune "${ocl[@]}" --rung 3 --sizes 64,256x32x32 --budget 4 --strategy "$strategy" \
       --db "$db" --candidates "$c" >"$WORK/log" 2>&1; then pass; else
    fail "tune --strategy $strategy:"; sed 's/^/    /' "$WORK/log" >&2; continue
  fi
  grep -q '^\[4/' "$WORK/log" && pass || fail "$strategy: no progress line [4/..]"
  [ "$(column "$c" param_source | sort -u)" = tune-candidate ] && pass || fail "$strategy: param_source"
  # 4 candidates at 2 sizes each (a candidate that fails stops at its first size)
  rows=$(($(wc -l <"$c") - 1))
  [ "$rows" -ge 4 ] && [ "$rows" -le 8 ] && pass || fail "$strategy: $rows candidate rows"
done
[ "$(entries "$db" | wc -l)" -eq 2 ] && pass || { fail "expected two entries (small, skinny)"; cat "$db" >&2; }
[ "$(field "$db" small 1)" = opencl ] && [ "$(field "$db" small 2)" = "$device" ] && pass || fail "entry key"
[ "$(field "$db" small 9)" = "$hash" ] && [ "$(field "$db" skinny 9)" = "$hash" ] && pass || fail "kernel hash"
[ "$(field "$db" small 8)" = 03-wpt.cl ] && [ "$(field "$db" skinny 7)" = 256x32x32 ] && pass || fail "kernel or sizes field"
head -1 "$db" | grep -q "^# gemm-ladder tuning database" && pass || fail "database header"

# ladder run uses the entry of the size's class, marks it, and --defaults ignores it.
tuned=$(field "$db" skinny 5)
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 256x32x32 --db "$db" --output "$WORK/run.csv" --force >"$WORK/log" 2>&1
[ "$(column "$WORK/run.csv" param_source)" = tuned ] && [ "$(column "$WORK/run.csv" params)" = "$tuned" ] \
  && pass || { fail "run did not use the tuned $tuned"; cat "$WORK/log" >&2; }
grep -q "\[tuned\]" "$WORK/log" && pass || fail "the table does not mark tuned parameters"
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 256x32x32 --db "$db" --defaults --output "$WORK/run.csv" --force >/dev/null 2>&1
[ "$(column "$WORK/run.csv" param_source)" = default ] && pass || fail "--defaults used tuned parameters"
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 256x32x32 --db "$db" --param WPT=2 --output "$WORK/run.csv" --force >/dev/null 2>&1
[ "$(column "$WORK/run.csv" param_source)" = user ] && pass || fail "--param did not win over tuned"

# Where databases live: the committed folder, then the user's file, which wins. Entries
# written by hand, so the parameters used are known.
line() { printf 'opencl\t%s\t3\tsmall\t%s\t1.0\t64x64x64\t03-wpt.cl\t%s\td\tt\n' "$device" "$1" "${2:-$hash}"; }
mkdir -p "$WORK/committed"
line "TS=16 WPT=2" >"$WORK/committed/device.tsv"
# The user's line is as a table written until 2026-11-29 holds it, with the hash of the
# file's bytes: it still names this file, so it is used.
line "TS=8 WPT=4" "$(fnv1a64 "$LADDER_SOURCE_DIR/kernels-opencl/03-wpt.cl")" >"$WORK/user.tsv"
export LADDER_TUNING_DIR="$WORK/committed" LADDER_TUNING_DB="$WORK/user.tsv"
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 64 --output "$WORK/run.csv" --force >/dev/null 2>&1
[ "$(column "$WORK/run.csv" params)" = "TS=8 WPT=4" ] && pass || fail "the user's database did not win"
rm "$WORK/user.tsv"
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 64 --output "$WORK/run.csv" --force >/dev/null 2>&1
[ "$(column "$WORK/run.csv" params)" = "TS=16 WPT=2" ] && pass || fail "the committed database was not read"

# tune without --db updates the user's database, making its folder.
export LADDER_TUNING_DB="$WORK/config/gemm-ladder/tuning.tsv"
"$LADDER" tune "${ocl[@]}" --rung 3 --sizes 64 --budget 1 --candidates "$WORK/c.csv" >"$WORK/log" 2>&1 \
  && [ "$(entries "$LADDER_TUNING_DB" | wc -l)" -eq 1 ] && pass || { fail "tune into the user's database"; cat "$WORK/log" >&2; }

# A kernel whose comments were edited (a line rewritten, one added, a blank line): the code
# is the same, so the entry is still used, with no note.
cp -r "$LADDER_SOURCE_DIR/kernels-opencl" "$WORK/edited"
sed -i '1s|^/\*.*|/* Rung 3, explained again by a student.|' "$WORK/edited/03-wpt.cl"
printf '\n/* a note at the end */\n' >>"$WORK/edited/03-wpt.cl"
cmp -s "$WORK/edited/03-wpt.cl" "$LADDER_SOURCE_DIR/kernels-opencl/03-wpt.cl" && fail "the comment edit changed nothing"
LADDER_OPENCL_KERNELS="$WORK/edited" "$LADDER" run "${ocl[@]}" --rungs 3 --sizes 64 \
  --output "$WORK/run.csv" --force >/dev/null 2>"$WORK/err"
[ "$(column "$WORK/run.csv" param_source)" = tuned ] && [ ! -s "$WORK/err" ] && pass \
  || { fail "an entry was not used after an edit to the comments only"; cat "$WORK/err" >&2; }
# An edited kernel's code: the entry is stale, run says so once and uses the defaults.
echo "#define EDITED 1" >>"$WORK/edited/03-wpt.cl"
LADDER_OPENCL_KERNELS="$WORK/edited" "$LADDER" run "${ocl[@]}" --rungs 3 --sizes 64,128x64x64 \
  --output "$WORK/run.csv" --force >/dev/null 2>"$WORK/err"
[ "$(column "$WORK/run.csv" param_source | sort -u)" = default ] && pass || fail "a stale entry was used"
[ "$(grep -c "another version of 03-wpt.cl" "$WORK/err")" -eq 1 ] && pass || { fail "no single stale note"; cat "$WORK/err" >&2; }

# A corrupt database: a warning naming the file and line, the defaults, exit 0.
{ line "TS=16 WPT=2"; echo "# fine"; printf 'opencl\tbroken line\n'; } >"$WORK/corrupt.tsv"
code=0
"$LADDER" run "${ocl[@]}" --rungs 3 --sizes 64 --db "$WORK/corrupt.tsv" --output "$WORK/run.csv" --force >/dev/null 2>"$WORK/err" || code=$?
[ "$code" -eq 0 ] && [ "$(column "$WORK/run.csv" param_source)" = default ] && pass || fail "corrupt database: exit $code or not the defaults"
grep -q "corrupt.tsv:3: expected 13 tab-separated fields" "$WORK/err" && [ "$(wc -l <"$WORK/err")" -eq 1 ] \
  && pass || { fail "corrupt database warning"; cat "$WORK/err" >&2; }
# ... and tune refuses to overwrite it.
cp "$WORK/corrupt.tsv" "$WORK/corrupt-before.tsv"
expect_error "tune into a corrupt database" "corrupt.tsv:3" -- tune "${ocl[@]}" --rung 3 --sizes 64 --budget 1 --db "$WORK/corrupt.tsv" "${o[@]}"
cmp -s "$WORK/corrupt.tsv" "$WORK/corrupt-before.tsv" && pass || fail "tune changed a corrupt database"

# A candidate planted to fail verification (WPT=4 skips the product: fast and wrong) is
# recorded FAILED and never chosen.
cp -r "$LADDER_SOURCE_DIR/kernels-opencl" "$WORK/planted"
sed -i 's|^    for (int t = 0; t < K / TS; t++) {|#if WPT == 4\n    for (int t = 0; t < 0; t++) {\n#else\n    for (int t = 0; t < K / TS; t++) {\n#endif|' "$WORK/planted/03-wpt.cl"
grep -q "t < 0" "$WORK/planted/03-wpt.cl" || fail "could not plant the bug"
pdb="$WORK/planted.tsv"
LADDER_OPENCL_KERNELS="$WORK/planted" "$LADDER" tune "${ocl[@]}" --rung 3 --sizes 64 --param TS=16 \
  --strategy exhaustive --budget 10 --db "$pdb" --candidates "$WORK/planted.csv" >"$WORK/log" 2>&1 \
  || { fail "tune with a planted bug"; cat "$WORK/log" >&2; }
paste -d' ' <(column "$WORK/planted.csv" params) <(column "$WORK/planted.csv" status) | grep -q "^TS=16 WPT=4 FAILED$" \
  && pass || fail "the planted candidate was not recorded FAILED"
chosen=$(field "$pdb" small 5)
[ -n "$chosen" ] && [ "$chosen" != "TS=16 WPT=4" ] && pass || fail "chosen: '$chosen'"

# Ctrl-C: the candidate in flight finishes, the best so far is kept, exit 130.
idb="$WORK/interrupted.tsv" ilog="$WORK/interrupted.log"
interrupt "$ilog" "$LADDER" tune "${ocl[@]}" --rung 4 --sizes 64 --strategy random --budget 500 \
  --db "$idb" --candidates "$WORK/interrupted.csv"
[ "$code" -eq 130 ] && pass || { fail "interrupted tune: exit $code"; cat "$ilog" >&2; }
grep -q "interrupted" "$ilog" && [ "$(entries "$idb" | wc -l)" -eq 1 ] && [ -f "$WORK/interrupted.csv" ] \
  && pass || { fail "interrupted tune did not keep its best"; cat "$ilog" >&2; }
# Double precision: tuned in double, kept apart from single (field 12), used by runs in
# double only.
ddb="$WORK/double.tsv"
"$LADDER" tune "${ocl[@]}" --rung 1 --precision double --sizes 64 --budget 2 --db "$ddb" \
    --candidates "$WORK/c-double.csv" >"$WORK/log" 2>&1 || { fail "tune --precision double"; cat "$WORK/log" >&2; }
[ "$(entries "$ddb" | awk -F'\t' '{ print $3, $12 }')" = "1 double" ] && pass || { fail "double entry"; cat "$ddb" >&2; }
[ "$(column "$WORK/c-double.csv" precision | sort -u)" = double ] && pass || fail "candidates not in double"
"$LADDER" run "${ocl[@]}" --rungs 1 --sizes 64 --precision single,double --db "$ddb" --output "$WORK/pd.csv" >/dev/null 2>&1
[ "$(paste -d' ' <(column "$WORK/pd.csv" precision) <(column "$WORK/pd.csv" param_source) | tr '\n' ,)" = "single default,double tuned," ] \
  && pass || fail "a run used parameters of the other precision"

# Transpose pairs: tuned on TN, kept apart from NN (field 13), used by rows whose kernel
# computes TN only: a column-major TN row and a row-major NT row (its column-major call
# swaps the pair), never NN or TT, which run the defaults after one note.
tdb="$WORK/trans.tsv"
"$LADDER" tune "${ocl[@]}" --rung 15 --trans TN --sizes 64 --budget 2 --db "$tdb" \
    --candidates "$WORK/c-tn.csv" >"$WORK/log" 2>&1 || { fail "tune --trans TN"; cat "$WORK/log" >&2; }
[ "$(entries "$tdb" | awk -F'\t' '{ print $3, $12, $13 }')" = "15 single TN" ] && pass || { fail "TN entry"; cat "$tdb" >&2; }
[ "$(column "$WORK/c-tn.csv" trans | sort -u)" = TN ] && pass || fail "candidates not TN"
grep -q "in single precision, TN, on" "$WORK/log" && pass || fail "tune does not say which pair it tunes"
"$LADDER" run "${ocl[@]}" --rungs 15 --sizes 64 --trans NN,TN,TT --db "$tdb" --output "$WORK/pt.csv" >/dev/null 2>"$WORK/err"
[ "$(paste -d' ' <(column "$WORK/pt.csv" trans) <(column "$WORK/pt.csv" param_source) | tr '\n' ,)" = "NN default,TN tuned,TT default," ] \
  && pass || fail "a run used parameters of another transpose pair"
[ "$(grep -c "tuned parameters for small sizes are for TN only" "$WORK/err")" -eq 1 ] && pass || { fail "no single note on the other pairs"; cat "$WORK/err" >&2; }
"$LADDER" run "${ocl[@]}" --rungs 15 --sizes 64 --trans NT,TN --layout row --db "$tdb" --output "$WORK/pr.csv" >/dev/null 2>&1
[ "$(paste -d' ' <(column "$WORK/pr.csv" trans) <(column "$WORK/pr.csv" param_source) | tr '\n' ,)" = "NT tuned,TN default," ] \
  && pass || fail "row-major: the entry of the kernel's pair was not the one used"
# A line with a malformed pair: the one-line warning, the defaults.
{ entries "$tdb" | sed 's/\tTN$/\tTX/'; } >"$WORK/badtrans.tsv"
code=0
"$LADDER" run "${ocl[@]}" --rungs 15 --sizes 64 --trans TN --db "$WORK/badtrans.tsv" --output "$WORK/run.csv" --force >/dev/null 2>"$WORK/err" || code=$?
[ "$code" -eq 0 ] && [ "$(column "$WORK/run.csv" param_source)" = default ] && pass || fail "malformed trans: exit $code or not the defaults"
grep -q "badtrans.tsv:1: trans must be NN, NT, TN or TT" "$WORK/err" && [ "$(wc -l <"$WORK/err")" -eq 1 ] \
  && pass || { fail "malformed trans warning"; cat "$WORK/err" >&2; }
finish
