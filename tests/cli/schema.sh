# The result-file schema is defined once (host/core/results.c): README.md's table is
# `ladder schema`'s output between its markers, and a result file's header is the one
# `ladder schema --header` prints.
source "$(dirname "$0")/lib.bash"
readme="$LADDER_SOURCE_DIR/README.md"
sed -n '/^<!-- ladder schema:/,/^<!-- end ladder schema -->/p' "$readme" | sed '1d;$d' | grep -v '^$' >"$WORK/readme-table"
[ -s "$WORK/readme-table" ] && pass || fail "README.md has no <!-- ladder schema: --> block"
"$LADDER" schema >"$WORK/code-table" && pass || fail "ladder schema exited non-zero"
if diff -u "$WORK/readme-table" "$WORK/code-table" >"$WORK/diff"; then pass; else
  fail "README.md's result-file table differs from 'ladder schema' (paste its output between the markers):"
  sed 's/^/    /' "$WORK/diff" >&2
fi
# Every column of the header is named in the table, in the same order.
[ "$(sed 1,2d "$WORK/code-table" | cut -d'|' -f2 | tr -d ' `' | paste -sd,)" = "$("$LADDER" schema --header)" ] \
  && pass || fail "the table does not name every column of the header in order"
"$LADDER" run --rungs cpu --sizes 8 --output "$WORK/one.csv" >/dev/null 2>&1 || fail "cpu run"
[ "$(head -1 "$WORK/one.csv")" = "$("$LADDER" schema --header)" ] && pass || fail "the file's header is not ladder schema --header"
expect_error "unknown schema option" "unknown option '--x'" -- schema --x
finish
