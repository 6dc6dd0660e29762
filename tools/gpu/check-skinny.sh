#!/usr/bin/env bash
# Checks rung 20 (skinny and GEMV-like shapes) on an H100 in one go, in under 4 minutes,
# and prints a short table at the end:
#   1. verification in full, in CUDA, at awkward skinny shapes (K = 1, prime K, M = N = 1,
#      N = 3, M or N at the cap of 16, long K that is split across blocks), with the
#      next-round loads off and on (PF=0, PF=1), in all four transpose pairs; then the
#      BLAS-call cases of test_blas_semantics (alpha, beta, leading dimensions, double,
#      every switch of the rung flipped), when that binary is on PATH;
#   2. compute-sanitizer memcheck and racecheck at small skinny shapes, PF=0 and PF=1;
#   3. timing at the GEMV-like shapes of issue 17 with cuBLAS in the same run: rung 20 at
#      its defaults and over a small sweep (PF, TQ and WU together, GPC), and a tiny shape
#      (1x16x16) whose time is the floor of one timed call (launch and events, no bytes).
# Each timing row is shown in GB/s (A, B and C counted once each, over the median time)
# and as a fraction of the device's read bandwidth: $SKINNY_READ_GBS if set, else 3066
# (this H100's, measured for issue 17).
# Run it on the GPU machine from the source tree, after building and staging as the
# lead does (tools/stage-for-gpu.sh) and `source .stage/env.sh`, or with LADDER set:
#
#   tools/gpu/check-skinny.sh [OUTDIR]      (default: $OUT if set, else skinny-check)
#
# Exit status: 0 when every row is ok and the sanitizers report no errors, 1 otherwise
# (a speed below the target is reported, not a failure).
set -uo pipefail
ladder=${LADDER:-build/ladder}
out=${1:-${OUT:-skinny-check}}
mkdir -p "$out"
[ -x "$ladder" ] || { echo "check-skinny: no ladder at $ladder: set LADDER" >&2; exit 2; }
status=0

source "$(dirname "${BASH_SOURCE[0]}")/rows.bash"

echo "== 1. verification (full) at awkward skinny shapes, PF=0 and PF=1, NN NT TN TT"
awkward="1x1x1,1x1x997,997x1x1,1x997x1,7x1x1,2x3x4,5x5x5,16x16x16,1000x3x5,3x1000x5"
awkward+=",4096x1x1009,1x4099x1024,777x16x1001,16x777x1001,13x1000x4099,4099x13x1000"
awkward+=",3x1x65537,1x5x30011,16x2x2999,2x16x2999,1x8191x8191,8191x1x8191,8x8193x4097"
for pf in 0 1; do
  "$ladder" run --backend cuda --rungs 20 --defaults --param PF=$pf --trans NN,NT,TN,TT \
      --sizes "$awkward" --verify full --reps 3 --max-time 0.05 \
      --output "$out/verify-pf$pf.csv" --force >"$out/verify-pf$pf.log" 2>&1 \
      || { echo "ladder run failed (PF=$pf): see $out/verify-pf$pf.log"; status=1; }
  [ -f "$out/verify-pf$pf.csv" ] && report "$out/verify-pf$pf.csv"
done
if command -v test_blas_semantics >/dev/null; then
  if test_blas_semantics cuda >"$out/blas-semantics.log" 2>&1; then
    echo "test_blas_semantics cuda: passed"
  else
    echo "test_blas_semantics cuda: FAILED (see $out/blas-semantics.log)"; status=1
  fi
else
  echo "test_blas_semantics not on PATH: BLAS-call cases not run"; status=1
fi

echo "== 2. compute-sanitizer at small skinny shapes, PF=0 and PF=1"
small="1x1x997,3x1x4099,1x5x3001,777x16x1001,16x777x1001,1001x3x517,3x517x1001"
for tool in memcheck racecheck; do
  for pf in 0 1; do
    log="$out/sanitizer-$tool-pf$pf.log"
    compute-sanitizer --tool "$tool" --error-exitcode 3 "$ladder" run --backend cuda \
        --rungs 20 --defaults --param PF=$pf --trans NN,TT --verify full --reps 1 \
        --sizes "$small" --output "$out/sanitizer-$tool-pf$pf.csv" --force >"$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
    echo "$tool PF=$pf: exit $rc, ${summary:-no summary (see $log)}"
    [ "$rc" -eq 0 ] || status=1
    [ -f "$out/sanitizer-$tool-pf$pf.csv" ] && report "$out/sanitizer-$tool-pf$pf.csv"
  done
done

echo "== 3. timing (defaults, cuBLAS, and a sweep of PF, TQ=WU and GPC)"
shapes="1x4096x4096,4096x1x4096,8x8192x8192,16384x4x4096,11008x16x4096,1x16384x16384"
time_run() { # NAME RUNGS [--param ...]: one timed run over the shapes and the floor
  local name=$1 rungs=$2
  shift 2
  "$ladder" run --backend cuda --rungs "$rungs" --defaults "$@" --sizes "$shapes,1x16x16" \
      --reps 50 --max-time 0.2 --output "$out/time-$name.csv" --force \
      >"$out/time-$name.log" 2>&1 || { echo "ladder run failed: $out/time-$name.log"; status=1; }
  [ -f "$out/time-$name.csv" ] && report "$out/time-$name.csv"
}
time_run defaults 20,cublas
for pf in 0 1; do
  for q in 2 4; do
    for gpc in 1 2 4; do
      time_run "pf$pf-q$q-gpc$gpc" 20 --param PF=$pf --param TQ=$q --param WU=$q \
          --param GPC=$gpc
    done
  done
done

read_gbs=${SKINNY_READ_GBS:-3066}
src=$([ -n "${SKINNY_READ_GBS:-}" ] && echo "SKINNY_READ_GBS" || echo "this H100, measured for issue 17")
echo "== summary: GB/s = 4 (MK + KN + MN) bytes / median time; read bandwidth $read_gbs GB/s ($src); target 85%"
python3 - "$read_gbs" "$out"/time-*.csv <<'PY'
import csv, sys
peak = float(sys.argv[1])
best, dflt, lib, floor = {}, {}, {}, {}
for f in sys.argv[2:]:
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok":
            continue
        M, N, K = int(r["M"]), int(r["N"]), int(r["K"])
        shape, ms = f"{M}x{N}x{K}", float(r["median_ms"])
        if shape == "1x16x16":
            if f.endswith("time-defaults.csv"):
                floor[r["rung_name"]] = ms * 1000
            continue
        gbs = 4.0 * (M * K + K * N + M * N) / (ms * 1e-3) / 1e9
        if r["rung_name"] == "cublas":
            lib[shape] = gbs
        elif f.endswith("time-defaults.csv"):
            dflt[shape] = gbs
        if r["rung_name"] == "skinny" and gbs > best.get(shape, (0, ""))[0]:
            best[shape] = (gbs, r["params"])
pct = lambda g: f"{g:7.0f} {100 * g / peak:3.0f}%" if g else "      -     "
print(f'{"shape":<15} {"cuBLAS":>12} {"rung 20 dflt":>12} {"rung 20 best":>12}  met  best parameters')
for shape in sorted(set(best) | set(lib), key=lambda s: [int(v) for v in s.split("x")]):
    b = best.get(shape, (0, ""))
    met = "yes" if b[0] >= 0.85 * peak else "no"
    print(f'{shape:<15} {pct(lib.get(shape))} {pct(dflt.get(shape))} {pct(b[0])}  {met:<4} {b[1]}')
print("floor of one timed call at 1x16x16 (us): " +
      ", ".join(f"{k} {v:.1f}" for k, v in sorted(floor.items())))
PY
echo "files in $out; exit $status"
exit $status
