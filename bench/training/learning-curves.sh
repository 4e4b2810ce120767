#!/usr/bin/env bash
# Validation accuracy against training time, for a few model sizes, at equal wall-clock budgets
# on this machine. For each size its training rate is measured
# first (bench train: Spark local[2], 2 workers x 128 windows, averaging every 5 steps); then one
# run per budget trains that many minutes' worth of steps, each with its own full warm-up and
# cosine schedule, so every point is a finished run, not the middle of a longer one.
# Run it on an otherwise idle machine; the validation pass after each run is outside the budget.
#   bench/training/learning-curves.sh PREPARED [MINUTES...]          default minutes: 5 10 20
#   SIZES="32/2/1/64 64/4/2/128 96/4/2/192" (d_model/heads/layers/ffn; the default model is 64/4/2/128)
#   OUT=work/curves                                          where the runs go
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prepared="${1:?usage: bench/training/learning-curves.sh PREPARED [MINUTES...]}"
shift
minutes=("$@")
[ ${#minutes[@]} -gt 0 ] || minutes=(5 10 20)
read -r -a sizes <<< "${SIZES:-32/2/1/64 64/4/2/128 96/4/2/192}"
out="${OUT:-work/curves}"
workers=2
batch=128

"$home/langid" bench train --batch 16 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build outside the timing
mkdir -p "$out"
results="$out/results.tsv"
printf 'size\tparameters\tsamples_per_s\tminutes\tsteps\tsamples\ttrain_seconds\tvalidation_accuracy\n' > "$results"
for size in "${sizes[@]}"; do
  IFS=/ read -r d heads layers ffn <<< "$size"
  model=(--set model.d_model="$d" --set model.heads="$heads" --set model.layers="$layers" --set model.ffn="$ffn")
  rate="$("$home/langid" bench train --trainer spark --master "local[$workers]" --batch "$batch" \
          --set train.averaging_frequency=5 "${model[@]}" --seconds 20 --warmup-seconds 6 2>/dev/null \
          | sed -n 's/^samples\/s: //p')"
  for m in "${minutes[@]}"; do
    steps="$(awk -v m="$m" -v r="$rate" -v w="$workers" -v b="$batch" 'BEGIN { printf "%d", m * 60 * r / (w * b) }')"
    run="$out/d$d-h$heads-l$layers-f$ffn-${m}min"
    "$home/langid" train --trainer spark --master "local[$workers]" --workers "$workers" -i "$prepared" -o "$run" \
      "${model[@]}" --set train.batch_size="$batch" --set train.averaging_frequency=5 \
      --set train.epochs=100 --set train.max_steps="$steps" > "$run.log" 2>&1
    python3 - "$run/train-summary.json" "$size" "$rate" "$m" "$steps" >> "$results" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
epochs = summary["epochs"]
seconds = sum(e["seconds"] for e in epochs)
samples = round(sum(e["seconds"] * e["samples_per_second"] for e in epochs))
print("\t".join([sys.argv[2], str(summary["parameters"]), sys.argv[3], sys.argv[4], sys.argv[5], str(samples),
                 "%.0f" % seconds, "%.4f" % epochs[-1]["validation_accuracy"]]))
PY
    tail -1 "$results"
  done
done
column -t -s $'\t' "$results"
