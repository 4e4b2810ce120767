#!/usr/bin/env bash
# Checks the spark-submit product end to end without a Spark installation: builds the cluster
# jar, then runs it through Spark's own SparkSubmit on a classpath that holds only what a Spark
# 3.5 installation provides (Spark, Hadoop, Scala, and the slf4j/log4j/Jackson it ships), on the
# committed UDHR sample. Fails if the jar misses a class, a service file or a native library.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$home"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

./mvnw -B -q -Pcluster -DskipTests package
jar="$(ls jobs/target/langid-jobs-*-cluster.jar | head -1)"
shipped_by_spark="$( { cat jobs/target/launcher-classpath.txt; echo; cat jobs/target/launcher-provided-classpath.txt; } | tr ':' '\n' \
  | grep -E '/org/slf4j/|/org/apache/logging/log4j/|jackson/core/jackson-(core|databind|annotations)/' | paste -sd: -)"
flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' pom.xml)"

# shellcheck disable=SC2086
java $flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -Dlangid.log.file="$work/driver.log" \
  -cp "$(cat jobs/target/provided-classpath.txt):$shipped_by_spark" org.apache.spark.deploy.SparkSubmit \
  --master 'local[2]' --class org.langid.jobs.cli.LangidCommand "$jar" \
  prepare -c conf/local.yaml -i data/sample/udhr -o "$work/out" > "$work/stdout"
grep -q '^windows/s: ' "$work/stdout" \
  || { cat "$work/stdout"; tail -30 "$work/driver.log" >&2; echo "smoke test: no result line" >&2; exit 1; }
test -f "$work/out/summary.json"
echo "spark-submit smoke test passed: $(du -h "$jar" | cut -f1) $jar; $(grep '^prepared' "$work/stdout")"
