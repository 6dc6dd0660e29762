#!/usr/bin/env bash
# tools/check-answers.sh on a temporary tutorial of two pages with exercises and one
# without: a whole answers.md passes; a missing section, a section with too few entries,
# entries out of order and a section for a page without exercises are each reported as
# FILE: WHAT with exit status 1; numbered lines in fenced code do not count; bad usage
# exits 2.
# Usage: answers-broken.sh SOURCE_DIR
set -euo pipefail
script=$1/tools/check-answers.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

make_good() {
  rm -rf "$work/t"
  mkdir -p "$work/t"
  cat >"$work/t/01-first.md" <<'MD'
# 1. First

Text.

```
1. not an exercise: inside a fence
```

## Exercises

1. **One.** Do this.
   2. An indented line is part of exercise 1.
2. **Two.** Do that.

Previous: nothing
MD
  cat >"$work/t/topic.md" <<'MD'
# A topic

## Exercises

1. Only one.
MD
  printf '# No exercises\n\nText.\n' >"$work/t/02-second.md"
  cat >"$work/t/answers.md" <<'MD'
# Exercises: what to expect

## [1. First](01-first.md)

1. **One.** Expect this.
2. **Two.** Expect that.

## [A topic](topic.md)

1. An answer.
MD
}

# expect_broken WHAT LINE...: the script exits 1 and prints exactly these lines.
expect_broken() {
  local what=$1 rc=0
  shift
  bash "$script" "$work/t" >/dev/null 2>"$work/err" || rc=$?
  [ $rc -eq 1 ] || fail "$what: exit status $rc, expected 1"
  printf '%s\n' "$@" >"$work/want"
  diff -u "$work/want" "$work/err" >&2 || fail "$what: not reported as expected"
}

make_good
rc=0
bash "$script" "$work/t" >"$work/out" 2>&1 || rc=$?
[ $rc -eq 0 ] || { fail "a whole answers.md reported broken (status $rc):"; cat "$work/out" >&2; }

make_good
sed -i '/^## \[A topic\]/,$d' "$work/t/answers.md"
expect_broken "a page's section missing" \
  "answers.md: no section for topic.md: add '## [TITLE](topic.md)' with 1 entries" \
  "check-answers.sh: 1 problem(s)"

make_good
printf '3. **Three.** A new exercise.\n' >>"$work/t/topic.md"
sed -i 's/^1. Only one./1. Only one.\n2. Another./' "$work/t/topic.md"
expect_broken "exercises added to a page, not to answers.md" \
  "answers.md: the section for topic.md has 1 entries for its 3 exercises" \
  "check-answers.sh: 1 problem(s)"

make_good
sed -i 's/^2. \*\*Two.\*\* Expect that./3. **Two.** Expect that./' "$work/t/answers.md"
expect_broken "entries numbered out of order" \
  "answers.md: the entries for 01-first.md must be numbered 1, 2, 3, ... (found: 1 3)" \
  "check-answers.sh: 1 problem(s)"

make_good
printf '\n## [2. Second](02-second.md)\n\n1. An answer to nothing.\n' >>"$work/t/answers.md"
expect_broken "a section for a page without exercises" \
  "answers.md: a section for 02-second.md, which has no '## Exercises' section" \
  "check-answers.sh: 1 problem(s)"

make_good
rc=0
bash "$script" --bogus >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "an unknown option: exit status $rc, expected 2"
rc=0
bash "$script" "$work/none" >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "a missing folder: exit status $rc, expected 2"

[ $failures -eq 0 ] || { echo "$failures check-answers check(s) failed" >&2; exit 1; }
echo "check-answers.sh: all checks passed"
