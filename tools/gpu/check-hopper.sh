#!/usr/bin/env bash
# Checks Hopper's rungs (21-24: TMA, wgmma, 3xTF32, warp specialization) on an H100 in one
# go, and prints a short table at the end:
#   1. verification in full at awkward sizes (1, 7, primes, K = 1, 4097x3000x515, sizes
#      off the multiples of 4 that the copy engine needs, which the registry pads), and
#      with alpha = 0 (the kernel gets K = 0), under a time limit: a hang is a failure;
#   2. compute-sanitizer memcheck and racecheck at a small size;
#   3. timing at 4096 and 8192 next to rung 16 and cuBLAS (SGEMM; and any baselines named
#      in $HOPPER_BASELINES, e.g. a cuBLAS TF32 one).
# Run it on the GPU machine from the source tree, after building and staging as the
# lead does (tools/stage-for-gpu.sh) and `source .stage/env.sh`, or with LADDER set:
#
#   tools/gpu/check-hopper.sh [OUTDIR]      (default: $OUT if set, else hopper-check)
#
# Exit status: 0 when every row is ok and the sanitizers report no errors, 1 otherwise.
set -uo pipefail
ladder=${LADDER:-build/ladder}
out=${1:-${OUT:-hopper-check}}
rungs=${HOPPER_RUNGS:-21,22,23,24}
mkdir -p "$out"
[ -x "$ladder" ] || { echo "check-hopper: no ladder at $ladder: set LADDER" >&2; exit 2; }
status=0

source "$(dirname "${BASH_SOURCE[0]}")/rows.bash"

echo "== 1. verification (full) at awkward sizes"
"$ladder" run --backend cuda --rungs "$rungs" --defaults --verify full --reps 3 \
    --sizes 1,7,2x3x1,64x64x1,257x129x33,1000,1001x999x997,4097x3000x515,130x4100x67 \
    --output "$out/verify.csv" --force >"$out/verify.log" 2>&1 || status=1
report "$out/verify.csv"
# alpha = 0 reaches a kernel as K = 0 (A and B are never read): C = beta C, no k-tile to
# wait for. A rung that waited for its first tile anyway hung here.
timeout 120 "$ladder" run --backend cuda --rungs "$rungs" --defaults --verify full --reps 3 \
    --alpha 0 --beta 3 --sizes 200x300x100,4x1x4 \
    --output "$out/verify-alpha0.csv" --force >"$out/verify-alpha0.log" 2>&1 || status=1
report "$out/verify-alpha0.csv"

echo "== 2. compute-sanitizer at 200x300x100"
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 3 "$ladder" run --backend cuda \
      --rungs "$rungs" --defaults --verify full --reps 1 --sizes 200x300x100 \
      --output "$out/sanitizer-$tool.csv" --force >"$out/sanitizer-$tool.log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | tail -1)
  echo "$tool: exit $rc, ${summary:-no summary (see $out/sanitizer-$tool.log)}"
  [ "$rc" -eq 0 ] || status=1
done

echo "== 3. timing at 4096 and 8192"
"$ladder" run --backend cuda --rungs "16,$rungs,cublas${HOPPER_BASELINES:+,$HOPPER_BASELINES}" \
    --defaults --sizes 4096,8192 --output "$out/time.csv" --force >"$out/time.log" 2>&1 \
    || status=1
report "$out/time.csv"

echo "== summary (verification: largest err/bound over the awkward sizes; timing: TFLOPS)"
python3 - "$out/verify.csv" "$out/time.csv" <<'PY'
import csv, sys
rows = {}
def entry(r):
    return rows.setdefault(f'{r["rung"]:>2} {r["rung_name"]}', {"bad": 0, "worst": None, "tf": {}})
for r in csv.DictReader(open(sys.argv[1])):
    e = entry(r)
    e["bad"] += r["status"] != "ok"
    if r["error_ratio"]:
        e["worst"] = max(e["worst"] or 0.0, float(r["error_ratio"]))
for r in csv.DictReader(open(sys.argv[2])):
    if r["status"] == "ok" and r["M"] == r["N"] == r["K"]:
        entry(r)["tf"][r["M"]] = (float(r["gflops"]) / 1000, r["vs_library"])
print(f'{"rung":<16} {"verified":<9} {"err/bound":<10} {"TF@4096":<8} {"TF@8192":<8} vs cuBLAS@8192')
for k in sorted(rows):
    e = rows[k]
    checked = "FAILED" if e["bad"] else ("ok" if e["worst"] is not None else "-")
    tf = {n: f'{e["tf"][n][0]:.1f}' if n in e["tf"] else "-" for n in ("4096", "8192")}
    vs = e["tf"].get("8192", (0, ""))[1] or "-"
    worst = f'{e["worst"]:.3g}' if e["worst"] is not None else "-"
    print(f'{k:<16} {checked:<9} {worst:<10} {tf["4096"]:<8} {tf["8192"]:<8} {vs}')
PY
echo "files in $out; exit $status"
exit $status
