# A deliberately broken kernel (a wrong index) must fail verification loudly: FAILED in the
# table and the result file, a message on stderr, and a non-zero exit. Its correct twin
# passes in the same run, so the harness is not just failing everything. In double, a kernel
# that sums in float fails.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }

kernels="$WORK/kernels"
cp -r "$LADDER_SOURCE_DIR/kernels-opencl" "$kernels"
# Read row m+1 of A instead of row m: a typical off-by-one. (The last row wraps into the
# next column, which is still a valid address, so only the values are wrong.)
sed -i 's/acc += A\[m + k \* M\] \* B\[k + n \* K\];/acc += A[(m + 1) % M + k * M] * B[k + n * K];/' "$kernels/01-naive.cl"
grep -q '(m + 1) % M' "$kernels/01-naive.cl" || { fail "could not plant the bug"; finish; exit 1; }

for mode in full sampled; do
  code=0
  LADDER_OPENCL_KERNELS="$kernels" "$LADDER" run --backend opencl --rungs 1 --sizes 64x48x40 \
      --verify $mode --output "$WORK/broken-$mode.csv" >"$WORK/stdout" 2>"$WORK/stderr" || code=$?
  [ "$code" -eq 1 ] && pass || fail "$mode: exit status $code, expected 1"
  grep -q "FAILED" "$WORK/stdout" && pass || fail "$mode: table shows no FAILED"
  grep -q "VERIFICATION FAILED" "$WORK/stderr" && pass || fail "$mode: no loud message"
  [ "$(column "$WORK/broken-$mode.csv" status)" = "FAILED" ] && pass || fail "$mode: row status not FAILED"
  [ -z "$(column "$WORK/broken-$mode.csv" gflops)" ] && pass || fail "$mode: a failed row has a speed"
done

# An element never written (a kernel that skips the last column) is caught through the
# NaN poisoning.
cp "$LADDER_SOURCE_DIR/kernels-opencl/01-naive.cl" "$kernels/01-naive.cl"
sed -i 's/if (m >= M || n >= N)/if (m >= M || n >= N - 1)/' "$kernels/01-naive.cl"
code=0
LADDER_OPENCL_KERNELS="$kernels" "$LADDER" run --backend opencl --rungs 1 --sizes 32 \
    --output "$WORK/skip.csv" >"$WORK/stdout" 2>&1 || code=$?
[ "$code" -eq 1 ] && grep -q "NaN" "$WORK/stdout" && pass || fail "unwritten column not caught"

# Double precision: a kernel that sums in float but stores double (real acc becomes float)
# is right to float's precision only, so it must fail the double check, in both modes,
# while the same kernel passes in single, where float sums are correct.
cp "$LADDER_SOURCE_DIR/kernels-opencl/01-naive.cl" "$kernels/01-naive.cl"
sed -i 's/real acc = 0;/float acc = 0;/' "$kernels/01-naive.cl"
grep -q 'float acc = 0;' "$kernels/01-naive.cl" || { fail "could not plant the float sum"; finish; exit 1; }
for mode in full sampled; do
  code=0
  LADDER_OPENCL_KERNELS="$kernels" "$LADDER" run --backend opencl --rungs 1 --sizes 64x48x40 \
      --precision double --verify $mode --output "$WORK/float-sum-$mode.csv" >"$WORK/stdout" 2>"$WORK/stderr" || code=$?
  [ "$code" -eq 1 ] && [ "$(column "$WORK/float-sum-$mode.csv" status)" = "FAILED" ] && pass \
    || fail "double, $mode: float sums not caught (exit $code)"
done
LADDER_OPENCL_KERNELS="$kernels" "$LADDER" run --backend opencl --rungs 1 --sizes 64x48x40 \
    --output "$WORK/float-sum-single.csv" >/dev/null 2>&1
[ "$(column "$WORK/float-sum-single.csv" status)" = "ok" ] && pass || fail "float sums failed in single"

# The correct kernel passes.
"$LADDER" run --backend opencl --rungs 1 --sizes 64x48x40 --output "$WORK/good.csv" >/dev/null \
  && [ "$(column "$WORK/good.csv" status)" = "ok" ] && pass || fail "the correct naive kernel failed"
"$LADDER" run --backend opencl --rungs 1 --sizes 64x48x40 --precision double --verify sampled \
    --output "$WORK/good-double.csv" >/dev/null \
  && [ "$(column "$WORK/good-double.csv" status)" = "ok" ] && pass || fail "the correct naive kernel failed in double"
finish
