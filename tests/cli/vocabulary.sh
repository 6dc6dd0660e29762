# One vocabulary of options and one exit-code convention across the subcommands (README,
# "Options and exit codes"): --output, --sizes and --rungs wherever they apply, with the
# old spellings (--out, --size, --rung, tune's --candidates) as aliases, and exit 2 for a
# wrong command line in every subcommand.
source "$(dirname "$0")/lib.bash"
fixtures="$LADDER_SOURCE_DIR/tests/fixtures/plot"

# exit_status EXPECTED "what" ARGS...
exit_status() {
  local expected=$1 what=$2 code=0
  shift 2
  timeout 120 "$LADDER" "$@" >"$WORK/stdout" 2>"$WORK/stderr" || code=$?
  [ "$code" -eq "$expected" ] && pass || { fail "$what: exit $code, expected $expected"; sed 's/^/    /' "$WORK/stderr" >&2; }
}

for cmd in run tune select plot table devices list schema; do
  exit_status 2 "ladder $cmd with an unknown option" "$cmd" --no-such-option
done
exit_status 2 "a command line that is not one" frobnicate
exit_status 2 "plot without files" plot
exit_status 2 "table without files" table
exit_status 2 "tune with two rungs" tune --rungs 3,4
grep -q "a search tunes one rung" "$WORK/stderr" && pass || fail "tune --rungs 3,4: the message"
exit_status 2 "tune with a range of rungs" tune --rungs 3-5

# The canonical spellings and their aliases do the same.
exit_status 0 "run --rungs --sizes --output" run --rungs cpu --sizes 8 --output "$WORK/a.csv"
exit_status 0 "run --rung --size --out" run --rung cpu --size 8 --out "$WORK/b.csv"
exit_status 0 "run --output=FILE" run --rungs=cpu --sizes=8 --output="$WORK/c.csv"
for f in a b c; do
  [ "$(column "$WORK/$f.csv" M)" = 8 ] && pass || fail "$f.csv does not hold the one row asked for"
done
exit_status 0 "plot --output --sizes" plot --output "$WORK/fig1" --sizes 1024 --format png "$fixtures/gpu-b-opencl.csv"
exit_status 0 "plot --out --size" plot --out "$WORK/fig2" --size 1024 --format png "$fixtures/gpu-b-opencl.csv"
[ "$(ls "$WORK/fig1")" = "$(ls "$WORK/fig2")" ] && [ -n "$(ls "$WORK/fig1")" ] && pass || fail "plot's aliases drew other figures"
exit_status 0 "table --sizes --rungs" table --sizes 1024 --rungs 1-3 "$fixtures/gpu-b-opencl.csv"
cp "$WORK/stdout" "$WORK/table1"
exit_status 0 "table --size --rung" table --size 1024 --rung 1-3 "$fixtures/gpu-b-opencl.csv"
cmp -s "$WORK/stdout" "$WORK/table1" && pass || fail "table's aliases printed another table"

if has_opencl_device; then
  for spelling in --rung --rungs; do
    exit_status 0 "tune $spelling 3 --dry-run" tune --backend opencl $spelling 3 --sizes 64 --dry-run
  done
  exit_status 0 "select --rung --size --out" select --backend opencl --rung 11 --size 16 --budget 1 \
    --db "$WORK/sel.tsv" --out "$WORK/select.csv"
  [ -n "$(column "$WORK/select.csv" status)" ] && pass || fail "select --out wrote no rows file"
  exit_status 0 "tune --output (the candidates file)" tune --backend opencl --rungs 3 --size 64 --budget 1 \
    --db "$WORK/db.tsv" --output "$WORK/candidates.csv"
  [ "$(column "$WORK/candidates.csv" param_source)" = tune-candidate ] && pass || fail "tune --output wrote no candidates file"
fi
finish
