# The CUDA backend on a real GPU: every rung and cuBLAS at tile-multiple sizes with the
# default and the small-device parameters, the rungs that run any size (1, 10 and up) on
# awkward shapes, rung 19 (split-K) in both modes with several split counts, rung 26
# (Stream-K) with several waves and tiles, rung 28 (split-K in one launch) with several
# split counts, rung 29 (edges in rung 17's kernel) at every tile edge, rung 20 on skinny
# ones, all verified in full;
# then the cases of a BLAS call (double, transposes, row-major, alpha and beta) on every
# rung that takes them and on cuBLAS, and the BLAS semantics test (test_blas_semantics
# cuda: the BLAS-call rungs and cuBLAS in every case).
# Skipped (exit 77) on machines without a CUDA device, such as CI.
source "$(dirname "$0")/lib.bash"
# CUDA_GPU_PARTS=NAME,... runs only those parts (default: all), so that a GPU lease too
# short for the whole script (more than 7 minutes on a fresh H200) can run it in pieces.
# Each part says on stderr when it starts, so a run cut short shows how far it got.
all_parts="basic anysize splitk streamk lastslice unpadded skinny cases scaled double semantics"
selected=${CUDA_GPU_PARTS:-all}
for name in ${selected//,/ }; do
  case " all $all_parts " in
    *" $name "*) ;;
    *) echo "cuda_gpu.sh: unknown part '$name' in CUDA_GPU_PARTS (parts: $all_parts)" >&2
       exit 2 ;;
  esac
done
part() { # NAME: whether CUDA_GPU_PARTS selects it
  case ",$selected," in
    *,all,* | *,"$1",*) echo "cuda_gpu.sh: part $1 (at ${SECONDS}s)" >&2 ;;
    *) return 1 ;;
  esac
}
has_cuda_device || { echo "no CUDA device: skipped"; exit 77; }

check_all_ok() { # FILE WHAT
  local bad
  bad=$(column "$1" status | grep -v -e '^ok$' -e '^unsupported$' || true)
  [ -z "$bad" ] && [ "$(column "$1" status | grep -c '^ok$')" -gt 0 ] && pass || { fail "$2"; cat "$1" >&2; }
}
if part basic; then
  for flag in "" --small-defaults; do
    out="$WORK/cuda$flag.csv"
    "$LADDER" run --backend cuda --rungs kernels,cublas --sizes 256,512x256x128,384x640x96 \
        --verify full $flag --output "$out" >"$WORK/log" 2>&1 || { fail "cuda run $flag"; cat "$WORK/log" >&2; }
    check_all_ok "$out" "a CUDA row failed ${flag:-(defaults)}"
  done
fi
if part anysize; then
  out="$WORK/anysize.csv"
  "$LADDER" run --backend cuda --rungs 1,10-19,26,28,29 --verify full \
      --sizes 1x1x1,1x300x1,300x1x300,64x64x1,127x131x137,1000x7x5,1000x1003x997,4097x33x1 \
      --output "$out" >"$WORK/log" 2>&1 || { fail "cuda awkward shapes"; cat "$WORK/log" >&2; }
  [ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a CUDA awkward shape failed"; cat "$out" >&2; }
fi
# Split-K (TSK = 8): K = 1 (the GEMM kernel alone), 97 (13 K tiles), one tile, M = N = 1,
# sizes off the tiles, and long Ks with several tiles per slice, with 1, 6 and 256 slices
# asked, in both modes; then the tiles of one and two warps (32 x 128, 128 x 32, 64 x 32,
# 32 x 64) at 6 slices.
if part splitk; then
  for atomic in 0 1; do
    for splits in 1 6 256; do
      out="$WORK/splitk-$atomic-$splits.csv"
      "$LADDER" run --backend cuda --rungs 19 --param ATOMIC=$atomic --param SPLITS=$splits \
          --param TSK=8 --verify full --output "$out" \
          --sizes 1x1x1,1x1x97,64x64x1,5x3x8,67x45x97,1x300x5000,130x67x1000,128x128x32768,4097x33x1001 \
          >"$WORK/log" 2>&1 || { fail "cuda rung 19 ATOMIC=$atomic SPLITS=$splits"; cat "$WORK/log" >&2; }
      [ "$(column "$out" status | sort -u)" = ok ] && pass \
        || { fail "cuda rung 19 ATOMIC=$atomic SPLITS=$splits: a row failed"; cat "$out" >&2; }
    done
  done
  # The tiles of one and two warps, whose kernel has a higher register cap (MIN_BLOCKS).
  for tile in "32 128 16" "128 32 64" "64 32 64" "32 64 32"; do
    set -- $tile
    out="$WORK/splitk-tile-$1x$2.csv"
    "$LADDER" run --backend cuda --rungs 19 --param TSM=$1 --param TSN=$2 --param WM=$3 \
        --param SPLITS=6 --verify full --output "$out" \
        --sizes 1x1x1,5x3x8,67x45x97,130x67x1000,33x4097x1001,4097x33x1001 \
        >"$WORK/log" 2>&1 || { fail "cuda rung 19 tile $1 x $2"; cat "$WORK/log" >&2; }
    [ "$(column "$out" status | sort -u)" = ok ] && pass \
      || { fail "cuda rung 19 tile $1 x $2: a row failed"; cat "$out" >&2; }
  done
fi
# Stream-K (rung 26): shapes whose tiles fill whole waves (1024 x 4224 in 128 x 128 tiles
# is 264 tiles, two per SM of an H100 or H200), shapes with only shared tiles (a tile,
# 128 x 128 x 32768), ragged waves (3072^3: 576 tiles), K = 1, K shorter than a tile,
# primes, more blocks than iterations (5 x 3 x 97: 13 iterations for 264 blocks), a tile
# shared by more blocks than it has float4s (64 x 64 x 65536 in 64 x 64 tiles: fixup's
# empty pieces), short sums (1000 x 1000 x 64: two parts a tile, fixup's per-thread path),
# with both tile sizes (two and eight blocks per SM), with and without a whole wave added
# to the shared tiles, in single and double (whose wave is half as many blocks). Verified
# as ladder run does by default: in full up to M N K = 2^33 (2^29 in double), sampled
# above, so 3072^3 (and in double 997 x 1013 x 1009 and 333 x 7777 x 555) by the sampled
# test. In full, the host's references in double kept this part from finishing in 220 s
# on an H200's host.
if part streamk; then
  for tile in 128 64; do
    for skw in 0 1; do
      out="$WORK/streamk-$tile-$skw.csv"
      "$LADDER" run --backend cuda --rungs 26 --param TSM=$tile --param TSN=$tile --param WM=32 \
          --param SKW=$skw --precision single,double --verify auto --output "$out" \
          --sizes 1x1x1,5x3x97,64x64x1,130x67x1000,128x128x32768,127x131x137,997x1013x1009,1024x4224x64,333x7777x555,3072x3072x3072,64x64x65536,1000x1000x64 \
          >"$WORK/log" 2>&1 || { fail "cuda rung 26 $tile SKW=$skw"; cat "$WORK/log" >&2; }
      [ "$(column "$out" status | sort -u)" = ok ] && pass \
        || { fail "cuda rung 26 $tile SKW=$skw: a row failed"; cat "$out" >&2; }
    done
  done
fi
# Split-K in one launch (rung 28): the counters and the last slice's sum with one slice (no
# counting), three (K = 97 has 13 tiles of 8: slices of 5, 5 and 3) and sixteen asked, in
# both tile sizes, single and double: K = 1, K shorter than a tile, primes, M = N = 1,
# sizes off the tiles, a long K (128 x 128 x 32768, where 16 slices each add 2048 deep),
# and the shapes it was made for. Each call must leave the counters at zero for the next:
# the warm-up, verified and timed runs share one workspace, and a counter left behind
# would make a later call's last block miss its turn (a wrong C, or C never written).
if part lastslice; then
  for tile in "128 64" "64 32"; do
    set -- $tile
    for splits in 1 3 16; do
      out="$WORK/lastslice-$1-$splits.csv"
      "$LADDER" run --backend cuda --rungs 28 --param TSM=$1 --param TSN=$1 --param WM=$2 \
          --param SPLITS=$splits --precision single,double --verify auto --output "$out" \
          --sizes 1x1x1,1x1x97,64x64x1,5x3x8,67x45x97,130x67x1000,128x128x32768,4097x33x1001,997x1013x1009,333x7777x555 \
          >"$WORK/log" 2>&1 || { fail "cuda rung 28 $1 SPLITS=$splits"; cat "$WORK/log" >&2; }
      [ "$(column "$out" status | sort -u)" = ok ] && pass \
        || { fail "cuda rung 28 $1 SPLITS=$splits: a row failed"; cat "$out" >&2; }
    done
  done
fi
# Rung 29 takes the edges in its kernel: M and N off a multiple of 32 (A copied, B^T's
# columns rounded up) and on one (A read where it lies: 32 x 4 x 17, 1024 x 1016 x 1009),
# K off the tile depth, K = 1, M = N = 1, a tile exactly, one row or column of blocks;
# in two tiles (64 x 64 x 16, 3 stages; 128 x 128 x 8, 2 stages, which fit 48 KiB in
# double), single and double, every transpose pair and both layouts (its helpers
# transpose); then the shapes it was made for. All verified in full.
if part unpadded; then
  for tile in "64 16 3" "128 8 2"; do
    set -- $tile
    p="--param TSM=$1 --param TSN=$1 --param TSK=$2 --param STAGES=$3"
    out="$WORK/unpadded-$1.csv"
    "$LADDER" run --backend cuda --rungs 29 $p --precision single,double --trans NN,NT,TN,TT \
        --layout col,row --verify full --reps 2 --output "$out" \
        --sizes 1x1x1,1x1x97,32x4x17,5x3x8,64x64x16,67x45x97,130x67x1000,300x129x65 \
        >"$WORK/log" 2>&1 || { fail "cuda rung 29 $1 x $1 x $2"; cat "$WORK/log" >&2; }
    [ "$(column "$out" status | sort -u)" = ok ] && pass \
      || { fail "cuda rung 29 $1 x $1 x $2: a row failed"; cat "$out" >&2; }
    out="$WORK/unpadded-big-$1.csv"
    "$LADDER" run --backend cuda --rungs 29 $p --trans NN,TT --verify full --reps 2 \
        --sizes 1024x1016x1009,997x1013x1009,333x7777x555 --output "$out" \
        >"$WORK/log" 2>&1 || { fail "cuda rung 29 $1 x $1 x $2 big"; cat "$WORK/log" >&2; }
    [ "$(column "$out" status | sort -u)" = ok ] && pass \
      || { fail "cuda rung 29 $1 x $1 x $2 big: a row failed"; cat "$out" >&2; }
  done
fi
# Rung 20 takes only skinny shapes: awkward ones (K = 1, primes, the cap of 16, N = 3, K
# split across blocks with few rows and a long K) and the GEMV-like shapes it is for, with
# both parameter sets; a shape over the cap must be unsupported with the reason.
if part skinny; then
  for flag in "" --small-defaults; do
    out="$WORK/skinny$flag.csv"
    "$LADDER" run --backend cuda --rungs 20 --verify full $flag \
        --sizes 1x1x1,1x1x99991,997x1x1,1x997x1,2x3x4,16x16x16,1000x3x5,3x1000x5,4096x1x1009,1x4099x1024,777x16x1001,16x777x1001,3x1x65537,1x5x30011,1x4096x4096,4096x1x4096,8x8192x8192,16384x4x4096,11008x16x4096 \
        --output "$out" >"$WORK/log" 2>&1 || { fail "cuda rung 20 $flag"; cat "$WORK/log" >&2; }
    [ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a CUDA rung 20 shape failed ${flag}"; cat "$out" >&2; }
  done
  # The small matrix's slab is staged three ways (fetched a round ahead, fetched with the
  # round's loads, copied between the barriers), chosen by PF and by how much of it each
  # thread holds: 1 and 16 columns (rows) at PF 0 and 1 take all three, in every pair.
  for pf in 0 1; do
    out="$WORK/skinny-pf$pf.csv"
    "$LADDER" run --backend cuda --rungs 20 --verify full --param PF=$pf --param TQ=2 --param WU=2 \
        --trans NN,NT,TN,TT --sizes 1x4099x1024,4096x1x1009,16x2048x1001,2048x16x1001,8x1024x4096 \
        --output "$out" >"$WORK/log" 2>&1 || { fail "cuda rung 20 PF=$pf"; cat "$WORK/log" >&2; }
    [ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a CUDA rung 20 case failed at PF=$pf"; cat "$out" >&2; }
  done
fi
# Every case: rungs that cannot take one say why (unsupported); cuBLAS runs all 16, and
# every rung runs the ones its flags promise (ladder list --brief: double, transposes,
# single).
if part cases; then
  out="$WORK/cases.csv"
  "$LADDER" run --backend cuda --rungs kernels,cublas --sizes 256,127x131x137 --verify full \
      --precision single,double --trans NN,NT,TN,TT --layout col,row \
      --output "$out" >"$WORK/log" 2>&1 || { fail "cuda cases"; cat "$WORK/log" >&2; }
  check_all_ok "$out" "a CUDA row of a case failed"
  [ "$(paste -d' ' <(column "$out" rung_name) <(column "$out" status) | grep -c '^cublas ok$')" -eq 32 ] \
    && pass || fail "cuBLAS did not run every case at both sizes"
  while read -r number name pads m n k sm sn sk backends double trans blas single; do
    [ "$backends" = all ] || [ "$backends" = cuda ] || continue
    # Rows of this rung that its flags say must run (any size it takes). A double tile too
    # large for the device's shared memory is the device's limit, not a broken promise: said
    # on stderr, not failed.
    refused=$(paste -d' ' <(column "$out" rung) <(column "$out" precision) <(column "$out" trans) \
                <(column "$out" status) <(column "$out" reason) |
              awk -v r="$number" -v d="$double" -v s="$single" -v t="$trans" \
                '$1 == r && (d == 1 || $2 == "single") && (s == 1 || $2 == "double") && (t == 1 || $3 == "NN") && $4 != "ok" && !/multiples of|designed for/')
    if echo "$refused" | grep -q "local memory in double"; then
      echo "note: rung $number ($name): its double tiles do not fit this device's shared memory" >&2
      refused=$(echo "$refused" | grep -v "local memory in double" || true)
    fi
    [ -z "$refused" ] && pass || { fail "rung $number ($name) refused a case it takes"; echo "$refused" | head -3 >&2; }
    # A rung without single (rung 25, FP64 tensor cores) says so in every single row.
    if [ "$single" -eq 0 ]; then
      wrong=$(paste -d' ' <(column "$out" rung) <(column "$out" precision) <(column "$out" status) \
                <(column "$out" reason) |
              awk -v r="$number" '$1 == r && $2 == "single" && !($3 == "unsupported" && /no single precision/)')
      [ -z "$wrong" ] && pass || { fail "rung $number ($name) in single: not unsupported with the reason"; echo "$wrong" | head -3 >&2; }
    fi
  done < <("$LADDER" list --brief)
fi
# alpha and beta, with C read: the BLAS-call rungs and cuBLAS, in every case.
if part scaled; then
  out="$WORK/scaled.csv"
  "$LADDER" run --backend cuda --rungs 15-20,cublas --sizes 256,127x131x137,1000x7x65 --verify full \
      --precision single,double --trans NN,NT,TN,TT --layout col,row --alpha -0.75 --beta 0.5 \
      --output "$out" >"$WORK/log" 2>&1 || { fail "cuda alpha and beta"; cat "$WORK/log" >&2; }
  check_all_ok "$out" "a CUDA row with alpha and beta failed"
fi
# Double precision in sampled verification (the Freivalds checks in long double).
if part double; then
  out="$WORK/double-sampled.csv"
  "$LADDER" run --backend cuda --rungs kernels,cublas --sizes 2048 --precision double --verify sampled \
      --output "$out" >"$WORK/log" 2>&1 || { fail "cuda double sampled"; cat "$WORK/log" >&2; }
  check_all_ok "$out" "a CUDA double row failed sampled verification"
fi
# The BLAS semantics of the BLAS-call rungs and cuBLAS, in every case they take.
if part semantics; then
  semantics="$(dirname "$LADDER")/tests/test_blas_semantics"
  if [ -x "$semantics" ]; then
    "$semantics" cuda >"$WORK/semantics.log" 2>&1 && pass \
      || { fail "test_blas_semantics cuda"; grep -v '^ok' "$WORK/semantics.log" | head -20 >&2; }
  else
    fail "no $semantics (build the tests)"
  fi
fi
if part skinny; then
  out="$WORK/skinny-over.csv"
  "$LADDER" run --backend cuda --rungs 20 --sizes 17x17x5 --output "$out" >"$WORK/log" 2>&1 \
    && [ "$(column "$out" status)" = unsupported ] && grep -q "designed for M or N up to 16" "$out" && pass \
    || { fail "cuda rung 20 over the cap should be unsupported"; cat "$out" >&2; }
fi
finish
