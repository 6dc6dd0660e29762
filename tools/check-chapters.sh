#!/usr/bin/env bash
# Checks that a reader can walk the tutorial from its first chapter to its last page by
# links alone. The walk is the list of chapters (README.md): its first table, one page per
# row (the row's first link). The chapters are numbered 00, 01, 02, ... without a gap and
# come first in that table, in order; pages without a number (a topic such as
# accuracy.md) may follow them and are walked the same way. Every page of the walk ends
# with the same navigation line, built from the pages' titles (their first line, "# TITLE"):
#
#     Previous: [TITLE OF N-1](FILE OF N-1) · [List of chapters](README.md) · Next: [TITLE OF N+1](FILE OF N+1)
#
# The first page has no "Previous: ... · " part and the last no " · Next: ..." part.
# A page whose last line differs is reported with the line it should end with, so a
# new or renamed page is fixed by pasting it. Every other Markdown file of the folder
# (a reference page, notes for instructors) must be linked from README.md somewhere, so
# that the list names every page.
#
# usage: tools/check-chapters.sh [DIR]    (default: tutorial)
#
# Exit status: 0 the chain is whole; 1 something is missing or out of order (each problem
# listed as FILE: WHAT); 2 bad usage.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/tutorial-folder.bash"
tutorial_folder check-chapters.sh "$@"

problems=0
problem() { echo "$1: $2" >&2; problems=$((problems + 1)); }

shopt -s nullglob
chapters=()
for f in "$dir"/[0-9][0-9]-*.md; do chapters+=("$(basename "$f")"); done
shopt -u nullglob
if [ ${#chapters[@]} -eq 0 ]; then
  echo "check-chapters.sh: no chapters (NN-name.md) in $dir" >&2
  exit 1
fi

# Numbered 00, 01, ... in order, one file per number.
titles=()
for i in "${!chapters[@]}"; do
  want=$(printf '%02d' "$i")
  file=${chapters[i]}
  if [ "${file:0:2}" != "$want" ]; then
    problem "$file" "expected chapter $want here: the numbers must run 00, 01, 02, ... without a gap or a repeat"
  fi
  first=$(head -n 1 "$dir/$file")
  if [[ $first != '# '* ]]; then
    problem "$file" "the first line must be the title, '# TITLE'"
  fi
  titles+=("${first#'# '}")
done

# The walk: the first link of each row of README.md's first table. The numbered chapters
# come first, in order; the pages after them must exist.
walk=()
if [ ! -f "$dir/README.md" ]; then
  problem "README.md" "missing: the list of chapters"
else
  while IFS= read -r target; do
    walk+=("$target")
  done < <(awk '/^\|/ { in_table = 1 } in_table && !/^\|/ { exit } in_table' "$dir/README.md" \
             | grep -o '](\([^)#/]*\.md\)' | sed 's/^](//' | awk '!seen[$0]++')
  # Rows may link to a page twice; a page is walked where its first link is.
  numbered=()
  others=()
  for page in ${walk[@]+"${walk[@]}"}; do
    if [[ $page == [0-9][0-9]-* ]]; then numbered+=("$page"); else others+=("$page"); fi
  done
  if [ "${walk[*]:0:${#chapters[@]}}" != "${chapters[*]}" ] \
       || [ "${numbered[*]-}" != "${chapters[*]}" ]; then
    problem "README.md" "must link to every chapter in order, first in its first table: ${chapters[*]} (it links to: ${numbered[*]-none})"
  fi
  # The chapters are walked in their numbers' order whatever the list says (its order is
  # reported above), then the other pages of the table in the table's order.
  walk=("${chapters[@]}" ${others[@]+"${others[@]}"})
  for page in ${walk[@]+"${walk[@]}"}; do
    [ -f "$dir/$page" ] || problem "README.md" "its table links to $page, which does not exist"
  done
  # Every page is listed somewhere in README.md.
  shopt -s nullglob
  for f in "$dir"/*.md; do
    page=$(basename "$f")
    [ "$page" != README.md ] || continue
    grep -q "]($page[)#]" "$dir/README.md" \
      || problem "$page" "not listed: README.md must link to every page of the tutorial"
  done
  shopt -u nullglob
fi

# Each page of the walk ends with its navigation line.
titles=()
for page in ${walk[@]+"${walk[@]}"}; do
  title=$(head -n 1 "$dir/$page" 2>/dev/null || true)
  if [[ $page != [0-9][0-9]-* && $title != '# '* && -f "$dir/$page" ]]; then
    problem "$page" "the first line must be the title, '# TITLE'"
  fi
  titles+=("${title#'# '}")
done
last=$((${#walk[@]} - 1))
for i in "${!walk[@]}"; do
  [ -f "$dir/${walk[i]}" ] || continue
  line="[List of chapters](README.md)"
  [ "$i" -eq 0 ] || line="Previous: [${titles[i - 1]}](${walk[i - 1]}) · $line"
  [ "$i" -eq "$last" ] || line="$line · Next: [${titles[i + 1]}](${walk[i + 1]})"
  have=$(grep -v '^[[:space:]]*$' "$dir/${walk[i]}" | tail -n 1)
  if [ "$have" != "$line" ]; then
    problem "${walk[i]}" "its last line must be: $line"
  fi
done

if [ $problems -ne 0 ]; then
  echo "check-chapters.sh: $problems problem(s) in the chain of ${#chapters[@]} chapter(s)" >&2
  exit 1
fi
echo "check-chapters.sh: ${#chapters[@]} chapters and $((${#walk[@]} - ${#chapters[@]})) more pages, each linked to the next and the previous, all listed in order"
