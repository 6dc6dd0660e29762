#!/usr/bin/env bash
# tools/check-chapters.sh on a temporary tutorial of three chapters, a topic page after
# them and a reference page: a whole chain passes; a missing or wrong navigation line (on
# a chapter or on the topic page), a gap in the numbering, a list of chapters out of
# order, a topic page listed before the chapters, a page the list does not name and a
# stale title are each reported as FILE: WHAT with exit status 1.
# Usage: chapters-broken.sh SOURCE_DIR
set -euo pipefail
script=$1/tools/check-chapters.sh
source "$(dirname "${BASH_SOURCE[0]}")/checker-harness.bash"

# A whole chain: the list, then 00 <-> 01 <-> 02 <-> topic; notes.md is listed after the
# table, outside the walk.
make_good() {
  rm -rf "$work/t"
  mkdir -p "$work/t"
  cat >"$work/t/README.md" <<'MD'
# The tutorial
| chapter | idea |
|---|---|
| [Introduction](00-intro.md) | what |
| [1. First](01-first.md) | one; see also [the second](02-second.md) |
| [2. Second](02-second.md) | two |
| [A topic](topic.md) | more |

Also: [notes](notes.md).
MD
  cat >"$work/t/00-intro.md" <<'MD'
# Introduction

Text.

[List of chapters](README.md) · Next: [1. First](01-first.md)
MD
  cat >"$work/t/01-first.md" <<'MD'
# 1. First

Text, and a [link elsewhere](02-second.md).

Previous: [Introduction](00-intro.md) · [List of chapters](README.md) · Next: [2. Second](02-second.md)

MD
  cat >"$work/t/02-second.md" <<'MD'
# 2. Second

Previous: [1. First](01-first.md) · [List of chapters](README.md) · Next: [A topic](topic.md)
MD
  cat >"$work/t/topic.md" <<'MD'
# A topic

Previous: [2. Second](02-second.md) · [List of chapters](README.md)
MD
  printf '# Notes\n\nBack to [the list](README.md).\n' >"$work/t/notes.md"
}

expect_whole chain

make_good
sed -i '$d' "$work/t/00-intro.md"
expect_broken "no navigation line" \
  "00-intro.md: its last line must be: [List of chapters](README.md) · Next: [1. First](01-first.md)" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

make_good
sed -i 's/Next: \[2. Second\](02-second.md)/Next: [2. Second](00-intro.md)/' "$work/t/01-first.md"
expect_broken "a Next link to the wrong chapter" \
  "01-first.md: its last line must be: Previous: [Introduction](00-intro.md) · [List of chapters](README.md) · Next: [2. Second](02-second.md)" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

make_good
sed -i '1s/.*/# 1. First, renamed/' "$work/t/01-first.md"
expect_broken "a title changed but not the links to it" \
  "00-intro.md: its last line must be: [List of chapters](README.md) · Next: [1. First, renamed](01-first.md)" \
  "02-second.md: its last line must be: Previous: [1. First, renamed](01-first.md) · [List of chapters](README.md) · Next: [A topic](topic.md)" \
  "check-chapters.sh: 2 problem(s) in the chain of 3 chapter(s)"

make_good
mv "$work/t/02-second.md" "$work/t/03-second.md"
sed -i 's/02-second.md/03-second.md/g' "$work/t/README.md" "$work/t/01-first.md" "$work/t/topic.md"
expect_broken "a gap in the numbering" \
  "03-second.md: expected chapter 02 here: the numbers must run 00, 01, 02, ... without a gap or a repeat" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

make_good
sed -i '/\[2. Second\](02-second.md) | two/d; s/see also \[the second\](02-second.md)/see also nothing/' "$work/t/README.md"
sed -i '4a | [2. Second](02-second.md) | two |' "$work/t/README.md"
expect_broken "the list out of order" \
  "README.md: must link to every chapter in order, first in its first table: 00-intro.md 01-first.md 02-second.md (it links to: 00-intro.md 02-second.md 01-first.md)" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

make_good
sed -i '$d' "$work/t/topic.md"
expect_broken "a topic page without its navigation line" \
  "topic.md: its last line must be: Previous: [2. Second](02-second.md) · [List of chapters](README.md)" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

make_good
sed -i '/\[A topic\](topic.md)/d' "$work/t/README.md"
sed -i '/\[Introduction\](00-intro.md)/i | [A topic](topic.md) | more |' "$work/t/README.md"
expect_broken "a topic page listed before the chapters" \
  "README.md: must link to every chapter in order, first in its first table: 00-intro.md 01-first.md 02-second.md (it links to: 00-intro.md 01-first.md 02-second.md)" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

make_good
sed -i 's/Also: \[notes\](notes.md)./Also: nothing./' "$work/t/README.md"
expect_broken "a page the list does not name" \
  "notes.md: not listed: README.md must link to every page of the tutorial" \
  "check-chapters.sh: 1 problem(s) in the chain of 3 chapter(s)"

finish_checks
