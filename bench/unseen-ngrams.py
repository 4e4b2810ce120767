#!/usr/bin/env python3
"""Where our model and fastText differ, by how much of a window training never saw: the windows
(no space at either edge, as ensemble-bound.py) grouped by the share of their n-grams of orders
2-6 (those CharacterNgrams hashes) that no training window holds, each group's accuracy for both.
bench/NGRAMS.md, "N-grams training never saw".

  langid bench windows -i PREPARED --split train -o TRAIN.tsv    # the model's training windows
  # W.tsv, OURS.json, FT.txt: as in the header of bench/ensemble-bound.py
  bench/unseen-ngrams.py TRAIN.tsv W.tsv OURS.json FT.txt

TRAIN.tsv must be in prepare's order (sentence by sentence, offsets rising), as `bench windows`
writes it: a window that continues the one before adds only the n-grams ending at its last
symbol, any other all of its n-grams.
"""
import collections
import json
import sys

MAX_ORDER = 6


def training_ngrams(train_tsv):
    seen, previous = set(), ''
    for line in open(train_tsv, encoding='utf-8'):
        window = line.rstrip('\n').split('\t', 1)[1]
        if previous[1:] == window[:-1]:
            seen.update(window[-n:] for n in range(2, MAX_ORDER + 1))
        else:
            seen.update(window[i - n + 1:i + 1] for i in range(len(window)) for n in range(2, MAX_ORDER + 1) if i - n + 1 >= 0)
        previous = window
    return seen


def main(train_tsv, windows_tsv, ours_json, fasttext_txt):
    seen = training_ngrams(train_tsv)
    print(f"distinct n-grams of orders 2-{MAX_ORDER} in the training windows: {len(seen):,}")
    rows = [line.rstrip('\n').split('\t', 1) for line in open(windows_tsv, encoding='utf-8')]
    ours = [json.loads(line)['language'] for line in open(ours_json, encoding='utf-8')]
    fasttext = [line.split()[0].replace('__label__', '') for line in open(fasttext_txt, encoding='utf-8')]
    if not (len(rows) == len(ours) == len(fasttext)):
        sys.exit(f"unseen-ngrams: {len(rows)} windows, {len(ours)} of ours, {len(fasttext)} of fastText's")
    groups = collections.defaultdict(lambda: [0, 0, 0])   # windows, ours right, fastText right
    for (label, text), o, f in zip(rows, ours, fasttext):
        if text != text.strip():
            continue
        grams = [text[i - n + 1:i + 1] for i in range(len(text)) for n in range(2, MAX_ORDER + 1) if i - n + 1 >= 0]
        share = sum(g not in seen for g in grams) / len(grams)
        group = groups[min(int(share * 10), 4)]
        group[0] += 1
        group[1] += o == label
        group[2] += f == label
    print("| unseen n-grams | windows | ours | fastText | ours − fastText (windows) |")
    print("| --- | --- | --- | --- | --- |")
    for g in sorted(groups):
        n, o, f = groups[g]
        share = f"{10 * g}–{10 * g + 10}%" if g < 4 else "40% or more"
        print(f"| {share} | {n:,} | {100 * o / n:.2f}% | {100 * f / n:.2f}% | {100 * (o - f) / n:+.2f} ({o - f:+,}) |")


if __name__ == '__main__':
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
