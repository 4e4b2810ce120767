#!/usr/bin/env bash
# Step replay against SameDiff's session (bench/EXPERIMENTS.md, "Training speed: the step"): the local trainer on
# one native thread, the same command with --set train.execution=samediff and =replay alternated in
# one run, for the profile's model on a prepare output's training windows and the reference model
# (no n-grams) on random windows. Run it on an otherwise idle machine.
#   bench/training/replay.sh [SECONDS] [PREPARED]     default: 15 s, work/pipeline/prepared
# PREPARED comes from ./langid prepare -i data/sample/libreoffice -o work/pipeline/prepared
# (or ./langid pipeline).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-15}"
prepared="${2:-$home/work/pipeline/prepared}"
[ -d "$prepared/windows" ] || { echo "replay.sh: no prepared windows at $prepared (run ./langid prepare first)" >&2; exit 1; }
reference=(--set model.d_model=64 --set model.heads=4 --set model.layers=2 --set model.ffn=128 --set model.ngram_buckets=0
         --set model.positional=true --set train.dropout=0)
"$home/langid" bench train --batch 256 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build outside the timing
header=("session/s" "replay/s")
rate() {   # rate samediff|replay ARGS...
  local execution="$1"; shift
  OMP_NUM_THREADS=1 "$home/langid" bench train --trainer local --seconds "$seconds" --set train.execution="$execution" "$@" \
    2>/dev/null | sed -n 's/^samples\/s: //p'
}
printf '%-38s %6s %12s %10s %7s\n' model batch "${header[0]}" "${header[1]}" gain
row() {   # row NAME BATCH ARGS...
  local name="$1" batch="$2"; shift 2
  local off on
  off="$(rate samediff --batch "$batch" "$@")"
  on="$(rate replay --batch "$batch" "$@")"
  awk -v n="$name" -v b="$batch" -v o="$off" -v r="$on" 'BEGIN { printf "%-38s %6s %12.0f %10.0f %6.2fx\n", n, b, o, r, r / o }'
}
row "profile's, the prepared windows" 256 -i "$prepared"
row "profile's, the prepared windows" 32 -i "$prepared"
row "reference (no n-grams), random" 256 "${reference[@]}"
row "reference (no n-grams), random" 1024 "${reference[@]}"
