#!/usr/bin/env bash
# The accuracy-against-speed sweep, for the lead's batched run on the H100 (issue 20):
# the float32 rungs 15, 17 and 18, rung 16 (3xTF32 on mma.sync), every CUDA rung from 21
# up that this tree has (the Hopper rungs, once merged), cuBLAS SGEMM and cuBLAS in TF32
# (reduced precision), over the K sweep `ksweep` (C of 2048 x 2048, K = 4 to 65,536),
# every row verified in sampled mode, so that each K checks as many elements and the
# rows' rel_error compare; then the figures, where gnuplot is installed.
#
#   source .stage/env.sh; tools/gpu/check-accuracy.sh          (writes under $OUT)
#
# Writes $OUT/accuracy/: ksweep.csv (the result file), devices.txt, run.log, and with
# gnuplot figures/ (DEVICE-cuda-accuracy-2048x2048.{png,svg} among them). Without
# gnuplot, draw them here:  build/ladder plot --output figures ksweep.csv
# BACKEND=opencl SIZES=ksweep-cpu try the script on a CPU through PoCL (rungs that only
# CUDA has are then rows marked unsupported).
# Expected run time on an H100: a few minutes (the CPU reference at K = 65,536 takes
# seconds; every row at most --max-time of timed runs).
set -euo pipefail
ladder=${LADDER:-build/ladder}
out=${OUT:?set OUT to the folder for the results}/accuracy
[ -x "$ladder" ] || { echo "check-accuracy: no $ladder: source .stage/env.sh or build first" >&2; exit 2; }
backend=${BACKEND:-cuda}
sizes=${SIZES:-ksweep}
mkdir -p "$out"

# Every CUDA rung from 21 up that the registry has and that takes single ("ladder list
# --brief": number, name, ..., backends tenth, single fourteenth).
newer=$("$ladder" list --brief |
        awk '$1 >= 21 && ($10 == "all" || $10 == "cuda") && $14 == 1 { printf ",%s", $1 }')
rungs="15,16,17,18${newer},cublas,cublas-tf32"

"$ladder" devices > "$out/devices.txt"
echo "check-accuracy: $backend, rungs $rungs, sizes $sizes" | tee "$out/run.log"
status=0
"$ladder" run --backend "$backend" --rungs "$rungs" --sizes "$sizes" --verify sampled \
    --max-time 0.5 --output "$out/ksweep.csv" --force 2>&1 | tee -a "$out/run.log" || status=$?

if [ -s "$out/ksweep.csv" ]; then
  if command -v "${LADDER_GNUPLOT:-gnuplot}" > /dev/null; then
    "$ladder" plot --output "$out/figures" "$out/ksweep.csv" 2>&1 | tee -a "$out/run.log" \
      || status=1
    compgen -G "$out/figures/*-$backend-accuracy-*.png" > /dev/null \
      || { echo "check-accuracy: no accuracy figure was drawn" | tee -a "$out/run.log"; status=1; }
  else
    echo "check-accuracy: no gnuplot here: draw with  ladder plot --output figures ksweep.csv" \
      | tee -a "$out/run.log"
  fi
fi
exit "$status"
