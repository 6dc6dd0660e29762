# The case of a BLAS call on ladder run: --precision, --trans, --layout, --alpha, --beta.
# Bad values are refused with a one-line error and exit status 2 before any work; each
# case runs, is recorded in the case columns and is verified; a rung that cannot take a
# case says why instead of running it; the vendor library and the CPU BLAS take every case.
source "$(dirname "$0")/lib.bash"
o=(--output "$WORK/out.csv")

# expect_usage "description" "message" -- args: expect_error, and the status is 2.
expect_usage() {
  expect_error "$@"
  local code=0
  shift 3
  timeout 60 "$LADDER" "$@" >/dev/null 2>&1 || code=$?
  [ "$code" -eq 2 ] && pass || fail "$*: exit status $code, expected 2"
}
expect_usage "bad transpose pair" "transpose pair 'XY': use NN, NT, TN or TT" -- run --trans XY "${o[@]}"
expect_usage "lower-case transposes" "transpose pair 'nt'" -- run --trans nt "${o[@]}"
expect_usage "empty item in --trans" "--trans 'NN,': give a comma-separated list" -- run --trans NN, "${o[@]}"
expect_usage "bad precision" "precision 'half': use single or double" -- run --precision half "${o[@]}"
expect_usage "bad layout" "layout 'diag': use col (column-major) or row (row-major)" -- run --layout diag "${o[@]}"
expect_usage "alpha not a number" "--alpha 'nan': use a finite number" -- run --alpha nan "${o[@]}"
expect_usage "alpha with junk" "--alpha '2x'" -- run --alpha 2x "${o[@]}"
expect_usage "beta overflowing" "--beta '1e999'" -- run --beta=1e999 "${o[@]}"
expect_usage "beta without value" "needs a value" -- run --beta

has_opencl_device || { echo "no OpenCL device: the runs are skipped" >&2; finish; }

# count FILE AWK-CONDITION: rows of a result file for which the condition on the named
# columns (rung_name, status, precision, trans, layout, alpha, beta) holds.
count() {
  paste -d, <(column "$1" rung_name) <(column "$1" status) <(column "$1" precision) \
    <(column "$1" trans) <(column "$1" layout) <(column "$1" alpha) <(column "$1" beta) |
    awk -F, "BEGIN { n = 0 } { r = \$1; s = \$2; p = \$3; t = \$4; l = \$5; a = \$6; b = \$7 }
             $2 { n++ } END { print n }"
}

# Every precision and layout at awkward sizes: rung 1 (which takes double), the library,
# the CPU BLAS, all verified in full.
out="$WORK/cases.csv"
"$LADDER" run --backend opencl --rungs 1,clblast,cpu --sizes 67x45x33,33x70x1 --precision single,double \
  --layout col,row --output "$out" >"$WORK/log" 2>&1 || { fail "precision x layout run"; cat "$WORK/log" >&2; }
[ "$(count "$out" 's == "ok"')" -eq "$(count "$out" 1)" ] && pass || fail "not every row ok"
for p in single double; do for l in col row; do
  n=$(count "$out" "p == \"$p\" && l == \"$l\" && t == \"NN\" && a == 1 && b == 0")
  [ "$n" -ge 4 ] && pass || fail "$p $l: $n rows, expected at least 4 (2 sizes, rung 1, cpu)"
done; done
grep -q '^case: double NN row-major alpha=1 beta=0$' "$WORK/log" && pass || fail "live table names no case"
[ "$(column "$out" verify | sort -u)" = full ] && pass || fail "not verified in full"

# Transposes and alpha, beta: the baselines run them, rung 1 says why it cannot.
out="$WORK/trans.csv"
"$LADDER" run --backend opencl --rungs 1,clblast,cpu --sizes 67x45x33 --trans NN,NT,TN,TT --layout row \
  --alpha -0.5 --beta 2 --output "$out" >"$WORK/log" 2>&1 || { fail "transposed run"; cat "$WORK/log" >&2; }
for t in NN NT TN TT; do
  [ "$(count "$out" "t == \"$t\" && s == \"ok\" && r != \"naive\" && a == -0.5 && b == 2")" -ge 1 ] \
    && pass || fail "$t: a baseline did not run it"
done
[ "$(count "$out" 'r == "naive" && s == "unsupported"')" -eq 4 ] && pass || fail "rung 1 ran a case it cannot take"
grep -q "alpha = -0.5, beta = 2 need a BLAS-call rung" "$WORK/log" && pass || fail "no reason for alpha/beta"
"$LADDER" run --backend opencl --rungs 1 --sizes 33 --trans TN --output "$WORK/tn.csv" >"$WORK/log" 2>&1
grep -q "no transposed operands (TN)" "$WORK/log" && pass || fail "no reason for transposes"

# Rungs whose helper kernels transpose say so in ladder list, and run a transposed case
# (rung 5's kernel reads B^T made by a helper; it takes multiples of its tiles only).
"$LADDER" list >"$WORK/list" 2>&1
sed -n "/^17 /,/^18 /p" "$WORK/list" | grep -q "cases: .*NN, NT, TN, TT (the helpers transpose)" \
  && pass || fail "ladder list does not say rung 17's helpers transpose"
"$LADDER" run --backend opencl --rungs 5 --sizes 256x128x64 --trans TN,NT --layout row --verify full \
  --output "$WORK/helpers.csv" >"$WORK/log" 2>&1 || { fail "rung 5 on TN and NT"; cat "$WORK/log" >&2; }
[ "$(count "$WORK/helpers.csv" 's == "ok"')" -eq 2 ] && pass || fail "rung 5 did not run TN and NT ok"

# A rung without double precision says so (every OpenCL rung takes double: the CUDA-only
# tensor-core rung 16 is the one that cannot, and ladder list gives its reason).
"$LADDER" list >"$WORK/log" 2>&1
sed -n "/^16 /,/^17 /p" "$WORK/log" | grep -q "no double: .*TF32" && pass || fail "no reason for double"
# And a rung without single (rung 25, on the FP64 tensor cores), with what to do instead.
sed -n "/^25 /,/^ *auto /p" "$WORK/log" >"$WORK/dmma"
grep -q "cases: double only;" "$WORK/dmma" &&
  grep -q "no single: FP64 tensor cores: double only; run with --precision double" "$WORK/dmma" \
  && pass || fail "no reason for single"

# Sampled verification in double, with beta (C read): the Freivalds tests take both.
out="$WORK/sampled.csv"
"$LADDER" run --backend opencl --rungs 1,clblast,cpu --sizes 150x97x61 --precision double --beta 1 --layout row \
  --verify sampled --output "$out" >"$WORK/log" 2>&1 || { fail "sampled double run"; cat "$WORK/log" >&2; }
[ "$(count "$out" 's == "ok"')" -eq 2 ] && pass || fail "sampled double rows not ok"
finish
