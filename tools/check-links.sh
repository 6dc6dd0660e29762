#!/usr/bin/env bash
# Checks that every relative link and image in Markdown files points at a file or folder
# that exists and that a clone will have too: not ignored by git (a generated figure that
# is not committed shows locally and is broken everywhere else), and, for a folder, holding
# at least one file git tracks or would commit (git does not keep empty folders).
#
# usage: tools/check-links.sh [FILE.md...]
#        (default: tutorial/*.md, README.md, plots/README.md, results/*/README.md)
#
# Checked: [text](path), ![alt](path), [label]: path definitions, and src="..." / href="..."
# in HTML tags. Skipped: links with a scheme (http:, https:, mailto:, ...), pure #anchors,
# fenced code blocks and `code spans`. A #fragment or ?query is stripped from a file link;
# a path starting with / is taken from the repository root, as GitHub does.
#
# Exit status: 0 all links valid; 1 some are broken (each listed as FILE:LINE: PATH);
# 2 bad usage.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
files=()
for arg in "$@"; do
  case $arg in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check-links.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    /*) files+=("$arg") ;;
    *) files+=("$PWD/$arg") ;;
  esac
done
cd "$root"
if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  for f in tutorial/*.md README.md plots/README.md results/*/README.md; do
    files+=("$root/$f")
  done
  shopt -u nullglob
fi

in_git=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1

# Prints "LINE<tab>TARGET" for every link target of a Markdown file (POSIX awk).
extract_links() {
  awk '
    /^ ? ? ?(```|~~~)/ {
      mark = $0
      sub(/^ */, "", mark)
      mark = substr(mark, 1, 3)
      if (fence == "") fence = mark; else if (mark == fence) fence = ""
      next
    }
    fence != "" { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)          # code spans
      while ((i = index(line, "<!--")) > 0) {   # comments: markers name result files
        rest = substr(line, i + 4)
        j = index(rest, "-->")
        line = substr(line, 1, i - 1) (j ? substr(rest, j + 3) : "")
      }
      s = line                            # [text](target) and ![alt](target)
      while (match(s, /\]\([^)]*\)/)) {
        print NR "\t" substr(s, RSTART + 2, RLENGTH - 3)
        s = substr(s, RSTART + RLENGTH)
      }
      if (match(line, /^ ? ? ?\[[^]]+\]:[ \t]+[^ \t]+/)) {   # [label]: target
        def = substr(line, RSTART, RLENGTH)
        sub(/^ ? ? ?\[[^]]+\]:[ \t]+/, "", def)
        print NR "\t" def
      }
      s = line                            # <img src="..."> and <a href="...">
      while (match(s, /(src|href)="[^"]*"/)) {
        t = substr(s, RSTART, RLENGTH)
        sub(/^(src|href)="/, "", t)
        print NR "\t" substr(t, 1, length(t) - 1)
        s = substr(s, RSTART + RLENGTH)
      }
    }
  ' "$1"
}

# missing_in_clone PATH: fails, printing why, when PATH exists here but a clone would lack
# it. Paths outside the repository (a test's temporary files) are not git's business.
missing_in_clone() {
  [ $in_git -eq 1 ] && [[ $1 == "$root"/* ]] || return 0
  if git check-ignore -q -- "$1"; then
    echo "ignored by git: it would be missing in a clone"
    return 1
  fi
  if [ -d "$1" ] &&
     [ -z "$(git ls-files --cached --others --exclude-standard -- "$1" | head -n 1)" ]; then
    echo "a folder with no file to commit: git would not create it in a clone"
    return 1
  fi
}

broken=0
checked=0
for file in "${files[@]}"; do
  if [ ! -f "$file" ]; then
    echo "check-links.sh: no such file: $file" >&2
    exit 2
  fi
  dir=$(dirname "$file")
  name=${file#"$root"/}
  while IFS=$'\t' read -r line target; do
    # <path with spaces> or path "title": keep the path alone.
    target=${target#"${target%%[![:space:]]*}"}
    if [[ $target == '<'*'>'* ]]; then
      target=${target#<}
      target=${target%%>*}
    else
      target=${target%%[[:space:]]*}
    fi
    [ -n "$target" ] || continue
    [[ $target =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] && continue   # http:, https:, mailto:, ...
    [[ $target == '#'* ]] && continue                         # an anchor in this page
    path=${target%%[#?]*}
    path=${path//%20/ }
    if [[ $path == /* ]]; then
      resolved=$root$path
    else
      resolved=$dir/$path
    fi
    checked=$((checked + 1))
    if [ ! -e "$resolved" ]; then
      echo "$name:$line: $target (no such file)" >&2
      broken=$((broken + 1))
    elif ! why=$(missing_in_clone "$resolved"); then
      echo "$name:$line: $target ($why)" >&2
      broken=$((broken + 1))
    fi
  done < <(extract_links "$file")
done

if [ $broken -ne 0 ]; then
  echo "check-links.sh: $broken broken link(s) in ${#files[@]} file(s)" >&2
  exit 1
fi
echo "check-links.sh: $checked link(s) in ${#files[@]} file(s), all valid"
