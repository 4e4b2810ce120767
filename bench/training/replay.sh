#!/usr/bin/env bash
# Step replay against SameDiff's session (bench/EXPERIMENTS.md, "Training speed: the step"): the local trainer on
# one native thread, the same command with -Dlangid.step_replay=true and =false alternated in one
# run, for the profile's model on a prepare output's training windows and the reference model (no
# n-grams) on random windows. Run it on an otherwise idle machine.
#   bench/training/replay.sh [SECONDS] [PREPARED]     default: 15 s, work/pipeline/prepared
# SWITCH=products compares, within replayed steps, every call on libnd4j's own op
# (-Dlangid.step_kernels=false) against the replacements: fused layer norms, the attention's
# products and permutes on the JDK's vector API, sums as oneDNN products (bench/EXPERIMENTS.md).
# SWITCH=attention compares each attention core as separate calls
# (-Dlangid.step_replay.attention_fusion=false) against one fused pass per block, forward and
# backward (AttentionFusion), with two more rows at batch 1024: the profile's model and the
# pipeline's width (d 128, heads of 32).
# SWITCH=by_rows compares the fused cores' general passes (-Dlangid.step_replay.attention_by_rows=false)
# against the by-row passes of (16, 16) blocks (one vector a row with AVX-512, two with AVX2), the
# same rows as SWITCH=attention; the pipeline's heads of 32 take the general passes either way.
# PREPARED comes from ./langid prepare -i data/sample/libreoffice -o work/pipeline/prepared
# (or ./langid pipeline).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-15}"
prepared="${2:-$home/work/pipeline/prepared}"
[ -d "$prepared/windows" ] || { echo "replay.sh: no prepared windows at $prepared (run ./langid prepare first)" >&2; exit 1; }
reference=(--set model.d_model=64 --set model.heads=4 --set model.layers=2 --set model.ffn=128 --set model.ngram_buckets=0
         --set model.positional=true --set model.dropout=0)
"$home/langid" bench train --batch 256 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build outside the timing
property=langid.step_replay; header=("session/s" "replay/s")
[ "${SWITCH:-replay}" = products ] && { property=langid.step_kernels; header=("libnd4j/s" "replaced/s"); }
[ "${SWITCH:-replay}" = attention ] && { property=langid.step_replay.attention_fusion; header=("separate/s" "fused/s"); }
[ "${SWITCH:-replay}" = by_rows ] && { property=langid.step_replay.attention_by_rows; header=("general/s" "by rows/s"); }
rate() {   # rate true|false ARGS...
  local on="$1"; shift
  LANGID_JAVA_OPTS="${LANGID_JAVA_OPTS:-} -D$property=$on" OMP_NUM_THREADS=1 \
    "$home/langid" bench train --trainer local --seconds "$seconds" "$@" 2>/dev/null | sed -n 's/^samples\/s: //p'
}
printf '%-38s %6s %12s %10s %7s\n' model batch "${header[0]}" "${header[1]}" gain
row() {   # row NAME BATCH ARGS...
  local name="$1" batch="$2"; shift 2
  local off on
  off="$(rate false --batch "$batch" "$@")"
  on="$(rate true --batch "$batch" "$@")"
  awk -v n="$name" -v b="$batch" -v o="$off" -v r="$on" 'BEGIN { printf "%-38s %6s %12.0f %10.0f %6.2fx\n", n, b, o, r, r / o }'
}
row "profile's, the prepared windows" 256 -i "$prepared"
row "profile's, the prepared windows" 32 -i "$prepared"
row "reference (no n-grams), random" 256 "${reference[@]}"
row "reference (no n-grams), random" 1024 "${reference[@]}"
if [ "${SWITCH:-replay}" = by_rows ]; then
  row "profile's, the prepared windows" 1024 -i "$prepared"
fi
if [ "${SWITCH:-replay}" = attention ]; then
  row "profile's, the prepared windows" 1024 -i "$prepared"
  row "pipeline's width (d 128), prepared" 1024 -i "$prepared" --set model.d_model=128 --set model.ffn=256
fi
