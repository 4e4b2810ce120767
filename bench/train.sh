#!/usr/bin/env bash
# Training throughput, SameDiff (./langid bench train --trainer local) against the PyTorch
# reference of identical architecture (bench/pytorch), same machine, same run, same batches.
# The reference uses --padding-mask so both compute the same graph (key-padding mask, masked mean).
# Both sides run on one thread (ours: one native thread, OMP_NUM_THREADS=1; PyTorch: --threads 1),
# so the ratio is per core; THREADS=N gives both sides N threads.
#   bench/train.sh [SECONDS] [BATCH ...]        default: 20 s at batches 256 1024 4096
# Installs Debian's python3-torch and libopenblas0-pthread on first use (bench/pytorch/setup.sh).
# Run it on an otherwise idle machine: both sides report samples/s as a median of ~1 s intervals.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-20}"
shift || true
batches=("${@:-256 1024 4096}")
# shellcheck disable=SC2206
batches=(${batches[*]})

threads="${THREADS:-1}"
# The model both sides train: the reference model (d 64, 4 heads, 2 layers, FFN 128, no n-grams),
# which is what bench/pytorch/train_bench.py builds; the profile's own model has an n-gram table
# the reference lacks, so it is overridden here.
model=(--set model.d_model=64 --set model.heads=4 --set model.layers=2 --set model.ffn=128 --set model.ngram_buckets=0
       --set model.positional=true --set train.dropout=0)
"$home/bench/pytorch/setup.sh" >/dev/null
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo 'no AVX-512')"
echo "threads: $threads for each side; model: d 64, 4 heads, 2 layers, FFN 128, no n-grams (both sides)"
"$home/langid" bench train --batch 256 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build once, outside the timing
printf '%-7s %14s %14s %8s\n' batch "samediff/s" "pytorch/s" ratio
for batch in "${batches[@]}"; do
  ours="$(OMP_NUM_THREADS="$threads" "$home/langid" bench train --trainer local --batch "$batch" --seconds "$seconds" \
            --set train.native_threads="$threads" "${model[@]}" 2>/dev/null | sed -n 's/^samples\/s: //p')"
  theirs="$(/usr/bin/python3 "$home/bench/pytorch/train_bench.py" --batch "$batch" --seconds "$seconds" --padding-mask \
            --threads "$threads" 2>/dev/null \
            | sed -n 's/^samples\/s: //p')"
  awk -v b="$batch" -v o="$ours" -v t="$theirs" 'BEGIN { printf "%-7s %14.0f %14.0f %8.2f\n", b, o, t, o / t }'
done
echo "ratio = SameDiff / PyTorch samples per second (1.00: as fast)"
