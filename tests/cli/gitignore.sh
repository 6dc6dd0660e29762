# The files ladder run, tune and select write into the current folder by default are
# ignored by git (a run from the repository root leaves no untracked clutter), and no
# tracked file (a result under results/) matches those patterns.
source "$(dirname "$0")/lib.bash"
src=$LADDER_SOURCE_DIR
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }

cd "$WORK"
"$LADDER" run --rungs cpu --sizes 8 >/dev/null 2>&1 || fail "run with the default output"
names=(ladder-*.csv)
if has_opencl_device; then
  "$LADDER" tune --backend opencl --rung 3 --sizes 64 --budget 1 --db "$WORK/db.tsv" >/dev/null 2>&1 \
    || fail "tune with the default candidates file"
  "$LADDER" select --backend opencl --sizes 16 --rungs 11 --budget 1 --db "$WORK/sel.tsv" >/dev/null 2>&1 \
    || fail "select with the default rows file"
  names+=(tune-*.csv select-*.csv)
fi
for name in "${names[@]}"; do
  [ -f "$name" ] || { fail "no default file $name was written"; continue; }
  git -C "$src" check-ignore -q --no-index "$name" && pass || fail "$name is not ignored by .gitignore"
done
[ -z "$(git -C "$src" ls-files -ci --exclude-standard)" ] && pass \
  || fail "tracked files match .gitignore: $(git -C "$src" ls-files -ci --exclude-standard | head -3)"
finish
