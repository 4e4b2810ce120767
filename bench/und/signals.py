#!/usr/bin/env python3
"""bench/und/signals.sh's table: for each certainty measure, the floor chosen on one half (at most
0.1 point of known-language accuracy lost) and what it gives on the other.
    signals.py CHOOSE_KNOWN CHOOSE_UNKNOWN KNOWN UNKNOWN   (WindowSignals.java's output)"""
import sys

MEASURES = {"combined": 3, "mean": 4, "agree": 5, "1 - und_mean": 6}


def read(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            label, answer, windows, *values = line.rstrip("\n").split("\t")
            v = [float(x) for x in values]
            v[3] = 1 - v[3]
            rows.append((label, answer, int(windows), v))
    return rows


def rates(known, unknown, i, floor):
    correct = [r for r in known if r[1] == r[0]]
    lost = sum(1 for r in correct if r[3][i] < floor)
    und = sum(1 for r in unknown if r[1] == "und" or r[2] == 0 or r[3][i] < floor)
    return 100.0 * len(correct) / len(known), 100.0 * lost / len(known), 100.0 * und / len(unknown)


def main():
    choose_known, choose_unknown, known, unknown = (read(p) for p in sys.argv[1:5])
    print("| measure | floor | known accuracy | points lost | unknown und |")
    print("| --- | --- | --- | --- | --- |")
    for name, column in MEASURES.items():
        i = column - 3
        floors = sorted({r[3][i] for r in choose_known} | {0.0})
        chosen = 0.0
        for floor in floors:
            if rates(choose_known, choose_unknown, i, floor)[1] <= 0.1:
                chosen = floor
            else:
                break
        acc, lost, und = rates(known, unknown, i, chosen)
        print(f"| {name} | {chosen:.4f} | {acc:.2f}% | {lost:.2f} | {und:.2f}% |")


if __name__ == "__main__":
    sys.exit(main())
