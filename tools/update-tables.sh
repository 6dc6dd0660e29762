#!/usr/bin/env bash
# Regenerates the measured tables and numbers in the tutorial from the committed result
# files, so that no figure in the prose is typed by hand.
#
# usage: tools/update-tables.sh [--check] [FILE.md...]
#        (default: tutorial/*.md and README.md)
#
# A table is a pair of markers, each alone on its line, starting at its first column:
#
#     <!-- ladder-table: --backend cuda --size 4096 results/h100/results.csv -->
#     (generated: a blank line, the output of `ladder table ARGS`, a blank line)
#     <!-- end ladder-table -->
#
# A single number sits inside a line:
#
#     ... reaches <!-- ladder-value: gflops --rung 9 --backend cuda --size 4096 FILE -->12,345<!-- end --> GFLOPS ...
#
# and is replaced by the output of `ladder table --value gflops ARGS`. ARGS are split like
# shell words (quotes work; nothing is expanded). Paths in ARGS are relative to the
# repository root. Markers inside fenced code blocks (``` or ~~~) are left alone.
#
# Without --check the files are rewritten where a block is stale. With --check nothing
# changes: every stale block is listed as FILE:LINE with a diff, and the exit status is 1.
# Exit status 2: a marker is malformed, `ladder table` refused its arguments, or a result
# file it names is ignored by git (it would not be there in a clone).
#
# The ladder binary is build/ladder, or $LADDER.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

check=0
files=()
for arg in "$@"; do
  case $arg in
    --check) check=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "update-tables.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    /*) files+=("$arg") ;;
    *) files+=("$PWD/$arg") ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ladder=${LADDER:-$root/build/ladder}
case $ladder in
  /*) ;;
  */*) ladder=$PWD/$ladder ;;   # relative to where the script was started
esac
cd "$root"

if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  for f in tutorial/*.md README.md; do files+=("$root/$f"); done
  shopt -u nullglob
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

in_git=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1

START_RE='^<!-- ladder-table: (.*) -->$'
END_LINE='<!-- end ladder-table -->'
FENCE_RE='^ ? ? ?(```|~~~)'
VALUE_OPEN='<!-- ladder-value: '
VALUE_CLOSE='<!-- end -->'
# A comment that looks like a marker but is not exactly one (a typo, a missing colon).
NEAR_MARKER_RE='<!--[[:space:]]*(end[[:space:]]+)?ladder-(table|value)'

errors=0
stale_total=0
ladder_checked=0

# error FILE LINE MESSAGE...: one line naming the place; the file is then left unchanged.
error() {
  local file=$1 line=$2
  shift 2
  echo "${file#"$root"/}:$line: $*" >&2
  errors=$((errors + 1))
  file_errors=$((file_errors + 1))
}

# run_ladder FILE LINE ARGS...: `ladder table ARGS` into $work/out; on failure reports the
# place and ladder's message and returns 1.
run_ladder() {
  local file=$1 line=$2
  shift 2
  if [ $ladder_checked -eq 0 ]; then
    if ! command -v "$ladder" >/dev/null; then
      echo "update-tables.sh: no ladder binary at $ladder: build it (make build) or set LADDER" >&2
      exit 2
    fi
    ladder_checked=1
  fi
  local arg
  for arg in "$@"; do
    if [ $in_git -eq 1 ] && [[ $arg == *.csv ]] && git check-ignore -q -- "$arg"; then
      error "$file" "$line" "result file $arg is ignored by git: commit results under results/"
      return 1
    fi
  done
  if ! "$ladder" table "$@" >"$work/out" 2>"$work/err"; then
    error "$file" "$line" "ladder table $*: $(tr '\n' ' ' <"$work/err")"
    return 1
  fi
}

# split_args FILE LINE TEXT: the marker's arguments as shell words, into the array `argv`.
split_args() {
  if ! printf '%s' "$3" | xargs -r printf '%s\0' >"$work/argv" 2>"$work/err"; then
    error "$1" "$2" "cannot split the marker's arguments: $(tr '\n' ' ' <"$work/err")"
    return 1
  fi
  mapfile -d '' -t argv <"$work/argv"
}

# same_lines ARRAY_NAME LINE...: whether the array holds exactly these lines.
same_lines() {
  local -n have=$1
  shift
  [ ${#have[@]} -eq $# ] || return 1
  local k=0 want
  for want in "$@"; do
    [ "${have[k]}" = "$want" ] || return 1
    k=$((k + 1))
  done
}

# inline_values FILE LINE TEXT: TEXT (code spans excluded) with every ladder-value marker's
# number regenerated, into the variable `new_text`; counts stale values in `file_stale`.
inline_values() {
  local file=$1 line=$2 rest=$3 args old value plain=""
  new_text=""
  while [[ $rest == *"$VALUE_OPEN"* ]]; do
    plain+=${rest%%"$VALUE_OPEN"*}
    new_text+=${rest%%"$VALUE_OPEN"*}
    rest=${rest#*"$VALUE_OPEN"}
    if [[ $rest != *" -->"*"$VALUE_CLOSE"* ]]; then
      error "$file" "$line" "ladder-value marker without ' -->' and a closing '$VALUE_CLOSE'"
      return 1
    fi
    args=${rest%%" -->"*}
    rest=${rest#*" -->"}
    old=${rest%%"$VALUE_CLOSE"*}
    rest=${rest#*"$VALUE_CLOSE"}
    split_args "$file" "$line" "$args" || return 1
    if [ ${#argv[@]} -eq 0 ]; then
      error "$file" "$line" "ladder-value marker without a field (gflops, ms, vs-library, step-gain, gbps)"
      return 1
    fi
    run_ladder "$file" "$line" --value "${argv[@]}" || return 1
    value=$(cat "$work/out")
    if [ "$value" != "$old" ]; then
      stale+=("${file#"$root"/}:$line: ladder-value '$args': '$old' -> '$value'")
      file_stale=$((file_stale + 1))
    fi
    new_text+="$VALUE_OPEN$args -->$value$VALUE_CLOSE"
  done
  plain+=$rest
  new_text+=$rest
  # What is left must hold no marker-like comment: a typo would otherwise be kept silently.
  if [[ $plain =~ $NEAR_MARKER_RE ]]; then
    error "$file" "$line" "malformed marker '${BASH_REMATCH[0]}...': write" \
      "'<!-- ladder-table: ARGS -->' alone on its line, or" \
      "'<!-- ladder-value: FIELD ARGS -->VALUE<!-- end -->'"
    return 1
  fi
}

# inline_line FILE LINE TEXT: the line with its values regenerated, into `new_line`. Text in
# code spans (between backticks) is left alone, so prose can quote a marker.
inline_line() {
  local file=$1 line=$2 rest=$3 k=0
  local -a parts=()
  while [[ $rest == *'`'* ]]; do
    parts+=("${rest%%'`'*}")
    rest=${rest#*'`'}
  done
  parts+=("$rest")
  new_line=""
  for k in "${!parts[@]}"; do
    [ "$k" -eq 0 ] || new_line+='`'
    if [ $((k % 2)) -eq 1 ]; then
      new_line+=${parts[k]}
    else
      inline_values "$file" "$line" "${parts[k]}" || return 1
      new_line+=$new_text
    fi
  done
}

# process FILE: writes the regenerated text to $work/new; sets file_stale and file_errors.
process() {
  local file=$1 i=0 j n fence="" line start args
  local -a lines body
  mapfile -t lines <"$file"
  n=${#lines[@]}
  file_stale=0
  file_errors=0
  : >"$work/new"
  while [ $i -lt $n ]; do
    line=${lines[i]}
    if [[ $line =~ $FENCE_RE ]]; then
      if [ -z "$fence" ]; then fence=${BASH_REMATCH[1]}
      elif [ "${BASH_REMATCH[1]}" = "$fence" ]; then fence=""
      fi
    elif [ -n "$fence" ]; then
      :
    elif [[ $line =~ $START_RE ]]; then
      args=${BASH_REMATCH[1]}
      start=$((i + 1))
      j=$((i + 1))
      while [ $j -lt $n ] && [ "${lines[j]}" != "$END_LINE" ] &&
            ! [[ ${lines[j]} =~ $START_RE ]]; do
        j=$((j + 1))
      done
      if [ $j -ge $n ] || [ "${lines[j]}" != "$END_LINE" ]; then
        error "$file" "$start" "ladder-table marker without its '$END_LINE' line"
        i=$((i + 1)); printf '%s\n' "$line" >>"$work/new"; continue
      fi
      body=("")
      if split_args "$file" "$start" "$args" && run_ladder "$file" "$start" "${argv[@]}"; then
        mapfile -t -O 1 body <"$work/out"
        body+=("")
      else
        body=("${lines[@]:i+1:j-i-1}")   # keep the old text; the error is reported
      fi
      if ! same_lines body "${lines[@]:i+1:j-i-1}"; then
        stale+=("${file#"$root"/}:$start: ladder-table block")
        file_stale=$((file_stale + 1))
      fi
      printf '%s\n' "$line" >>"$work/new"
      [ ${#body[@]} -eq 0 ] || printf '%s\n' "${body[@]}" >>"$work/new"
      printf '%s\n' "${lines[j]}" >>"$work/new"
      i=$((j + 1))
      continue
    elif [ "$line" = "$END_LINE" ]; then
      error "$file" "$((i + 1))" "'$END_LINE' without a ladder-table marker before it"
    elif [[ $line == *ladder-* ]]; then
      if inline_line "$file" "$((i + 1))" "$line"; then
        line=$new_line
      fi
    fi
    printf '%s\n' "$line" >>"$work/new"
    i=$((i + 1))
  done
}

for file in "${files[@]}"; do
  if [ ! -f "$file" ]; then
    echo "update-tables.sh: no such file: $file" >&2
    exit 2
  fi
  stale=()
  process "$file"
  stale_total=$((stale_total + file_stale))
  if [ $file_stale -eq 0 ] || [ $file_errors -ne 0 ]; then
    continue
  fi
  if [ $check -eq 1 ]; then
    printf 'stale: %s\n' "${stale[@]}" >&2
    diff -u --label "${file#"$root"/} (committed)" --label "${file#"$root"/} (from the results)" \
      "$file" "$work/new" >&2 || true
  else
    cat "$work/new" >"$file"
    printf 'updated: %s\n' "${stale[@]}"
  fi
done

if [ $errors -ne 0 ]; then
  echo "update-tables.sh: $errors error(s); files with errors were left unchanged" >&2
  exit 2
fi
if [ $check -eq 1 ] && [ $stale_total -ne 0 ]; then
  echo "update-tables.sh: $stale_total stale table(s) or value(s): run tools/update-tables.sh" >&2
  exit 1
fi
exit 0
