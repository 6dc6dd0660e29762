# What a run says about the backends: with no usable backend at all, one line names what
# is missing for each (not only the last one tried); a backend that is absent but was not
# needed (CUDA on a machine without an NVIDIA driver) is not warned about.
source "$(dirname "$0")/lib.bash"
mkdir "$WORK/no-icds"
# An ICD loader that finds no vendor file: no OpenCL platform at all.
no_opencl=(env -u OCL_ICD_FILENAMES OCL_ICD_VENDORS="$WORK/no-icds")

code=0
"${no_opencl[@]}" "$LADDER" run --backend opencl --rungs 1 --sizes 8 --output "$WORK/a.csv" \
  >"$WORK/out" 2>"$WORK/err" || code=$?
[ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass || { fail "no OpenCL, --backend opencl: exit $code or not one line"; cat "$WORK/err" >&2; }
grep -q "no device to run on: opencl: no OpenCL platform" "$WORK/err" && ! grep -qi cuda "$WORK/err" \
  && pass || { fail "no OpenCL, --backend opencl: the message"; cat "$WORK/err" >&2; }

if ! has_cuda_device; then
  # Neither backend: the one line names both, OpenCL first (it is what a CPU-only
  # machine lacks), not just the CUDA driver.
  code=0
  "${no_opencl[@]}" "$LADDER" run --rungs 1 --sizes 8 --output "$WORK/b.csv" >"$WORK/out" 2>"$WORK/err" || code=$?
  [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass || { fail "no backend: exit $code or not one line"; cat "$WORK/err" >&2; }
  grep -q "no device to run on: opencl: no OpenCL platform.*; cuda: " "$WORK/err" && pass \
    || { fail "no backend: the line does not name both backends"; cat "$WORK/err" >&2; }
fi

if has_opencl_device; then
  # Nothing on stderr about CUDA when it was not asked for, or when OpenCL runs.
  for backend in opencl all; do
    "$LADDER" run --backend "$backend" --rungs 1 --sizes 8 --output "$WORK/$backend.csv" >"$WORK/out" 2>"$WORK/err" \
      || fail "--backend $backend run"
    [ ! -s "$WORK/err" ] && pass || { fail "--backend $backend: stderr is not empty:"; cat "$WORK/err" >&2; }
  done
fi
finish
