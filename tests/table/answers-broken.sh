#!/usr/bin/env bash
# tools/check-answers.sh on a temporary tutorial of two pages with exercises and one
# without: a whole answers.md passes; a missing section, a section with too few entries,
# entries out of order and a section for a page without exercises are each reported as
# FILE: WHAT with exit status 1; numbered lines in fenced code do not count; bad usage
# exits 2.
# Usage: answers-broken.sh SOURCE_DIR
set -euo pipefail
script=$1/tools/check-answers.sh
source "$(dirname "${BASH_SOURCE[0]}")/checker-harness.bash"

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

expect_whole answers.md

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

finish_checks
