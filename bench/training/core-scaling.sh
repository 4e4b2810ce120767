#!/usr/bin/env bash
# What two cores of this machine share (bench/EXPERIMENTS.md, "What two cores share"): each test alone,
# then two copies side by side, and the ratio of their sum to the one alone (2.00: nothing shared).
# Multiply-adds in registers, and a stream over two arrays that fit one core's L2, about the shared
# L3, or neither. The training step streams arrays of 4-8 MB, so the last two rows bound how well
# two workers can scale here whatever the software does. Needs a C compiler (cc).
#   bench/training/core-scaling.sh [SECONDS]    default 5 s per run
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-5}"
command -v cc >/dev/null || { echo "core-scaling.sh: needs a C compiler (apt-get install gcc)" >&2; exit 1; }
binary="$(mktemp "${TMPDIR:-/tmp}/core-scaling.XXXXXX")"
trap 'rm -f "$binary" "$binary".a "$binary".b' EXIT
cc -O3 -march=native -o "$binary" "$home/bench/training/CoreScaling.c"
l3_kb="$(lscpu -C=NAME,ALL-SIZE 2>/dev/null | awk '$1 == "L3" { v = $2; u = substr(v, length(v)); n = v + 0; print (u == "M" ? n * 1024 : u == "G" ? n * 1048576 : n); exit }')"
l3_floats=$(( ${l3_kb:-32768} * 1024 / 4 / 2 ))   # two arrays of half the L3 each
printf "%-32s %16s %28s %7s\n" test alone "two side by side" ratio
run() {   # run NAME ARGS...
  local name="$1"; shift
  local alone a b
  alone="$("$binary" "$@" | cut -d' ' -f1)"
  "$binary" "$@" > "$binary".a & "$binary" "$@" > "$binary".b & wait
  a="$(cut -d' ' -f1 "$binary".a)"; b="$(cut -d' ' -f1 "$binary".b)"
  awk -v n="$name" -v x="$alone" -v a="$a" -v b="$b" -v u="$(cut -d' ' -f2 "$binary".a)" \
    'BEGIN { printf "%-32s %8.1f %-7s %8.1f + %8.1f %-7s %6.2fx\n", n, x, u, a, b, u, (a + b) / x }'
}
run "multiply-adds in registers" fma "$seconds"
run "stream, 1 MB (a core's L2)" triad "$seconds" 131072
run "stream, $(( l3_floats * 8 / 1048576 )) MB (the L3)" triad "$seconds" "$l3_floats"
run "stream, 512 MB (memory)" triad "$seconds" 67108864
