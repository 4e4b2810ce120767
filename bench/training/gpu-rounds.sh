#!/usr/bin/env bash
# What Spark adds to each parameter-averaging round when a worker's step costs what an H100's
# would: `langid bench rounds` (each worker waits BATCH / RATE seconds per step instead of running
# the graph; inputs, tasks, the 0.88 MB state each way and its adding up are real), 2 workers,
# first on embedded local[2] (threads of one JVM), then on the standalone cluster of
# deploy/standalone/cluster.sh (2 executor JVMs; started here if none runs, stopped after).
#   bench/training/gpu-rounds.sh [bench rounds options]     e.g. --rate 2100000 --batch 65536
# Defaults: --rate 1140000 (PyTorch 2.11 fp32 on an H100, batch 8192) --batch 8192
#           --frequencies 1,2,5,10,20,50,100,200,500 --rounds 20. deploy/gpu/README.md reads the result.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cluster="$home/deploy/standalone/cluster.sh"

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== embedded, local[2]"
"$home/langid" bench rounds --master 'local[2]' --workers 2 "$@" 2>/dev/null

started_cluster=false
if ! "$cluster" status >/dev/null 2>&1; then
  "$cluster" start --workers 2 --cores 1 --memory 3g >/dev/null
  started_cluster=true
fi
trap '[ "$started_cluster" = false ] || "$cluster" stop >/dev/null' EXIT
eval "$("$cluster" env)"
echo
echo "== standalone cluster, 2 executor JVMs ($SPARK_MASTER)"
# The driver gets the heap an embedded run has by default (a quarter of the RAM, at least 4g here):
# with spark-submit's 1g, ND4J's off-heap cap (the heap size) makes the feeding figure a GC figure.
SPARK_HOME="$SPARK_HOME" SPARK_SUBMIT_EXTRA="--driver-memory 4g" \
  "$home/deploy/spark-submit/submit.sh" --master "$SPARK_MASTER" --executors 2 -- \
  bench rounds --workers 2 "$@" 2>/dev/null
