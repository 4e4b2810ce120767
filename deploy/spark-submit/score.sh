#!/usr/bin/env bash
# Runs `langid score` on a Spark cluster with spark-submit, using the cluster jar (Spark and
# Hadoop provided by the cluster; our code, ND4J and the rest inside). Each executor loads the
# model once and scores its rows in batches; the model and the data can be on any Hadoop file system.
#
#   ./mvnw -Pcluster -DskipTests package        # builds jobs/target/langid-jobs-*-cluster.jar
#   deploy/spark-submit/score.sh --master yarn --executors 8 \
#       --model hdfs:///langid/registry --input hdfs:///data/comments.parquet --column body \
#       --output hdfs:///langid/scored/comments
#
# Every option after the script name goes to `langid score` except these, which go to spark-submit:
#   --master URL            (default: $SPARK_MASTER or local[*])
#   --deploy-mode MODE      (client | cluster; default client)
#   --executors N           executors to start (submit.sh says how each cluster manager counts them)
#   --executor-cores N      cores per executor: tasks, and so model graph copies, per executor JVM
# Environment: SPARK_HOME (spark-submit is $SPARK_HOME/bin/spark-submit, else spark-submit on PATH),
#              LANGID_JAR (default: the newest jobs/target/langid-jobs-*-cluster.jar),
#              SPARK_SUBMIT_EXTRA (more spark-submit arguments, e.g. "--executor-memory 4g").
# A shorthand for submit.sh, which does the work (and takes more options, e.g. for Kubernetes).
# NOT RUN here against a real cluster (none was available); deploy/spark-submit/smoke-test.sh runs
# the same jar through Spark's own SparkSubmit on local[2].
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

submit_options=(--master "${SPARK_MASTER:-local[*]}")
job_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --master|--deploy-mode|--executors|--executor-cores) submit_options+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) job_args+=("$1"); shift ;;
  esac
done

exec "$here/submit.sh" "${submit_options[@]}" -- score "${job_args[@]}"
