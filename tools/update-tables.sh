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
# and is replaced by the output of `ladder table --value gflops ARGS`. A diff is a pair of
# markers like a table's:
#
#     <!-- ladder-diff: 17 --backend cuda -->
#     (generated: a blank line, a ```diff fence around `ladder diff ARGS`, a blank line)
#     <!-- end ladder-diff -->
#
# ARGS are split like shell words (quotes work; nothing is expanded). Paths in ARGS are
# relative to the repository root. Markers inside fenced code blocks (``` or ~~~) are left
# alone.
#
# Every result file a marker in the tutorial (tutorial/*.md) or the top-level README names
# must be listed in the manifest, tutorial/sources.tsv (or $LADDER_SOURCES): the one place
# that says which files the tutorial is drawn from. The notes of results/ (their READMEs)
# are records of their own folder's experiments and may read any committed result file.
#
# Without --check the files are rewritten where a block is stale. With --check nothing
# changes: every stale block is listed as FILE:LINE with a diff, and the exit status is 1;
# run on the default files, --check also fails when the manifest lists a file for tables
# that no marker reads.
# Exit status 2: a marker is malformed, `ladder table` or `ladder diff` refused its
# arguments, a result file it names is not in the manifest or is ignored by git (it would
# not be there in a clone), or the manifest itself is malformed.
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

default_files=0
if [ ${#files[@]} -eq 0 ]; then
  default_files=1
  shopt -s nullglob
  for f in tutorial/*.md README.md; do files+=("$root/$f"); done
  shopt -u nullglob
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

in_git=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1

START_RE='^<!-- ladder-(table|diff): (.*) -->$'
FENCE_RE='^ ? ? ?(```|~~~)'
VALUE_OPEN='<!-- ladder-value: '
VALUE_CLOSE='<!-- end -->'
# A comment that looks like a marker but is not exactly one (a typo, a missing colon).
NEAR_MARKER_RE='<!--[[:space:]]*(end[[:space:]]+)?ladder-(table|value|diff)'

errors=0
stale_total=0
ladder_checked=0

# --- the manifest: FILE <tab> USES <tab> WHY, one result file a line ----------------------
sources=${LADDER_SOURCES:-tutorial/sources.tsv}
declare -A manifest=()   # file -> its line in the manifest
declare -A manifest_use=()
declare -A read_by_marker=()
if [ ! -f "$sources" ]; then
  echo "update-tables.sh: no manifest at $sources: it lists the result files the tutorial may read" >&2
  exit 2
fi
manifest_errors=0
lineno=0
while IFS= read -r entry || [ -n "$entry" ]; do
  lineno=$((lineno + 1))
  [[ -z $entry || $entry == \#* ]] && continue
  IFS=$'\t' read -r m_file m_use m_why m_extra <<<"$entry"
  if [ -z "$m_file" ] || [ -z "$m_use" ] || [ -z "$m_why" ] || [ -n "$m_extra" ]; then
    echo "$sources:$lineno: expected three tab-separated fields (file, uses, why)" >&2
    manifest_errors=$((manifest_errors + 1))
  elif [ ! -f "$m_file" ]; then
    echo "$sources:$lineno: $m_file: no such file" >&2
    manifest_errors=$((manifest_errors + 1))
  elif [ $in_git -eq 1 ] && git check-ignore -q -- "$m_file"; then
    echo "$sources:$lineno: $m_file is ignored by git: commit results under results/" >&2
    manifest_errors=$((manifest_errors + 1))
  else
    manifest[$m_file]=$lineno
    manifest_use[$m_file]=$m_use
  fi
done <"$sources"
[ $manifest_errors -eq 0 ] || exit 2

# error FILE LINE MESSAGE...: one line naming the place; the file is then left unchanged.
error() {
  local file=$1 line=$2
  shift 2
  echo "${file#"$root"/}:$line: $*" >&2
  errors=$((errors + 1))
  file_errors=$((file_errors + 1))
}

# run_ladder FILE LINE COMMAND ARGS...: `ladder COMMAND ARGS` (table or diff) into
# $work/out; on failure reports the place and ladder's message and returns 1. Every file
# ARGS name must be in the manifest.
run_ladder() {
  local file=$1 line=$2 command=$3
  shift 3
  if [ $ladder_checked -eq 0 ]; then
    if ! command -v "$ladder" >/dev/null; then
      echo "update-tables.sh: no ladder binary at $ladder: build it (make build) or set LADDER" >&2
      exit 2
    fi
    ladder_checked=1
  fi
  local arg
  for arg in "$@"; do
    [[ $arg == *.csv ]] || [ -f "$arg" ] || continue
    if [ $in_git -eq 1 ] && git check-ignore -q -- "$arg"; then
      error "$file" "$line" "result file $arg is ignored by git: commit results under results/"
      return 1
    fi
    if [ -z "${manifest[$arg]+set}" ] && [[ ${file#"$root"/} != results/* ]]; then
      error "$file" "$line" "$arg is not in the manifest $sources: add it there (with" \
        "what it is for and why), or read a file that is"
      return 1
    fi
    read_by_marker[$arg]=1
  done
  if ! "$ladder" "$command" "$@" >"$work/out" 2>"$work/err"; then
    error "$file" "$line" "ladder $command $*: $(tr '\n' ' ' <"$work/err")"
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
    run_ladder "$file" "$line" table --value "${argv[@]}" || return 1
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
  local file=$1 i=0 j n fence="" line start args kind end_line
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
      kind=${BASH_REMATCH[1]}
      args=${BASH_REMATCH[2]}
      end_line="<!-- end ladder-$kind -->"
      start=$((i + 1))
      j=$((i + 1))
      while [ $j -lt $n ] && [ "${lines[j]}" != "$end_line" ] &&
            ! [[ ${lines[j]} =~ $START_RE ]]; do
        j=$((j + 1))
      done
      if [ $j -ge $n ] || [ "${lines[j]}" != "$end_line" ]; then
        error "$file" "$start" "ladder-$kind marker without its '$end_line' line"
        i=$((i + 1)); printf '%s\n' "$line" >>"$work/new"; continue
      fi
      body=("")
      if split_args "$file" "$start" "$args" && run_ladder "$file" "$start" "$kind" "${argv[@]}"; then
        if [ "$kind" = diff ]; then body+=('```diff'); fi
        mapfile -t -O ${#body[@]} body <"$work/out"
        if [ "$kind" = diff ]; then body+=('```'); fi
        body+=("")
      else
        body=("${lines[@]:i+1:j-i-1}")   # keep the old text; the error is reported
      fi
      if ! same_lines body "${lines[@]:i+1:j-i-1}"; then
        stale+=("${file#"$root"/}:$start: ladder-$kind block")
        file_stale=$((file_stale + 1))
      fi
      printf '%s\n' "$line" >>"$work/new"
      [ ${#body[@]} -eq 0 ] || printf '%s\n' "${body[@]}" >>"$work/new"
      printf '%s\n' "${lines[j]}" >>"$work/new"
      i=$((j + 1))
      continue
    elif [[ $line =~ ^'<!-- end ladder-'(table|diff)' -->'$ ]]; then
      error "$file" "$((i + 1))" "'$line' without a ladder-${BASH_REMATCH[1]} marker before it"
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
# Both ways: a file the manifest lists for tables is read by some marker.
unread=0
if [ $check -eq 1 ] && [ $default_files -eq 1 ]; then
  for m_file in "${!manifest[@]}"; do
    if [[ ,${manifest_use[$m_file]}, == *,tables,* ]] && [ -z "${read_by_marker[$m_file]+set}" ]; then
      echo "$sources:${manifest[$m_file]}: $m_file is listed for tables, but no table reads it" >&2
      unread=$((unread + 1))
    fi
  done
fi
if [ $check -eq 1 ] && [ $stale_total -ne 0 ]; then
  echo "update-tables.sh: $stale_total stale table(s) or value(s): run tools/update-tables.sh" >&2
  exit 1
fi
if [ $unread -ne 0 ]; then
  echo "update-tables.sh: $unread file(s) in the manifest that no table reads: remove them or say they are for figures" >&2
  exit 1
fi
exit 0
