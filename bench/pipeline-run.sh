#!/usr/bin/env bash
# The pipeline protocol of bench/EXPERIMENTS.md ("Protocols and noise"): the default `./langid pipeline`
# (prepare, Spark training on local[*], export, evaluation on the sample's test split and on its two
# out-of-genre check sets, UDHR and the games: OpenTTD, Wesnoth, Freeciv, GCompris) into OUT_DIR with
# the given settings; prints one line: whole-run seconds, then the model's windows and sentences of
# the test split, UDHR and the games.
# The pipeline's wall time counts only when nothing else runs on the machine.
#   bench/pipeline-run.sh OUT_DIR [--set KEY=VALUE ...]
#   e.g. bench/pipeline-run.sh /tmp/p-e2 --set train.epochs=2 --set train.seed=7
# KEEP_TRAIN=1 keeps OUT_DIR/prepared's training windows (removed otherwise, the test split stays
# for later evaluations; bench/fasttext-peer.sh needs them).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: bench/pipeline-run.sh OUT_DIR [--set KEY=VALUE ...]" >&2; exit 2; }
out="$1"; shift
rm -rf "$out"; mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$home"
start=$(date +%s)
./langid pipeline -w "$out" "$@" > "$out/pipeline.log" 2>&1 || { echo "pipeline-run: the pipeline failed; see $out/pipeline.log" >&2; exit 1; }
seconds=$(( $(date +%s) - start ))
[ "${KEEP_TRAIN:-0}" = 1 ] || rm -rf "$out/prepared/windows/split=train"
PYTHONPATH="$home/bench/lib" python3 - "$out" "$seconds" <<'PY'
import os, sys
import report_tables as rt
out, seconds = sys.argv[1:]
def accuracy(report, level):
    return rt.accuracy(f"{out}/{report}/report.json", level)
print(f"{os.path.basename(out)}: pipeline {seconds}s test_win {accuracy('report', 'windows'):.2f} "
      f"test_sent {accuracy('report', 'sentences'):.2f} udhr_win {accuracy('report-udhr', 'windows'):.2f} "
      f"udhr_sent {accuracy('report-udhr', 'sentences'):.2f} games_win {accuracy('report-games', 'windows'):.2f} "
      f"games_sent {accuracy('report-games', 'sentences'):.2f}")
PY
