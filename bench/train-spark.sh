#!/usr/bin/env bash
# Parameter-averaging overhead and scaling: training samples/s of the local trainer (no Spark,
# one core) and of the Spark trainer at local[1] and local[2] (one worker per core), same model,
# batch per worker, averaging frequency from the profile unless given. Run it on an otherwise idle
# machine. At local[1] the lone worker takes several rounds a Spark job, as train does with one
# worker (AveragingTrainer.JobSizes); at local[2] every round is a job. The profile's model has a
# million-row n-gram table: on uniformly random windows every round moves most of it, which text
# never does, so INPUT=DIR (a prepare output) times the steps on its training windows instead; MODEL="--set k=v ..." overrides the model (the
# reference model without n-grams: MODEL="--set model.layers=2 --set model.ngram_buckets=0").
# One run of each is one sample of a noisy machine (local[1] / local has spread 0.86-0.99x over
# nine runs in a row): REPEAT=N runs the three N times in turn and reports each pass's
# ratios and their medians.
#   [INPUT=DIR] [MODEL=...] [REPEAT=N] bench/train-spark.sh [SECONDS] [BATCH] [FREQUENCY]   default: 25 s, batch 256
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
repeat="${REPEAT:-1}"
locals=(); ones=(); twos=()
for ((pass = 1; pass <= repeat; pass++)); do
  local_rate="$(rate --trainer local)"
  one="$(rate --trainer spark --master 'local[1]')"
  two="$(rate --trainer spark --master 'local[2]')"
  if [ -z "$local_rate" ] || [ -z "$one" ] || [ -z "$two" ]; then
    echo "train-spark.sh: a run printed no rate; its errors are in $log" >&2
    exit 1
  fi
  locals+=("$local_rate"); ones+=("$one"); twos+=("$two")
done
rm -f "$log"
every="${frequency:-the profile-configured number of}"
echo "batch $batch per worker, averaging every $every steps, $(nproc) cores, windows: ${INPUT:-random}${MODEL:+, model: $MODEL}"
echo "local trainer (no Spark):   ${locals[*]} samples/s"
echo "spark local[1], 1 worker:   ${ones[*]} samples/s"
echo "spark local[2], 2 workers:  ${twos[*]} samples/s"
awk -v l="${locals[*]}" -v a="${ones[*]}" -v b="${twos[*]}" '
  function median(v, n,   i, j, t) {   # of v[1..n], sorted in place
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  BEGIN {
    n = split(l, L, " "); split(a, A, " "); split(b, B, " ")
    for (i = 1; i <= n; i++) { r1[i] = A[i] / L[i]; r2[i] = B[i] / A[i]; s1 = s1 sprintf(" %.2f", r1[i]); s2 = s2 sprintf(" %.2f", r2[i]) }
    if (n == 1) {
      printf "local[1] / local trainer: %.2fx (goal: >= 0.95x)\n", r1[1]
      printf "local[2] / local[1]: %.2fx (goal: >= 1.8x)\n", r2[1]
    } else {
      printf "local[1] / local trainer:%s, median %.2fx (goal: >= 0.95x)\n", s1, median(r1, n)
      printf "local[2] / local[1]:%s, median %.2fx (goal: >= 1.8x)\n", s2, median(r2, n)
    } }'
