#!/usr/bin/env python3
"""Summarises a SameDiff ProfilingListener trace (./langid bench train --trace FILE).

    bench/training/profile-summary.py TRACE [STEPS] [TOP]

Prints, per training step: ops executed, native op time (the sum of op durations), the wall
span from the first op to the last (the difference is time outside native ops: SameDiff's Java
session, JNI calls, the listener itself), then time by op type and the TOP slowest op instances.
"""
import collections
import json
import sys

path = sys.argv[1]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
top = int(sys.argv[3]) if len(sys.argv) > 3 else 15
text = open(path, encoding="utf-8").read().rstrip().rstrip(",")
if not text.endswith("]"):          # the listener may not have closed the array at exit
    text += "]"
events = sorted((e for e in json.loads(text) if e.get("ph") == "X"), key=lambda e: e["ts"])
if not events:
    sys.exit(f"{path}: no op events")
native = sum(e["dur"] for e in events) / steps / 1000
span = (events[-1]["ts"] + events[-1]["dur"] - events[0]["ts"]) / steps / 1000
print(f"per step: {len(events) / steps:.0f} ops, native {native:.1f} ms, span {span:.1f} ms "
      f"(outside native ops: {span - native:.1f} ms, {100 * (span - native) / span:.0f}%)")
by_type = collections.Counter()
count = collections.Counter()
by_name = collections.Counter()
for e in events:
    by_type[e["name"]] += e["dur"]
    count[e["name"]] += 1
    by_name[e["args"]["name"]] += e["dur"]
print(f"\n{'op type':<32} {'ms/step':>8} {'share':>6} {'calls/step':>10}")
for name, dur in by_type.most_common(top):
    print(f"{name:<32} {dur / steps / 1000:8.2f} {100 * dur / steps / 1000 / native:5.1f}% {count[name] / steps:10.0f}")
print(f"\n{'slowest op instances':<32} {'ms/step':>8}")
for name, dur in by_name.most_common(top):
    print(f"{name:<32} {dur / steps / 1000:8.2f}")
