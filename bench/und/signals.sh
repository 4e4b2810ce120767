#!/usr/bin/env bash
# Which measure of a detector's certainty best tells text in languages the model lacks: for each
# (the combined probability the detector answers with, the windows' mean probability of the answer,
# the share of windows that agree with it, the windows' mean probability of und) the floor that costs
# at most 0.1 point of known-language sentence accuracy on the validation split and half of the
# unknown languages, measured on the test split and the other half (as bench/und/threshold.sh does
# for the combined probability alone).
#   bench/und/signals.sh MODEL PREPARED UNKNOWN_DIR PROFILE [PER_LANGUAGE]
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
model="$1"; prepared="$2"; unknown="$3"; profile="$4"; per="${5:-200}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
PROFILE="$profile" "$home/bench/lib/fasttext-text.sh" "$prepared" "$work" validation test > /dev/null
classpath="$home/serving/target/classes:$(cat "$home/jobs/target/launcher-classpath.txt")"
javac -d "$work/classes" -cp "$classpath" "$home/bench/und/WindowSignals.java"
signals() { java -cp "$work/classes:$classpath" WindowSignals "$model" 2> /dev/null; }
for split in validation test; do
  awk -v per="$per" 'BEGIN { srand(7) } { n[$1]++; if (n[$1] <= per) print }' "$work/sentences-$split.txt" \
    | sed 's/^__label__\([^ ]*\) /\1\t/' | signals > "$work/known-$split.tsv"
done
for f in "$unknown"/*.txt; do
  half=$(( $(printf '%s' "$(basename "$f")" | cksum | cut -d' ' -f1) % 2 ))
  sed 's/^/?\t/' "$f" >> "$work/unknown-$([ "$half" = 0 ] && echo a || echo b).tsv"
done
for half in a b; do signals < "$work/unknown-$half.tsv" > "$work/unknown-$half.out"; done
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(wc -l < "$work/known-validation.tsv") + $(wc -l < "$work/known-test.tsv") known sentences, $(wc -l < "$work/unknown-a.out") + $(wc -l < "$work/unknown-b.out") unknown"
python3 "$home/bench/und/signals.py" "$work/known-validation.tsv" "$work/unknown-a.out" "$work/known-test.tsv" "$work/unknown-b.out"
