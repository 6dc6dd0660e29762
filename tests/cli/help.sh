# --help on every subcommand: exit 0 and a usage line.
source "$(dirname "$0")/lib.bash"
for cmd in "" devices ceilings list diff lineage run tune plot table schema; do
  if out=$("$LADDER" $cmd --help 2>&1) && grep -q "usage: ladder" <<<"$out"; then
    pass
  else
    fail "ladder $cmd --help"
  fi
done
"$LADDER" --version | grep -q "^ladder " && pass || fail "--version"
"$LADDER" devices >/dev/null && pass || fail "ladder devices exits 0"
"$LADDER" list | grep -q "naive" && pass || fail "ladder list shows the rungs"
# A rung that takes only some shapes says which (rung 20's check_size), not "any".
"$LADDER" list | sed -n '/^20 /,/^$/p' | grep -q "sizes: M or N from 1 to 16" && pass \
  || fail "ladder list says which sizes rung 20 takes"
# cuBLAS in TF32 is listed as reduced precision, with the bound it is checked with.
tf32=$("$LADDER" list | sed -n '/^    cublas-tf32 /,/^$/p')
echo "$tf32" | grep -q "reduced precision" && echo "$tf32" | grep -q "u_in = 2^-10" \
  && echo "$tf32" | grep -q "u = 2^-23" && pass || fail "ladder list on cublas-tf32: $tf32"
finish
