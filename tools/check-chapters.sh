#!/usr/bin/env bash
# Checks that a reader can walk the tutorial from its first chapter to its last by links
# alone: the chapters are numbered 00, 01, 02, ... without a gap, the list of chapters
# (README.md) links to every one of them in that order, and every chapter ends with the
# same navigation line, built from the chapters' titles (their first line, "# TITLE"):
#
#     Previous: [TITLE OF N-1](FILE OF N-1) · [List of chapters](README.md) · Next: [TITLE OF N+1](FILE OF N+1)
#
# The first chapter has no "Previous: ... · " part and the last no " · Next: ..." part.
# A chapter whose last line differs is reported with the line it should end with, so a
# new or renamed chapter is fixed by pasting it.
#
# usage: tools/check-chapters.sh [DIR]    (default: tutorial)
#
# Exit status: 0 the chain is whole; 1 something is missing or out of order (each problem
# listed as FILE: WHAT); 2 bad usage.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=
for arg in "$@"; do
  case $arg in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check-chapters.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    *)
      if [ -n "$dir" ]; then
        echo "check-chapters.sh: one folder only (see --help)" >&2; exit 2
      fi
      dir=$arg ;;
  esac
done
[ -n "$dir" ] || dir=$root/tutorial
if [ ! -d "$dir" ]; then
  echo "check-chapters.sh: no such folder: $dir" >&2
  exit 2
fi

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

# The list of chapters links to each chapter, in order (the first link to each counts).
if [ ! -f "$dir/README.md" ]; then
  problem "README.md" "missing: the list of chapters"
else
  listed=()
  while IFS= read -r target; do
    for seen in ${listed[@]+"${listed[@]}"}; do
      [ "$seen" != "$target" ] || continue 2
    done
    listed+=("$target")
  done < <(grep -o '](\([0-9][0-9]-[^)#]*\.md\)' "$dir/README.md" | sed 's/^](//')
  if [ "${listed[*]-}" != "${chapters[*]}" ]; then
    problem "README.md" "must link to every chapter in order: ${chapters[*]} (it links to: ${listed[*]-none})"
  fi
fi

# Each chapter ends with its navigation line.
last=$((${#chapters[@]} - 1))
for i in "${!chapters[@]}"; do
  line="[List of chapters](README.md)"
  [ "$i" -eq 0 ] || line="Previous: [${titles[i - 1]}](${chapters[i - 1]}) · $line"
  [ "$i" -eq "$last" ] || line="$line · Next: [${titles[i + 1]}](${chapters[i + 1]})"
  have=$(grep -v '^[[:space:]]*$' "$dir/${chapters[i]}" | tail -n 1)
  if [ "$have" != "$line" ]; then
    problem "${chapters[i]}" "its last line must be: $line"
  fi
done

if [ $problems -ne 0 ]; then
  echo "check-chapters.sh: $problems problem(s) in the chain of ${#chapters[@]} chapter(s)" >&2
  exit 1
fi
echo "check-chapters.sh: ${#chapters[@]} chapters, each linked to the next and the previous, all listed in order"
