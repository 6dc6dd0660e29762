# Shared start of the `ladder plot` tests: each is run as NAME.sh LADDER FIXTURES_DIR.
# Gives $ladder, $fixtures, a scratch folder $work (removed at exit) and fail().
set -euo pipefail
ladder=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# draw_kept FILE...: `ladder plot --keep-data` of the files into $work/figures (stdout and
# stderr in $work), and $data, the folder of the kept tables and scripts, removed at exit.
draw_kept() {
    "$ladder" plot --out "$work/figures" --keep-data "$@" > "$work/stdout" 2> "$work/stderr" \
        || { cat "$work/stderr"; fail "ladder plot $* failed"; }
    data=$(sed -n 's/^ladder plot: data tables and scripts kept in //p' "$work/stderr")
    [ -d "$data" ] || fail "--keep-data did not say where the tables are"
    trap 'rm -rf "$work" "$data"' EXIT
}

# check_picture NAME: $work/figures/NAME.png is a PNG, NAME.svg a complete SVG, and the
# PNG's path was printed on stdout.
check_picture() {
    [ "$(head -c 8 "$work/figures/$1.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
        || fail "$1.png is not a PNG"
    grep -q "</svg>" "$work/figures/$1.svg" || fail "$1.svg is not complete"
    grep -qx "$work/figures/$1.png" "$work/stdout" || fail "$1.png not listed on stdout"
}
