#!/usr/bin/env bash
# Test-time n-gram dropout: a model's windows scored with all their n-grams and with k dropped
# views averaged (bench/NgramViews.java; bench/NGRAMS.md, "Dropped views averaged at inference").
#   bench/ngram-views.sh MODEL PREPARED [SPLIT...]     MODEL: a registry (its current version) or an artefact directory
#   e.g. bench/ngram-views.sh models work/udhr/prepared train validation test
# Environment: RATE (default: the model's model.ngram_dropout, else 0.3), VIEWS (default 4),
#   EVERY (default 1: every window; n scores every n-th). SPLIT defaults to test.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:?usage: bench/ngram-views.sh MODEL PREPARED [SPLIT...]}"
prepared="${2:?usage: bench/ngram-views.sh MODEL PREPARED [SPLIT...]}"
shift 2
splits=("${@:-test}")
[ -f "$model/current" ] && model="$model/versions/$(cat "$model/current")"
[ -f "$model/manifest.json" ] || { echo "bench/ngram-views.sh: no model artefact at $model" >&2; exit 1; }
rate="${RATE:-$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["model"].get("ngram_dropout", 0) or 0.3)' "$model/manifest.json")}"
"$home/langid" --version > /dev/null   # builds the project when needed
windows="$(mktemp --suffix=.tsv)"
trap 'rm -f "$windows" "$windows.part"' EXIT
for split in "${splits[@]}"; do
  "$home/langid" bench windows -i "$prepared" --split "$split" -o "$windows.part" > /dev/null
  cat "$windows.part" >> "$windows"
done
flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
classpath="$home/jobs/target/langid-jobs-0.1.0-SNAPSHOT.jar:$(cat "$home/jobs/target/launcher-classpath.txt"):$(cat "$home/jobs/target/launcher-provided-classpath.txt")"
echo "model: $model; $(wc -l < "$windows") windows of $prepared (${splits[*]})"
# shellcheck disable=SC2086
java $flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -cp "$classpath" \
  "$home/bench/NgramViews.java" "$model" "$windows" "${EVERY:-1}" "$rate" "${VIEWS:-4}" 2> >(grep -v '^warning: using incubating\|^1 warning\|^WARNING: Using incubator' >&2)
