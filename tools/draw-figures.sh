#!/usr/bin/env bash
# Draws the tutorial's figures from the result files the manifest lists, and nothing else.
#
# usage: tools/draw-figures.sh [--out DIR]
#        (default DIR: tutorial/figures)
#
# The manifest, tutorial/sources.tsv (or $LADDER_SOURCES), says which files make which
# figures (its header explains the format):
#   figures         every such file together makes the sweep figures (GFLOPS by size,
#                   bars, step gains, compare-devices), in the manifest's order: where two
#                   files hold the same device, rung and size, the later file's row is drawn
#   shapes-figures  these files alone make the shapes figures (*-shapes.*), drawn into a
#                   scratch folder of their own, so that their rows at square sizes do not
#                   replace the sweeps' in the figures above
#   ceilings        a device's measured ceilings (ladder plot --ceilings): the
#                   fraction-of-peak figures (*-peak-*) are drawn with the sweep figures,
#                   and the rooflines (*-roofline.*) from the sweep and shape-set files
#                   together, so that the GEMV-like shapes sit on the bandwidth slope
# and, from the registry, the lineage figure (ladder lineage). The pictures are drawn in a
# scratch folder and copied into DIR: the sweep figures without their *-shapes.* (a sweep's
# non-square sizes would make some) and *-roofline.*, the shapes figures, the rooflines,
# lineage.{png,svg}. Other files in DIR are left alone. Each copied file is printed.
#
# Exit status: 0 drawn; 1 ladder failed to draw; 2 bad usage or a malformed manifest.
# The ladder binary is build/ladder, or $LADDER. Needs gnuplot.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=""
while [ $# -gt 0 ]; do
  case $1 in
    --out|--output)
      [ $# -ge 2 ] || { echo "draw-figures.sh: $1 needs a folder" >&2; exit 2; }
      out=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "draw-figures.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case $out in
  "") out=$root/tutorial/figures ;;
  /*) ;;
  *) out=$PWD/$out ;;
esac
ladder=${LADDER:-$root/build/ladder}
case $ladder in
  /*) ;;
  */*) ladder=$PWD/$ladder ;;
esac
sources=${LADDER_SOURCES:-tutorial/sources.tsv}
case $sources in
  /*) ;;
  *) [ -f "$sources" ] || sources=$root/$sources ;;
esac
cd "$root"

if ! command -v "$ladder" >/dev/null; then
  echo "draw-figures.sh: no ladder binary at $ladder: build it (make build) or set LADDER" >&2
  exit 2
fi
if [ ! -f "$sources" ]; then
  echo "draw-figures.sh: no manifest at $sources" >&2
  exit 2
fi

# The manifest's files for each use, in its order (fields: file, uses, why).
sweep=()
shapes=()
ceilings=()
lineno=0
while IFS= read -r entry || [ -n "$entry" ]; do
  lineno=$((lineno + 1))
  [[ -z $entry || $entry == \#* ]] && continue
  IFS=$'\t' read -r file uses why extra <<<"$entry"
  if [ -z "$file" ] || [ -z "$uses" ] || [ -z "$why" ] || [ -n "$extra" ]; then
    echo "$sources:$lineno: expected three tab-separated fields (file, uses, why)" >&2
    exit 2
  fi
  if [ ! -f "$file" ]; then
    echo "$sources:$lineno: $file: no such file" >&2
    exit 2
  fi
  [[ ,$uses, == *,figures,* ]] && sweep+=("$file")
  [[ ,$uses, == *,shapes-figures,* ]] && shapes+=("$file")
  [[ ,$uses, == *,ceilings,* ]] && ceilings+=(--ceilings "$file")
done <"$sources"
if [ ${#sweep[@]} -eq 0 ]; then
  echo "draw-figures.sh: $sources lists no file for figures" >&2
  exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out" "$scratch/sweep" "$scratch/shapes" "$scratch/roofline" "$scratch/lineage"

# copy_from DIR [FIND-ARGS...]: copies the pictures in DIR that match into $out.
copy_from() {
  local dir=$1 picture
  shift
  while IFS= read -r picture; do
    cp "$picture" "$out/"
    echo "$out/$(basename "$picture")"
  done < <(find "$dir" -maxdepth 1 -type f \( -name '*.png' -o -name '*.svg' \) "$@" | sort)
}

"$ladder" plot --out "$scratch/sweep" "${ceilings[@]}" "${sweep[@]}" >/dev/null
copy_from "$scratch/sweep" ! -name '*-shapes.*' ! -name '*-roofline.*'
if [ ${#shapes[@]} -gt 0 ]; then
  "$ladder" plot --out "$scratch/shapes" "${shapes[@]}" >/dev/null
  copy_from "$scratch/shapes" -name '*-shapes.*'
fi
if [ ${#ceilings[@]} -gt 0 ]; then
  "$ladder" plot --out "$scratch/roofline" "${ceilings[@]}" "${sweep[@]}" "${shapes[@]}" >/dev/null
  copy_from "$scratch/roofline" -name '*-roofline.*'
fi
"$ladder" lineage --out "$scratch/lineage" >/dev/null
copy_from "$scratch/lineage"
