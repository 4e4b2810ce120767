#!/usr/bin/env bash
# The pipeline protocol of bench/EXPERIMENTS.md ("Protocols and noise"): the default `./langid pipeline`
# (prepare, Spark training on local[*], export, evaluation on the sample's test split) into OUT_DIR
# with the given settings, then the model on the two other genres, UDHR and the Wesnoth set; prints
# one line: whole-run seconds, then windows and sentences of the test split, UDHR and Wesnoth.
# The pipeline's wall time counts only when nothing else runs on the machine.
#   bench/pipeline-run.sh OUT_DIR [--set KEY=VALUE ...]
#   e.g. bench/pipeline-run.sh /tmp/p-kd --set train.distillation.weight=0.5 --set train.seed=7
# Needs work/udhr/prepared (`./langid prepare -i data/sample/udhr -o work/udhr/prepared`); prepares
# work/wesnoth/prepared from data/sample/wesnoth when it is missing.
# KEEP_TRAIN=1 keeps OUT_DIR/prepared's training windows (~400 MB; removed otherwise, the test
# split stays for later evaluations).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: bench/pipeline-run.sh OUT_DIR [--set KEY=VALUE ...]" >&2; exit 2; }
out="$1"; shift
[ -d "$home/work/udhr/prepared" ] || { echo "pipeline-run: no work/udhr/prepared (./langid prepare -i data/sample/udhr -o work/udhr/prepared)" >&2; exit 1; }
rm -rf "$out"; mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$home"
if [ ! -f work/wesnoth/prepared/summary.json ]; then
  ./langid prepare -i data/sample/wesnoth -o work/wesnoth/prepared --overwrite > "$out/wesnoth-prepare.log" 2>&1 \
    || { echo "pipeline-run: preparing data/sample/wesnoth failed; see $out/wesnoth-prepare.log" >&2; exit 1; }
fi
start=$(date +%s)
./langid pipeline -w "$out" "$@" > "$out/pipeline.log" 2>&1 || { echo "pipeline-run: the pipeline failed; see $out/pipeline.log" >&2; exit 1; }
seconds=$(( $(date +%s) - start ))
./langid evaluate -m "$out/registry" --windows work/udhr/prepared/windows --sentences work/udhr/prepared/sentences \
  -o "$out/udhr" > "$out/udhr.log" 2>&1 || { echo "pipeline-run: the UDHR evaluation failed; see $out/udhr.log" >&2; exit 1; }
./langid evaluate -m "$out/registry" --windows work/wesnoth/prepared/windows --sentences work/wesnoth/prepared/sentences \
  -o "$out/wesnoth" > "$out/wesnoth.log" 2>&1 || { echo "pipeline-run: the Wesnoth evaluation failed; see $out/wesnoth.log" >&2; exit 1; }
[ "${KEEP_TRAIN:-0}" = 1 ] || rm -rf "$out/prepared/windows/split=train"
PYTHONPATH="$home/bench/lib" python3 - "$out" "$seconds" <<'PY'
import os, sys
import report_tables as rt
out, seconds = sys.argv[1:]
def accuracy(report, level):
    return rt.accuracy(f"{out}/{report}/report.json", level)
print(f"{os.path.basename(out)}: pipeline {seconds}s test_win {accuracy('report', 'windows'):.2f} "
      f"test_sent {accuracy('report', 'sentences'):.2f} udhr_win {accuracy('udhr', 'windows'):.2f} "
      f"udhr_sent {accuracy('udhr', 'sentences'):.2f} wes_win {accuracy('wesnoth', 'windows'):.2f} "
      f"wes_sent {accuracy('wesnoth', 'sentences'):.2f}")
PY
