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
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

master="${SPARK_MASTER:-local[*]}"
deploy_mode=client
profile="$home/conf/local.yaml"
job_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --master) master="$2"; shift 2 ;;
    --deploy-mode) deploy_mode="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) job_args+=("$1"); shift ;;
  esac
done

jar="${LANGID_JAR:-$(ls -t "$home"/jobs/target/langid-jobs-*-cluster.jar 2>/dev/null | head -1 || true)}"
if [ -z "$jar" ] || [ ! -f "$jar" ]; then
  echo "prepare.sh: no cluster jar; build it with: ./mvnw -Pcluster -DskipTests package" >&2
  exit 1
fi
submit="${SPARK_HOME:+$SPARK_HOME/bin/}spark-submit"

# The profile travels with the job (--files); the driver reads it by its base name in cluster mode.
profile_arg="$profile"
[ "$deploy_mode" = cluster ] && profile_arg="$(basename "$profile")"

# shellcheck disable=SC2086
exec "$submit" \
  --master "$master" \
  --deploy-mode "$deploy_mode" \
  --name "langid prepare" \
  --class org.langid.jobs.cli.LangidCommand \
  --files "$profile" \
  ${SPARK_SUBMIT_EXTRA:-} \
  "$jar" prepare --config "$profile_arg" "${job_args[@]}"
