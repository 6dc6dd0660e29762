#!/usr/bin/env bash
# Checks that the instructor's page of expected outcomes, answers.md, has one entry for
# every exercise of the tutorial: for each page with an "## Exercises" section, answers.md
# must have a section whose heading links to that page ("## [TITLE](PAGE)") with as many
# numbered entries (1., 2., ...) as the page has exercises. Numbered lines count only at
# the start of a line and outside fenced code; they must run 1, 2, 3, ... in both files.
#
# usage: tools/check-answers.sh [DIR]    (default: tutorial)
#
# Exit status: 0 every exercise has its entry; 1 some do not (each problem listed as
# FILE: WHAT); 2 bad usage.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/tutorial-folder.bash"
tutorial_folder check-answers.sh "$@"
answers=$dir/answers.md
if [ ! -f "$answers" ]; then
  echo "answers.md: missing: the expected outcomes of the exercises" >&2
  exit 1
fi

problems=0
problem() { echo "$1: $2" >&2; problems=$((problems + 1)); }

# numbers FILE HEADING_REGEX: the numbers of the numbered lines in the section whose
# heading matches, up to the next "## " heading, outside fenced code, one per line.
numbers() {
  awk -v want="$2" '
    /^ ? ? ?(```|~~~)/ { fenced = !fenced; next }
    fenced { next }
    /^## / { inside = ($0 ~ want); next }
    inside && /^[0-9]+\. / { sub(/\..*/, ""); print }
  ' "$1"
}
# in_order NUMBERS: true when they run 1, 2, 3, ...
in_order() { awk '$0 != NR { bad = 1 } END { exit bad }' <<< "$1"; }
regex_quote() { sed 's/[][\.*^$+?(){}|/]/\\&/g' <<< "$1"; }

shopt -s nullglob
pages=()
for f in "$dir"/*.md; do
  page=$(basename "$f")
  [ "$page" != answers.md ] || continue
  grep -q '^## Exercises' "$f" || continue
  pages+=("$page")
  asked=$(numbers "$f" '^## Exercises')
  if [ -z "$asked" ]; then
    problem "$page" "its '## Exercises' section has no numbered exercise (1. ...)"
    continue
  fi
  in_order "$asked" || problem "$page" "its exercises must be numbered 1, 2, 3, ... (found: $(echo $asked))"
  if ! grep -q "^## \[.*\]($(regex_quote "$page"))" "$answers"; then
    problem "answers.md" "no section for $page: add '## [TITLE]($page)' with $(wc -l <<< "$asked") entries"
    continue
  fi
  given=$(numbers "$answers" "^## \\[.*\\]\\($(regex_quote "$page")\\)")
  if [ "$(wc -l <<< "$asked")" != "$(grep -c . <<< "$given" || true)" ]; then
    problem "answers.md" "the section for $page has $(grep -c . <<< "$given" || true) entries for its $(wc -l <<< "$asked") exercises"
  elif ! in_order "$given"; then
    problem "answers.md" "the entries for $page must be numbered 1, 2, 3, ... (found: $(echo $given))"
  fi
done
shopt -u nullglob

# No section answers a page that has no exercises (or no longer exists).
while IFS= read -r linked; do
  found=0
  for page in ${pages[@]+"${pages[@]}"}; do [ "$page" != "$linked" ] || found=1; done
  [ $found -eq 1 ] || problem "answers.md" "a section for $linked, which has no '## Exercises' section"
done < <(sed -n 's/^## \[.*\](\([^)#]*\.md\)).*/\1/p' "$answers")

if [ $problems -ne 0 ]; then
  echo "check-answers.sh: $problems problem(s)" >&2
  exit 1
fi
echo "check-answers.sh: ${#pages[@]} pages with exercises, every exercise answered in answers.md"
