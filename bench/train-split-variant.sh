# Sourced by the bench tools that write a variant of a prepare output's training split
# (bench/word-shuffle.sh, bench/window-cap.sh): runs a Spark program, given as a Java source
# file, that writes OUT/windows/split=train, then links validation, test and sentences to
# PREPARED's. The caller writes OUT/summary.json.
#   train_split_variant JAVA_SOURCE PREPARED OUT ARGS...   (PREPARED absolute; prints the program's last line)
train_split_variant() {
  local source="$1" prepared="$2" out="$3"; shift 3
  local home; home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  "$home/langid" --version > /dev/null   # builds the project when needed
  local flags classpath
  flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
  classpath="$home/jobs/target/langid-jobs-0.1.0-SNAPSHOT.jar:$(cat "$home/jobs/target/launcher-classpath.txt"):$(cat "$home/jobs/target/launcher-provided-classpath.txt")"
  rm -rf "$out"; mkdir -p "$out/windows"
  # shellcheck disable=SC2086
  SPARK_LOCAL_IP=127.0.0.1 java $flags -Dlog4j2.configurationFile="$home/conf/log4j2.properties" -cp "$classpath" \
    "$source" "$prepared" "$out" "$@" 2> "$out.log" | tail -1
  ln -s "$prepared/windows/split=validation" "$out/windows/split=validation"
  ln -s "$prepared/windows/split=test" "$out/windows/split=test"
  ln -s "$prepared/sentences" "$out/sentences"
}
