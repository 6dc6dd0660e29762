#!/usr/bin/env bash
# The H100: the final sweep of the public shape set in both backends with the committed
# selection tables: every rung from 11 up, the shape-aware entry, cuBLAS and CLBlast in the
# same run. Run from the source tree with a staged build (tools/stage-for-gpu.sh).
set -u
source .stage/env.sh
export LADDER_TUNING_DB=/nonexistent/tuning.tsv LADDER_SELECTION_DB=/nonexistent/selection.tsv
O=$OUT/final; mkdir -p $O
timeout 300 tools/measure.sh $O/shapes --backend all --device H100 --rungs 11-20,auto,cublas,clblast \
  --sizes shapes --reps 20 --max-time 0.3 > $O/shapes.log 2>&1
echo "shapes exit $?"
$LADDER table --layout sizes --rungs auto,cublas,clblast $O/shapes/results.csv 2>&1 | cut -c1-200
tar czf $OUT/final.tgz -C $OUT final
