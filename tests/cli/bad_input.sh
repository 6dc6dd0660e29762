# Bad input: each gets a one-line error naming the problem, a non-zero exit, no crash, no
# hang and no result file.
source "$(dirname "$0")/lib.bash"
o=(--output "$WORK/out.csv")

expect_error "no command" "no command given" --
expect_error "unknown command" "unknown command 'frobnicate'" -- frobnicate
expect_error "unknown option" "unknown option '--bogus'" -- run --bogus "${o[@]}"
expect_error "unknown devices option" "unknown option '--x'" -- devices --x
expect_error "unknown list option" "unknown option '--x'" -- list --x
expect_error "option without value" "needs a value" -- run --sizes
expect_error "malformed size" "size 'abc' is not understood" -- run --sizes abc "${o[@]}"
expect_error "zero size" "at least 1" -- run --sizes 0 "${o[@]}"
expect_error "negative size" "'-64' is not understood" -- run --sizes=-64 "${o[@]}"
expect_error "zero dimension" "at least 1" -- run --sizes 64x0x64 "${o[@]}"
expect_error "two dimensions" "not understood" -- run --sizes 64x64 "${o[@]}"
expect_error "huge dimension" "larger than" -- run --sizes 99999999 "${o[@]}"
expect_error "overflowing number" "not understood" -- run --sizes 99999999999999999999999 "${o[@]}"
expect_error "too many elements" "2^31" -- run --sizes 65536 "${o[@]}"
expect_error "bad range" "above end" -- run --sizes 512:256:64 "${o[@]}"
expect_error "unknown rung" "unknown rung 'fastest'" -- run --rungs fastest "${o[@]}"
expect_error "missing rung number" "there is no rung 98" -- run --rungs 98-99 "${o[@]}"
expect_error "empty range" "is empty" -- run --rungs 3-1 "${o[@]}"
expect_error "unknown parameter" "no selected rung has a parameter BOGUS" -- run --rungs 1 --param BOGUS=3 "${o[@]}"
expect_error "parameter of another rung" "rung 1 is not selected or has no parameter WPT" -- run --rungs 1-3 --param 1:WPT=4 "${o[@]}"
expect_error "invalid parameter value" "WPT=5 must divide TS=32" -- run --rungs 3 --param WPT=5 "${o[@]}"
expect_error "out-of-range parameter" "out of range" -- run --rungs 2 --param TS=0 "${o[@]}"
expect_error "non-integer parameter" "is not an integer" -- run --rungs 2 --param TS=big "${o[@]}"
expect_error "malformed parameter" "expected NAME=VALUE" -- run --param TS "${o[@]}"
expect_error "bad verify mode" "--verify 'maybe'" -- run --verify maybe "${o[@]}"
expect_error "zero reps" "--reps needs an integer from 1 to 1000000" -- run --reps 0 "${o[@]}"
expect_error "bad max-time" "--max-time needs" -- run --max-time -1 "${o[@]}"
expect_error "bad seed" "--seed needs" -- run --seed x "${o[@]}"
expect_error "unknown backend" "unknown backend 'metal'" -- run --backend metal "${o[@]}"

if has_opencl_device; then
  expect_error "missing device" "no opencl device matches 'no-such-gpu'" -- run --backend opencl --device no-such-gpu "${o[@]}"
  expect_error "device index out of range" "matches '97'" -- run --backend opencl --device 97 "${o[@]}"
  # 30000^3 needs about 10 GiB for A, B and C: more than the device has (or allows).
  expect_error "size beyond device memory" "MiB" -- run --backend opencl --rungs 1 --sizes 30000 "${o[@]}"
  expect_error "library of another backend" "nothing ran" -- run --backend opencl --rungs cublas --sizes 64 "${o[@]}"
  expect_error "TF32 library of another backend" "nothing ran" -- run --backend opencl --rungs cublas-tf32 --sizes 64 "${o[@]}"
fi
if ! has_cuda_device; then
  expect_error "absent backend" "cuda" -- run --backend cuda "${o[@]}"
fi
finish
