#!/usr/bin/env bash
# Detection throughput and accuracy, our predictor against Lingua 1.2.2 (restricted to the
# model's languages, high-accuracy mode), on the same seeded sample of test windows, batched,
# the same number of threads each, in one run (./langid bench predict). Run it on an idle machine.
#   bench/predict.sh [MODEL] [PREPARED] [WINDOWS]
#   default: the committed release (models/), the pipeline's prepared sample, 20000 windows
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:-$home/models}"
prepared="${2:-$home/work/pipeline/prepared}"
windows="${3:-20000}"
if [ ! -d "$prepared/windows" ]; then
  echo "bench/predict.sh: no prepared windows at $prepared; run ./langid pipeline (or langid prepare) first" >&2
  exit 1
fi
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
"$home/langid" bench predict --model "$model" -i "$prepared" --windows "$windows" 2>/dev/null
