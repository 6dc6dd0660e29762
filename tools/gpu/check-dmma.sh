#!/usr/bin/env bash
# Checks rung 25 (DMMA: the FP64 tensor cores, double only) on an H100 in one go, and
# prints a short table at the end:
#   1. verification in full, in double, at awkward sizes (1, 7, primes, K = 1, 4097x3000x515)
#      with the H100 defaults, with the small-device defaults, with alpha and beta (C read)
#      in both layouts, and with alpha = 0 (which the harness passes as K = 0);
#   2. a single-precision case: unsupported, with the reason;
#   3. the BLAS semantics test on rung 25 alone (leading dimensions above their minimum,
#      K = 0, beta = 0 never reading C, alpha = 0 never reading A or B, ...);
#   4. compute-sanitizer memcheck and racecheck at 200x300x100 (16-byte copies) and
#      201x299x99 (odd leading dimensions: 8-byte copies);
#   5. timing at 4096 and 8192 in double next to rung 17 and cuBLAS DGEMM;
#   6. a sweep of a few parameter sets at 4096 (one parameter or two changed from the
#      defaults), so one run tells which are fastest.
# Run it on the GPU machine from the source tree, after building and staging as the lead
# does (tools/stage-for-gpu.sh) and `source .stage/env.sh`, or with LADDER set:
#
#   tools/gpu/check-dmma.sh [OUTDIR]      (default: $OUT if set, else dmma-check)
#
# Expected run time on an H100: about 2-3 minutes (the long-double reference of
# 4097x3000x515 takes some seconds of it).
# Exit status: 0 when every row is ok, the single case is refused with its reason, the
# semantics test passes and the sanitizers report no errors; 1 otherwise; 2 bad setup.
set -uo pipefail
ladder=${LADDER:-build/ladder}
out=${1:-${OUT:-dmma-check}}
mkdir -p "$out"
[ -x "$ladder" ] || { echo "check-dmma: no ladder at $ladder: set LADDER" >&2; exit 2; }
command -v python3 >/dev/null || { echo "check-dmma: needs python3 for its tables" >&2; exit 2; }
semantics="$(dirname "$ladder")/tests/test_blas_semantics"
status=0
double=(--backend cuda --precision double)

source "$(dirname "${BASH_SOURCE[0]}")/rows.bash"

echo "== 1. verification (full, double) at awkward sizes"
awkward=1,7,2x3x1,64x64x1,257x129x33,1000,1001x999x997,4097x3000x515,130x4100x67
"$ladder" run "${double[@]}" --rungs 25 --defaults --verify full --reps 3 --sizes "$awkward" \
    --output "$out/verify.csv" --force >"$out/verify.log" 2>&1 || status=1
"$ladder" run "${double[@]}" --rungs 25 --small-defaults --verify full --reps 3 \
    --sizes 7,257x129x33,1001x999x997 --output "$out/verify-small.csv" --force \
    >"$out/verify-small.log" 2>&1 || status=1
"$ladder" run "${double[@]}" --rungs 25 --defaults --verify full --reps 3 --layout col,row \
    --alpha -0.75 --beta 0.5 --sizes 7,257x129x33,1001x999x997 --output "$out/verify-scaled.csv" \
    --force >"$out/verify-scaled.log" 2>&1 || status=1
"$ladder" run "${double[@]}" --rungs 25 --defaults --verify full --reps 3 --alpha 0 --beta 2 \
    --sizes 130x67x36 --output "$out/verify-alpha0.csv" --force >"$out/verify-alpha0.log" 2>&1 \
    || status=1
verified=("$out/verify.csv" "$out/verify-small.csv" "$out/verify-scaled.csv" "$out/verify-alpha0.csv")
report "${verified[@]}"

echo "== 2. single precision: unsupported, with the reason"
"$ladder" run --backend cuda --rungs 25 --sizes 64 --output "$out/single.csv" --force \
    >"$out/single.log" 2>&1 || status=1
single=$(python3 - "$out/single.csv" <<'PY'
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1]))) if os.path.exists(sys.argv[1]) else []
want = "FP64 tensor cores: double only; run with --precision double"
print("ok" if len(rows) == 1 and rows[0]["status"] == "unsupported" and want in rows[0]["reason"]
      else f"WRONG: {[(r['status'], r['reason']) for r in rows]}")
PY
)
echo "single: $single"
[ "$single" = ok ] || status=1

echo "== 3. BLAS semantics, rung 25 alone"
if [ -x "$semantics" ]; then
  "$semantics" cuda --rungs 25 >"$out/semantics.log" 2>&1
  rc=$?
  echo "test_blas_semantics: exit $rc, $(tail -1 "$out/semantics.log")"
  [ "$rc" -eq 0 ] || { grep -v '^ok' "$out/semantics.log" | head -10; status=1; }
else
  echo "test_blas_semantics: not found at $semantics (stage the tests: tools/stage-for-gpu.sh)"
  status=1
fi

echo "== 4. compute-sanitizer at 200x300x100 and 201x299x99"
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 3 "$ladder" run "${double[@]}" --rungs 25 \
      --defaults --verify full --reps 1 --sizes 200x300x100,201x299x99 \
      --output "$out/sanitizer-$tool.csv" --force >"$out/sanitizer-$tool.log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | tail -1)
  echo "$tool: exit $rc, ${summary:-no summary (see $out/sanitizer-$tool.log)}"
  [ "$rc" -eq 0 ] || status=1
  report "$out/sanitizer-$tool.csv"
done

echo "== 5. timing at 4096 and 8192 (double): rung 17, rung 25, cuBLAS DGEMM"
"$ladder" run "${double[@]}" --rungs 17,25,cublas --sizes 4096,8192 \
    --output "$out/time.csv" --force >"$out/time.log" 2>&1 || status=1
report "$out/time.csv"

echo "== 6. parameter sweep at 4096 (double, sampled verification)"
sweep=("")
sweep+=("MMAK=4" "MMAK=16" "STAGES=2" "TSK=16 STAGES=4" "TSK=8 STAGES=6")
sweep+=("WM=32 WN=64" "TSN=64" "TSM=64 WM=32 WN=64" "GROUP=0" "GROUP=8")
i=0
for change in "${sweep[@]}"; do
  params=()
  for p in $change; do params+=(--param "25:$p"); done
  "$ladder" run "${double[@]}" --rungs 25 --defaults "${params[@]}" --sizes 4096 \
      --verify sampled --reps 10 --max-time 0.5 --output "$out/sweep-$i.csv" --force \
      >"$out/sweep-$i.log" 2>&1 || status=1
  report "$out/sweep-$i.csv"
  i=$((i + 1))
done

echo "== summary"
python3 - "$out" "${#sweep[@]}" <<'PY'
import csv, os, sys
out, nsweep = sys.argv[1], int(sys.argv[2])
def rows(name):
    path = os.path.join(out, name)
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []

print("verification (double; err/bound: the largest error over its bound, at most 1 passes)")
for name in ("verify.csv", "verify-small.csv", "verify-scaled.csv", "verify-alpha0.csv"):
    rs = rows(name)
    bad = sum(r["status"] != "ok" for r in rs)
    ratios = [float(r["error_ratio"]) for r in rs if r["error_ratio"]]
    worst = f"{max(ratios):.3g}" if ratios else "-"
    params = "; ".join(sorted({r["params"] for r in rs}))
    print(f'  {name:<19} {len(rs) - bad}/{len(rs)} ok  err/bound {worst:<9} {params}')

print("timing (double, TFLOPS; vs: fraction of cuBLAS DGEMM at the same size)")
tf = {}
for r in rows("time.csv"):
    if r["status"] == "ok":
        tf[(r["rung_name"], r["M"])] = (float(r["gflops"]) / 1000, r["params"])
print(f'  {"rung":<8} {"TF@4096":>8} {"vs":>6} {"TF@8192":>8} {"vs":>6}  params')
for name in ("banks", "dmma", "cublas"):
    cells = []
    for n in ("4096", "8192"):
        mine, lib = tf.get((name, n)), tf.get(("cublas", n))
        cells.append(f'{mine[0]:8.1f}' if mine else f'{"-":>8}')
        cells.append(f'{mine[0] / lib[0]:6.3f}' if mine and lib else f'{"-":>6}')
    params = next((v[1] for k, v in tf.items() if k[0] == name), "")
    print(f'  {name:<8} {" ".join(cells)}  {params}')

print("sweep at 4096 (double, TFLOPS), fastest first")
sweep = []
for i in range(nsweep):
    for r in rows(f"sweep-{i}.csv"):
        sweep.append((float(r["gflops"]) / 1000 if r["status"] == "ok" else 0.0,
                      r["params"], r["status"]))
for t, params, st in sorted(sweep, reverse=True):
    print(f'  {t:6.1f}  {st:<11} {params}')
PY
echo "files in $out; exit $status"
exit $status
