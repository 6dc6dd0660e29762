# ladder ceilings on the OpenCL device (PoCL on a CPU here): it prints three figures that
# are positive, finite numbers (no speed is asserted); --output makes a ceilings file with
# its header, updates this device's line in place on the next run (one line per device,
# the others kept), refuses a file that is not a ceilings file unless --force; and every
# bad option is refused with one line and exit 2 before anything is measured.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }
quick=(--backend opencl --bytes 16M --reps 3 --max-time 0.1)
device=$("$LADDER" devices | sed -n 's/^opencl:0  //p')

# positive FIGURE_TEXT: a finite number above zero.
positive() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0) }'; }

# --- the table ---
code=0
timeout 300 "$LADDER" ceilings "${quick[@]}" >"$WORK/table" 2>"$WORK/stderr" || code=$?
[ "$code" -eq 0 ] || { fail "ladder ceilings exited $code: $(cat "$WORK/stderr")"; finish; exit; }
grep -qF "ceilings of opencl:0 $device" "$WORK/table" && pass || fail "no device line: $(head -1 "$WORK/table")"
for what in "FP32 FMA ceiling:GFLOPS" "FP64 FMA ceiling:GFLOPS" "read bandwidth:GB/s"; do
  label=${what%:*} unit=${what#*:}
  value=$(sed -n "s|^  $label  *\([^ ]*\) $unit .*|\1|p" "$WORK/table")
  positive "$value" && pass || fail "$label: '$value' is not a positive number: $(grep "$label" "$WORK/table")"
done
grep -q "16 MiB," "$WORK/table" && pass || fail "the read's buffer is not said"
[ ! -s "$WORK/stderr" ] && pass || fail "stderr: $(cat "$WORK/stderr")"

# --- the file: made with its header, then updated in place ---
file=$WORK/ceilings.tsv
entries() { grep -v '^#' "$file" | grep -v '^$'; }
timeout 300 "$LADDER" ceilings "${quick[@]}" --output "$file" >"$WORK/log" 2>&1 \
  && pass || fail "--output a new file: $(cat "$WORK/log")"
head -1 "$file" | grep -q '^# gemm-ladder device ceilings' && pass || fail "no header: $(head -1 "$file")"
grep -q '^#   fp64_fma_gflops' "$file" && pass || fail "the header does not name fp64_fma_gflops"
[ "$(entries | wc -l)" -eq 1 ] && pass || fail "a new file holds $(entries | wc -l) entries"
IFS=$'\t' read -r name fp32 read date source fp64 extra < <(entries)
[ "$name" = "$device" ] && pass || fail "device field '$name', want '$device'"
positive "$fp32" && positive "$read" && positive "$fp64" && [ -z "$extra" ] && pass \
  || fail "figures '$fp32' '$read' '$fp64' (extra '$extra')"
[[ $date =~ ^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$ ]] && pass || fail "date '$date'"
[[ $source == "ladder ceilings "*" on opencl" ]] && pass || fail "source '$source'"
[ ! -e "$file.partial" ] && pass || fail "a .partial file was left"

printf 'Other GPU\t100\t10\t2026-01-01\tsomewhere\n# a note\n' >>"$file"
lines=$(wc -l <"$file")
timeout 300 "$LADDER" ceilings "${quick[@]}" --out "$file" >"$WORK/log" 2>&1 \
  && pass || fail "--output an existing file: $(cat "$WORK/log")"
[ "$(entries | grep -c "^$device	")" -eq 1 ] && pass || fail "the device has $(entries | grep -c "^$device	") lines"
grep -qx 'Other GPU	100	10	2026-01-01	somewhere' "$file" && grep -qx '# a note' "$file" \
  && pass || fail "another device's line or a comment was not kept"
[ "$(wc -l <"$file")" -eq "$lines" ] && pass || fail "$lines lines became $(wc -l <"$file")"

# --- refused before anything is measured: exit 2, one line, the file as it was ---
# refused "what" "message" ARGS...
refused() {
  local what=$1 needle=$2 code=0
  shift 2
  timeout 30 "$LADDER" ceilings "$@" >"$WORK/stdout" 2>"$WORK/stderr" || code=$?
  [ "$code" -eq 2 ] || { fail "$what: exit status $code, expected 2: $(cat "$WORK/stderr")"; return; }
  grep -qF -- "$needle" "$WORK/stderr" || { fail "$what: stderr lacks '$needle': $(cat "$WORK/stderr")"; return; }
  [ "$(wc -l <"$WORK/stderr")" -eq 1 ] || { fail "$what: more than one line on stderr"; return; }
  [ ! -s "$WORK/stdout" ] || { fail "$what: it started: $(cat "$WORK/stdout")"; return; }
  pass
}
csv=$WORK/results.csv
printf 'device,rung,gflops\nFake,3,100\n' >"$csv"
cp "$csv" "$WORK/results.orig"
refused "a result file" "--output $csv is not a ceilings file" "${quick[@]}" --output "$csv"
cmp -s "$csv" "$WORK/results.orig" && pass || fail "the refused file was changed"
refused "unknown option" "unknown option '--bogus'" --bogus
refused "missing value" "option --bytes needs a value" --backend opencl --bytes
refused "words for bytes" "--bytes 'lots': give a number of bytes" --bytes lots
refused "a fraction of G" "--bytes '1.5G'" --bytes 1.5G
refused "negative bytes" "--bytes '-16'" --bytes=-16
refused "zero bytes" "at least 64K" --bytes 0
refused "too few bytes" "at least 64K" --bytes 1000
refused "not whole float4s" "a multiple of 16 bytes" --bytes 100001
refused "beyond an int of float4s" "at most 16G" --bytes 17G
refused "overflowing bytes" "at most 16G" --bytes 99999999999999999G
refused "zero reps" "--reps needs an integer" --reps 0
refused "bad max-time" "--max-time needs" --max-time soon
refused "a seed" "the probes have no random inputs" --seed 3
refused "append" "leave --append out" --append --output "$file"
refused "force alone" "--force replaces the --output file: give one" --force
refused "unknown backend" "unknown backend 'metal'" --backend metal
refused "no such device" "no opencl device matches 'no-such-device'" --backend opencl --device no-such-device
refused "a missing folder" "does not exist" "${quick[@]}" --output "$WORK/no/such/ceilings.tsv"
refused "a folder" "is a folder" "${quick[@]}" --output "$WORK"
# A buffer beyond the device, when the device has a limit below the probe's own.
largest=$("$LADDER" devices | sed -n '/^opencl:0 /,/^$/s/.*largest buffer \([0-9.]*\) GiB.*/\1/p')
if awk -v g="$largest" 'BEGIN { exit !(g < 16) }'; then
  refused "beyond the device" "allows buffers of at most" --backend opencl --bytes 16G
else
  echo "note: opencl:0 allows buffers of $largest GiB: no --bytes up to 16G is beyond it"
fi

# --force replaces what was refused.
timeout 300 "$LADDER" ceilings "${quick[@]}" --output "$csv" --force >"$WORK/log" 2>&1 \
  && pass || fail "--force: $(cat "$WORK/log")"
head -1 "$csv" | grep -q '^# gemm-ladder device ceilings' && ! grep -q 'device,rung' "$csv" \
  && [ "$(grep -vc '^#' "$csv")" -eq 1 ] && pass || fail "--force did not write the file anew"
finish
