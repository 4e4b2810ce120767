#!/usr/bin/env bash
# Spark resource discovery script for GPUs (spark.{driver,executor}.resource.gpu.discoveryScript):
# prints the executor's CUDA devices as {"name": "gpu", "addresses": ["0", "1", ...]}.
# Addresses are CUDA device indices, which is what the training tasks bind ND4J to.
set -euo pipefail
if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "discover-gpus.sh: nvidia-smi not found; is the NVIDIA driver installed on this executor?" >&2
  exit 1
fi
indices="$(nvidia-smi --query-gpu=index --format=csv,noheader | tr -d ' ' | grep -E '^[0-9]+$' || true)"
if [ -z "$indices" ]; then
  echo "discover-gpus.sh: nvidia-smi lists no GPUs" >&2
  exit 1
fi
printf '{"name": "gpu", "addresses": [%s]}\n' "$(printf '%s\n' $indices | sed 's/.*/"&"/' | paste -sd, -)"
