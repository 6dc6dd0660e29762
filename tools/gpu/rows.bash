# Sourced by the H100 check scripts (check-hopper.sh, check-dmma.sh, check-skinny.sh):
# the rows of their result files that are not ok. Needs python3 (the driver column of a
# result file holds commas inside quotes) and a variable `status` that starts at 0.

# not_ok FILE...: one line per row that is not ok, "rung params MxNxK status reason", and
# one per file that is missing (a run that failed before it wrote one).
not_ok() {
  python3 - "$@" <<'PY'
import csv, os, sys
for f in sys.argv[1:]:
    if not os.path.exists(f):
        print(f"{f}: no result file (its .log says why)")
        continue
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok":
            print(r["rung_name"], r["params"], f'{r["M"]}x{r["N"]}x{r["K"]}', r["status"], r["reason"])
PY
}

# report FILE...: prints the rows that are not ok; the status becomes 1 if there are any.
report() {
  local bad
  bad=$(not_ok "$@")
  [ -z "$bad" ] || { echo "$bad"; status=1; }
}
