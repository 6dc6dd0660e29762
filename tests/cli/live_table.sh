# The live table: its columns stay aligned whatever the length of a rung's parameters
# (they come last), why a row is not ok is on the line under it, rungs only another
# backend has are summed up in one line (their rows stay in the result file, as
# unsupported), and the summary counts in words ("1 row").
source "$(dirname "$0")/lib.bash"

"$LADDER" run --rungs cpu --sizes 8 --output "$WORK/one.csv" >"$WORK/log" 2>&1
grep -q "^1 row: 1 ok, 0 FAILED, 0 unsupported, 0 errors. Results: " "$WORK/log" && pass \
  || { fail "summary of one row"; cat "$WORK/log" >&2; }

has_opencl_device || { finish; exit $?; }
out="$WORK/table.csv"
"$LADDER" run --backend opencl --rungs clblast,1,8,13,14 --sizes 64,128 --output "$out" >"$WORK/log" 2>&1 \
  || { fail "the run"; cat "$WORK/log" >&2; }
header=$(grep -m1 '^backend ' "$WORK/log")
# Columns (1-based) where the header puts them.
col() { awk -v h="$header" -v w="$1" 'BEGIN { print index(h, w) }'; }
size_at=$(col "M x N x K") check_at=$(col check) params_at=$(col params)
rows=$(grep -E '^opencl +[0-9a-z]' "$WORK/log")
[ "$(wc -l <<<"$rows")" -eq 6 ] && pass || { fail "expected 6 table rows (clblast, 1, 8 at two sizes)"; cat "$WORK/log" >&2; }
while IFS= read -r line; do
  [[ "${line:size_at-1:3}" =~ ^(64x|128)$ ]] || { fail "size not under its header: $line"; continue; }
  [[ "${line:check_at-1:2}" =~ ^(ok|un)$ ]] || { fail "check not under its header: $line"; continue; }
  pass
done <<<"$rows"
# Rung 8's parameters, the longest, start under "params" and are written whole.
long=$(paste -d'|' <(column "$out" rung) <(column "$out" params) | awk -F'|' '$1 == 8 { print $2; exit }')
grep '^opencl  8 vendor' "$WORK/log" | while IFS= read -r line; do
  [ "${line:params_at-1}" = "$long" ] && echo ok || echo "bad: $line"
done >"$WORK/params-check"
[ "$(sort -u "$WORK/params-check")" = ok ] && pass || { fail "rung 8's parameters are not the last column, whole"; cat "$WORK/params-check" >&2; }
# Rung 8 cannot take 64 (its tiles are 128): the reason is on the next line, indented.
grep -A1 '^opencl  8 vendor  *64x64x64 .* unsupported ' "$WORK/log" | tail -1 | grep -q '^        needs M, N, K multiples of 128' \
  && pass || { fail "the reason is not on the line under the row"; cat "$WORK/log" >&2; }

# Rungs 13 and 14 are CUDA only: no rows in the table, one line for both, and their rows
# in the file.
! grep -qE '^opencl +1[34] ' "$WORK/log" && pass || fail "CUDA-only rungs have rows in the table"
[ "$(grep -c 'skipped rung' "$WORK/log")" -eq 1 ] \
  && grep -q "^opencl:0 skipped rungs 13 async, 14 bigtile: CUDA only (4 rows, in the result file as unsupported" "$WORK/log" \
  && pass || { fail "no single line for the CUDA-only rungs"; cat "$WORK/log" >&2; }
[ "$(paste -d' ' <(column "$out" rung) <(column "$out" status) | grep -c '^1[34] unsupported$')" -eq 4 ] \
  && pass || fail "the CUDA-only rungs' rows are not in the file as unsupported"
finish
