# The CUBINs ladder runs, written without a GPU (test_nvrtc_compile --cubins, which
# tools/ptxas-report.sh and tools/sass-report.sh read): one per CUDA kernel rung at its
# defaults, each an ELF file; a folder that does not exist is refused before any compile.
# Skipped (exit 77) where the build has no CUDA toolkit.
source "$(dirname "$0")/lib.bash"
compile="$(dirname "$LADDER")/tests/test_nvrtc_compile"
[ -x "$compile" ] || { echo "no $compile (no CUDA toolkit): skipped"; exit 77; }

"$compile" --cubins "$WORK/missing" >"$WORK/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "not a folder" "$WORK/out" && ! ls "$WORK"/missing* >/dev/null 2>&1 \
  && pass || { fail "--cubins with no folder should exit 2 (rc $rc)"; cat "$WORK/out" >&2; }

mkdir "$WORK/cubins"
"$compile" --cubins "$WORK/cubins" >"$WORK/out" 2>&1 && pass \
  || { fail "test_nvrtc_compile --cubins"; tail -5 "$WORK/out" >&2; }
rungs=$("$LADDER" list --brief | awk '$10 == "all" || $10 == "cuda" {print $1}' | wc -l)
written=$(ls "$WORK/cubins"/*-default.cubin 2>/dev/null | wc -l)
[ "$rungs" -gt 20 ] && [ "$written" -eq "$rungs" ] && pass \
  || fail "one default CUBIN per CUDA kernel rung: $written written for $rungs rungs"
for f in "$WORK/cubins"/*.cubin; do
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || { fail "$f is not an ELF file"; break; }
done && pass
finish
