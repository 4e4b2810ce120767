#!/usr/bin/env bash
# Microseconds this host takes to hand a process each 4 KiB page it touches first, over 256 MiB
# (allocation and first write timed together: Python's bytearray(n) already touches its pages).
# A fraction of a microsecond on most hosts, 12-18 on the PVM micro-VMs of docs/RESULTS.md, "Fresh memory"
# ("Fresh memory"). bench/detect.sh prints it on its machine: line; run this alone first to see
# in a second whether a host can settle a whole-process ratio (under 2 µs a page) before
# spending minutes on the runs.
#   bench/detect/fresh-memory.sh        prints e.g. 0.3
set -euo pipefail
command -v python3 > /dev/null || { echo "bench/detect/fresh-memory.sh: needs python3" >&2; exit 1; }
python3 -c 'import time
n = 1 << 28
started = time.perf_counter(); b = bytearray(n); b[::4096] = b"\x01" * (n // 4096)
print("%.1f" % ((time.perf_counter() - started) * 1e6 / (n // 4096)))'
