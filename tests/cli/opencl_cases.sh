# Every case of every OpenCL rung, on the CPU through PoCL (or whatever OpenCL device there
# is): each rung runs every case its registry flags say it takes (ladder list --brief):
# single where it takes single, and double where it takes double; NN, and NT, TN, TT
# where it takes transposes; column- and row-major always; alpha and beta other than 1 and
# 0 where it takes a BLAS call's arguments. Sizes are awkward (edges in every direction, and skinny
# ones) where the rung takes any size, else multiples of its tiles that are not square, so
# that the row-major swap of M and N is exercised. No row may fail or end in an error, no
# case may be refused, every case must run ok at some size (a rung designed for some
# shapes, rung 20, refuses the others), verified in full. So this test grows by itself as
# the kernels gain cases.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }

lcm() { local a=$1 b=$2 x=$1 y=$2; while [ "$y" -ne 0 ]; do local t=$((x % y)); x=$y; y=$t; done; echo $((a / x * b)); }

while read -r number name pads m n k sm sn sk backends double trans blas single; do
  [ "$backends" = all ] || [ "$backends" = opencl ] || continue
  precisions=single; [ "$double" -eq 1 ] && precisions=single,double
  [ "$single" -eq 0 ] && precisions=double
  pairs=NN; [ "$trans" -eq 1 ] && pairs=NN,NT,TN,TT
  scalars=(); [ "$blas" -eq 1 ] && scalars=(--alpha -0.75 --beta 0.5)
  if [ "$pads" -eq 1 ] || { [ "$m" -eq 1 ] && [ "$n" -eq 1 ] && [ "$k" -eq 1 ]; }; then
    sizes=67x45x33,33x70x129,1000x7x65,5x300x17
  else
    # M and N multiples of both tile edges, so that the row-major call (N x M) fits too.
    l=$(lcm "$m" "$n")
    sizes="${l}x$((2 * l))x$((3 * k))"
  fi
  ncases=$(( $(echo "$precisions" | tr ',' '\n' | wc -l) * $(echo "$pairs" | tr ',' '\n' | wc -l) * 2 ))
  out="$WORK/rung$number.csv"
  if ! "$LADDER" run --backend opencl --rungs "$number" --sizes "$sizes" --precision "$precisions" \
       --trans "$pairs" --layout col,row "${scalars[@]}" --verify full --reps 1 --max-time 0.1 \
       --output "$out" >"$WORK/log" 2>&1; then
    fail "rung $number ($name) in $precisions $pairs col,row at $sizes:"; sed 's/^/    /' "$WORK/log" | head -20 >&2
    continue
  fi
  table=$(paste -d' ' <(column "$out" precision) <(column "$out" trans) <(column "$out" layout) \
    <(column "$out" status) <(column "$out" verify) <(column "$out" reason))
  cases_ok=$(echo "$table" | awk '$4 == "ok" && $5 == "full" { print $1, $2, $3 }' | sort -u | wc -l)
  bad=$(echo "$table" | awk '$4 != "ok" && !($4 == "unsupported" && /designed for/)')
  if [ -z "$bad" ] && [ "$cases_ok" -eq "$ncases" ]; then
    pass
  else
    fail "rung $number ($name): $cases_ok of $ncases cases ran ok"
    echo "$bad" | head -5 >&2
  fi
done < <("$LADDER" list --brief)
finish
