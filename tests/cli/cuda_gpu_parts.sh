# tests/cli/cuda_gpu.sh in parts (CUDA_GPU_PARTS): a name that is not a part is refused
# before anything runs, with the list of parts, on any machine; a known one is accepted
# (and skipped here when there is no CUDA device, as the whole script is).
source "$(dirname "$0")/lib.bash"
script="$(dirname "$0")/cuda_gpu.sh"
CUDA_GPU_PARTS=streamk,nosuchpart bash "$script" "$LADDER" >"$WORK/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown part 'nosuchpart'" "$WORK/out" && grep -q "streamk" "$WORK/out" \
  && pass || { fail "a bad CUDA_GPU_PARTS should exit 2 naming the part and the parts (rc $rc)"; cat "$WORK/out" >&2; }
if ! has_cuda_device; then
  CUDA_GPU_PARTS=streamk,skinny bash "$script" "$LADDER" >"$WORK/out" 2>&1
  rc=$?
  [ "$rc" -eq 77 ] && pass || { fail "known parts without a GPU should skip (rc $rc)"; cat "$WORK/out" >&2; }
fi
finish
