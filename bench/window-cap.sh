#!/usr/bin/env bash
# A copy of a prepare output whose training split keeps at most K copies of each (language,
# window) (bench/WindowCap.java; bench/NGRAMS.md, "Deduplicated training windows"):
# OUT/windows/split=train is new, validation, test and sentences link to PREPARED's, and the
# summary's fingerprint gains "+capK" so checkpoints of the two do not mix.
#   bench/window-cap.sh PREPARED OUT K
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prepared="$(cd "$1" && pwd)"; out="$2"; copies="$3"
"$home/langid" --version > /dev/null   # builds the project when needed
flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
classpath="$home/jobs/target/langid-jobs-0.1.0-SNAPSHOT.jar:$(cat "$home/jobs/target/launcher-classpath.txt"):$(cat "$home/jobs/target/launcher-provided-classpath.txt")"
rm -rf "$out"; mkdir -p "$out/windows"
# shellcheck disable=SC2086
SPARK_LOCAL_IP=127.0.0.1 java $flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -cp "$classpath" \
  "$home/bench/WindowCap.java" "$prepared" "$out" "$copies" 2> "$out.log" | tail -1
ln -s "$prepared/windows/split=validation" "$out/windows/split=validation"
ln -s "$prepared/windows/split=test" "$out/windows/split=test"
ln -s "$prepared/sentences" "$out/sentences"
sed "s/\(\"fingerprint\" *: *\"[^\"]*\)\"/\1+cap$copies\"/" "$prepared/summary.json" > "$out/summary.json"
