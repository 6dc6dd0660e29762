# Tables and figures show one case at a time. Files that mix cases (single beside double,
# NN beside TN) are refused until --precision, --trans and --case-layout choose one, and the
# table's caption and the figures' titles name a case other than the default. Older files
# (without the case columns) still make tables and figures, as the default case.
source "$(dirname "$0")/lib.bash"
fixtures="$LADDER_SOURCE_DIR/tests/fixtures"

# An older file makes a table (its rows read as single NN col).
"$LADDER" table --backend cuda --size 4096 "$fixtures/results/written-before-the-schema-table.csv" \
  >"$WORK/old.md" 2>"$WORK/err" && grep -q "banks" "$WORK/old.md" && pass \
  || { fail "an older file made no table"; cat "$WORK/err" >&2; }
code=0
"$LADDER" table --backend cuda --size 4096 --precision double \
  "$fixtures/results/written-before-the-schema-table.csv" >/dev/null 2>"$WORK/err" || code=$?
[ "$code" -eq 1 ] && grep -q "no ok rows for .* case double" "$WORK/err" && pass \
  || fail "an older file's rows are not all single (exit $code)"

# Two precisions from the CPU BLAS (no device needed), then a mix is refused.
mixed="$WORK/mixed.csv"
"$LADDER" run --rungs cpu --sizes 64 --precision single,double --trans NN,TN --output "$mixed" \
  >"$WORK/log" 2>&1 || { fail "cpu run"; cat "$WORK/log" >&2; }
code=0
"$LADDER" table "$mixed" >"$WORK/out" 2>"$WORK/err" || code=$?
[ "$code" -eq 1 ] && grep -q "rows of more than one case match (single NN col alpha=1 beta=0; " "$WORK/err" \
  && grep -q "choose one with --precision, --trans and --case-layout" "$WORK/err" && pass \
  || fail "a table of mixed cases was not refused (exit $code)"
"$LADDER" table --precision double --trans TN --caption "$mixed" >"$WORK/out" 2>"$WORK/err" \
  && [ "$(grep -c '^| ' "$WORK/out")" -eq 3 ] && grep -q "case double TN\." "$WORK/out" && pass \
  || { fail "the double TN table"; cat "$WORK/out" "$WORK/err" >&2; }
"$LADDER" table --precision single --trans NN --caption "$mixed" >"$WORK/out" 2>&1 \
  && ! grep -q "case " "$WORK/out" && pass || fail "the default case's caption names a case"
# A later measurement replaces an earlier one of the same case only.
cat "$mixed" "$mixed" >"$WORK/twice.csv"
"$LADDER" table --precision double --trans NN "$WORK/twice.csv" >"$WORK/out" 2>&1 \
  && [ "$(grep -c '^| ' "$WORK/out")" -eq 3 ] && pass || fail "rows of one case counted twice"
expect_error "bad --precision of table" "precision 'quad'" -- table --precision quad "$mixed"
expect_error "bad --trans of plot" "transpose pair 'XX'" -- plot --trans XX "$mixed"

command -v gnuplot >/dev/null && has_opencl_device || { echo "no gnuplot or OpenCL device: figures skipped" >&2; finish; }
runs="$WORK/runs.csv"
"$LADDER" run --backend opencl --rungs 1,cpu --sizes 32,64 --precision single,double \
  --output "$runs" >"$WORK/log" 2>&1 || { fail "opencl run"; cat "$WORK/log" >&2; }
code=0
"$LADDER" plot --out "$WORK/fig" --format svg "$runs" >/dev/null 2>"$WORK/err" || code=$?
[ "$code" -eq 1 ] && grep -q "rows of more than one case match" "$WORK/err" && pass \
  || fail "figures of mixed cases were not refused (exit $code)"
"$LADDER" plot --out "$WORK/fig" --format svg --precision double "$runs" >/dev/null 2>"$WORK/err" \
  && grep -q "drawing the case double (rows of other cases left out)" "$WORK/err" \
  && grep -rq "case: double" "$WORK/fig" && pass || { fail "double figures"; cat "$WORK/err" >&2; }
finish
