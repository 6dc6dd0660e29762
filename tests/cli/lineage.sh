# `ladder lineage`: the ladder's shape from the registry's parents, as text and as a
# figure (gnuplot), and its bad input. Needs no device.
source "$(dirname "$0")/lib.bash"

if "$LADDER" lineage >"$WORK/text" 2>"$WORK/stderr" && [ ! -s "$WORK/stderr" ]; then
  pass
else
  fail "ladder lineage: $(cat "$WORK/stderr")"
fi
rungs=$("$LADDER" list --brief | wc -l)
[ "$(wc -l <"$WORK/text")" -eq "$rungs" ] && pass \
  || fail "ladder lineage: $(wc -l <"$WORK/text") lines for $rungs rungs"
# The trunk: rung 1 in the first lane; a branch: rung 17 in a lane of its own, from rung 9.
grep -qE '^\* +1 naive ' "$WORK/text" && pass || fail "rung 1 is not on the trunk"
line17=$(grep -E ' 17 banks ' "$WORK/text")
[[ $line17 == *"(parent 9)  (also from 13)" ]] && [[ $line17 != \** ]] && pass \
  || fail "rung 17's line: $line17"
# While rung 17's branch runs down its lane, rung 13's row shows it passing.
grep -E ' 13 async ' "$WORK/text" | grep -qE '^\* +\| +\| ' && pass \
  || fail "rung 13's row does not show the branches passing: $(grep ' 13 async ' "$WORK/text")"

if command -v gnuplot >/dev/null; then
  if "$LADDER" lineage --output "$WORK/fig" >"$WORK/stdout" 2>"$WORK/stderr" &&
     [ -s "$WORK/fig/lineage.png" ] && [ -s "$WORK/fig/lineage.svg" ] &&
     grep -q "lineage.svg" "$WORK/stdout"; then
    pass
  else
    fail "ladder lineage --output: $(cat "$WORK/stderr")"
  fi
  grep -q "<svg" "$WORK/fig/lineage.svg" && grep -q "17" "$WORK/fig/lineage.svg" && pass \
    || fail "lineage.svg is not an SVG picture of the rungs"
fi

expect_error "unknown argument" "unknown argument 17 (see ladder lineage --help)" -- lineage 17
expect_error "empty output" "--output is empty: give a folder" -- lineage --output ""
expect_error "keep-data alone" "--keep-data keeps the figure's data: give --output DIR too" \
  -- lineage --keep-data
: >"$WORK/a-file"
expect_error "output is a file" "is not a folder" -- lineage --output "$WORK/a-file"
finish
