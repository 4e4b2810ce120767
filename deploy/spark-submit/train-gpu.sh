#!/usr/bin/env bash
# Trains on GPU executors: one executor per GPU, one task per executor, each task bound to the
# GPU Spark assigned it (TaskContext.resources()), with ND4J's CUDA backend.
#
#   ./mvnw -Pcuda,cluster -DskipTests package      # CUDA jar (needs CUDA 11.6 on the executors,
#                                                  # or add the cuda-redist profile: +1.7 GB)
#   deploy/spark-submit/train-gpu.sh --master yarn --executors 4 \
#       --input hdfs:///langid/prepared --output hdfs:///langid/model
#
# Options for this script: --master URL, --executors N (GPUs to use), --profile FILE (default
# conf/gpu.yaml), --discovery FILE (default deploy/gpu/discover-gpus.sh, shipped with the job);
# everything else goes to `langid train`. Environment: SPARK_HOME, LANGID_JAR, SPARK_SUBMIT_EXTRA.
# A shorthand for `submit.sh --gpu ... -- train --trainer spark`, which holds the GPU settings.
# NOT RUN here: no GPU machine with Java was available (see the README).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

master="${SPARK_MASTER:-yarn}"
executors=2
submit_options=()
job_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --master) master="$2"; shift 2 ;;
    --executors) executors="$2"; shift 2 ;;
    --profile|--discovery) submit_options+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) job_args+=("$1"); shift ;;
  esac
done

exec "$here/submit.sh" --master "$master" --gpu --executors "$executors" "${submit_options[@]}" \
  -- train --trainer spark --workers "$executors" "${job_args[@]}"
