#!/usr/bin/env python3
"""How far our model and fastText together would get: each window's probabilities combined as
w·log p_ours + (1 − w)·log p_fastText (fastText's scores divided by their sum), accuracy on the
windows with no space at either edge (`langid predict` trims lines, which shifts the others).
bench/NGRAMS.md, "How far an ensemble with fastText itself would get".

  langid bench windows -i PREPARED [--split test] -o W.tsv        # language<TAB>window
  cut -f2 W.tsv > W.txt
  langid predict -m MODEL --format json --stride 1 --no-fold-capitals -i W.txt > OURS.json
  sed 's/ /_/g' W.txt | fasttext predict-prob FASTTEXT.bin - 8 > FT.txt    # text=joined peer
  bench/ensemble-bound.py W.tsv OURS.json FT.txt
"""
import json
import math
import sys


def main(windows_tsv, ours_json, fasttext_txt):
    rows = [line.rstrip('\n').split('\t', 1) for line in open(windows_tsv, encoding='utf-8')]
    labels = [r[0] for r in rows]
    texts = [r[1] for r in rows]
    ours = [json.loads(line)['probabilities'] for line in open(ours_json, encoding='utf-8')]
    fasttext = []
    for line in open(fasttext_txt, encoding='utf-8'):
        t = line.split()
        scores = {t[i].replace('__label__', ''): float(t[i + 1]) for i in range(0, len(t), 2)}
        total = sum(scores.values())
        fasttext.append({k: v / total for k, v in scores.items()})
    if not (len(labels) == len(ours) == len(fasttext)):
        sys.exit(f"ensemble-bound: {len(labels)} windows, {len(ours)} of ours, {len(fasttext)} of fastText's")
    inner = [i for i, t in enumerate(texts) if not (t.startswith(' ') or t.endswith(' '))]

    def accuracy(predict):
        return 100 * sum(predict(i) == labels[i] for i in inner) / len(inner)

    def best(scores):
        return max(scores, key=scores.get)

    def combined(w):
        return lambda i: best({k: w * math.log(max(ours[i][k], 1e-9)) + (1 - w) * math.log(max(fasttext[i].get(k, 0), 1e-9))
                               for k in ours[i]})
    print(f"windows without edge spaces: {len(inner)} of {len(labels)}")
    print(f"ours {accuracy(lambda i: best(ours[i])):.2f}  fastText {accuracy(lambda i: best(fasttext[i])):.2f}  "
          + '  '.join(f"w={w} {accuracy(combined(w)):.2f}" for w in (0.3, 0.5, 0.7)))


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
