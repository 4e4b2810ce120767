#!/usr/bin/env bash
# The evidence for a model's confidence floor (below it a text is und): how many points of
# known-language sentence accuracy each floor costs, and how often it answers und on sentences in
# languages the model lacks. The floor is chosen on the validation split and on half of the
# unknown languages, and measured on the test split and on the other half (bench/und/threshold.py).
#   bench/und/threshold.sh MODEL PREPARED UNKNOWN_DIR PROFILE [PER_LANGUAGE]
#   e.g. bench/und/threshold.sh work/many/model-registry work/many/prepared work/many/unknown conf/many.yaml 200
# UNKNOWN_DIR: bench/und/unknown-languages.py's output. PROFILE: whose prepare.languages are read.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
model="$1"; prepared="$2"; unknown="$3"; profile="$4"; per="${5:-200}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
PROFILE="$profile" "$home/bench/lib/fasttext-text.sh" "$prepared" "$work" validation test > /dev/null
for split in validation test; do
  # at most PER_LANGUAGE sentences a language, a seeded choice
  awk -v per="$per" 'BEGIN { srand(7) } { n[$1]++; if (n[$1] <= per) print }' "$work/sentences-$split.txt" > "$work/known-$split.txt"
  cut -d' ' -f2- "$work/known-$split.txt" | "$home/langid" predict --model "$model" --format json > "$work/known-$split.json" 2> /dev/null
done
: > "$work/unknown-a.txt"; : > "$work/unknown-b.txt"
for f in "$unknown"/*.txt; do
  # languages, not sentences, go to one half or the other: the measured half is languages never looked at
  half=$(( $(printf '%s' "$(basename "$f")" | cksum | cut -d' ' -f1) % 2 ))
  if [ "$half" = 0 ]; then cat "$f" >> "$work/unknown-a.txt"; else cat "$f" >> "$work/unknown-b.txt"; fi
done
for half in a b; do
  "$home/langid" predict --model "$model" --format json < "$work/unknown-$half.txt" > "$work/unknown-$half.json" 2> /dev/null
done
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(wc -l < "$work/known-validation.txt") + $(wc -l < "$work/known-test.txt") known sentences, $(wc -l < "$work/unknown-a.txt") + $(wc -l < "$work/unknown-b.txt") unknown"
python3 "$home/bench/und/threshold.py" --choose-known "$work/known-validation.json" --choose-known-text "$work/known-validation.txt" \
  --choose-unknown "$work/unknown-a.json" --known "$work/known-test.json" --known-text "$work/known-test.txt" --unknown "$work/unknown-b.json"
