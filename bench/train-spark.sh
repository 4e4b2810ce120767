#!/usr/bin/env bash
# Parameter-averaging overhead and scaling: training samples/s of the local trainer (no Spark,
# one core) and of the Spark trainer at local[1] and local[2] (one worker per core), same model,
# batch per worker, averaging frequency from the profile. Run it on an otherwise idle machine.
#   bench/train-spark.sh [SECONDS] [BATCH] [FREQUENCY]   default: 25 s, batch 256, averaging every 20 steps
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-25}"
batch="${2:-256}"
frequency="${3:-20}"
"$home/langid" bench train --batch "$batch" --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build outside the timing
rate() { "$home/langid" bench train "$@" --set train.averaging_frequency="$frequency" --batch "$batch" --seconds "$seconds" --warmup-seconds 6 2>/dev/null | sed -n 's/^samples\/s: //p'; }
local_rate="$(rate --trainer local)"
one="$(rate --trainer spark --master 'local[1]')"
two="$(rate --trainer spark --master 'local[2]')"
echo "batch $batch per worker, averaging every $frequency steps, $(nproc) cores"
echo "local trainer (no Spark):   $local_rate samples/s"
echo "spark local[1], 1 worker:   $one samples/s"
echo "spark local[2], 2 workers:  $two samples/s"
awk -v l="$local_rate" -v a="$one" -v b="$two" 'BEGIN {
  printf "Spark overhead at 1 worker: %.1f%% (goal < 10%%)\n", 100 * (1 - a / l);
  printf "local[2] / local[1]: %.2fx (goal >= 1.7x)\n", b / a }'
