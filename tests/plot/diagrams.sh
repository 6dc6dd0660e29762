#!/usr/bin/env bash
# tools/draw-diagrams.sh: the committed diagrams of the ideas are what the scripts draw
# today from the registry's defaults; a stale, missing or extra picture, or a changed
# default, is caught; PNGs can be drawn; bad input is refused.
# Usage: diagrams.sh LADDER SOURCE_DIR
set -euo pipefail
ladder=$1
root=$2
draw=$root/tools/draw-diagrams.sh
committed=$root/tutorial/figures/diagrams
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export LADDER=$ladder

# --- the committed pictures are fresh ---
LADDER=$ladder bash "$draw" --check > "$work/out" 2> "$work/err" \
    || { cat "$work/err"; fail "the committed diagrams are stale (run tools/draw-diagrams.sh)"; }
grep -q 'diagrams match' "$work/out" || fail "--check said nothing: $(cat "$work/out")"
# One picture per script, and every idea the tutorial shows has one.
for stem in 02-tiling 03-wpt 05-transpose 06-regblock 12-warptile 16-tf32x3 19-splitk \
            20-skinny-tall 20-skinny-wide 21-wgmma 23-specialized 25-dmma; do
    [ -f "$root/plots/diagrams/$stem.gp" ] || fail "no script plots/diagrams/$stem.gp"
    [ -f "$committed/$stem.svg" ] || fail "no committed $stem.svg"
done

# --- a copy with one picture changed, one removed and one extra: each is named ---
cp -r "$committed" "$work/copy"
sed -i 's/TS = 32/TS = 33/' "$work/copy/02-tiling.svg"
rm "$work/copy/03-wpt.svg"
cp "$work/copy/06-regblock.svg" "$work/copy/99-nothing.svg"
if bash "$draw" --check --out "$work/copy" 2> "$work/err"; then
    fail "--check passed a changed copy"
fi
grep -q '^stale: .*02-tiling.svg' "$work/err" || fail "the changed picture is not named: $(cat "$work/err")"
grep -q '^missing: .*03-wpt.svg' "$work/err" || fail "the missing picture is not named: $(cat "$work/err")"
grep -q '^extra: .*99-nothing.svg' "$work/err" || fail "the extra picture is not named: $(cat "$work/err")"
cmp -s "$work/copy/06-regblock.svg" "$committed/06-regblock.svg" || fail "--check changed a file"

# --- a changed default in the registry makes its picture stale: the pictures follow it ---
cat > "$work/fake-ladder" <<EOF
#!/usr/bin/env bash
"$ladder" "\$@" | sed '/^02-tiling default/s/-DTS=32/-DTS=16/; /^12-warptile default/s/-DWM=64/-DWM=32/; /^23-specialized default/s/-DSTAGES=[0-9]*/-DSTAGES=2/; /^25-dmma default/s/-DTSM=128/-DTSM=64/'
EOF
chmod +x "$work/fake-ladder"
if LADDER=$work/fake-ladder bash "$draw" --check 2> "$work/err"; then
    fail "--check passed with other defaults"
fi
grep -q '^stale: .*02-tiling.svg' "$work/err" || fail "TS = 16 did not change rung 2's picture"
grep -q '^stale: .*12-warptile.svg' "$work/err" || fail "WM = 32 did not change rung 12's picture"
grep -q '^stale: .*23-specialized.svg' "$work/err" || fail "STAGES = 2 did not change rung 23's picture"
grep -q '^stale: .*25-dmma.svg' "$work/err" || fail "TSM = 64 did not change rung 25's picture"
if grep -q '03-wpt' "$work/err"; then fail "an unchanged rung was called stale: $(cat "$work/err")"; fi

# --- PNGs, for slides: every script draws one ---
bash "$draw" --format png --out "$work/png" > "$work/out" || fail "--format png failed"
count=0
for png in "$work"/png/*.png; do
    [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$png is not a PNG"
    grep -qx "$png" "$work/out" || fail "$png not listed on stdout"
    count=$((count + 1))
done
[ "$count" -eq "$(ls "$root"/plots/diagrams/[0-9][0-9]-*.gp | wc -l)" ] || fail "$count PNGs for $(ls "$root"/plots/diagrams/[0-9][0-9]-*.gp | wc -l) scripts"

# --- bad input: a clear line and the right exit status, nothing drawn ---
expect() { # expect STATUS PATTERN ARGS...
    local want=$1 pattern=$2 rc=0
    shift 2
    bash "$draw" "$@" > /dev/null 2> "$work/err" || rc=$?
    [ "$rc" -eq "$want" ] || fail "draw-diagrams.sh $* exited $rc, expected $want"
    grep -q "$pattern" "$work/err" || fail "draw-diagrams.sh $*: message '$(cat "$work/err")' lacks '$pattern'"
}
expect 2 "'gif' is not svg or png" --format gif --out "$work/bad"
expect 2 "unknown argument '--frobnicate'" --frobnicate
expect 2 "leave out --format png" --check --format png
expect 2 "needs a folder" --out
expect 1 "is not a folder of diagrams" --check --out "$work/none"
[ ! -e "$work/bad" ] || fail "a refused command line made its folder"
LADDER=$work/none expect 1 "no ladder binary" --out "$work/bad"
LADDER_GNUPLOT=false expect 1 "gnuplot failed on 02-tiling.gp" --out "$work/bad"
[ -z "$(ls -A "$work/bad" 2> /dev/null)" ] || fail "a failed drawing left a picture behind"

echo "diagrams: all checks passed"
