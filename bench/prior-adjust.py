#!/usr/bin/env python3
"""Would dividing by the training prior help? (logit adjustment, bench/NGRAMS.md)

    bench/prior-adjust.py SUMMARY LABELS PREDICTIONS

SUMMARY      summary.json of `langid prepare` of the model's training data (its windows per language)
LABELS       one window per line, `language<TAB>window` (as `langid bench windows` writes them)
PREDICTIONS  `langid predict --format json --stride 1` of the same windows, one line each

Prints the accuracy, overall and per language, of argmax_c log p(c|x) - tau * log prior(c)
for tau 0 (the model as it is) to 1.
"""
import json
import math
import sys

summary, labels_file, predictions_file = sys.argv[1:4]
windows = {lang: v["windows"]["train"] for lang, v in json.load(open(summary))["languages"].items()}
total = sum(windows.values())
log_prior = {lang: math.log(n / total) for lang, n in windows.items()}
labels = [line.split("\t", 1)[0] for line in open(labels_file, encoding="utf-8")]
predictions = [json.loads(line)["probabilities"] for line in open(predictions_file, encoding="utf-8")]
if len(labels) != len(predictions):
    sys.exit(f"error: {len(labels)} labels but {len(predictions)} predictions")
for tau in (0, 0.25, 0.5, 0.75, 1.0):
    right, per_language = 0, {}
    for label, p in zip(labels, predictions):
        best = max(p, key=lambda c: math.log(max(p[c], 1e-30)) - tau * log_prior[c])
        right += best == label
        counts = per_language.setdefault(label, [0, 0])
        counts[0] += best == label
        counts[1] += 1
    print(f"tau {tau:.2f}: {100 * right / len(labels):.2f}%  "
          + " ".join(f"{lang} {100 * c[0] / c[1]:.1f}" for lang, c in sorted(per_language.items())))
