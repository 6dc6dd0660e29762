#!/usr/bin/env bash
# Draws the diagrams of the ideas (tiles, work per thread, register blocks, warp tiles,
# the 3xTF32 split, split-K, the skinny kernels, the Hopper rungs' stage pipeline, the
# DMMA rung's padded tiles) from each rung's default parameters, so the pictures stay in
# step with the registry.
#
# usage: tools/draw-diagrams.sh [--check] [--format svg|png] [--out DIR]
#
# Each plots/diagrams/NN-NAME.gp draws one picture for rung NN; its parameters come from
# `ladder list --defines` (the defaults, as -DTS=32 ...) and reach the script as gnuplot
# variables (TS = 32). The pictures go to DIR/NN-NAME.svg; DIR is tutorial/figures/diagrams
# unless --out names another folder.
#
#   --check        draw into a temporary folder and compare with DIR: every picture that
#                  differs, is missing, or is in DIR with no script to draw it is listed,
#                  and the exit status is 1. Nothing in DIR changes.
#   --format png   PNG instead of SVG (to look at them, or for slides); not with --check
#   --out DIR      where the pictures go (or, with --check, those to compare with)
#
# Exit status: 0 drawn (or, with --check, all fresh); 1 a picture is stale or could not
# be drawn; 2 a wrong command line.
# The ladder binary is build/ladder, or $LADDER; gnuplot is $LADDER_GNUPLOT, or gnuplot.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die_usage() { echo "draw-diagrams.sh: $*" >&2; exit 2; }
die() { echo "draw-diagrams.sh: $*" >&2; exit 1; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check=0
format=svg
out=
while [ $# -gt 0 ]; do
  case $1 in
    --check) check=1 ;;
    --format)
      [ $# -ge 2 ] || die_usage "--format needs svg or png"
      case $2 in svg|png) format=$2 ;; *) die_usage "--format: '$2' is not svg or png" ;; esac
      shift ;;
    --out)
      [ $# -ge 2 ] && [ -n "$2" ] || die_usage "--out needs a folder"
      out=$2
      shift ;;
    -h|--help) usage; exit 0 ;;
    *) die_usage "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[ "$check" -eq 0 ] || [ "$format" = svg ] || die_usage "--check compares the committed SVGs: leave out --format png"
out=${out:-$root/tutorial/figures/diagrams}
case $out in
  *\'*) die_usage "--out: a folder name with a quote (') cannot be passed to gnuplot" ;;
  /*) ;;
  *) out=$PWD/$out ;;
esac
[ "$check" -eq 0 ] || [ -d "$out" ] || die "--check: $out is not a folder of diagrams"

ladder=${LADDER:-$root/build/ladder}
gnuplot=${LADDER_GNUPLOT:-gnuplot}
[ -x "$ladder" ] || die "no ladder binary at $ladder: run 'make build' first (or set LADDER)"
command -v "$gnuplot" > /dev/null \
  || die "gnuplot not found: install it (apt-get install gnuplot-nox) or run tools/install-deps.sh"
defines=$("$ladder" list --defines) || die "'$ladder list --defines' failed"

scripts=$root/plots/diagrams
shopt -s nullglob
diagrams=("$scripts"/[0-9][0-9]-*.gp)
shopt -u nullglob
[ ${#diagrams[@]} -gt 0 ] || die "no diagram scripts in $scripts"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$check" -eq 1 ]; then
  dest=$work/drawn
  mkdir "$dest"
else
  dest=$out
  mkdir -p "$dest" || die "cannot create $dest"
fi

# gnuplot variables from a rung's default defines: "-DTS=32 -DWPT=8" -> "TS=32; WPT=8; "
variables() {
  local vars="" d name value
  for d in "$@"; do
    d=${d#-D}
    name=${d%%=*}
    value=${d#*=}
    [[ $name =~ ^[A-Z][A-Z0-9_]*$ && $value =~ ^[0-9]+$ ]] \
      || die "unexpected define '$d' in 'ladder list --defines'"
    vars+="$name=$value; "
  done
  printf '%s' "$vars"
}

for script in "${diagrams[@]}"; do
  stem=$(basename "$script" .gp)
  number=${stem%%-*}
  # The rung whose file stem starts with the same two digits: "03-wpt default -DTS=32 ..."
  line=$(awk -v n="$number-" '$2 == "default" && index($1, n) == 1' <<< "$defines")
  [ -n "$line" ] || die "$stem.gp: no rung $number in 'ladder list --defines'"
  read -r -a fields <<< "$line"
  vars=$(variables "${fields[@]:2}")
  picture=$dest/$stem.$format
  if ! "$gnuplot" -e "scripts='$scripts'; output_file='$picture'; fmt='$format'; $vars" \
       "$script" > "$work/log" 2>&1; then
    rm -f "$picture"
    die "gnuplot failed on $stem.gp: $(grep -v '^\s*$' "$work/log" | tail -n 3 | tr '\n' ' ')"
  fi
  [ -s "$picture" ] || die "gnuplot wrote nothing for $stem.gp"
  [ "$check" -eq 1 ] || echo "$picture"
done

[ "$check" -eq 1 ] || exit 0

# --check: the committed pictures against the ones just drawn.
stale=0
shown=${out#"$root"/}
for drawn in "$dest"/*.svg; do
  name=$(basename "$drawn")
  if [ ! -f "$out/$name" ]; then
    echo "missing: $shown/$name (plots/diagrams/${name%.svg}.gp draws it)" >&2
    stale=1
  elif ! cmp -s "$drawn" "$out/$name"; then
    echo "stale: $shown/$name differs from what plots/diagrams/${name%.svg}.gp draws today" >&2
    stale=1
  fi
done
shopt -s nullglob
for committed in "$out"/*.svg; do
  name=$(basename "$committed")
  if [ ! -f "$dest/$name" ]; then
    echo "extra: $shown/$name has no script plots/diagrams/${name%.svg}.gp" >&2
    stale=1
  fi
done
if [ "$stale" -eq 1 ]; then
  echo "draw-diagrams.sh: redraw with tools/draw-diagrams.sh (gnuplot: $("$gnuplot" --version))" >&2
  exit 1
fi
echo "draw-diagrams.sh: ${#diagrams[@]} diagrams match their scripts and the registry"
