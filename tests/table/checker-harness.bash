# Sourced by the tests of the tutorial's checkers (answers-broken.sh, chapters-broken.sh),
# after they set `script` to the checker and define make_good, which writes a whole
# tutorial into $work/t. Each test then breaks a copy and says what the checker must print.

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_whole WHAT: on make_good's tutorial the checker exits 0.
expect_whole() {
  local rc=0
  make_good
  bash "$script" "$work/t" >"$work/out" 2>&1 || rc=$?
  [ $rc -eq 0 ] || { fail "a whole $1 reported broken (status $rc):"; cat "$work/out" >&2; }
}

# expect_broken WHAT LINE...: the script exits 1 and prints exactly these lines.
expect_broken() {
  local what=$1 rc=0
  shift
  bash "$script" "$work/t" >/dev/null 2>"$work/err" || rc=$?
  [ $rc -eq 1 ] || fail "$what: exit status $rc, expected 1"
  printf '%s\n' "$@" >"$work/want"
  diff -u "$work/want" "$work/err" >&2 || fail "$what: not reported as expected"
}

# finish_checks: bad usage (an unknown option, a missing folder) exits 2; then the verdict.
finish_checks() {
  local name rc=0
  name=$(basename "$script")
  bash "$script" --bogus >/dev/null 2>&1 || rc=$?
  [ $rc -eq 2 ] || fail "an unknown option: exit status $rc, expected 2"
  rc=0
  bash "$script" "$work/none" >/dev/null 2>&1 || rc=$?
  [ $rc -eq 2 ] || fail "a missing folder: exit status $rc, expected 2"
  [ $failures -eq 0 ] || { echo "$failures ${name%.sh} check(s) failed" >&2; exit 1; }
  echo "$name: all checks passed"
}
