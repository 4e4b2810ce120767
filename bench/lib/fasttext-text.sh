#!/usr/bin/env bash
# Writes splits of a prepare output as fastText text, exactly as `langid evaluate --peer fasttext`
# gives them to fastText: OUT/windows-SPLIT.txt and OUT/sentences-SPLIT.txt.
#   bench/lib/fasttext-text.sh PREPARED OUT SPLIT...
# Environment: PROFILE, the profile whose prepare.languages are written (default conf/local.yaml).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prepared="$1"; out="$2"; shift 2
"$home/langid" --version > /dev/null   # builds the project when needed
flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
classpath="$home/jobs/target/langid-jobs-0.1.0-SNAPSHOT.jar:$(cat "$home/jobs/target/launcher-classpath.txt"):$(cat "$home/jobs/target/launcher-provided-classpath.txt")"
languages="$(sed -n 's/^  languages: \[\(.*\)\].*/\1/p' "${PROFILE:-$home/conf/local.yaml}" | head -1 | tr -d ' ')"
for split in "$@"; do
  # shellcheck disable=SC2086
  SPARK_LOCAL_IP=127.0.0.1 java $flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -cp "$classpath" \
    "$home/bench/lib/FastTextText.java" "$prepared" "$split" "$out" "$languages" 2> "$out.$split.log" | tail -1
done
