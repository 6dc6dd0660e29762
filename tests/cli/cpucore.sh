# Rung 27 (a kernel shaped for a CPU core) on the OpenCL device: every size, every
# parameter shape of its micro-kernel, K split and not, every case, and bad parameters.
# - Awkward shapes (1x1x1, a single row or column, K = 1, prime sizes, M below the vector
#   width, sizes just off the blocks) verified in full with the defaults and with blocks
#   of other shapes: scalar rows (VW = 1), a block of 4 x 3 in work-groups of 4 x 2, and
#   8 x 12 with GPC = 64, which asks for more slices of K than most of these K have
#   16-deep pieces (the host then launches fewer; K = 1 and K = 5 stay one slice).
# - K split (GPC = 64) in every case: single and double, the four transpose pairs, both
#   layouts, alpha and beta other than 1 and 0 (the reduction kernel applies them).
# - A transposed A or B with K whole, where it is copied first and where it is not.
# - A parameter the kernel cannot take is an error naming it, with a non-zero exit.
source "$(dirname "$0")/lib.bash"
has_opencl_device || { echo "no OpenCL device: skipped"; exit 77; }

shapes="1x1x1,1x300x1,300x1x300,64x64x1,1x1x1000,127x131x137,1000x7x5,7x1000x5,17x16x33,255x257x33,5x3x97,15x17x4099"
count=$(tr ',' '\n' <<<"$shapes" | wc -l)
for params in "" "VW=1 NR=1" "VW=4 NR=3 LX=4 LY=2" "VW=8 NR=12 GPC=64"; do
  args=(); for p in $params; do args+=(--param "27:$p"); done
  out="$WORK/anysize.csv"
  if ! "$LADDER" run --backend opencl --rungs 27 --defaults "${args[@]}" --sizes "$shapes" \
       --verify full --reps 2 --max-time 0.1 --output "$out" --force >"$WORK/log" 2>&1; then
    fail "rung 27 ${params:-(defaults)} on awkward shapes:"; sed 's/^/    /' "$WORK/log" >&2
    continue
  fi
  [ "$(column "$out" status | sort -u)" = ok ] && [ "$(column "$out" status | wc -l)" -eq "$count" ] \
    && pass || { fail "rung 27 ${params:-(defaults)}: not every row ok"; cat "$out" >&2; }
done

out="$WORK/cases.csv"
if "$LADDER" run --backend opencl --rungs 27 --defaults --param 27:GPC=64 --param 27:NR=4 \
     --sizes 33x20x300,5x40x129 --precision single,double --trans NN,NT,TN,TT --layout col,row \
     --alpha -0.75 --beta 0.5 --verify full --reps 1 --max-time 0.1 --output "$out" \
     >"$WORK/log" 2>&1; then
  [ "$(column "$out" status | sort -u)" = ok ] && [ "$(column "$out" status | wc -l)" -eq 32 ] \
    && pass || { fail "rung 27 with K split: not every case ok"; cat "$out" >&2; }
else
  fail "rung 27 with K split, every case:"; sed 's/^/    /' "$WORK/log" >&2
fi

# A transposed A or B, K not split: A copied into the workspace first where C has 4
# blocks of columns or more (131, 300, 257 and 40 columns), read as it is where it has
# fewer (16, 1); B where C has 4 blocks of rows or more (127, 255 and 300 rows).
out="$WORK/transposed.csv"
if "$LADDER" run --backend opencl --rungs 27 --defaults --trans NT,TN,TT --layout col,row \
     --precision single,double --sizes 127x131x137,17x16x33,1x300x1,255x257x33,5x40x129,300x1x300 \
     --alpha 1.5 --beta -1 --verify full --reps 1 --max-time 0.1 --output "$out" \
     >"$WORK/log" 2>&1; then
  [ "$(column "$out" status | sort -u)" = ok ] && [ "$(column "$out" status | wc -l)" -eq 72 ] \
    && pass || { fail "rung 27 with a transposed operand: not every case ok"; cat "$out" >&2; }
else
  fail "rung 27 with a transposed operand:"; sed 's/^/    /' "$WORK/log" >&2
fi

o=(--backend opencl --rungs 27 --sizes 64 --output "$WORK/out.csv")
expect_error "vector width not a vector's" "VW=3 must be 1, 2, 4, 8 or 16" -- run --param 27:VW=3 "${o[@]}"
expect_error "no columns" "NR=0 is out of range" -- run --param 27:NR=0 "${o[@]}"
expect_error "no work-groups per unit" "GPC=0 is out of range" -- run --param 27:GPC=0 "${o[@]}"
finish
