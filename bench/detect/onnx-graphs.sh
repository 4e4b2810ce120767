#!/usr/bin/env bash
# Time ONNX graphs of one model against each other, in one JVM, batch by batch in rotating order
# (bench/detect/OnnxGraphRatio.java), over every test window of a prepared directory; then how far each
# graph's probabilities are from the first's. For rewrites of the serving graph: a ratio within a
# few percent from round to round on a machine where whole processes wander by a third
# (docs/RESULTS.md, "Detection speed").
#   bench/detect/onnx-graphs.sh PREPARED A.onnx B.onnx [C.onnx ...]
#   e.g. bench/detect/onnx-graphs.sh work/detect/prepared OLD/model.int8.onnx models/versions/V/model.int8.onnx
# Environment: BATCH (default 256), ROUNDS (default 5; the first includes warm-up).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ $# -lt 3 ]; then
  echo "usage: bench/detect/onnx-graphs.sh PREPARED A.onnx B.onnx [C.onnx ...]" >&2
  exit 2
fi
prepared="$1"; shift
for g in "$@"; do
  [ -f "$g" ] || { echo "bench/detect/onnx-graphs.sh: no ONNX file at $g" >&2; exit 1; }
done
windows="$(mktemp --suffix=.tsv)"
trap 'rm -f "$windows"' EXIT
"$home/langid" bench windows -i "$prepared" --split test -o "$windows" >/dev/null
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(wc -l < "$windows") windows"
for g in "$@"; do echo "graph $((i = ${i:--1} + 1)): $g"; done
java -cp "$(cat "$home/serving/target/quick-predict-classpath.txt"):$home/serving/target/classes" \
  "$home/bench/detect/OnnxGraphRatio.java" "$windows" "${BATCH:-256}" "${ROUNDS:-5}" "$@"
