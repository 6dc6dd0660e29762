#!/usr/bin/env bash
# tools/update-tables.sh on a temporary Markdown file: --check flags stale blocks and values
# (exit 1) and changes nothing; an update rewrites exactly the generated parts; afterwards
# --check passes and a second update changes nothing; bad markers fail with FILE:LINE.
# Usage: update-script.sh LADDER SOURCE_DIR
set -euo pipefail
export LADDER=$1
script=$2/tools/update-tables.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
expected=$2/tests/fixtures/table/expected
f=tests/fixtures/table   # marker paths are relative to the repository root
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# The manifest of these tests: the fixtures a marker may read (relative to the root).
export LADDER_SOURCES=$work/sources.tsv
printf '# test manifest\n%s\ttables\tthe fixture\n' $f/fixture-gpu.csv $f/fixture-gpu-rerun.csv \
  >"$LADDER_SOURCES"

# run EXPECTED_STATUS ARGS...: runs the script, keeping its output in $work/stdout, stderr.
run() {
  local want=$1 rc=0
  shift
  bash "$script" "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
  if [ $rc -ne "$want" ]; then
    fail "update-tables.sh $*: exit status $rc, expected $want"
    sed 's/^/    /' "$work/stderr" >&2
    return 1
  fi
}

expect_stderr() {
  grep -qF -- "$1" "$work/stderr" || { fail "stderr lacks '$1':"; sed 's/^/    /' "$work/stderr" >&2; }
}

# --- a chapter with two stale tables, stale values and markers that must be left alone ---
cat >"$work/chapter.md" <<MD
# Rung 3

The table, before any results:
<!-- ladder-table: --backend cuda --device "Fixture GPU T" --size 256 --rungs 2-3 $f/fixture-gpu.csv $f/fixture-gpu-rerun.csv -->
(to be generated)
<!-- end ladder-table -->

Rung 3 reaches <!-- ladder-value: gflops --backend cuda --rung 3 --size 256 $f/fixture-gpu.csv -->0<!-- end --> GFLOPS, <!-- ladder-value: step-gain --backend cuda --rung 3 --size 256 $f/fixture-gpu.csv -->2.25×<!-- end --> rung 2.
A marker quoted in prose stays: \`<!-- ladder-value: gflops ARGS -->1<!-- end -->\`.

\`\`\`
<!-- ladder-table: ARGS -->
<!-- end ladder-table -->
\`\`\`

<!-- ladder-table: --layout sizes $f/fixture-gpu.csv -->
<!-- end ladder-table -->
MD
cp "$work/chapter.md" "$work/original.md"

# What the update must produce: the fixtures' expected tables between the markers.
{
  sed -n '1,4p' "$work/original.md"
  echo; cat "$expected/rows-rerun.md"; echo
  sed -n '6,7p' "$work/original.md"
  sed -n '8p' "$work/original.md" | sed 's/-->0<!-- end -->/-->3,150<!-- end -->/'
  sed -n '9,16p' "$work/original.md"
  echo; cat "$expected/sizes.md"; echo
  sed -n '17p' "$work/original.md"
} >"$work/want.md"

if run 1 --check "$work/chapter.md"; then
  expect_stderr "chapter.md:4: ladder-table block"
  expect_stderr "chapter.md:8: ladder-value 'gflops --backend cuda --rung 3 --size 256 $f/fixture-gpu.csv': '0' -> '3,150'"
  expect_stderr "chapter.md:16: ladder-table block"
  expect_stderr "+| rung | name   | backend | params      |     ms | GFLOPS | vs library | step gain |"
  if grep -q "^stale: .*'step-gain" "$work/stderr"; then fail "--check flagged a value that is fresh"; fi
  if [ "$(grep -c '^stale: ' "$work/stderr")" -ne 3 ]; then fail "--check did not list exactly 3 stale items"; fi
fi
cmp -s "$work/chapter.md" "$work/original.md" || fail "--check changed the file"

if run 0 "$work/chapter.md"; then
  grep -qF "updated: " "$work/stdout" || fail "the update did not say what it updated"
fi
diff -u "$work/want.md" "$work/chapter.md" >&2 || fail "the updated file is not as expected"
run 0 --check "$work/chapter.md" || true
cp "$work/chapter.md" "$work/updated.md"
run 0 "$work/chapter.md" || true
cmp -s "$work/chapter.md" "$work/updated.md" || fail "a second update changed the file"
[ ! -s "$work/stdout" ] || fail "a second update reported changes: $(cat "$work/stdout")"

# A hand edit inside a generated table is stale too.
sed -i 's/|  1,500 |/|  1,501 |/' "$work/chapter.md"
if run 1 --check "$work/chapter.md"; then expect_stderr "chapter.md:4: ladder-table block"; fi

# --- bad markers: exit 2 naming FILE:LINE, and the file is left as it was ---
# expect_bad MESSAGE MARKDOWN-LINES...
expect_bad() {
  local message=$1
  shift
  printf '%s\n' "$@" >"$work/bad.md"
  cp "$work/bad.md" "$work/bad-original.md"
  if run 2 "$work/bad.md"; then expect_stderr "$message"; fi
  cmp -s "$work/bad.md" "$work/bad-original.md" || fail "a file with a bad marker was changed"
}
expect_bad "bad.md:2: ladder table --bogus $f/fixture-gpu.csv: ladder table: unknown option --bogus" \
  "text" "<!-- ladder-table: --bogus $f/fixture-gpu.csv -->" "<!-- end ladder-table -->"
expect_bad "bad.md:1: $f/no-such.csv is not in the manifest $LADDER_SOURCES" \
  "<!-- ladder-table: --size 256 $f/no-such.csv -->" "<!-- end ladder-table -->"
# A file that exists but is not in the manifest: refused, in a table, a value or a list.
expect_bad "bad.md:2: $f/fixture-other-gpu.csv is not in the manifest $LADDER_SOURCES" \
  "text" "<!-- ladder-table: --size 256 $f/fixture-gpu.csv $f/fixture-other-gpu.csv -->" \
  "<!-- end ladder-table -->"
expect_bad "bad.md:1: $f/fixture-params.csv is not in the manifest" \
  "It reaches <!-- ladder-value: gflops --rung 3 --size 256 $f/fixture-params.csv -->1<!-- end -->."
expect_bad "bad.md:1: ladder-diff marker without its '<!-- end ladder-diff -->' line" \
  "<!-- ladder-diff: 2 -->" "text"
expect_bad "bad.md:2: '<!-- end ladder-diff -->' without a ladder-diff marker before it" \
  "text" "<!-- end ladder-diff -->"
expect_bad "bad.md:1: ladder diff 1: ladder diff: rung 1 naive has no parent" \
  "<!-- ladder-diff: 1 -->" "<!-- end ladder-diff -->"
expect_bad "bad.md:1: ladder-table marker without its '<!-- end ladder-table -->' line" \
  "<!-- ladder-table: --size 256 $f/fixture-gpu.csv -->" "| a |"
expect_bad "bad.md:2: '<!-- end ladder-table -->' without a ladder-table marker before it" \
  "text" "<!-- end ladder-table -->"
expect_bad "bad.md:1: malformed marker '<!--ladder-table..." \
  "<!--ladder-table: --size 256 $f/fixture-gpu.csv -->" "<!-- end ladder-table -->"
expect_bad "bad.md:1: malformed marker '<!-- ladder-value..." \
  "It reaches <!-- ladder-value gflops --size 256 $f/fixture-gpu.csv -->1<!-- end -->."
expect_bad "bad.md:1: ladder-value marker without ' -->' and a closing '<!-- end -->'" \
  "It reaches <!-- ladder-value: gflops --rung 3 --backend cuda --size 256 $f/fixture-gpu.csv -->1."
expect_bad "bad.md:1: ladder table --value gflops --size 256 $f/fixture-gpu.csv: ladder table: --value needs exactly one row" \
  "It reaches <!-- ladder-value: gflops --size 256 $f/fixture-gpu.csv -->1<!-- end -->."
expect_bad "bad.md:1: cannot split the marker's arguments" \
  "<!-- ladder-table: --device \"gpu $f/fixture-gpu.csv -->" "<!-- end ladder-table -->"

# --- a generated diff: `ladder diff` in a diff fence, kept fresh like a table ---
printf '%s\n' "Rung 2's change:" "<!-- ladder-diff: 2 --backend opencl -->" "old" \
  "<!-- end ladder-diff -->" >"$work/diff.md"
{
  printf '%s\n' "Rung 2's change:" "<!-- ladder-diff: 2 --backend opencl -->" "" '```diff'
  "$LADDER" diff 2 --backend opencl
  printf '%s\n' '```' "" "<!-- end ladder-diff -->"
} >"$work/want-diff.md"
if run 1 --check "$work/diff.md"; then expect_stderr "diff.md:2: ladder-diff block"; fi
run 0 "$work/diff.md" || true
diff -u "$work/want-diff.md" "$work/diff.md" >&2 || fail "the generated diff is not ladder diff's"
run 0 --check "$work/diff.md" || true

# --- the manifest itself ---
printf '%s\n' "<!-- ladder-table: --size 256 $f/fixture-gpu.csv -->" "<!-- end ladder-table -->" >"$work/one.md"
printf '%s\ttables\n' $f/fixture-gpu.csv >"$work/short.tsv"
LADDER_SOURCES=$work/short.tsv run 2 "$work/one.md" || true
expect_stderr "$work/short.tsv:1: expected three tab-separated fields (file, uses, why)"
printf '%s\ttables\twhy\n' $f/no-such.csv >"$work/missing.tsv"
LADDER_SOURCES=$work/missing.tsv run 2 "$work/one.md" || true
expect_stderr "$work/missing.tsv:1: $f/no-such.csv: no such file"
LADDER_SOURCES=$work/none.tsv run 2 "$work/one.md" || true
expect_stderr "no manifest at $work/none.tsv"

# Both ways: on the real tutorial, a file the manifest lists for tables that no marker
# reads fails --check (the tutorial itself is fresh: tutorial_tables_fresh checks that).
cp "$2/tutorial/sources.tsv" "$work/unread.tsv"
printf '%s\ttables\tread by nothing\n' $f/fixture-other-gpu.csv >>"$work/unread.tsv"
LADDER_SOURCES=$work/unread.tsv run 1 --check || true
expect_stderr "$f/fixture-other-gpu.csv is listed for tables, but no table reads it"

# --- usage ---
run 2 --bogus || true
expect_stderr "unknown option --bogus"
run 2 "$work/no-such.md" || true
expect_stderr "no such file"
LADDER=$work/no-ladder run 2 "$work/one.md" || true
expect_stderr "no ladder binary at $work/no-ladder"

[ $failures -eq 0 ] || { echo "$failures update-tables check(s) failed" >&2; exit 1; }
echo "update-tables.sh: all checks passed"
