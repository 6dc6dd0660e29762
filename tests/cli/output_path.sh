# Where the result file goes: every problem with --output is refused with a one-line
# message, exit 2, before anything is measured (each refused run below would otherwise
# take an hour); an existing file is replaced only with --force and extended only with
# --append, and only when it is a result file of the same columns; missing folders are
# never created.
source "$(dirname "$0")/lib.bash"
long=(--rungs cpu --sizes 4096 --reps 1000000 --max-time 3600)

# refused "what" "message" ARGS...: exit 2 within 30 s, the message on stderr, no table.
refused() {
  local what=$1 needle=$2 code=0
  shift 2
  timeout 30 "$LADDER" "$@" >"$WORK/stdout" 2>"$WORK/stderr" || code=$?
  if [ "$code" -ne 2 ]; then
    fail "$what: exit status $code, expected 2"; sed 's/^/    /' "$WORK/stderr" >&2; return
  fi
  grep -qF -- "$needle" "$WORK/stderr" || { fail "$what: stderr lacks '$needle':"; sed 's/^/    /' "$WORK/stderr" >&2; return; }
  [ "$(wc -l <"$WORK/stderr")" -eq 1 ] || { fail "$what: more than one line on stderr"; sed 's/^/    /' "$WORK/stderr" >&2; return; }
  ! grep -q "M x N x K" "$WORK/stdout" || { fail "$what: the run started"; return; }
  pass
}

refused "empty name" "--output is empty: give a file name" run "${long[@]}" --output ''
refused "a folder" "--output $WORK is a folder: give a file name, e.g. $WORK/results.csv" run "${long[@]}" --output "$WORK"
refused "a name ending in /" "is a folder" run "${long[@]}" --output "$WORK/new/"
refused "a missing folder" "folder $WORK/typo/deeper does not exist: create it or choose another --output" \
  run "${long[@]}" --output "$WORK/typo/deeper/out.csv"
[ ! -e "$WORK/typo" ] && pass || fail "a missing folder was created"
refused "a folder under a file" "/dev/null is not a folder" run "${long[@]}" --output /dev/null/out.csv
refused "not a regular file" "is not a regular file" run "${long[@]}" --output /dev/null --force
# Nobody, not even root, may create a file in /proc: the partial file is made up front.
refused "an unwritable folder" "cannot write the result file /proc/ladder-test.csv.partial" \
  run "${long[@]}" --output /proc/ladder-test.csv
refused "--force and --append" "choose one" run "${long[@]}" --output "$WORK/x.csv" --force --append

# An existing file that is not a result file: refused, appended to never, kept as it was.
echo "my notes" >"$WORK/notes.txt"
refused "an existing file" "--output $WORK/notes.txt exists: add --force to replace it, --append to add rows to it, or choose another --output" \
  run "${long[@]}" --output "$WORK/notes.txt"
refused "append to a file that is not a result file" "only to a result file with the same columns" \
  run "${long[@]}" --output "$WORK/notes.txt" --append
[ "$(cat "$WORK/notes.txt")" = "my notes" ] && pass || fail "the existing file was changed"

# A result file: --append adds rows under its one header, --force replaces it.
out="$WORK/results.csv"
"$LADDER" run --rungs cpu --sizes 8 --out "$out" >/dev/null 2>&1 && [ -f "$out" ] && pass || fail "--out (alias of --output)"
refused "an existing result file" "exists: add --force" run "${long[@]}" --output "$out"
"$LADDER" run --rungs cpu --sizes 16,24 --output "$out" --append >/dev/null 2>&1 || fail "--append"
[ "$(column "$out" M | tr '\n' ' ')" = "8 16 24 " ] && [ "$(grep -c '^date,' "$out")" -eq 1 ] \
  && pass || { fail "--append: expected rows 8 16 24 under one header"; cat "$out" >&2; }
"$LADDER" run --rungs cpu --sizes 32 --output "$out" --force >/dev/null 2>&1 || fail "--force"
[ "$(column "$out" M | tr '\n' ' ')" = "32 " ] && pass || fail "--force did not replace the file"
# A file with another header (an older schema, another tool's CSV) is not appended to.
sed '1s/,seed$/,seed,extra/' "$out" >"$WORK/other.csv"
refused "append to another schema" "its first line is not this header" run "${long[@]}" --output "$WORK/other.csv" --append
ls "$WORK"/*.partial >/dev/null 2>&1 && fail "a partial file was left behind" || pass

# A write that fails mid-run (here the file-size limit, as a full disk would) ends the
# run with exit 1, and the rows written before it are kept as a complete result file:
# the row that did not fit is cut back, never left half written.
code=0
(ulimit -f 1; trap '' XFSZ; exec "$LADDER" run --rungs cpu --sizes 8,9,10,11,12,13 --output "$WORK/full.csv") \
  >/dev/null 2>"$WORK/err" || code=$?
[ "$code" -eq 1 ] && grep -q "File too large" "$WORK/err" && grep -q "the rows written before that are in $WORK/full.csv" "$WORK/err" \
  && pass || { fail "a failed write: exit $code"; cat "$WORK/err" >&2; }
# How many rows fit depends on the lengths of the host and device names: some, not all.
rows=$(column "$WORK/full.csv" M | wc -l)
[ "$rows" -ge 1 ] && [ "$rows" -lt 6 ] && [ -z "$(tail -c 1 "$WORK/full.csv")" ] \
  && [ ! -e "$WORK/full.csv.partial" ] && pass || { fail "after a failed write, the file holds $rows rows"; cat "$WORK/full.csv" >&2; }
# --append reads every row back first: the file is a whole result file.
"$LADDER" run --rungs cpu --sizes 14 --output "$WORK/full.csv" --append >/dev/null 2>"$WORK/err" \
  && pass || { fail "the file kept after a failed write does not read back"; cat "$WORK/err" >&2; }

# ladder tune's candidates file follows the same rules.
if has_opencl_device; then
  refused "tune into an existing file" "--candidates $WORK/notes.txt exists" \
    tune --backend opencl --rung 3 --sizes 64 --budget 1 --db "$WORK/db.tsv" --candidates "$WORK/notes.txt"
  refused "tune into a missing folder" "folder $WORK/typo does not exist" \
    tune --backend opencl --rung 3 --sizes 64 --budget 1 --db "$WORK/db.tsv" --output "$WORK/typo/c.csv"
  [ ! -e "$WORK/db.tsv" ] && pass || fail "tune wrote the database although its candidates file was refused"
fi
finish
