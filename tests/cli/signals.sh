# A run stopped by a signal keeps the rows it measured: Ctrl-C (SIGINT), SIGTERM (kill,
# timeout, batch schedulers) and SIGHUP (the terminal closed) each let the row in flight
# finish, then complete the result file (no .partial left) and exit 128 + the signal's
# number. Under nohup, SIGHUP is ignored and the run goes on.
source "$(dirname "$0")/lib.bash"
sizes=$(printf '256,%.0s' $(seq 1 40))256
slow=(run --rungs cpu --sizes "$sizes" --reps 1000 --max-time 0.3)

# start NAME [launcher...]: starts a slow run in the background, writing $WORK/NAME.csv and
# its log, and waits for its first row. Each log is new, so a stale line cannot let a
# signal reach the job before it is ladder (the forked shell would run this script's
# EXIT trap); ladder prints a row only once its handlers are in place.
start() {
  local name=$1
  shift
  "$@" "$LADDER" "${slow[@]}" --output "$WORK/$name.csv" >"$WORK/$name.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do grep -qs '^cpu ' "$WORK/$name.log" && return 0; sleep 0.25; done
  fail "$name: no row within 30 s"
  return 1
}

for sig in INT TERM HUP; do
  start "$sig" || continue
  kill -"$sig" "$pid"
  code=0
  wait "$pid" || code=$?
  expected=$((128 + $(kill -l "$sig")))
  [ "$code" -eq "$expected" ] && pass || { fail "SIG$sig: exit $code, expected $expected"; cat "$WORK/$sig.log" >&2; }
  rows=$(column "$WORK/$sig.csv" status 2>/dev/null | grep -c '^ok$')
  [ "$rows" -ge 1 ] && [ "$rows" -lt 41 ] && pass || fail "SIG$sig: $rows ok rows kept, expected some"
  [ ! -e "$WORK/$sig.csv.partial" ] && pass || fail "SIG$sig: the .partial file was left"
  grep -q "the rows measured so far are in $WORK/$sig.csv" "$WORK/$sig.log" && pass \
    || { fail "SIG$sig: no message saying where the rows are"; cat "$WORK/$sig.log" >&2; }
done
grep -q "stopped by SIGTERM" "$WORK/TERM.log" && pass || fail "SIGTERM is not named"

# nohup: SIGHUP was ignored when ladder started, so it keeps running; SIGTERM stops it.
if start nohup nohup; then
  kill -HUP "$pid"
  sleep 1
  kill -0 "$pid" 2>/dev/null && pass || fail "under nohup, SIGHUP stopped the run"
  kill -TERM "$pid"
  code=0
  wait "$pid" || code=$?
  [ "$code" -eq 143 ] && pass || fail "nohup run: exit $code after SIGTERM, expected 143"
fi
finish
