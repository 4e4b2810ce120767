#!/usr/bin/env bash
# Parameter-averaging overhead and scaling: training samples/s of the local trainer (no Spark,
# one core) and of the Spark trainer at local[1] and local[2] (one worker per core), same model,
# batch per worker, averaging frequency from the profile unless given. Run it on an otherwise idle
# machine. At local[1] the lone worker takes several rounds a Spark job, as train does with one
# worker (AveragingTrainer.JobSizes); at local[2] every round is a job. The profile's model has a
# million-row n-gram table: on uniformly random windows every round moves most of it, which text
# never does, so INPUT=DIR (a prepare output) times the steps on its training windows instead; MODEL="--set k=v ..." overrides the model (issue 14's default
# model: MODEL="--set model.layers=2 --set model.ngram_buckets=0").
#   [INPUT=DIR] [MODEL=...] bench/train-spark.sh [SECONDS] [BATCH] [FREQUENCY]   default: 25 s, batch 256
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-25}"
batch="${2:-256}"
frequency="${3:-}"
extra=()
[ -n "$frequency" ] && extra+=(--set train.averaging_frequency="$frequency")
[ -n "${INPUT:-}" ] && extra+=(-i "$INPUT")
# shellcheck disable=SC2206
[ -n "${MODEL:-}" ] && extra+=(${MODEL})
"$home/langid" bench train --batch "$batch" --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build outside the timing
log="$(mktemp "${TMPDIR:-/tmp}/train-spark.XXXXXX")"
rate() { "$home/langid" bench train "$@" "${extra[@]}" --batch "$batch" --seconds "$seconds" --warmup-seconds 6 2>>"$log" \
    | sed -n 's/^samples\/s: //p' || true; }   # an empty rate is reported below
local_rate="$(rate --trainer local)"
one="$(rate --trainer spark --master 'local[1]')"
two="$(rate --trainer spark --master 'local[2]')"
if [ -z "$local_rate" ] || [ -z "$one" ] || [ -z "$two" ]; then
  echo "train-spark.sh: a run printed no rate; its errors are in $log" >&2
  exit 1
fi
rm -f "$log"
every="${frequency:-the profile-configured number of}"
echo "batch $batch per worker, averaging every $every steps, $(nproc) cores, windows: ${INPUT:-random}${MODEL:+, model: $MODEL}"
echo "local trainer (no Spark):   $local_rate samples/s"
echo "spark local[1], 1 worker:   $one samples/s"
echo "spark local[2], 2 workers:  $two samples/s"
awk -v l="$local_rate" -v a="$one" -v b="$two" 'BEGIN {
  printf "local[1] / local trainer: %.2fx (issue 14: >= 0.95x)\n", a / l;
  printf "local[2] / local[1]: %.2fx (issue 14: >= 1.8x)\n", b / a }'
