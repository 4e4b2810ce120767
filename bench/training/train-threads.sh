#!/usr/bin/env bash
# Is stepping two workers in one JVM what holds the Spark trainer's local[2] back? Training
# samples/s of one local trainer alone, of N local trainers as N threads of one JVM (each its own
# state and batches, no Spark, no averaging: what local[N] could reach without rounds), and of N
# trainer JVMs side by side. Batch 1024 by default, the profile's model on INPUT's training windows.
# Run it on an otherwise idle machine.
#   [INPUT=DIR] [THREADS=N] bench/training/train-threads.sh [SECONDS] [BATCH] [KEY=VALUE ...]   default: 20 s, batch 1024, 2 threads
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-20}"
batch="${2:-1024}"
shift $(( $# > 2 ? 2 : $# ))
threads="${THREADS:-2}"
input="${INPUT:-$home/work/pipeline/prepared}"
[ -d "$input/windows" ] || { echo "train-threads.sh: $input is not a prepare output (run ./langid pipeline, or give INPUT=DIR)" >&2; exit 1; }
"$home/langid" bench train --batch 16 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # builds the project and launcher.args
cores="$(nproc)"   # before OMP_NUM_THREADS=1, which nproc obeys
spark_flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE SPARK_LOCAL_IP=127.0.0.1
log="$(mktemp "${TMPDIR:-/tmp}/train-threads.XXXXXX")"
rate() {   # rate THREADS [KEY=VALUE ...]: total samples/s of one JVM running THREADS trainers
  local n="$1"; shift
  # shellcheck disable=SC2086
  "${JAVA_HOME:+$JAVA_HOME/bin/}java" $spark_flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -Dlangid.log.file="$log" \
    @"$home/jobs/target/launcher.args" "$home/bench/training/InJvmTrainers.java" "$n" "$seconds" "$batch" \
    "$home/conf/local.yaml" "$input" "$@" 2>>"$log" | sed -n 's/^samples\/s: //p' || true   # an empty rate is reported below
}
alone="$(rate 1 "$@")"
one_jvm="$(rate "$threads" "$@")"
pids=(); outs=()
for ((j = 0; j < threads; j++)); do
  outs+=("$(mktemp "${TMPDIR:-/tmp}/train-threads.XXXXXX")")
  rate 1 "$@" > "${outs[j]}" & pids+=($!)
done
wait "${pids[@]}"
side_by_side="$(cat "${outs[@]}" | awk '{ s += $1; n++ } END { if (n == '"$threads"') printf "%.0f", s }')"
rm -f "${outs[@]}"
if [ -z "$alone" ] || [ -z "$one_jvm" ] || [ -z "$side_by_side" ]; then
  echo "train-threads.sh: a run printed no rate; its errors are in $log" >&2
  exit 1
fi
rm -f "$log"
echo "batch $batch, $cores cores, windows: $input${*:+, $*}"
echo "one trainer alone:               $alone samples/s"
echo "$threads trainers, threads of one JVM: $one_jvm samples/s"
echo "$threads trainer JVMs side by side:    $side_by_side samples/s"
awk -v a="$alone" -v t="$one_jvm" -v s="$side_by_side" -v n="$threads" 'BEGIN {
  printf "one JVM / one alone: %.2fx; side by side / one alone: %.2fx (the ceiling of the Spark trainer local[%d] / local[1])\n", t / a, s / a, n }'
