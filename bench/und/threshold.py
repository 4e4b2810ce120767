#!/usr/bin/env python3
"""How a confidence floor trades known languages' sentences for und on unknown languages.

Reads predict's JSON lines (one per input line, in order) for labelled sentences of the model's
languages (fastText-style lines "__label__LANG TEXT", as bench/lib/fasttext-text.sh writes them)
and for sentences in languages the model lacks (bench/und/unknown-languages.py), and prints, for
each floor, the points of known-language accuracy lost (correct answers turned und) and the share
of unknown-language sentences answered und. The floor chosen is the highest that loses at most
--max-loss points on the known sentences given for choosing (--choose-known, --choose-unknown);
it is then measured on the other sets (--known, --unknown), which played no part in the choice.
"""
import argparse
import json
import sys


def read(predictions, labels=None):
    out = []
    with open(predictions, encoding="utf-8") as f:
        for i, line in enumerate(f):
            d = json.loads(line)
            out.append((d["language"], d["confidence"], None if labels is None else labels[i]))
    return out


def labels_of(text_file):
    with open(text_file, encoding="utf-8") as f:
        return [line.split(" ", 1)[0][len("__label__"):] for line in f]


def rates(known, unknown, floor):
    correct = sum(1 for lang, conf, label in known if lang == label)
    kept = sum(1 for lang, conf, label in known if lang == label and conf >= floor)
    und = sum(1 for lang, conf, _ in unknown if lang == "und" or conf < floor)
    return 100.0 * correct / len(known), 100.0 * (correct - kept) / len(known), 100.0 * und / len(unknown)


def main():
    p = argparse.ArgumentParser()
    for name in ("choose-known", "choose-known-text", "choose-unknown", "known", "known-text", "unknown"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--max-loss", type=float, default=0.1, help="points of known-language accuracy the floor may cost")
    a = p.parse_args()
    choose_known = read(a.choose_known, labels_of(a.choose_known_text))
    choose_unknown = read(a.choose_unknown)
    known = read(a.known, labels_of(a.known_text))
    unknown = read(a.unknown)
    floors = [i / 100 for i in range(0, 100)] + [0.995, 0.999]
    chosen = 0.0
    print("floor  choose: known acc, lost, unknown und  |  measure: known acc, lost, unknown und")
    for floor in floors:
        c = rates(choose_known, choose_unknown, floor)
        m = rates(known, unknown, floor)
        if c[1] <= a.max_loss:
            chosen = floor
        if floor in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99) or floor == chosen:
            print(f"{floor:5.3f}  {c[0]:6.2f}% {c[1]:5.2f} {c[2]:6.2f}%  |  {m[0]:6.2f}% {m[1]:5.2f} {m[2]:6.2f}%")
    m = rates(known, unknown, chosen)
    print(f"chosen floor {chosen:.3f} (at most {a.max_loss} points lost on the sentences for choosing): "
          f"known {len(known)} sentences lose {m[1]:.3f} points, unknown {len(unknown)} sentences und on {m[2]:.2f}%")


if __name__ == "__main__":
    sys.exit(main())
