#!/usr/bin/env bash
# A copy of a prepare output whose training windows carry word-order variants
# (bench/WordShuffle.java; bench/NGRAMS.md, "Word order as augmentation"): OUT/windows/split=train
# is new, validation, test and sentences link to PREPARED's. Train on it with
# PREPARED=OUT bench/sample-run.sh.
#   bench/word-shuffle.sh PREPARED OUT shuffle|salad|replace|window [SEED]
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prepared="$(cd "$1" && pwd)"; out="$2"; mode="$3"; seed="${4:-42}"
"$home/langid" --version > /dev/null   # builds the project when needed
flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
classpath="$home/jobs/target/langid-jobs-0.1.0-SNAPSHOT.jar:$(cat "$home/jobs/target/launcher-classpath.txt"):$(cat "$home/jobs/target/launcher-provided-classpath.txt")"
rm -rf "$out"; mkdir -p "$out/windows"
# shellcheck disable=SC2086
SPARK_LOCAL_IP=127.0.0.1 java $flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -cp "$classpath" \
  "$home/bench/WordShuffle.java" "$prepared" "$out" "$mode" "$seed" 2> "$out.log" | tail -1
ln -s "$prepared/windows/split=validation" "$out/windows/split=validation"
ln -s "$prepared/windows/split=test" "$out/windows/split=test"
ln -s "$prepared/sentences" "$out/sentences"
cp "$prepared/summary.json" "$out/summary.json"
