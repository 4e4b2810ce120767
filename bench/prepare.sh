#!/usr/bin/env bash
# Benchmark of `langid prepare` on the full corpus (data/corpus/libreoffice, built by
# data/build-corpus.sh): windows per second at local[1] and local[2], default profile
# (stride 1), Spark start-up excluded. Prints one line per master and the speed-up.
#   bench/prepare.sh [CORPUS_DIR] [REPEATS]
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="${1:-$home/data/corpus/libreoffice}"
repeats="${2:-1}"
if [ ! -d "$corpus" ]; then
  echo "bench/prepare.sh: no corpus at $corpus; build it with data/build-corpus.sh" >&2
  exit 1
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "corpus: $corpus ($(du -sh "$corpus" | cut -f1)), machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
declare -A rate
for master in 'local[1]' 'local[2]'; do
  for run in $(seq 1 "$repeats"); do
    result="$("$home/langid" prepare --master "$master" -i "$corpus" -o "$out/prepared" --overwrite 2>/dev/null)"
    windows="$(sed -n 's/^prepared \([0-9]*\) windows in \([0-9.]*\) s.*/\1 \2/p' <<<"$result")"
    per_second="$(sed -n 's/^windows\/s: //p' <<<"$result")"
    echo "$master run $run: $windows -> windows/s: $per_second" | sed 's/ \([0-9.]*\) -> / windows in \1 s -> /'
    rate[$master]="$per_second"
  done
done
awk -v a="${rate['local[1]']}" -v b="${rate['local[2]']}" 'BEGIN { printf "speed-up local[2] / local[1]: %.2f\n", b / a }'
