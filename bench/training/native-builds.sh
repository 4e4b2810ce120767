#!/usr/bin/env bash
# Training throughput of the same build of langid on different native builds of nd4j-native
# 1.0.0-M2.1, side by side in one run (one native thread each, as ./langid runs).
#   bench/training/native-builds.sh [SECONDS] [BATCH] [BUILD ...]
#   default: 20 s, batch 1024, builds "linux-x86_64 linux-x86_64-onednn"; also available:
#   linux-x86_64-avx2, linux-x86_64-avx512, linux-x86_64-onednn-avx2 (skipped on a CPU without
#   the instructions: such a binary exits at start-up).
# The pom's default is linux-x86_64-onednn (-Pgeneric-native builds with linux-x86_64).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-20}"
batch="${2:-1024}"
shift 2 || shift $# || true
builds=("${@:-linux-x86_64 linux-x86_64-onednn}")
# shellcheck disable=SC2206
builds=(${builds[*]})
version=1.0.0-M2.1
repo="${MAVEN_REPO:-$HOME/.m2/repository}/org/nd4j/nd4j-native/$version"

"$home/langid" bench train --batch 64 --seconds 1 --warmup-seconds 0 >/dev/null 2>&1   # build once, outside the timing
classpath="$(cat "$home/jobs/target/launcher-classpath.txt"):$(cat "$home/jobs/target/launcher-provided-classpath.txt")"
spark_flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
flags="$(grep -m1 '^flags' /proc/cpuinfo)"
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo 'no AVX-512')"
printf '%-28s %12s\n' "nd4j-native build" "samples/s"
for build in "${builds[@]}"; do
  case "$build" in
    *avx512*) needs=avx512bw ;;
    *avx2*) needs=avx2 ;;
    *) needs="" ;;
  esac
  if [ -n "$needs" ] && ! grep -qw "$needs" <<<"$flags"; then
    printf '%-28s %12s\n' "$build" "(no $needs)"
    continue
  fi
  jar="$repo/nd4j-native-$version-$build.jar"
  if [ ! -f "$jar" ]; then
    (cd "$home" && ./mvnw -B -q dependency:get -Dartifact="org.nd4j:nd4j-native:$version:jar:$build" -Dtransitive=false) >/dev/null
  fi
  # shellcheck disable=SC2001
  cp="$(sed "s#[^:]*nd4j-native-$version-linux-x86_64[-a-z0-9]*\.jar#$jar#" <<<"$classpath")"
  # shellcheck disable=SC2086
  rate="$(OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE java $spark_flags -Dlangid.home="$home" \
            -Dlog4j2.configurationFile="$home/conf/log4j2.properties" \
            -cp "$home/jobs/target/langid-jobs-0.1.0-SNAPSHOT.jar:$cp" org.langid.jobs.cli.LangidCommand \
            bench train --trainer local --batch "$batch" --seconds "$seconds" 2>/dev/null | sed -n 's/^samples\/s: //p')"
  printf '%-28s %12s\n' "$build" "${rate:-failed}"
done
