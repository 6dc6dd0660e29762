# Rungs 1, 10, 11, 12, 15, 19 and 30 run every size (rung 20 every skinny one, below): the awkward shapes (1x1x1, a single row or
# column, K = 1, primes, tall-skinny, sizes just off the tiles) must all verify in full,
# with the H100 defaults and with the small-device defaults. Rung 1 guards every thread,
# rungs 10 and 30 pad, rungs 11 to 19 handle the edges inside the kernel: with single-float
# loads when M or K is not a multiple of 4, with float4 loads (132x70x20, 260x33x44)
# when both are. Then rung 19 (split-K) in both of its modes, each with split counts
# below, between and above the K tiles of the shapes.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }

shapes="1x1x1,1x300x1,300x1x300,64x64x1,1x1x1000,127x131x137,1000x7x5,7x1000x5,129x129x17,255x257x33,1000x1003x997,132x70x20,260x33x44"
count=$(tr ',' '\n' <<<"$shapes" | wc -l)
for flag in "" --small-defaults; do
  out="$WORK/anysize$flag.csv"
  if ! "$LADDER" run --backend opencl --rungs 1,10,11,12,15,19,30 --sizes "$shapes" --verify full --reps 3 \
       --max-time 0.1 $flag --output "$out" >"$WORK/log" 2>&1; then
    fail "rungs 1, 10, 11, 12, 15, 19, 30 on awkward shapes ${flag:-(defaults)}:"; sed 's/^/    /' "$WORK/log" >&2
    continue
  fi
  [ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a row is not ok ${flag}"; cat "$out" >&2; }
  [ "$(column "$out" status | wc -l)" -eq $((7 * count)) ] && pass || fail "expected $((7 * count)) rows ${flag}"
done

# Split-K with TSK = 8: K = 1 (one slice: the GEMM kernel alone), K = 97 (13 K tiles: 6
# slices asked, 3 tiles each, make 5; 256 asked make 13 of one tile, the last 1 deep),
# K = 8 (one whole tile), M = N = 1 and M = 5 (a partial matrix in W of 8 rows), sizes off
# the 64 x 64 tiles, and long Ks of several tiles per slice (128x128x4096 with 6 slices:
# 86 tiles each, the last 82).
sk_shapes="1x1x1,1x1x97,64x64x1,5x3x8,67x45x97,1x300x5000,130x67x1000,65x129x33,128x128x4096"
sk_count=$(tr ',' '\n' <<<"$sk_shapes" | wc -l)
for atomic in 0 1; do
  for splits in 1 6 256; do
    out="$WORK/splitk-$atomic-$splits.csv"
    if ! "$LADDER" run --backend opencl --rungs 19 --param ATOMIC=$atomic --param SPLITS=$splits \
         --param TSK=8 --sizes "$sk_shapes" --verify full --reps 3 --max-time 0.1 \
         --output "$out" >"$WORK/log" 2>&1; then
      fail "rung 19 with ATOMIC=$atomic SPLITS=$splits:"; sed 's/^/    /' "$WORK/log" >&2
      continue
    fi
    [ "$(column "$out" status | sort -u)" = ok ] && [ "$(column "$out" status | wc -l)" -eq "$sk_count" ] \
      && pass || { fail "rung 19 with ATOMIC=$atomic SPLITS=$splits: not every row ok"; cat "$out" >&2; }
  done
done

# Rung 20 takes only skinny shapes (M or N up to 16), so it has its own awkward ones: a
# single row or column, K = 1, prime K, M or N at the cap of 16, N = 3 (a kernel of 4
# columns), both small, and long K with few rows, where K is split across work-groups and
# a second kernel adds the slices (through a workspace the harness fills with NaN). The
# last two have aligned columns, so rounds inside the matrix load without checks, and a
# last work-group that passes M (N) and a last round that passes K take the checked loads.
skinny="1x1x1,1x1x997,997x1x1,1x997x1,7x1x1,2x3x4,5x5x5,16x16x16,1000x3x5,3x1000x5,4096x1x1009,1x4099x1024,777x16x1001,16x777x1001,17x16x33,16x17x33,13x1000x4099,4099x13x1000,3x1x5000,1x5x3001,16x2x2999,2x16x2999,1000x2x2052,8x1000x2052"
count=$(tr ',' '\n' <<<"$skinny" | wc -l)
for flag in "" --small-defaults; do
  out="$WORK/skinny$flag.csv"
  if ! "$LADDER" run --backend opencl --rungs 20 --sizes "$skinny" --verify full --reps 3 \
       --max-time 0.1 $flag --output "$out" >"$WORK/log" 2>&1; then
    fail "rung 20 on skinny shapes ${flag:-(defaults)}:"; sed 's/^/    /' "$WORK/log" >&2
    continue
  fi
  [ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a rung 20 row is not ok ${flag}"; cat "$out" >&2; }
  [ "$(column "$out" status | wc -l)" -eq "$count" ] && pass || fail "expected $count rung 20 rows ${flag}"
done
# Over the cap in both M and N: unsupported, with the reason and where to go instead.
out="$WORK/skinny-over.csv"
if "$LADDER" run --backend opencl --rungs 20 --sizes 17x17x5,1024 --output "$out" >"$WORK/log" 2>&1; then
  [ "$(column "$out" status | sort -u)" = unsupported ] && grep -q "designed for M or N up to 16" "$out" \
    && grep -q "use rungs 15-19" "$out" && pass \
    || { fail "rung 20 should report 17x17x5 and 1024 unsupported with the reason"; cat "$out" >&2; }
else
  fail "rung 20 over the cap ended in an error:"; sed 's/^/    /' "$WORK/log" >&2
fi
finish
