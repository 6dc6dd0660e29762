# Every OpenCL rung on the CPU through PoCL (or whatever OpenCL device there is), with the
# H100 defaults and with the small-device defaults, at sizes at and around its tiles:
# the smallest multiple, non-square multiples, and (for rungs that need multiples) a size
# that is not one, which must be reported unsupported. Every row is verified in full.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }

while read -r number name pads m n k sm sn sk backends _; do
  # A rung OpenCL does not have is reported unsupported, with the reason, never run.
  if [ "$backends" != all ] && [ "$backends" != opencl ]; then
    out="$WORK/rung$number-absent.csv"
    "$LADDER" run --backend opencl --rungs "$number" --sizes 64 --output "$out" \
        >"$WORK/log" 2>&1 || { fail "rung $number ($name, $backends only) ended in an error"; continue; }
    [ "$(column "$out" status)" = unsupported ] && grep -qi "$backends only" "$out" && pass \
      || fail "rung $number ($name) should be unsupported on OpenCL with a reason"
    continue
  fi
  for set in default small; do
    if [ $set = small ]; then m=$sm; n=$sn; k=$sk; flag=--small-defaults; else flag=; fi
    sizes="${m}x${n}x${k},$((2 * m))x${n}x$((3 * k)),${m}x$((2 * n))x$((2 * k))"
    out="$WORK/rung$number-$set.csv"
    if ! "$LADDER" run --backend opencl --rungs "$number" --sizes "$sizes" --verify full \
         --reps 3 --max-time 0.2 $flag --output "$out" >"$WORK/log" 2>&1; then
      fail "rung $number ($name, $set parameters) at $sizes:"; sed 's/^/    /' "$WORK/log" >&2
      continue
    fi
    if [ "$(column "$out" status | sort -u)" = "ok" ] && [ "$(column "$out" status | wc -l)" -eq 3 ]; then
      pass
    else
      fail "rung $number ($name, $set): not every row ok"; cat "$out" >&2
    fi
    # A size off the tiles: unsupported with a reason (or, for rungs that run any size, ok).
    odd="$((m + 1))x${n}x${k}"
    "$LADDER" run --backend opencl --rungs "$number" --sizes "$odd" --verify full --reps 3 \
        $flag --output "$out" --force >"$WORK/log" 2>&1 || { fail "rung $number at $odd"; continue; }
    status=$(column "$out" status)
    if [ "$m" -eq 1 ] || [ "$pads" -eq 1 ]; then
      [ "$status" = ok ] && pass || fail "rung $number ($name) should run $odd, got $status"
    else
      [ "$status" = unsupported ] && grep -q "multiples of" "$out" && pass \
        || fail "rung $number ($name) should report $odd unsupported, got $status"
    fi
  done
done < <("$LADDER" list --brief)

# Rung 8's sub-group shuffles: verified where the device has sub-groups, otherwise
# reported unsupported with the reason (never a build error).
out="$WORK/shuffle.csv"
if "$LADDER" run --backend opencl --rungs 8 --param USE_SHUFFLE=1 --sizes 128x128x32,256x128x64 \
     --verify full --reps 3 --output "$out" >"$WORK/log" 2>&1; then
  statuses=$(column "$out" status | sort -u)
  if [ "$statuses" = ok ] || { [ "$statuses" = unsupported ] && grep -q "sub-group" "$out"; }; then
    pass
  else
    fail "rung 8 with USE_SHUFFLE=1: $statuses"; cat "$out" >&2
  fi
else
  fail "rung 8 with USE_SHUFFLE=1 did not run:"; sed 's/^/    /' "$WORK/log" >&2
fi
finish
