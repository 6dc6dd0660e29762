# `ladder diff`: a rung's kernel against its parent's, comments and blank lines left out;
# the parents `ladder list` names; and the errors for a rung with no parent, a backend
# without the rung, and files that are missing. Needs no device.
source "$(dirname "$0")/lib.bash"

# diff_ok DESCRIPTION ARGS...: exits 0 with its output in $WORK/diff and nothing on stderr.
diff_ok() {
  local what=$1
  shift
  if "$LADDER" diff "$@" >"$WORK/diff" 2>"$WORK/stderr" && [ ! -s "$WORK/stderr" ]; then
    pass
  else
    fail "$what: ladder diff $* failed: $(cat "$WORK/stderr")"
  fi
}

# --- the real kernels: the parent's file, never the rung numbered before after a branch ---
diff_ok "rung 2" 2
head -n 2 "$WORK/diff" >"$WORK/labels"
printf '%s\n' '--- kernels-cuda/01-naive.cu (rung 1, the parent, without comments)' \
  '+++ kernels-cuda/02-tiling.cu (rung 2, without comments)' | cmp -s - "$WORK/labels" \
  && pass || fail "rung 2's labels: $(cat "$WORK/labels")"
grep -qxF '+    __shared__ real Asub[TS][TS];' "$WORK/diff" && pass \
  || fail "rung 2's diff lacks its tile in shared memory"
diff_ok "rung 17" 17
grep -q '^--- kernels-cuda/09-prefetch.cu (rung 9, the parent' "$WORK/diff" && pass \
  || fail "rung 17 is not compared with rung 9: $(head -n 1 "$WORK/diff")"
diff_ok "rung 15 in OpenCL" 15 --backend opencl
grep -q '^--- kernels-opencl/12-warptile.cl (rung 12' "$WORK/diff" && pass \
  || fail "OpenCL rung 15 is not compared with rung 12: $(head -n 1 "$WORK/diff")"
# Rung 10 changes the host, not the kernel: said in words, not an empty diff.
diff_ok "rung 10" 10
grep -q "are the same without comments: rung 10 changes what the host does" "$WORK/diff" \
  && pass || fail "rung 10: $(cat "$WORK/diff")"
# No comment survives in any rung's diff, and no path of this machine appears (the tutorial
# commits the output).
for n in $(seq 2 9) $(seq 11 20); do   # 10: the kernel is 9's (above)
  for backend in cuda opencl; do
    "$LADDER" diff "$n" --backend "$backend" >"$WORK/diff" 2>/dev/null || continue
    if sed -e '1,2d' -e 's/"[^"]*"//g' "$WORK/diff" | grep -qE '/\*|\*/|//'; then
      fail "rung $n $backend: a comment is left in the diff"
    elif [ "$(grep -cE '^(---|\+\+\+) kernels-(cuda|opencl)/[0-9]{2}-[a-z0-9]+\.(cu|cl) \(rung [0-9]+' \
               "$WORK/diff")" -ne 2 ] || grep -q "ladder-diff-" "$WORK/diff"; then
      fail "rung $n $backend: the labels are not the files' names in the tree: $(head -n 2 "$WORK/diff")"
    else
      pass
    fi
  done
done

# --- the stripping, exactly, on files made here -------------------------------------------
mkdir -p "$WORK/k"
printf '%s\n' '/* Rung 1 (test): a comment' ' * over two lines */' 'int a = 1; // trailing' \
  '' '' 'const char *s = "/* not a comment */";  /* gone */' "char c = '\"'; int b = 2;" \
  'x /* mid */ y' '    /* indented */ z();' >"$WORK/k/01-naive.cu"
printf '%s\n' '/* Rung 2 (test) */' 'int a = 1;' 'const char *s = "/* not a comment */";' \
  "char c = '\"'; int b = 3;" '   ' 'x y' '    z();' '// only a comment' 'w();	 ' \
  >"$WORK/k/02-tiling.cu"
cat >"$WORK/want" <<'EOF'
--- kernels-cuda/01-naive.cu (rung 1, the parent, without comments)
+++ kernels-cuda/02-tiling.cu (rung 2, without comments)
@@ -1,5 +1,6 @@
 int a = 1;
 const char *s = "/* not a comment */";
-char c = '"'; int b = 2;
+char c = '"'; int b = 3;
 x y
     z();
+w();
EOF
if LADDER_CUDA_KERNELS=$WORK/k "$LADDER" diff 2 >"$WORK/diff" 2>"$WORK/stderr" &&
   cmp -s "$WORK/want" "$WORK/diff"; then
  pass
else
  fail "stripping comments: got"; diff -u "$WORK/want" "$WORK/diff" >&2
fi

# --- ladder list names the parents --------------------------------------------------------
"$LADDER" list | grep -qxF '    parent: 9 prefetch (ladder diff 17), and 13 async' && pass \
  || fail "ladder list does not name rung 17's parents"
"$LADDER" list | sed -n '/^ 1 /,/^$/p' | grep -q "parent:" \
  && fail "ladder list names a parent for rung 1" || pass

# --- errors -------------------------------------------------------------------------------
expect_error "no rung" "which rung? usage: ladder diff RUNG" -- diff
expect_error "rung 1" "rung 1 naive has no parent: it is where the ladder starts" -- diff 1
expect_error "a baseline" "'cublas' is not a kernel rung" -- diff cublas
expect_error "no such rung" "no rung '99' (ladder list shows them)" -- diff 99
expect_error "two rungs" "one rung at a time: '3' and '4' given" -- diff 3 4
expect_error "bad backend" "--backend: 'metal' is not cuda or opencl" -- diff 3 --backend metal
expect_error "bad option" "unknown option --bogus" -- diff 3 --bogus
expect_error "CUDA-only rung in OpenCL" \
  "rung 13 async has no OpenCL kernel (CUDA only): use --backend cuda" -- diff 13 --backend opencl
for args in "1" "cublas" "3 4" "3 --backend metal"; do
  code=0
  "$LADDER" diff $args >/dev/null 2>&1 || code=$?
  [ "$code" -eq 2 ] && pass || fail "ladder diff $args: exit status $code, expected 2"
done
rm "$WORK/k/01-naive.cu"
LADDER_CUDA_KERNELS=$WORK/k expect_error "a missing file" \
  "rung 1 naive: cannot open $WORK/k/01-naive.cu" -- diff 2
code=0
LADDER_CUDA_KERNELS=$WORK/k "$LADDER" diff 2 >"$WORK/stdout" 2>/dev/null || code=$?
[ "$code" -eq 1 ] && [ ! -s "$WORK/stdout" ] && pass \
  || fail "a missing file: exit status $code (expected 1) or output on stdout"
finish
