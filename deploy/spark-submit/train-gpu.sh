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
# NOT RUN here: no GPU machine with Java was available (see the README).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

master="${SPARK_MASTER:-yarn}"
executors=2
profile="$home/conf/gpu.yaml"
discovery="$home/deploy/gpu/discover-gpus.sh"
job_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --master) master="$2"; shift 2 ;;
    --executors) executors="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --discovery) discovery="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) job_args+=("$1"); shift ;;
  esac
done

jar="${LANGID_JAR:-$(ls -t "$home"/jobs/target/langid-jobs-*-cluster.jar 2>/dev/null | head -1 || true)}"
if [ -z "$jar" ] || [ ! -f "$jar" ]; then
  echo "train-gpu.sh: no cluster jar; build it with: ./mvnw -Pcuda,cluster -DskipTests package" >&2
  exit 1
fi
if ! unzip -l "$jar" 2>/dev/null | grep -q 'org/nd4j/linalg/jcublas/'; then
  echo "train-gpu.sh: $jar has no CUDA backend; build it with -Pcuda,cluster" >&2
  exit 1
fi
submit="${SPARK_HOME:+$SPARK_HOME/bin/}spark-submit"

# shellcheck disable=SC2086
exec "$submit" \
  --master "$master" \
  --deploy-mode client \
  --name "langid train (GPU)" \
  --class org.langid.jobs.cli.LangidCommand \
  --files "$profile,$discovery" \
  --num-executors "$executors" \
  --conf spark.executor.cores=1 \
  --conf spark.task.cpus=1 \
  --conf spark.executor.resource.gpu.amount=1 \
  --conf spark.task.resource.gpu.amount=1 \
  --conf spark.executor.resource.gpu.discoveryScript="./$(basename "$discovery")" \
  --conf spark.executorEnv.OMP_NUM_THREADS=1 \
  ${SPARK_SUBMIT_EXTRA:-} \
  "$jar" train --trainer spark --workers "$executors" --config "$profile" "${job_args[@]}"
