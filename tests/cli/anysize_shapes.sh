# Rungs 1, 10, 11, 12 and 15 run every size: the awkward shapes (1x1x1, a single row or
# column, K = 1, primes, tall-skinny, sizes just off the tiles) must all verify in full,
# with the H100 defaults and with the small-device defaults. Rung 1 guards every thread,
# rung 10 pads, rungs 11 and up handle the edges inside the kernel: with single-float
# loads when M or K is not a multiple of 4, with float4 loads (132x70x20, 260x33x44)
# when both are.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }

shapes="1x1x1,1x300x1,300x1x300,64x64x1,1x1x1000,127x131x137,1000x7x5,7x1000x5,129x129x17,255x257x33,1000x1003x997,132x70x20,260x33x44"
count=$(tr ',' '\n' <<<"$shapes" | wc -l)
for flag in "" --small-defaults; do
  out="$WORK/anysize$flag.csv"
  if ! "$LADDER" run --backend opencl --rungs 1,10,11,12,15 --sizes "$shapes" --verify full --reps 3 \
       --max-time 0.1 $flag --output "$out" >"$WORK/log" 2>&1; then
    fail "rungs 1, 10, 11, 12, 15 on awkward shapes ${flag:-(defaults)}:"; sed 's/^/    /' "$WORK/log" >&2
    continue
  fi
  [ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a row is not ok ${flag}"; cat "$out" >&2; }
  [ "$(column "$out" status | wc -l)" -eq $((5 * count)) ] && pass || fail "expected $((5 * count)) rows ${flag}"
done
finish
