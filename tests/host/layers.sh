#!/usr/bin/env bash
# host/ is layered: base, backends, rungs, params, core, tune, report, cli (main.c on top).
# A file may include headers of its own folder and of the folders below it, never above:
# a lower layer that includes upward drags the whole run path into, say, the registry.
# This test lists every include that breaks the order, and fails if there is one.
set -uo pipefail
host=${1:?usage: layers.sh HOST_DIR}
layers=(base backends rungs params core tune report cli)
rank() { local i; for i in "${!layers[@]}"; do [[ ${layers[$i]} == "$1" ]] && { echo "$i"; return; }; done; echo -1; }

bad=0
while IFS= read -r file; do
  rel=${file#"$host"/}
  [[ $rel == main.c ]] && continue
  own=$(rank "${rel%%/*}")
  if ((own < 0)); then
    echo "layers: $rel is in no layer (folders: ${layers[*]})"; bad=1; continue
  fi
  while IFS= read -r inc; do
    folder=${inc%%/*}
    [[ $inc == */* ]] || continue   # generated headers (ladder_version.h)
    r=$(rank "$folder")
    if ((r < 0)); then
      echo "layers: $rel includes \"$inc\", which is in no layer"; bad=1
    elif ((r > own)); then
      echo "layers: $rel (layer ${layers[$own]}) includes \"$inc\" (layer $folder, above it)"; bad=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find "$host" -name '*.[ch]' | sort)
((bad == 0)) && echo "layers: every include in $host goes down or sideways"
exit $bad
