# ladder select on PoCL with few shapes and rungs: a progress line per candidate, the
# library's and every candidate's rows in the result file, one table entry per shape
# naming the fastest candidate that passed (tied to its kernel's hash), and ladder run
# --rungs auto then running exactly those; a budget keeps what it measured; --dry-run
# measures and writes nothing; a corrupt table is refused untouched; Ctrl-C keeps what was
# measured and exits 130; bad input gets a one-line error and exit 2.
source "$(dirname "$0")/lib.bash"
o=(--output "$WORK/out.csv" --db "$WORK/none.tsv")

expect_error "unknown select option" "unknown option '--bogus'" -- select --bogus "${o[@]}"
expect_error "bad budget" "--budget 'soon'" -- select --budget soon "${o[@]}"
expect_error "bad reps" "--reps needs an integer" -- select --reps 0 "${o[@]}"
expect_error "bad rounds" "--rounds needs an integer from 0 to 50" -- select --rounds 51 "${o[@]}"
expect_error "rounds not a number" "--rounds needs an integer" -- select --rounds many "${o[@]}"
expect_error "option without value" "needs a value" -- select --sizes
expect_error "unknown shape set" "size 'shapez' is not understood" -- select --sizes shapez "${o[@]}"

has_opencl_device || { finish; exit $?; }
ocl=(--backend opencl)
expect_error "a library as a candidate" "'clblast' is not a kernel rung" -- select "${ocl[@]}" --rungs clblast "${o[@]}"
expect_error "auto as a candidate" "'auto' is not a kernel rung" -- select "${ocl[@]}" --rungs auto "${o[@]}"
expect_error "3xTF32 as a candidate" "rung 16 (tf32x3) is not float32-accurate" -- select "${ocl[@]}" --rungs 16 "${o[@]}"
expect_error "a double-only rung as a candidate" "rung 25 (dmma) takes no single precision" -- select "${ocl[@]}" --rungs 25 "${o[@]}"
expect_error "a CUDA-only rung" "rung 13 (async) cannot run on opencl" -- select "${ocl[@]}" --rungs 11,13 "${o[@]}"
expect_error "an unknown rung" "unknown rung 'fastest'" -- select "${ocl[@]}" --rungs fastest "${o[@]}"
expect_error "an empty range" "rung range '15-11' is empty" -- select "${ocl[@]}" --rungs 15-11 "${o[@]}"
[ ! -e "$WORK/none.tsv" ] && pass || fail "bad input wrote a table"
for args in "--sizes shapez" "--bogus" "--budget soon" "--backend opencl --rungs 16"; do
  code=0
  # shellcheck disable=SC2086
  "$LADDER" select $args "${o[@]}" >/dev/null 2>&1 || code=$?
  [ "$code" -eq 2 ] && pass || fail "ladder select $args: exit $code, not 2"
done

shapes=48x40x56,16x16x1024,3x200x64
# entries TABLE: its entries (no comments, no header)
entries() { grep -v -e '^#' -e '^backend' "$1"; }

# --dry-run: the shapes and their candidates, nothing measured or written.
"$LADDER" select "${ocl[@]}" --sizes "$shapes" --rungs 11,15 --dry-run --db "$WORK/dry.tsv" \
  --output "$WORK/dry.csv" >"$WORK/log" 2>&1 && pass || { fail "dry run"; cat "$WORK/log" >&2; }
grep -q "^16x16x1024 (long-k): [0-9]* candidates" "$WORK/log" && grep -q "^  rung 15 TSM=" "$WORK/log" \
  && grep -q "dry run: nothing measured" "$WORK/log" && pass || { fail "dry run listing"; cat "$WORK/log" >&2; }
[ ! -e "$WORK/dry.tsv" ] && [ ! -e "$WORK/dry.csv" ] && pass || fail "the dry run wrote a file"
# The fallback rule's choice is a shape's first candidate, ahead of the rungs in --rungs
# order: at a GEMV-like shape that is the skinny rung (20) on a GPU and rung 27 (the kernel
# shaped for a CPU core) on a CPU, named last here.
"$LADDER" select "${ocl[@]}" --sizes 1x512x512 --rungs 11,15,20,27 --dry-run >"$WORK/log" 2>&1
first="  rung 20 "
"$LADDER" devices 2>/dev/null | grep -A2 "^opencl:0 " | grep -Eq '^ +CPU,' && first="  rung 27 "
[ "$(grep -A1 '^1x512x512 (gemv)' "$WORK/log" | sed -n 2p | cut -c1-10)" = "$first" ] && pass \
  || { fail "the rule's choice is not the first candidate"; cat "$WORK/log" >&2; }

# A profile of three shapes, rungs 11 and 15.
sel="$WORK/sel.tsv" rows="$WORK/rows.csv"
"$LADDER" select "${ocl[@]}" --sizes "$shapes" --rungs 11,15 --db "$sel" --output "$rows" \
  >"$WORK/log" 2>&1 && pass || { fail "select"; cat "$WORK/log" >&2; }
# The smallest shape is measured first, whatever its place in --sizes.
grep -q '^\[1/[0-9]*\] 3x200x64 gemv  rung 11 ' "$WORK/log" && pass || { fail "no progress line"; cat "$WORK/log" >&2; }
[ "$(entries "$sel" | wc -l)" -eq 3 ] && pass || { fail "expected 3 entries"; cat "$sel" >&2; }
head -1 "$sel" | grep -q "^# gemm-ladder selection table" && pass || fail "table header"
[ "$(column "$rows" status | sort -u)" = ok ] && pass || fail "rows not all ok"
[ "$(column "$rows" param_source | grep -c tune-candidate)" -ge 6 ] && pass || fail "candidate rows"
if "$LADDER" run "${ocl[@]}" --rungs clblast --sizes 8 --output "$WORK/lib.csv" >/dev/null 2>&1; then
  [ "$(column "$rows" rung_name | grep -cx clblast)" -eq 3 ] && pass || fail "one library row per shape"
  [ "$(entries "$sel" | cut -f8 | sort -u)" = clblast ] && pass || fail "library field"
  column "$rows" vs_library | grep -q . && pass || fail "candidate rows have no vs_library"
fi
for shape in $(echo "$shapes" | tr , ' '); do
  e=$(entries "$sel" | awk -F'\t' -v s="$shape" '$3 == s')
  rung=$(echo "$e" | cut -f5) params=$(echo "$e" | cut -f6) gflops=$(echo "$e" | cut -f7)
  kernel=$(echo "$e" | cut -f10) hash=$(echo "$e" | cut -f11)
  [ "$hash" = "$(code_fnv1a64 "$LADDER_SOURCE_DIR/kernels-opencl/$kernel")" ] && pass || fail "$shape: hash of $kernel"
  # The entry is the fastest candidate row of its shape (or one of the fastest: the file
  # rounds GFLOPS, so two candidates of a tiny shape can tie there).
  IFS=x read -r M N K <<<"$shape"
  best=$(paste -d'|' <(column "$rows" M) <(column "$rows" N) <(column "$rows" K) <(column "$rows" rung) \
           <(column "$rows" params) <(column "$rows" gflops) |
         awk -F'|' -v m="$M" -v n="$N" -v k="$K" '$1 == m && $2 == n && $3 == k && $4 > 0 { g[$4 "|" $5] = $6; if ($6 > b) b = $6 }
                                                 END { for (w in g) if (g[w] == b) print w }')
  grep -qxF -- "$rung|$params" <<<"$best" && pass || fail "$shape: entry $rung|$params, fastest rows $best"
  awk -v g="$gflops" 'BEGIN { exit !(g > 0) }' && pass || fail "$shape: gflops $gflops"
done
entries "$sel" | cut -f4 | tr '\n' ' ' | grep -q "^square long-k gemv $" && pass || fail "class field"

# ladder run --rungs auto runs the entries.
LADDER_SELECTION_DB="$sel" "$LADDER" run "${ocl[@]}" --rungs auto --sizes "$shapes" --output "$WORK/run.csv" \
  >/dev/null 2>"$WORK/err" && pass || { fail "run auto"; cat "$WORK/err" >&2; }
want=$(entries "$sel" | awk -F'\t' '{ print "rung=" $5 " " $6 "|selected" }')
got=$(paste -d'|' <(column "$WORK/run.csv" params) <(column "$WORK/run.csv" param_source))
[ "$got" = "$want" ] && pass || fail "auto ran $got, the table says $want"

# Profiling again: each entry is kept or replaced, never duplicated.
"$LADDER" select "${ocl[@]}" --sizes "$shapes" --rungs 11,15 --db "$sel" --output "$WORK/again.csv" \
  >"$WORK/log" 2>&1 && [ "$(entries "$sel" | wc -l)" -eq 3 ] && pass || { fail "select again"; cat "$WORK/log" >&2; }
[ "$(grep -c -e '  replaced$' -e 'kept the old entry' "$WORK/log")" -eq 3 ] && pass || { fail "keep or replace"; cat "$WORK/log" >&2; }

# --rounds: the finalists, the table's entry for the shape among them, are measured again
# in rounds, and the pick is the one with the fastest round. Here the entry of 48x40x56
# claims 99999 GFLOPS (measured in another state of the machine, say): raced in the same
# rounds, it is replaced by the winner's fastest round (by itself, if it wins), not kept
# for its claim.
lucky=$(entries "$sel" | awk -F'\t' 'BEGIN { OFS = "\t" } $3 == "48x40x56" { $7 = "99999.00" } { print }')
printf '%s\n' "$lucky" >"$WORK/lucky.tsv"
lucky_params=$(entries "$WORK/lucky.tsv" | awk -F'\t' '$3 == "48x40x56" { print "rung " $5 " " $6 }')
"$LADDER" select "${ocl[@]}" --sizes 48x40x56 --rungs 11,15 --rounds 2 --db "$WORK/lucky.tsv" \
  --output "$WORK/rounds.csv" >"$WORK/log" 2>&1 && pass || { fail "select --rounds"; cat "$WORK/log" >&2; }
grep -q "^round 1/2 48x40x56 square  $lucky_params  " "$WORK/log" && grep -q "^round 2/2 48x40x56 " "$WORK/log" \
  && grep -q "(fastest of 2 rounds)" "$WORK/log" && pass || { fail "--rounds: the rounds or the old entry missing"; cat "$WORK/log" >&2; }
[ "$(entries "$WORK/lucky.tsv" | wc -l)" -eq 3 ] && grep -q -e '  replaced$' -e 'lost to it in the same rounds' "$WORK/log" \
  && ! entries "$WORK/lucky.tsv" | awk -F'\t' '$3 == "48x40x56"' | grep -q 99999 \
  && pass || { fail "--rounds kept a lucky entry"; cat "$WORK/log" "$WORK/lucky.tsv" >&2; }

# --sizes stale: the shapes whose entries were measured with another version of their
# kernel (here one entry's hash is made wrong), and nothing else, each once though the
# table is read both as ladder run's and as --db; ladder run says how to measure them
# again; once measured, nothing is stale.
entries "$sel" | awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $11 = "0000000000000000" } { print }' >"$WORK/stale.tsv"
stale_shape=$(entries "$WORK/stale.tsv" | awk -F'\t' 'NR == 2 { print $3 }')
stale_rung=$(entries "$WORK/stale.tsv" | awk -F'\t' 'NR == 2 { print $5 }')
LADDER_SELECTION_DB="$WORK/stale.tsv" "$LADDER" select "${ocl[@]}" --sizes stale --rungs "$stale_rung" --dry-run \
  --db "$WORK/stale.tsv" >"$WORK/log" 2>&1 \
  && [ "$(grep -c ' candidates' "$WORK/log")" -eq 1 ] && grep -q "^$stale_shape " "$WORK/log" \
  && pass || { fail "--sizes stale: expected $stale_shape only"; cat "$WORK/log" >&2; }
LADDER_SELECTION_DB="$WORK/stale.tsv" "$LADDER" run "${ocl[@]}" --rungs auto --sizes "$stale_shape" \
  --output "$WORK/stale-run.csv" >/dev/null 2>"$WORK/err"
grep -q "ladder select --sizes stale --rungs $stale_rung measures them again" "$WORK/err" \
  && pass || { fail "the stale note says what to do"; cat "$WORK/err" >&2; }
"$LADDER" select "${ocl[@]}" --sizes stale --rungs "$stale_rung" --budget 1 --db "$WORK/stale.tsv" \
  --output "$WORK/stale.csv" >"$WORK/log" 2>&1 && pass || { fail "--sizes stale measured"; cat "$WORK/log" >&2; }
"$LADDER" select "${ocl[@]}" --sizes stale --db "$WORK/stale.tsv" --output "$WORK/stale2.csv" >"$WORK/log" 2>&1 \
  && grep -q "nothing to measure" "$WORK/log" && [ ! -e "$WORK/stale2.csv" ] \
  && pass || { fail "--sizes stale after measuring"; cat "$WORK/log" >&2; }
expect_error "stale in a list" "--sizes 'stale,64': stale stands alone" -- select "${ocl[@]}" --sizes stale,64 \
  --db "$WORK/stale.tsv" --output "$WORK/out.csv"

# A budget of 2 candidates for 3 shapes, shared: one candidate each for the two smallest
# shapes, measured first (rung 11's own parameters, before its variants), none left for
# the largest, 16x16x1024, though it is listed second.
"$LADDER" select "${ocl[@]}" --sizes "$shapes" --rungs 11,15 --budget 2 --db "$WORK/budget.tsv" \
  --output "$WORK/budget.csv" >"$WORK/log" 2>"$WORK/err" && pass || { fail "select with a budget"; cat "$WORK/err" >&2; }
[ "$(entries "$WORK/budget.tsv" | wc -l)" -eq 2 ] && pass || fail "budget: expected two entries"
[ "$(grep -c "(1 of [0-9]* candidates measured)" "$WORK/log")" -eq 2 ] && grep -q "not measured" "$WORK/log" && \
  grep -q "the budget ran out" "$WORK/err" && pass || { fail "budget messages"; cat "$WORK/log" "$WORK/err" >&2; }
[ "$(column "$WORK/budget.csv" param_source | grep -c tune-candidate)" -eq 2 ] && pass || fail "budget: candidate rows"
[ "$(paste -d' ' <(column "$WORK/budget.csv" M) <(column "$WORK/budget.csv" N) <(column "$WORK/budget.csv" K) | uniq | tr '\n' ,)" = "3 200 64,48 40 56," ] \
  && ! entries "$WORK/budget.tsv" | grep -q "16x16x1024" && pass || fail "budget: not the smallest shapes first"

# A second search that adds to the first one's file (--append) leaves out what that file
# measured: its dry run says so, and with the same budget it measures two other
# candidates, so no candidate of a shape has two rows.
"$LADDER" select "${ocl[@]}" --sizes "$shapes" --rungs 11,15 --dry-run --append --output "$WORK/budget.csv" \
  >"$WORK/log" 2>&1 && [ "$(grep -c "; 1 measured in the earlier search (--append)" "$WORK/log")" -eq 2 ] && pass \
  || { fail "dry run with --append"; cat "$WORK/log" >&2; }
"$LADDER" select "${ocl[@]}" --sizes "$shapes" --rungs 11,15 --budget 2 --db "$WORK/budget.tsv" --append \
  --output "$WORK/budget.csv" >"$WORK/log" 2>"$WORK/err" && pass || { fail "a second search with --append"; cat "$WORK/err" >&2; }
candidates() { paste -d' ' <(column "$1" M) <(column "$1" N) <(column "$1" K) <(column "$1" rung) \
  <(column "$1" params) <(column "$1" param_source) | grep ' tune-candidate$'; }
[ "$(candidates "$WORK/budget.csv" | wc -l)" -eq 4 ] && [ "$(candidates "$WORK/budget.csv" | sort -u | wc -l)" -eq 4 ] \
  && pass || { fail "--append measured a candidate again"; candidates "$WORK/budget.csv" >&2; }
printf 'not,a,result,file\n' >"$WORK/notrows.csv"
expect_error "--append to a file that is not a result file" "--append:" -- select "${ocl[@]}" --sizes 64 --rungs 15 \
  --append --output "$WORK/notrows.csv" --db "$WORK/none.tsv"

# A corrupt table is refused before anything is measured, and left as it was.
{ entries "$sel"; printf 'opencl\tbroken line\n'; } >"$WORK/corrupt.tsv"
cp "$WORK/corrupt.tsv" "$WORK/corrupt-before.tsv"
expect_error "a corrupt table" "corrupt.tsv:4: expected 13 tab-separated fields" -- select "${ocl[@]}" --sizes 64 --rungs 15 \
  --db "$WORK/corrupt.tsv" --output "$WORK/out.csv"
cmp -s "$WORK/corrupt.tsv" "$WORK/corrupt-before.tsv" && pass || fail "select changed a corrupt table"

# Ctrl-C: the candidate in flight finishes, what was measured is kept, exit 130.
itab="$WORK/interrupted.tsv" ilog="$WORK/interrupted.log"
interrupt "$ilog" "$LADDER" select "${ocl[@]}" --sizes shapes-cpu --rungs 11,15 --db "$itab" \
  --output "$WORK/interrupted.csv"
[ "$code" -eq 130 ] && pass || { fail "interrupted select: exit $code"; cat "$ilog" >&2; }
grep -q "interrupted (Ctrl-C) after" "$ilog" && [ "$(entries "$itab" | wc -l)" -ge 1 ] && [ -f "$WORK/interrupted.csv" ] \
  && pass || { fail "interrupted select did not keep what it measured"; cat "$ilog" >&2; }
finish
