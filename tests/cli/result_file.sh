# A run writes a complete, self-describing result file: the documented header, one row per
# (device, rung, size), every row verified, with timing and GFLOPS; a CPU-only run (the
# host BLAS baseline) needs no OpenCL or CUDA device.
source "$(dirname "$0")/lib.bash"
out="$WORK/cpu.csv"
"$LADDER" run --rungs cpu --sizes 16,8x4x2 --output "$out" >"$WORK/log" 2>&1 || { fail "cpu run"; cat "$WORK/log" >&2; }
head -1 "$out" | grep -q '^date,version,host,backend,device,vendor,driver,compute_units,clock_mhz,peak_gflops,rung,rung_name,params,param_source,M,N,K,precision,trans,layout,alpha,beta,reps,median_ms,min_ms,max_ms,gflops,vs_library,library,error_ratio,verify,status,reason,seed$' \
  && pass || fail "header is not the documented schema"
[ "$(column "$out" status | tr '\n' ' ')" = "ok ok " ] && pass || fail "cpu rows not ok"
[ "$(column "$out" verify | head -1)" = "full" ] && pass || fail "small sizes are not fully verified"
[ "$(column "$out" seed | head -1)" = "1" ] && pass || fail "seed not recorded"
column "$out" gflops | awk '!($1 > 0) { bad = 1 } END { exit bad }' && pass || fail "missing GFLOPS"

# --reps N is the most timed runs, and what it says: 1 and 2 are taken as they are (the
# error for 0 says 1 is the least); --max-time stops earlier, but not before 3.
for reps in 1 2; do
  "$LADDER" run --rungs cpu --sizes 16 --reps $reps --output "$WORK/reps$reps.csv" >/dev/null 2>&1
  [ "$(column "$WORK/reps$reps.csv" reps)" = $reps ] && pass || fail "--reps $reps: $(column "$WORK/reps$reps.csv" reps) timed runs"
done
"$LADDER" run --rungs cpu --sizes 128 --reps 50 --max-time 0.000001 --output "$WORK/least.csv" >/dev/null 2>&1
[ "$(column "$WORK/least.csv" reps)" = 3 ] && pass || fail "--max-time stopped before 3 runs"

if has_opencl_device; then
  out="$WORK/ocl.csv"
  "$LADDER" run --backend opencl --rungs 1,clblast,cpu --sizes 64 --seed 7 --output "$out" >"$WORK/log" 2>&1 \
    || { fail "opencl run"; cat "$WORK/log" >&2; }
  [ "$(column "$out" rung_name | tr '\n' ' ')" = "clblast naive cpu " ] && pass || fail "rows or their order"
  [ -n "$(column "$out" vs_library | sed -n 2p)" ] && pass || fail "rung row lacks its fraction of the library"
  # The same seed gives the same inputs: the error measure repeats exactly.
  "$LADDER" run --backend opencl --rungs 1 --sizes 64 --seed 7 --output "$WORK/again.csv" >/dev/null 2>&1
  [ "$(column "$out" error_ratio | sed -n 2p)" = "$(column "$WORK/again.csv" error_ratio)" ] \
    && pass || fail "same seed, different error measure"
  # --device cpu picks the CPU device by type, whatever its name.
  if "$LADDER" devices | grep -q '^opencl:.*' && "$LADDER" devices | grep -A2 '^opencl:' | grep -q '    CPU,'; then
    "$LADDER" run --backend opencl --device cpu --rungs 1 --sizes 16 --output "$WORK/c.csv" >/dev/null 2>&1 \
      && [ "$(column "$WORK/c.csv" status)" = ok ] && pass || fail "--device cpu"
  fi
  # Sampled verification above the full-check limit.
  "$LADDER" run --backend opencl --rungs 3 --sizes 128 --full-limit 1000 --output "$WORK/s.csv" >/dev/null 2>&1
  [ "$(column "$WORK/s.csv" verify)" = "sampled" ] && [ "$(column "$WORK/s.csv" status)" = ok ] \
    && pass || fail "sampled verification"
fi
finish
