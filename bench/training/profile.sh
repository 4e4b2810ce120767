#!/usr/bin/env bash
# Where a training step's time goes, SameDiff against the PyTorch reference, one thread each:
#   1. SameDiff's ProfilingListener: native time per op type and per op instance (bench/training/profile-summary.py);
#   2. JFR on the same run: how the JVM's samples split between native ops, allocation and Java;
#   3. PyTorch's profiler on bench/pytorch/train_bench.py, same model and batch.
#   bench/training/profile.sh [BATCH ...]        default: 256 1024.  Results: bench/EXPERIMENTS.md.
# Both sides train the reference model (d 64, 4 heads, 2 layers, FFN 128, no n-grams), as
# bench/train.sh. PROFILED=profile times the profile's own model instead (with its n-gram table,
# whose lookups and row updates run in Java between the graph's ops) and skips PyTorch, which has
# no n-gram table. Run on an otherwise idle machine; about 2 minutes per batch size.
# With step replay, the timed steps and JFR see replayed steps, while the
# trace's 5 steps run through SameDiff's session (the listener turns replay off): its "outside
# native ops" share is the session's cost that replay removes.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
batches=("${@:-256 1024}")
# shellcheck disable=SC2206
batches=(${batches[*]})
model=(--set model.d_model=64 --set model.heads=4 --set model.layers=2 --set model.ffn=128 --set model.ngram_buckets=0
       --set model.positional=true --set train.dropout=0)
[ "${PROFILED:-}" = profile ] && model=()
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$home/bench/pytorch/setup.sh" >/dev/null
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo 'no AVX-512')"
for batch in "${batches[@]}"; do
  echo
  echo "=== SameDiff, batch $batch, one native thread"
  LANGID_JAVA_OPTS="-XX:StartFlightRecording=filename=$out/steps-$batch.jfr,settings=profile" \
    "$home/langid" bench train --trainer local --batch "$batch" --seconds 10 --warmup-seconds 5 \
    --trace "$out/trace-$batch.json" "${model[@]}" 2>/dev/null | grep -E '^(model|samples/s)'
  sleep 2   # the listener writes asynchronously
  /usr/bin/python3 "$home/bench/training/profile-summary.py" "$out/trace-$batch.json" 5 15
  echo
  echo "--- JFR, whole run (warm-up included): where the samples fall, then the top frames"
  echo "    (a ranking, not time shares: JFR samples Java code every 10 ms and native calls every 20 ms)"
  jfr print --stack-depth 1 --events jdk.ExecutionSample,jdk.NativeMethodSample "$out/steps-$batch.jfr" \
    | /usr/bin/python3 -c '
import collections, re, sys
top = collections.Counter()
text = sys.stdin.read()
for frame in re.findall(r"stackTrace = \[\s*\n\s*([\w.$<>]+)", text):
    top["native op (Nd4jCpu.exec*)" if ".exec" in frame and "Nd4jCpu" in frame
        else "native buffer allocation" if "allocateDataBuffer" in frame
        else "other native call" if "Nd4jCpu" in frame or "javacpp" in frame
        else "Java"] += 1
frames = collections.Counter(re.findall(r"stackTrace = \[\s*\n\s*([\w.$<>]+)", text))
total = sum(top.values())
for name, n in top.most_common():
    print(f"  {name:<30} {100 * n / total:5.1f}% of {total} samples")
for frame, n in frames.most_common(8):
    print(f"    {frame:<70} {100 * n / total:5.1f}%")'
  [ "${PROFILED:-}" = profile ] && continue
  echo
  echo "=== PyTorch, batch $batch, one thread (profiler on 10 steps: its own overhead inflates the times)"
  /usr/bin/python3 "$home/bench/pytorch/train_bench.py" --batch "$batch" --seconds 10 --threads 1 --padding-mask \
    --profile-steps 10 --profile-top 12 2>/dev/null | grep -E 'Name|aten::|Self CPU time|^samples/s'
done
