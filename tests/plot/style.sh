#!/usr/bin/env bash
# plots/style.gp gives each rung its own line type: rung n is drawn with type n for every n
# up to the number of types defined (`set linetype cycle N`), and only after that do the
# colours repeat. Usage: style.sh PLOTS_DIR
set -euo pipefail
style=$1/style.gp
fail() { echo "FAIL: $*" >&2; exit 1; }
types=$(sed -n 's/^set linetype cycle \([0-9]*\)$/\1/p' "$style")
[ -n "$types" ] || fail "no 'set linetype cycle N' in $style"
got=$(gnuplot -e "load '$style'; do for [n=1:$((types + 1))] { print rung_type(n) }" 2>&1)
want=$(seq 1 "$types"; echo 1)
[ "$got" = "$want" ] || fail "rung_type(1..$((types + 1))) gave $(echo $got), want $(echo $want)"
echo "ok: rungs 1-$types each have their own line type"
