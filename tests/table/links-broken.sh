#!/usr/bin/env bash
# tools/check-links.sh on temporary Markdown files: valid links of every kind pass; each
# broken one is listed as FILE:LINE: PATH with exit status 1.
# Usage: links-broken.sh SOURCE_DIR
set -euo pipefail
script=$1/tools/check-links.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

mkdir -p "$work/doc/img"
touch "$work/doc/other.md" "$work/doc/img/fig.png" "$work/doc/with space.md"
cat >"$work/doc/good.md" <<'MD'
# Good
[a page](other.md), [a section](other.md#measuring), [this page](#good),
![a figure](img/fig.png "the title"), [spaces](<with space.md>), [encoded](with%20space.md),
[a folder](img/), [the web](https://example.org/x), [mail](mailto:a@example.org).
<img src="img/fig.png" width="400">
[ref]: img/fig.png
`[not a link](nowhere.md)` and <!-- [hidden](nowhere.md) -->
```
[in a code block](nowhere.md)
```
MD
cat >"$work/doc/bad.md" <<'MD'
# Bad
Fine: [a page](other.md). Broken: [gone](gone.md) and ![no figure](img/none.png).

[a fragment of nothing](missing.md#part)
<img src="img/missing.png">
[ref]: ../nowhere.md "a title"
MD

rc=0
bash "$script" "$work/doc/good.md" >"$work/out" 2>&1 || rc=$?
[ $rc -eq 0 ] || { fail "valid links reported broken (status $rc):"; cat "$work/out" >&2; }

rc=0
bash "$script" "$work/doc/good.md" "$work/doc/bad.md" >"$work/out" 2>"$work/err" || rc=$?
[ $rc -eq 1 ] || fail "broken links: exit status $rc, expected 1"
cat >"$work/want" <<EOF2
$work/doc/bad.md:2: gone.md (no such file)
$work/doc/bad.md:2: img/none.png (no such file)
$work/doc/bad.md:4: missing.md#part (no such file)
$work/doc/bad.md:5: img/missing.png (no such file)
$work/doc/bad.md:6: ../nowhere.md (no such file)
check-links.sh: 5 broken link(s) in 2 file(s)
EOF2
diff -u "$work/want" "$work/err" >&2 || fail "the broken links were not listed as expected"

rc=0
bash "$script" --bogus >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "an unknown option: exit status $rc, expected 2"

[ $failures -eq 0 ] || { echo "$failures check-links check(s) failed" >&2; exit 1; }
echo "check-links.sh: all checks passed"
