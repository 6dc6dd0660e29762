#!/usr/bin/env bash
# Runs the BLAS semantics test (tests/test_blas_semantics.c) on every BLAS-call CUDA rung
# and on cuBLAS, on a CUDA GPU, and prints one summary line per rung at the end.
#
# One process per rung (`test_blas_semantics cuda --rungs N`, and `--rungs library` for
# cuBLAS), all at once: most of the time goes to NVRTC, compiling each rung for each
# precision and transpose pair, which runs on the CPU, so rungs run side by side on the
# CPU's cores (one process took more than 150 s for rungs 15-19 on the H100). Each has a
# time limit, so one that hangs is reported, not waited for.
#
# Run it on the GPU machine from the source tree, after building and staging as the lead
# does (tools/stage-for-gpu.sh) and `source .stage/env.sh`:
#
#   tools/gpu/check-semantics.sh [OUTDIR]     (default: $OUT if set, else semantics-check)
#
#   SEMANTICS        the test program (default .stage/bin/tests/test_blas_semantics, else
#                    build/tests/test_blas_semantics)
#   SEMANTICS_RUNGS  the rungs, comma-separated (default: every BLAS-call CUDA rung, as
#                    the program lists them), plus "library" for cuBLAS (default: with it)
#   SEMANTICS_LIMIT  seconds each process may take (default 200)
#   SEMANTICS_JOBS   processes at once (default: the number of CPU cores)
#   SEMANTICS_BACKEND cuda (default) or opencl (the library is then CLBlast)
#
# OUTDIR gets one log per rung (rung-N.log, rung-library.log). Exit status: 0 when every
# process PASSED with every rung tested in every precision it takes; 1 otherwise (a
# failure, a time limit, a rung skipped or NOT TESTED in double).
set -uo pipefail
out=${1:-${OUT:-semantics-check}}
prog=${SEMANTICS:-}
if [ -z "$prog" ]; then
  prog=.stage/bin/tests/test_blas_semantics
  [ -x "$prog" ] || prog=build/tests/test_blas_semantics
fi
[ -x "$prog" ] || { echo "check-semantics: no test program at $prog: set SEMANTICS" >&2; exit 2; }
backend=${SEMANTICS_BACKEND:-cuda}
limit=${SEMANTICS_LIMIT:-200}
jobs=${SEMANTICS_JOBS:-$(nproc 2>/dev/null || echo 4)}
if [ -n "${SEMANTICS_RUNGS:-}" ]; then
  IFS=, read -r -a items <<<"$SEMANTICS_RUNGS"
else
  mapfile -t items < <("$prog" "$backend" --list)
  [ "${#items[@]}" -gt 0 ] || { echo "check-semantics: $prog $backend --list gave no rungs" >&2; exit 2; }
  items+=(library)
fi
[ "${#items[@]}" -gt 0 ] || { echo "check-semantics: no rungs to test" >&2; exit 2; }
mkdir -p "$out"

# run_one ITEM: the test of one rung (or the library), its log and its exit status and
# seconds in ITEM.status ("CODE SECONDS").
run_one() {
  local item=$1 start=$SECONDS code=0
  timeout -k 10 "$limit" "$prog" "$backend" --rungs "$item" >"$out/rung-$item.log" 2>&1 || code=$?
  echo "$code $((SECONDS - start))" >"$out/rung-$item.status"
}

echo "== test_blas_semantics $backend: ${items[*]} ($jobs at once, ${limit} s each)"
start=$SECONDS
running=0
for item in "${items[@]}"; do
  rm -f "$out/rung-$item.status"
  run_one "$item" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
echo "== summary (cases: lines per precision, transpose pair and layout; $((SECONDS - start)) s in all)"
status=0
printf '%-9s %-11s %-6s %-9s %-8s %s\n' rung result seconds "cases ok" failures note
for item in "${items[@]}"; do
  log="$out/rung-$item.log"
  read -r code secs <"$out/rung-$item.status" 2>/dev/null || { code=-1; secs=-; }
  ok=$(grep -c '^ok  ' "$log" 2>/dev/null)
  bad=$(grep -c '^FAIL' "$log" 2>/dev/null)
  untested=$(grep -c '^NOT TESTED' "$log" 2>/dev/null)
  case $code in
    0) result=PASSED ;;
    1) result=FAILED ;;
    77) result=SKIPPED ;;
    124|137) result=TIME-LIMIT ;;
    *) result="exit $code" ;;
  esac
  note=""
  [ "$untested" -gt 0 ] && note="NOT TESTED in double: $(grep -m1 '^NOT TESTED' "$log" | sed 's/.*: no parameters/no parameters/')"
  [ "$code" = 77 ] && note=$(grep -m1 -e 'cannot run' -e 'skipped' "$log")
  [ "$code" = 124 ] || [ "$code" = 137 ] && note="stopped after $limit s; last line: $(tail -1 "$log")"
  printf '%-9s %-11s %-6s %-9s %-8s %s\n' "$item" "$result" "$secs" "$ok" "$bad" "$note"
  if [ "$code" != 0 ] || [ "$untested" -gt 0 ] || [ "$ok" -eq 0 ]; then
    status=1
  fi
done
# The failures themselves, a few per rung (every one is in the logs).
for item in "${items[@]}"; do
  grep -m5 '^FAIL' "$out/rung-$item.log" 2>/dev/null | sed "s/^/  [$item] /"
done
echo "logs in $out; exit $status"
exit $status
