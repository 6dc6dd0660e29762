#!/usr/bin/env bash
# The committed lineage figure (tutorial/figures/lineage.svg, drawn by tools/draw-figures.sh)
# shows every rung of the registry by name: a rung added or renamed since it was drawn
# fails here. (Its pixels depend on the gnuplot version, so they are not compared.)
# Usage: lineage-figure.sh LADDER SOURCE_DIR
set -euo pipefail
ladder=$1
svg=$2/tutorial/figures/lineage.svg
[ -s "$svg" ] || { echo "FAIL: no $svg: run tools/draw-figures.sh" >&2; exit 1; }
missing=0
while read -r number name _; do
  if ! grep -q ">$name: " "$svg" || ! grep -q ">$number<" "$svg"; then
    echo "FAIL: rung $number $name is not in $svg: redraw it with tools/draw-figures.sh" >&2
    missing=$((missing + 1))
  fi
done < <("$ladder" list --brief)
[ $missing -eq 0 ] || exit 1
echo "lineage.svg shows every rung"
