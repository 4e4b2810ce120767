#!/usr/bin/env python3
"""What a Spark training round costs besides its tasks' run, from a Spark event log: for each
round (stage) after the first few, (the next round's first launch - this round's first launch) -
its longest task's run time, i.e. scheduling, task and result (de)serialization, waiting for the
slower worker's start, and the driver's averaging and next input.
Robust to step-time noise, which the samples/s figures are not. Usage:
  ./langid bench train --trainer spark --master 'local[1]' ... \
      --spark-conf spark.eventLog.enabled=true --spark-conf spark.eventLog.dir=DIR
  bench/training/round-overhead.py DIR/<the log>
"""
import json
import statistics
import sys

for path in sys.argv[1:]:
    stages = {}
    for line in open(path):
        event = json.loads(line)
        if event["Event"] == "SparkListenerTaskEnd":
            launch, run = event["Task Info"]["Launch Time"], event["Task Metrics"]["Executor Run Time"]
            first, longest = stages.get(event["Stage ID"], (launch, run))
            stages[event["Stage ID"]] = (min(first, launch), max(longest, run))
    tasks = sorted(stages.values())
    overheads = [b[0] - a[0] - a[1] for a, b in zip(tasks[3:], tasks[4:])]
    if not overheads:
        sys.exit(f"{path}: too few rounds")
    print(f"{path}: {len(overheads)} rounds, overhead per round: median {statistics.median(overheads):.0f} ms, "
          f"quartiles {statistics.quantiles(overheads, n=4)[0]:.0f}-{statistics.quantiles(overheads, n=4)[2]:.0f} ms; "
          f"run median {statistics.median(t[1] for t in tasks[3:]):.0f} ms")
