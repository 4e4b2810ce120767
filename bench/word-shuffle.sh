#!/usr/bin/env bash
# A copy of a prepare output whose training windows carry word-order variants
# (bench/WordShuffle.java; bench/NGRAMS.md, "Word order as augmentation"): OUT/windows/split=train
# is new, validation, test and sentences link to PREPARED's. Train on it with
# PREPARED=OUT bench/sample-run.sh.
#   bench/word-shuffle.sh PREPARED OUT shuffle|salad|replace|window [SEED]
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prepared="$(cd "$1" && pwd)"; out="$2"; mode="$3"; seed="${4:-42}"
# shellcheck source=bench/train-split-variant.sh
source "$home/bench/train-split-variant.sh"
train_split_variant "$home/bench/WordShuffle.java" "$prepared" "$out" "$mode" "$seed"
cp "$prepared/summary.json" "$out/summary.json"
