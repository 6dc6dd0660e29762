# The BLAS semantics test's own options and tools/gpu/check-semantics.sh, on PoCL: --list
# names the backend's BLAS-call rungs without a device; --rungs tests the rungs named and
# refuses others with a one-line usage error (exit 2); the output is a summary line per
# case, not a line per call; the script runs one process per rung and its summary says
# which passed and which were skipped (a skip is no pass: exit 1).
source "$(dirname "$0")/lib.bash"
semantics="$(dirname "$LADDER")/tests/test_blas_semantics"
[ -x "$semantics" ] || { fail "no $semantics (build the tests)"; finish; exit $?; }

[ "$("$semantics" cuda --list | tr '\n' ,)" = "$("$semantics" cuda --list | sort -n | tr '\n' ,)" ] \
  && "$semantics" cuda --list | grep -qx 18 && "$semantics" cuda --list | grep -qx 15 \
  && ! "$semantics" cuda --list | grep -qx 12 && pass || fail "cuda --list"
"$semantics" opencl --list | grep -qx 15 && ! "$semantics" opencl --list | grep -qx 18 \
  && pass || fail "opencl --list names a CUDA-only rung"
for bad in "--rungs 3" "--rungs bogus" "--rungs" "--rungs ," "--bogus"; do
  code=0
  # shellcheck disable=SC2086 # the option and its value are two words
  "$semantics" opencl $bad >/dev/null 2>"$WORK/err" || code=$?
  [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass \
    || { fail "test_blas_semantics opencl $bad: exit $code (not 2) or not one line"; cat "$WORK/err" >&2; }
done

has_opencl_device || { finish; exit $?; }
# One rung: its cases in each precision, one summary line per case (two layouts times
# four pairs), nothing of the other rungs or the library.
"$semantics" opencl --rungs 15 >"$WORK/15.log" 2>&1 && pass || { fail "--rungs 15"; grep -v '^ok' "$WORK/15.log" >&2; }
[ "$(grep -c '^ok   rung 15 (sgemm) single' "$WORK/15.log")" -eq 8 ] \
  && [ "$(grep -c '^ok   rung 15 (sgemm) double' "$WORK/15.log")" -eq 8 ] && pass \
  || { fail "rung 15: not one line per precision, pair and layout"; cat "$WORK/15.log" >&2; }
! grep -q -e 'rung 19' -e 'clblast' "$WORK/15.log" && [ "$(wc -l <"$WORK/15.log")" -le 20 ] \
  && pass || { fail "--rungs 15 ran more than rung 15, or said too much"; cat "$WORK/15.log" >&2; }
# A CUDA-only rung on OpenCL: nothing runs, exit 77.
code=0
"$semantics" opencl --rungs 18 >"$WORK/18.log" 2>&1 || code=$?
[ "$code" -eq 77 ] && pass || fail "--rungs 18 on OpenCL: exit $code, not 77"

# The script, on OpenCL: one log per rung, a summary line each, exit 1 for the skipped one.
code=0
SEMANTICS="$semantics" SEMANTICS_BACKEND=opencl SEMANTICS_RUNGS=15,18,library SEMANTICS_JOBS=2 \
  bash "$LADDER_SOURCE_DIR/tools/gpu/check-semantics.sh" "$WORK/check" >"$WORK/check.log" 2>&1 || code=$?
[ "$code" -eq 1 ] && pass || { fail "check-semantics.sh: exit $code, not 1 (rung 18 is skipped)"; cat "$WORK/check.log" >&2; }
grep -Eq '^15 +PASSED' "$WORK/check.log" && grep -Eq '^18 +SKIPPED' "$WORK/check.log" \
  && grep -Eq '^library +PASSED' "$WORK/check.log" && [ -s "$WORK/check/rung-library.log" ] \
  && pass || { fail "check-semantics.sh summary"; cat "$WORK/check.log" >&2; }
finish
