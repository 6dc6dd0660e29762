# The CUDA backend on a real GPU: every rung and cuBLAS at tile-multiple sizes with the
# default and the small-device parameters, the rungs that run any size (1, 10 and up) on
# awkward shapes, all verified in full. Skipped (exit 77) on machines without a CUDA device, such as CI.
source "$(dirname "$0")/lib.bash"
has_cuda_device || { echo "no CUDA device: skipped"; exit 77; }

check_all_ok() { # FILE WHAT
  local bad
  bad=$(column "$1" status | grep -v -e '^ok$' -e '^unsupported$' || true)
  [ -z "$bad" ] && [ "$(column "$1" status | grep -c '^ok$')" -gt 0 ] && pass || { fail "$2"; cat "$1" >&2; }
}
for flag in "" --small-defaults; do
  out="$WORK/cuda$flag.csv"
  "$LADDER" run --backend cuda --rungs kernels,cublas --sizes 256,512x256x128,384x640x96 \
      --verify full $flag --output "$out" >"$WORK/log" 2>&1 || { fail "cuda run $flag"; cat "$WORK/log" >&2; }
  check_all_ok "$out" "a CUDA row failed ${flag:-(defaults)}"
done
out="$WORK/anysize.csv"
"$LADDER" run --backend cuda --rungs 1,10-18 --verify full \
    --sizes 1x1x1,1x300x1,300x1x300,64x64x1,127x131x137,1000x7x5,1000x1003x997,4097x33x1 \
    --output "$out" >"$WORK/log" 2>&1 || { fail "cuda awkward shapes"; cat "$WORK/log" >&2; }
[ "$(column "$out" status | sort -u)" = ok ] && pass || { fail "a CUDA awkward shape failed"; cat "$out" >&2; }
finish
