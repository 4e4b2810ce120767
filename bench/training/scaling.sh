#!/usr/bin/env bash
# Does training scale from one core to two on this machine, independently of Spark? Runs, at one
# batch size: our local trainer alone, then two of them at once (separate JVMs, one native
# thread each); the same for the PyTorch reference (one thread each). If two independent
# processes do not reach ~2x one, no trainer (Spark or not) can. The sgemm row tells whether the
# two cores have their own multiply-add units at all (on some 2-vCPU VMs they do not: bench/EXPERIMENTS.md,
# "What two cores share"); the loop rows, whether memory is the limit. Spark's own figures: bench/train-spark.sh.
#   bench/training/scaling.sh [SECONDS] [BATCH]        default: 20 s, batch 1024; about 4 minutes
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-20}"
batch="${2:-1024}"
"$home/bench/pytorch/setup.sh" >/dev/null
"$home/langid" bench train --batch 64 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build once, outside the timing
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
ours() { "$home/langid" bench train --trainer local --batch "$batch" --seconds "$seconds" 2>/dev/null | sed -n 's/^samples\/s: //p'; }
theirs() { /usr/bin/python3 "$home/bench/pytorch/train_bench.py" --batch "$batch" --seconds "$seconds" --threads 1 --padding-mask 2>/dev/null \
             | sed -n 's/^samples\/s: //p'; }
loop() { java "$home/bench/training/MemoryScaling.java" "$1"; }
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo 'no AVX-512'); batch $batch"
printf '%-10s %10s %22s %8s\n' side "1 process" "2 processes (sum)" scaling
for side in ours theirs; do
  one="$($side)"
  $side > "$out/a" & $side > "$out/b"; wait
  a="$(cat "$out/a")"; b="$(cat "$out/b")"
  awk -v s="$side" -v o="$one" -v a="$a" -v b="$b" \
    'BEGIN { printf "%-10s %10.0f %10.0f + %-9.0f %7.2fx\n", (s == "ours" ? "samediff" : "pytorch"), o, a, b, (a + b) / o }'
done
# The same question without training. sgemm: one-thread (512, 512) products, bound by the
# core's multiply-add units; if two at once give ~1x one, the two "cores" share those units (the
# hypervisor's vCPUs are hyperthreads of one core), and no trainer can scale to 2x on them.
one="$(/usr/bin/python3 "$home/bench/pytorch/sgemm_bench.py" | sed -n 's/^gflops: //p')"
/usr/bin/python3 "$home/bench/pytorch/sgemm_bench.py" > "$out/a" & /usr/bin/python3 "$home/bench/pytorch/sgemm_bench.py" > "$out/b"; wait
awk -v o="$one" -v a="$(sed -n 's/^gflops: //p' "$out/a")" -v b="$(sed -n 's/^gflops: //p' "$out/b")" \
  'BEGIN { printf "%-10s %10.1f %10.1f + %-9.1f %7.2fx   (GFLOP/s)\n", "sgemm 512", o, a, b, (a + b) / o }'
# A dependent-latency loop over 8 MB (in cache; hyperthreads do scale on it) and over 256 MB (main memory).
for floats in 1048576 33554432; do
  one="$(loop "$floats")"
  loop "$floats" > "$out/a" & loop "$floats" > "$out/b"; wait
  awk -v f="$floats" -v o="$one" -v a="$(cat "$out/a")" -v b="$(cat "$out/b")" \
    'BEGIN { printf "%-10s %10.1f %10.1f + %-9.1f %7.2fx   (GFLOP/s)\n", "loop " f * 8 / 1048576 " MB", o, a, b, (a + b) / o }'
done
