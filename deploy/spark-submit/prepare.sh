#!/usr/bin/env bash
# Runs `langid prepare` on a Spark cluster with spark-submit, using the cluster jar
# (Spark and Hadoop provided by the cluster; our code, ND4J and the rest inside).
#
#   ./mvnw -Pcluster -DskipTests package        # builds jobs/target/langid-jobs-*-cluster.jar
#   deploy/spark-submit/prepare.sh --master yarn --input hdfs:///corpora/libreoffice \
#       --output hdfs:///langid/prepared --overwrite
#
# Every option after the script name goes to `langid prepare` except these, which go to spark-submit:
#   --master URL            (default: $SPARK_MASTER or local[*])
#   --deploy-mode MODE      (client | cluster; default client)
#   --profile FILE          configuration profile shipped with the job (default: conf/local.yaml)
# Environment: SPARK_HOME (spark-submit is $SPARK_HOME/bin/spark-submit, else spark-submit on PATH),
#              LANGID_JAR (default: the newest jobs/target/langid-jobs-*-cluster.jar),
#              SPARK_SUBMIT_EXTRA (more spark-submit arguments, e.g. "--executor-memory 4g").
# A shorthand for submit.sh, which does the work (and takes more options, e.g. for Kubernetes).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

submit_options=(--master "${SPARK_MASTER:-local[*]}")
job_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --master|--deploy-mode|--profile) submit_options+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) job_args+=("$1"); shift ;;
  esac
done

exec "$here/submit.sh" "${submit_options[@]}" -- prepare "${job_args[@]}"
