#!/usr/bin/env python3
"""Round times of a Spark training run over its wall time (are they flat over a long run?).

Usage: bench/training/round-times.py MODEL_DIR/metrics.jsonl [MINUTES]

Reads the round lines of `langid train --trainer spark`'s metrics log. Each round line carries
its own duration (`seconds`); older logs without it get it from the wall-clock gap to the round
before. A run resumed from a checkpoint restarts its wall clock; its segments are laid end to end.
With one worker a line is a job of several rounds (about 4 s of them), so compare runs of equal workers.
Prints, per MINUTES (default 10) of training, the rounds, their median, 10th and 90th percentile
duration, then the first and last windows' medians side by side and the least-squares slope of
round duration against training time.
"""
import json
import statistics
import sys


def rounds(path):
    """(training seconds at the round's end, round seconds) for every round line, in order."""
    out = []
    offset = 0.0          # training time before the current segment (resumed runs restart wall_seconds)
    last_wall = None
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        record = json.loads(line)
        if record.get("kind") != "round":
            continue
        wall = record["wall_seconds"]
        if last_wall is not None and wall < last_wall:
            offset += last_wall
            last_wall = None
        seconds = record.get("seconds")
        if seconds is None:
            if last_wall is None:
                last_wall = wall
                continue
            seconds = wall - last_wall
        last_wall = wall
        out.append((offset + wall, seconds))
    return out


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    minutes = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    data = rounds(sys.argv[1])
    if not data:
        sys.exit(f"round-times: no round lines in {sys.argv[1]}")
    width = minutes * 60
    windows = {}
    for at, seconds in data:
        windows.setdefault(int(at // width), []).append(seconds)
    print(f"| training minutes | rounds | median s | p10 s | p90 s |")
    print(f"| --- | ---: | ---: | ---: | ---: |")
    for index in sorted(windows):
        values = windows[index]
        print(f"| {index * minutes:.0f}-{(index + 1) * minutes:.0f} | {len(values)} | {statistics.median(values):.3f} "
              f"| {percentile(values, 0.1):.3f} | {percentile(values, 0.9):.3f} |")
    first, last = windows[min(windows)], windows[max(windows)]
    xs = [at / 3600 for at, _ in data]
    ys = [seconds for _, seconds in data]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
    hours = data[-1][0] / 3600
    print(f"\n{len(data)} rounds over {hours:.2f} h of training; median round {statistics.median(ys):.3f} s; "
          f"first {minutes:.0f} min {statistics.median(first):.3f} s, last {statistics.median(last):.3f} s "
          f"({statistics.median(last) / statistics.median(first):.2f}x); slope {slope * 1000:+.1f} ms per hour")


if __name__ == "__main__":
    main()
