#!/usr/bin/env bash
# Detection, whole process and steady state: our model (./langid predict, ONNX Runtime by default)
# against Lingua 1.2.2 (restricted to the model's languages it knows, high accuracy, one thread per core) and fastText 0.9.2
# (Debian's `fasttext`, trained here on the same prepared training windows), on the same test
# windows of 16 characters, one per line. Side by side in one run; run it on an idle machine.
#   bench/detect.sh [MODEL] [PREPARED]
#   default: the released model (models/), the committed many-language sample prepared with conf/pipeline.yaml
#   into work/detect/prepared
#   WINDOWS=N: exactly N windows: the test split's, then the validation split's (the published
#   figures were taken on 138,000; the sample's test split has 127,087). Default: the test split.
# Our accuracy is also taken through the SameDiff graph (--engine samediff, the training truth),
# so that the fast path's accuracy is checked against it on the same windows (not timed).
# Whole process: wall time of one command from start to last line. Steady state: windows/s
# after loading, (N - 1) / (time for N lines - time for 1 line). Accuracy: first field vs label.
# fastText settings: FASTTEXT_ARGS and FASTTEXT_TEXT (default the tuned peer of docs/RESULTS.md, "fastText as the peer":
# -minn 1 -maxn 6 -wordNgrams 1 -dim 32 -epoch 5 -lr 0.5 -loss ova on text with spaces written
# as _; the baseline a new user would try is FASTTEXT_TEXT=words FASTTEXT_ARGS="-minn 1 -maxn 4 -wordNgrams 2
# -dim 32 -epoch 5 -lr 0.5"). Training lines are shuffled (seeded): fastText reads them in order
# with a decaying learning rate, and prepare's are grouped by language. Training time is printed,
# not counted.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:-$home/models}"
prepared="${2:-$home/work/detect/prepared}"
work="$home/work/detect"
fasttext_args="${FASTTEXT_ARGS:--minn 1 -maxn 6 -wordNgrams 1 -dim 32 -epoch 5 -lr 0.5 -loss ova}"
fasttext_text="${FASTTEXT_TEXT:-joined}"
case "$fasttext_text" in joined) join_spaces() { tr ' ' '_'; } ;; words) join_spaces() { cat; } ;;
  *) echo "bench/detect.sh: FASTTEXT_TEXT is joined or words" >&2; exit 1 ;; esac
mkdir -p "$work"

if ! command -v fasttext > /dev/null; then
  echo "bench/detect.sh: installing Debian's fasttext" >&2
  apt-get install -y fasttext > "$work/apt.log" 2>&1 || { echo "bench/detect.sh: cannot install fasttext (log: $work/apt.log)" >&2; exit 1; }
fi
if [ ! -d "$prepared/windows" ]; then
  echo "bench/detect.sh: preparing the committed sample into $prepared" >&2
  "$home/langid" prepare -c "$home/conf/pipeline.yaml" -i "$home/data/sample/many/libreoffice" -i "$home/data/sample/many/firefox" \
    -i "$home/data/sample/many/lo-ui" -o "$prepared" > "$work/prepare.log" 2>&1
fi
[ -s "$work/test.tsv" ] || "$home/langid" bench windows -i "$prepared" --split test -o "$work/test.tsv" > /dev/null 2>&1
[ -s "$work/train.tsv" ] || "$home/langid" bench windows -i "$prepared" --split train -o "$work/train.tsv" > /dev/null 2>&1
wanted="${WINDOWS:-$(wc -l < "$work/test.tsv")}"
if [ "$wanted" -gt "$(wc -l < "$work/test.tsv")" ]; then
  [ -s "$work/validation.tsv" ] || "$home/langid" bench windows -i "$prepared" --split validation -o "$work/validation.tsv" > /dev/null 2>&1
fi
awk -v wanted="$wanted" 'NR <= wanted' "$work/test.tsv" \
  "$( [ "$wanted" -gt "$(wc -l < "$work/test.tsv")" ] && echo "$work/validation.tsv" || echo /dev/null)" > "$work/scored.tsv"
[ "$(wc -l < "$work/scored.tsv")" -eq "$wanted" ] \
  || { echo "bench/detect.sh: only $(wc -l < "$work/scored.tsv") test and validation windows, WINDOWS=$wanted" >&2; exit 1; }
cut -f2 "$work/scored.tsv" > "$work/test.txt"
cut -f1 "$work/scored.tsv" > "$work/labels.txt"
head -1 "$work/test.txt" > "$work/one.txt"
windows=$(wc -l < "$work/test.txt")

# fastText: trained on the same training windows, labels as __label__xx.
awk -F'\t' '{print "__label__" $1 " " $2}' "$work/train.tsv" | sed 's/^\(__label__[a-z]*\) /\1\t/' \
  | awk -F'\t' -v OFS=' ' '{ gsub(/ /, "'"$([ "$fasttext_text" = joined ] && echo _ || echo ' ')"'", $2); print $1, $2 }' \
  | shuf --random-source=<(yes 20261123) > "$work/train.fasttext.new"
if ! cmp -s "$work/train.fasttext.new" "$work/train.fasttext" || [ "$(cat "$work/fasttext.args" 2>/dev/null)" != "$fasttext_args $fasttext_text" ] \
    || [ ! -f "$work/fasttext.bin" ]; then
  mv "$work/train.fasttext.new" "$work/train.fasttext"
  started=$(date +%s.%N)
  fasttext supervised -input "$work/train.fasttext" -output "$work/fasttext" $fasttext_args -thread "$(nproc)" -verbose 0
  echo "$fasttext_args $fasttext_text" > "$work/fasttext.args"
  echo "fastText trained in $(echo "$(date +%s.%N) - $started" | bc | xargs printf '%.0f') s on $(wc -l < "$work/train.fasttext") windows ($fasttext_args, text $fasttext_text)"
else
  rm -f "$work/train.fasttext.new"
  echo "fastText: the model trained earlier on the same windows with the same settings ($fasttext_args)"
fi

# Lingua runner, compiled once (compilation is not timed).
lingua_cp="$(tr ':' '\n' < "$home/jobs/target/launcher-classpath.txt" | grep -E 'lingua|kotlin|jetbrains|moshi|okio|fastutil' | paste -sd:)"
javac -d "$work/lingua-classes" -cp "$lingua_cp" "$home/bench/detect/LinguaPredict.java"

ours()     { "$home/langid" predict --model "$model" --input "$1"; }
# The model's languages (its manifest), for Lingua's restriction.
model_languages="$(python3 -c 'import json, os, sys
m = sys.argv[1]
d = os.path.join(m, "versions", open(os.path.join(m, "current")).read().strip()) if os.path.isfile(os.path.join(m, "current")) else m
print(" ".join(l for l in json.load(open(os.path.join(d, "manifest.json")))["languages"] if l != "und"))' "$model")"
lingua()   { java -cp "$work/lingua-classes:$lingua_cp" LinguaPredict $model_languages < "$1"; }
fasttext_() { join_spaces < "$1" | fasttext predict "$work/fasttext.bin" - | sed 's/^__label__//'; }
export home model work lingua_cp model_languages
export -f ours lingua fasttext_ join_spaces
# Seconds a detector takes on a file, its stdout to $1; its peak resident memory (the largest
# process of its pipeline, from GNU time) to $1.rss in kB, when /usr/bin/time is there.
seconds() {
  local out="$1" detector="$2" input="$3"
  local started; started=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$out.rss" bash -c "$detector \"\$1\"" _ "$input" > "$out" 2> "$out.err"
  else
    rm -f "$out.rss"; "$detector" "$input" > "$out" 2> "$out.err"
  fi
  echo "$(date +%s.%N) - $started" | bc
}
# The cost of fresh memory (bench/detect/fresh-memory.sh): every detector pays it for each page it
# touches first, so on a slow host the detectors that touch the most memory look slowest.
fresh=$("$home/bench/detect/fresh-memory.sh" 2> /dev/null || true)
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), AVX-512: $(grep -q avx512f /proc/cpuinfo && echo yes || echo no), fresh memory ${fresh:-unmeasured (no python3)}${fresh:+ µs per 4 KiB page}"
if [ -n "$fresh" ] && [ "$(echo "$fresh > 2" | bc)" = 1 ]; then
  echo "note: this host hands out fresh memory slowly (${fresh} µs a page). Each detector pays for every page it touches first, so the whole-process ratios below favour the detector with the least peak memory; compare them on a host under 2 µs (docs/RESULTS.md, \"Fresh memory\")."
fi
echo "windows: $windows test$( [ "$wanted" -gt "$(wc -l < "$work/test.tsv")" ] && echo ' and validation') windows of 16 characters from $prepared; model $(cat "$model/current" 2>/dev/null || basename "$model")"
printf '%-22s %12s %12s %16s %10s %14s\n' detector "whole (s)" "load (s)" "steady (win/s)" accuracy "peak mem (MB)"
declare -A whole
for detector in ours lingua fasttext_; do
  one=$(seconds "$work/$detector.one" $detector "$work/one.txt")
  all=$(seconds "$work/$detector.out" $detector "$work/test.txt")
  accuracy=$(paste "$work/labels.txt" <(cut -f1 "$work/$detector.out") | awk '$1==$2{c++} END{printf "%.2f%%", 100*c/NR}')
  steady=$(echo "($windows - 1) / ($all - $one)" | bc -l)
  peak=$([ -s "$work/$detector.out.rss" ] && awk '{printf "%.0f", $1 / 1000}' "$work/$detector.out.rss" || echo n/a)
  whole[$detector]=$all
  name=$detector; [ "$detector" = ours ] && name="langid (onnx)"; [ "$detector" = lingua ] && name="lingua-1.2.2"; [ "$detector" = fasttext_ ] && name="fasttext-0.9.2"
  printf '%-22s %12.2f %12.2f %16.0f %10s %14s\n' "$name" "$all" "$one" "$steady" "$accuracy" "$peak"
done
printf 'whole process: %.2fx Lingua, %.2fx fastText\n' "$(echo "${whole[lingua]} / ${whole[ours]}" | bc -l)" \
  "$(echo "${whole[fasttext_]} / ${whole[ours]}" | bc -l)"
"$home/langid" predict --model "$model" --input "$work/test.txt" --engine samediff > "$work/samediff.out" 2> "$work/samediff.out.err"
paste "$work/labels.txt" <(cut -f1 "$work/samediff.out") <(cut -f1 "$work/ours.out") | awk '
  $1==$2{s++} $1==$3{o++} $2!=$3{d++}
  END{printf "accuracy through the SameDiff graph: %.2f%%, fast path %.2f%% (%+.2f points; %d of %d windows labelled differently)\n", 100*s/NR, 100*o/NR, 100*(o-s)/NR, d, NR}'
