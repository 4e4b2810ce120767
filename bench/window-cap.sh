#!/usr/bin/env bash
# A copy of a prepare output whose training split keeps at most K copies of each (language,
# window) (bench/WindowCap.java; bench/NGRAMS.md, "Deduplicated training windows"):
# OUT/windows/split=train is new, validation, test and sentences link to PREPARED's, and the
# summary's fingerprint gains "+capK" so checkpoints of the two do not mix.
#   bench/window-cap.sh PREPARED OUT K
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prepared="$(cd "$1" && pwd)"; out="$2"; copies="$3"
# shellcheck source=bench/train-split-variant.sh
source "$home/bench/train-split-variant.sh"
train_split_variant "$home/bench/WindowCap.java" "$prepared" "$out" "$copies"
sed "s/\(\"fingerprint\" *: *\"[^\"]*\)\"/\1+cap$copies\"/" "$prepared/summary.json" > "$out/summary.json"
