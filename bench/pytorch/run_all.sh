#!/usr/bin/env bash
# Runs the PyTorch reference benchmark at batch 256, 1024 and 4096 (default architecture) and a
# profile at batch 1024, each retried until it ran on a quiet machine (other processes < 0.1 cores in at least a quarter of the intervals:
# on 2 cores, any concurrent build makes torch's OpenMP barriers stall and the figures worthless).
#   bench/pytorch/run_all.sh [SECONDS] [TRIES] [extra train_bench.py args...]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seconds="${1:-20}"
tries="${2:-6}"
shift 2 2>/dev/null || shift $#
run() {   # run ARGS...: retries until quiet, prints the output of the last try
  local out
  for try in $(seq 1 "$tries"); do
    out="$(/usr/bin/python3 "$here/train_bench.py" --wait-quiet 300 "$@" 2>&1)"
    if ! grep -q "WARNING: machine not quiet" <<<"$out"; then
      echo "$out"
      return 0
    fi
    echo "(try $try not quiet: $(grep "other processes used" <<<"$out"))" >&2
  done
  echo "$out"
  echo "(never quiet in $tries tries: figures above are not comparable)"
}
for batch in 256 1024 4096; do
  echo "=== batch $batch"
  run --batch "$batch" --seconds "$seconds" "$@"
done
echo "=== batch 1024, OMP_WAIT_POLICY=ACTIVE (torch's usual spinning)"
run --batch 1024 --seconds "$seconds" --omp-wait-policy active "$@"
echo "=== batch 1024, 1 thread"
run --batch 1024 --seconds "$seconds" --threads 1 "$@"
echo "=== profile, batch 1024"
run --batch 1024 --seconds 5 --profile-steps 10 "$@"
