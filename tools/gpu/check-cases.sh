#!/usr/bin/env bash
# Issue 19's CUDA cases on the H100, in one batch: the kernels in double and the transpose
# pairs verified at awkward sizes (the BLAS-call rungs, the rungs whose helpers transpose,
# and auto), then rungs 15, 17, 18 and auto against cuBLAS on every transpose pair at 4096
# and 8192 (the target: >= 0.95x cuBLAS on the same pair), then rungs 17 and 18 in double
# against cuBLAS's DGEMM at 4096.
#
#   source .stage/env.sh && tools/gpu/check-cases.sh [OUTDIR]
#
# OUTDIR (default results-local/check-cases-<UTC time>) gets one result file and log per
# run and summary.txt, the tables printed at the end. Exit status: 1 if any row FAILED
# verification or ended in error, else 0. Rows reported unsupported are listed with their
# reasons (double runs use the small-device defaults: most default tiles need over
# 48 KiB of shared memory in double).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
ladder=${LADDER:-build/ladder}
out=${1:-results-local/check-cases-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out" || exit 2

# Sizes that are no multiple of any tile, down to 1, and two that are (for rungs 2-9,
# which take tile multiples only).
awkward=1x1x1,7x5x3,33x17x65,127x129x31,257x255x513,1000x999x1001
whole=512,1024x512x256
status=0

# run NAME OPTIONS...: one `ladder run` on CUDA into OUTDIR/NAME.csv (log NAME.log).
run() {
  local name=$1
  shift
  echo "== $name: ladder run $*"
  "$ladder" run --backend cuda --output "$out/$name.csv" --force "$@" >"$out/$name.log" 2>&1
  local rc=$?
  [ "$rc" -eq 0 ] || { echo "   exit status $rc (see $out/$name.log)"; status=1; }
}

# verdict NAME: counts the rows of OUTDIR/NAME.csv by status; lists unsupported reasons.
verdict() {
  local f=$out/$1.csv
  [ -f "$f" ] || { echo "$1: no result file"; status=1; return; }
  local ok bad unsup
  ok=$(grep -c ',ok,' "$f")
  bad=$(grep -cE ',(FAILED|error),' "$f")
  unsup=$(grep -c ',unsupported,' "$f")
  printf '%-22s ok %4d   FAILED/error %3d   unsupported %3d\n' "$1" "$ok" "$bad" "$unsup"
  [ "$bad" -eq 0 ] || status=1
  grep ',unsupported,' "$f" | grep -oE 'unsupported,[^,]*' | sort | uniq -c | sed 's/^/    /'
}

# gflops NAME RUNG SIZE [TABLE OPTIONS]: the GFLOPS of one ok row (of the case the options
# name: --trans, --precision), or "-".
gflops() {
  local name=$1 rung=$2 size=$3
  shift 3
  "$ladder" table --value gflops --backend cuda --rung "$rung" --size "$size" "$@" \
    "$out/$name.csv" 2>/dev/null | tr -d ',' || echo -
}

# 1. Every CUDA kernel rung in double, verified element by element (rungs that do not
#    take double report unsupported, with the reason).
run double-kernels --rungs kernels,cublas --precision double --small-defaults \
  --sizes "$awkward,$whole" --verify full --reps 2
# 2. The transpose pairs of the BLAS-call rungs and of the rungs whose helpers transpose,
#    both layouts, in each precision, and once
#    with alpha and beta that exercise C's read.
run trans-single --rungs 5-10,15,17-20,auto,cublas --trans NN,NT,TN,TT --layout col,row \
  --sizes "$awkward,$whole" --verify full --reps 2
run trans-double --rungs 5-10,15,17-20,cublas --precision double --small-defaults \
  --trans NN,NT,TN,TT --sizes "$awkward,$whole" --verify full --reps 2
run trans-alpha-beta --rungs 15,18,cublas --trans NN,NT,TN,TT --alpha -1.5 --beta 0.75 \
  --sizes "$awkward" --verify full --reps 2
# 3. Speed: rungs 15, 17, 18 and auto against cuBLAS on each pair, one file per pair.
for t in NN NT TN TT; do
  run "speed-$t" --rungs 15,17,18,auto,cublas --trans "$t" --sizes 4096,8192
done
# 4. Double: rungs 17 and 18 (small-device tiles) against cuBLAS's DGEMM.
run speed-double --rungs 17,18,cublas --precision double --small-defaults --sizes 4096
{
  echo "# check-cases $(date -u +%Y-%m-%dT%H:%M:%SZ), $("$ladder" --version 2>&1)"
  echo
  echo "## Verification (rows by status)"
  for n in double-kernels trans-single trans-double trans-alpha-beta; do verdict "$n"; done
  echo
  echo "## Each rung as a fraction of cuBLAS, single precision, same transpose pair (target >= 0.95)"
  printf '%-5s %-6s %10s %7s %7s %7s %7s\n' pair size cublas 15 17 18 auto
  for t in NN NT TN TT; do
    for s in 4096 8192; do
      gc=$(gflops "speed-$t" cublas "$s" --trans "$t")
      line=$(printf '%-5s %-6s %10s' "$t" "$s" "$gc")
      for r in 15 17 18 auto; do
        g=$(gflops "speed-$t" "$r" "$s" --trans "$t")
        line+=$(awk -v a="$g" -v b="$gc" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf " %7.3f", a / b; else printf " %7s", "-" }')
      done
      echo "$line"
    done
  done
  echo
  echo "## Double precision at 4096 (small-device tiles) vs cuBLAS DGEMM"
  gc=$(gflops speed-double cublas 4096 --precision double)
  for r in 17 18 cublas; do
    g=$(gflops speed-double "$r" 4096 --precision double)
    printf '%-7s %10s %7s\n' "$r" "$g" \
      "$(awk -v a="$g" -v b="$gc" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')"
  done
} | tee "$out/summary.txt"
exit $status
