#!/usr/bin/env bash
# Trains Debian's fastText with each setting of a small grid on the committed sample's prepared
# training windows and scores it on the validation windows and sentences (never on the test split
# or UDHR, which stay for the comparison in bench/fasttext-peer.sh). The text is written exactly
# as `langid evaluate --peer fasttext` gives it to fastText (bench/lib/FastTextText.java).
#   bench/fasttext-grid.sh [WORK_DIR]          default work/fasttext-grid; results in WORK_DIR/grid.tsv (grid-joined.tsv)
# Environment: GRID="args;args;..." replaces the built-in grid; THREADS (default 2);
#   JOINED=1 writes every space as _ (langid evaluate's text=joined: a window is one fastText word).
#   HELD_OUT=PREPARED (e.g. work/udhr/prepared) also scores every window of that prepare output, all
#   splits, in a last column: for diagnosis (bench/EXPERIMENTS.md, "Our bag against fastText's"),
#   never for choosing the peer's settings. Results then go to grid[-joined]-held-out.tsv.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-$home/work/fasttext-grid}"
threads="${THREADS:-2}"
mkdir -p "$work"
"$home/bench/fasttext-install.sh"

prepared="$work/prepared"
if [ ! -f "$prepared/summary.json" ]; then
  "$home/langid" prepare -i "$home/data/sample/libreoffice" -o "$prepared" > "$work/prepare.log" 2>&1
fi
text="$work/text"
if [ ! -f "$text/sentences-validation.txt" ]; then
  "$home/bench/lib/fasttext-text.sh" "$prepared" "$text" train validation
fi

held_out_files=()
if [ -n "${HELD_OUT:-}" ]; then
  if [ ! -f "$text/windows-held-out.txt" ]; then
    "$home/bench/lib/fasttext-text.sh" "$HELD_OUT" "$work/held-out-text" train validation test
    cat "$work"/held-out-text/windows-{train,validation,test}.txt > "$text/windows-held-out.txt"
  fi
  held_out_files=(windows-held-out)
fi

if [ "${JOINED:-0}" = 1 ]; then
  for file in windows-train windows-validation sentences-validation "${held_out_files[@]}"; do
    [ -f "$text-joined/$file.txt" ] && continue
    mkdir -p "$text-joined"
    sed -E 's/ /_/g; s/^(__label__[a-z]+)_/\1 /' "$text/$file.txt" > "$text-joined/$file.txt"
  done
  text="$text-joined"
fi

default_grid="-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 1 -dim 32 -epoch 5 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 3 -dim 32 -epoch 5 -lr 0.5
-minn 1 -maxn 5 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5
-minn 2 -maxn 5 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5
-minn 1 -maxn 6 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 2 -dim 16 -epoch 5 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 2 -dim 64 -epoch 5 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 2 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 10 -lr 0.5
-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.2
-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 1.0
-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5 -loss ova
-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5 -loss hs"
if [ -n "${GRID:-}" ]; then grid="$(tr ';' '\n' <<<"$GRID")"; else grid="$default_grid"; fi

# Share of lines whose predicted label is their own (fastText's `test` prints only 3 digits).
accuracy() {
  fasttext predict "$1" "$2" 1 | paste -d' ' - <(cut -d' ' -f1 "$2") \
    | awk '{ correct += ($1 == $2) } END { printf "%.4f", correct / NR }'
}

results="$work/grid"
[ "${JOINED:-0}" = 1 ] && results="$results-joined"
[ -n "${HELD_OUT:-}" ] && results="$results-held-out"
results="$results.tsv"
[ -f "$results" ] || printf 'arguments\ttrain_seconds\tvalidation_windows\tvalidation_sentences\tmodel_mb%s\n' \
  "${HELD_OUT:+$'\t'held_out_windows}" > "$results"
while IFS= read -r arguments; do
  [ -n "$arguments" ] || continue
  if grep -qF -- "$arguments	" "$results"; then echo "done before: $arguments"; continue; fi
  model="$work/model"
  started=$(date +%s.%N)
  # shellcheck disable=SC2086
  nice -n 10 fasttext supervised -input "$text/windows-train.txt" -output "$model" -thread "$threads" -verbose 1 $arguments \
    > "$work/train.log" 2>&1
  seconds=$(echo "$(date +%s.%N) - $started" | bc)
  windows=$(accuracy "$model.bin" "$text/windows-validation.txt")
  sentences=$(accuracy "$model.bin" "$text/sentences-validation.txt")
  size=$(( $(stat -c %s "$model.bin") / 1000000 ))
  held_out=""
  [ -n "${HELD_OUT:-}" ] && held_out="	$(accuracy "$model.bin" "$text/windows-held-out.txt")"
  printf '%s\t%.0f\t%s\t%s\t%s%s\n' "$arguments" "$seconds" "$windows" "$sentences" "$size" "$held_out" | tee -a "$results"
  rm -f "$model.bin" "$model.vec"
done <<<"$grid"
