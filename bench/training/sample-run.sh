#!/usr/bin/env bash
# The sample protocol of bench/EXPERIMENTS.md: the local trainer on the sample's prepared windows for
# 1,500 steps of 256 (STEPS=N to change), export, then evaluate on UDHR and on the sample's test
# split; prints one line: training seconds, validation, UDHR windows and sentences, test windows
# and sentences.
#   bench/training/sample-run.sh OUT_DIR [--set KEY=VALUE ...]
# Needs work/detect/prepared (`./langid prepare -i data/sample/libreoffice -o work/detect/prepared`) and
# work/udhr/prepared (`./langid prepare -i data/sample/udhr -o work/udhr/prepared`).
# ENGINE=samediff evaluates graph.fb instead of model.onnx (for experimental graph changes that
# the ONNX writer does not know). TRAINER=spark trains as the pipeline does (the Spark trainer on
# local[2], two workers); STEPS=0 there means the whole epoch. PREPARED=DIR trains on another
# prepare output of the same sample (same split seed: e.g. one made with prepare.balance); the
# test split scored stays work/detect/prepared's.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$1"; shift
rm -rf "$out"; mkdir -p "$out"
cd "$home"
engine=(--engine "${ENGINE:-onnx}")
start=$(date +%s)
trainer=(--trainer local)
[ "${TRAINER:-local}" = spark ] && trainer=(--trainer spark --master 'local[2]' --workers 2)
./langid train "${trainer[@]}" -i "${PREPARED:-work/detect/prepared}" -o "$out/train" --set train.max_steps="${STEPS:-1500}" "$@" > "$out/train.log" 2>&1
seconds=$(( $(date +%s) - start ))
./langid export -i "$out/train" --to "$out/artefact" > "$out/export.log" 2>&1
./langid evaluate -m "$out/artefact" --windows work/udhr/prepared/windows --sentences work/udhr/prepared/sentences \
  "${engine[@]}" -o "$out/udhr" > "$out/udhr.log" 2>&1
./langid evaluate -m "$out/artefact" -i work/detect/prepared "${engine[@]}" -o "$out/test" > "$out/test.log" 2>&1
PYTHONPATH="$home/bench/lib" python3 - "$out" "$seconds" <<'PY'
import json, os, sys
import report_tables as rt
out, seconds = sys.argv[1:]
def accuracy(report, level):
    return rt.accuracy(f"{out}/{report}/report.json", level)
metrics = f"{out}/train/metrics.jsonl"
validation = [json.loads(l).get("validation_accuracy") for l in open(metrics)] if os.path.exists(metrics) else []
validation = [v for v in validation if v]
print(f"{os.path.basename(out)}: train {seconds}s val {100 * validation[-1] if validation else float('nan'):.2f} "
      f"udhr_win {accuracy('udhr', 'windows'):.2f} udhr_sent {accuracy('udhr', 'sentences'):.2f} "
      f"test_win {accuracy('test', 'windows'):.2f} test_sent {accuracy('test', 'sentences'):.2f}")
PY
