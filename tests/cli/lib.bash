# Shared helpers for the CLI tests. Each test script: bash tests/cli/NAME.sh path/to/ladder
set -u
LADDER=${1:?usage: $0 path/to/ladder}
WORK=$(mktemp -d /tmp/ladder-cli-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failures=0
passes=0

pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_error "description" "message substring" -- args...: the command must exit with a
# non-zero status, print the substring on stderr, and leave no result file behind.
expect_error() {
  local what=$1 needle=$2
  shift 3
  local out="$WORK/out.csv"
  rm -f "$out" "$out.partial"
  local code=0
  timeout 120 "$LADDER" "$@" >"$WORK/stdout" 2>"$WORK/stderr" || code=$?
  if [ "$code" -eq 0 ]; then
    fail "$what: exit status 0, expected an error"; return
  fi
  if [ "$code" -ge 124 ] && [ "$code" -ne 130 ]; then
    fail "$what: exit status $code (timeout or crash)"; return
  fi
  if ! grep -qF -- "$needle" "$WORK/stderr"; then
    fail "$what: stderr lacks '$needle':"; sed 's/^/    /' "$WORK/stderr" >&2; return
  fi
  if [ "$(wc -l <"$WORK/stderr")" -gt 3 ]; then
    fail "$what: error message longer than 3 lines"; return
  fi
  if [ -e "$out" ] || [ -e "$out.partial" ]; then
    fail "$what: a result file was left behind"; return
  fi
  pass
}

# has_opencl_device: 0 if `ladder devices` lists an OpenCL device.
has_opencl_device() { "$LADDER" devices 2>/dev/null | grep -q '^opencl:0 '; }
has_cuda_device() { "$LADDER" devices 2>/dev/null | grep -q '^cuda:0 '; }

# column FILE NAME: prints that column of a result file. Fields may be quoted and hold
# commas (CUDA's driver field does: "CUDA driver 13.0, NVRTC 13.0, ..."), so the split
# follows CSV quoting; plain POSIX awk, no gawk extensions.
column() {
  awk -v name="$2" '
    function split_csv(line, out,    n, i, c, field, quoted) {
      n = 0; field = ""; quoted = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (quoted) {
          if (c == "\"") {
            if (substr(line, i + 1, 1) == "\"") { field = field c; i++ } else quoted = 0
          } else field = field c
        } else if (c == "\"") quoted = 1
        else if (c == ",") { out[++n] = field; field = "" }
        else field = field c
      }
      out[++n] = field
      return n
    }
    { n = split_csv($0, f) }
    NR == 1 { for (i = 1; i <= n; i++) if (f[i] == name) c = i; next }
    $0 == "" { next }
    { print f[c] }' "$1"
}

# fnv1a64 FILE: the FNV-1a 64-bit hash of the file's bytes, computed independently of
# ladder: what tables written until 2026-11-29 record (they still match an unchanged file).
fnv1a64() {
  local h=$((0xcbf29ce484222325)) b
  for b in $(od -An -v -tu1 "$1"); do h=$(( (h ^ b) * 0x100000001b3 )); done
  printf '%016x\n' "$h"
}

# strip_comments FILE: the file's code as ladder fingerprints it (host/base/source_strip.c),
# written again in awk so the test does not take ladder's word for it: comments go (a block
# comment becomes one space, and blanks after it are not doubled), trailing blanks go, and
# so does every line left empty; string and character literals are kept whole.
strip_comments() {
  awk '
    function end_line() { sub(/[ \t]+$/, "", out); if (out != "") print out; out = "" }
    {
      n = length($0)
      for (i = 1; i <= n; i++) {
        c = substr($0, i, 1); two = substr($0, i, 2)
        if (after && (c == " " || c == "\t") && out ~ /[ \t]$/) continue
        after = 0
        if (block) { if (two == "*/") { block = 0; after = 1; i++ } continue }
        if (two == "/*") { block = 1; if (out != "" && out !~ /[ \t]$/) out = out " "; i++; continue }
        if (two == "//") break
        out = out c
        if (c == "\"" || c == "\047") {
          for (i++; i <= n; i++) {
            d = substr($0, i, 1); out = out d
            if (d == "\\" && i < n) { i++; out = out substr($0, i, 1) } else if (d == c) break
          }
        }
      }
      if (!block) end_line()
      after = 0
    }
    END { end_line() }' "$1"
}

# code_fnv1a64 FILE: the kernel fingerprint the tuning database and the selection tables
# record: the FNV-1a 64-bit hash of the file's code (strip_comments).
code_fnv1a64() {
  local code
  code=$(mktemp)
  strip_comments "$1" >"$code"
  fnv1a64 "$code"
  rm -f "$code"
}

# interrupt LOG COMMAND...: runs COMMAND in the background with its output in LOG, sends
# it Ctrl-C once it has printed its first progress line ("[1/..."), and sets $code to its
# exit status. LOG must be a file no earlier command wrote: with a reused one, a stale
# '[1/' line could let the signal reach the background job while it is still a forked
# copy of this shell, before exec, and that copy runs the EXIT trap, deleting $WORK.
# ladder itself prints '[1/' only once its handler is in place.
interrupt() {
  local log=$1 pid
  shift
  "$@" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do grep -qs '^\[1/' "$log" && break; sleep 0.5; done
  kill -INT "$pid"
  code=0
  wait "$pid" || code=$?
}

finish() {
  echo "$passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
