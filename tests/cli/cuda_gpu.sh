# The CUDA backend on a real GPU: every rung and cuBLAS at small sizes, verified.
# Skipped (exit 77) on machines without a CUDA device, such as CI.
source "$(dirname "$0")/lib.bash"
has_cuda_device || { echo "no CUDA device: skipped"; exit 77; }
out="$WORK/cuda.csv"
"$LADDER" run --backend cuda --rungs kernels,cublas --sizes 256,512x256x128 --verify full \
    --output "$out" >"$WORK/log" 2>&1 || { fail "cuda run"; cat "$WORK/log" >&2; }
[ -z "$(column "$out" status | grep -v -e '^ok$' -e '^unsupported$')" ] && pass || fail "a CUDA row failed"
finish
