#!/usr/bin/env bash
# A Spark 3.5 standalone cluster on this machine, from the Spark jars Maven resolved for the build
# (no Spark download): one Master and N Workers, each its own JVM, all bound to 127.0.0.1.
# Executors are JVMs the Workers start, as on any standalone cluster.
#
#   deploy/standalone/cluster.sh start [--workers N] [--cores C] [--memory M] [--port P]
#   deploy/standalone/cluster.sh status
#   deploy/standalone/cluster.sh env      # prints: export SPARK_HOME=...; export SPARK_MASTER=...
#   deploy/standalone/cluster.sh executors   # one line per executor JVM: worker-N PID
#   deploy/standalone/cluster.sh stop
#
#   start    assembles the Spark home (target/spark-home: jars/ links to the build's Spark,
#            Hadoop, Scala and logging jars; bin/spark-submit, bin/spark-class; conf/), starts the
#            Master and the Workers, waits until every Worker is registered, then prints
#              master: spark://127.0.0.1:PORT
#              spark-home: PATH
#              web-ui: http://127.0.0.1:PORT
#            --workers N   Workers (default 2); --cores C  cores each (default 1);
#            --memory M    memory each Worker offers its executors (default 3g);
#            --port P      the Master's port (default 7077; Spark takes the next free one if busy)
#   status   the Master, each Worker and their executors (process ids), and the Master's view
#   stop     stops what start started, by the process ids it recorded, executors included
#
# Everything the cluster writes is under work/standalone/ (LANGID_CLUSTER_DIR to change):
#   logs/master.log, logs/worker-N.log    the daemons' logs
#   worker-N/app-*/EXECUTOR/stderr        each executor's log (its stdout beside it)
#   pids/, cluster.env                    what stop, status and env read
# Builds the project first (./mvnw -Pcluster package) when the build is missing: submit.sh needs
# the cluster jar, this script the list of Spark's jars.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
me="cluster.sh"
state="${LANGID_CLUSTER_DIR:-$home/work/standalone}"
spark_home="$home/target/spark-home"

fail() {
  echo "$me: $*" >&2
  exit 1
}

usage() {
  sed -n '2,29p' "$0"
}

java_cmd="${JAVA_HOME:+$JAVA_HOME/bin/}java"

alive() {
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

recorded_pid() {
  cat "$state/pids/$1" 2>/dev/null || true
}

# Executors are the Workers' child processes.
executors_of() {
  local pid
  pid="$(recorded_pid "$1")"
  alive "$pid" && pgrep -P "$pid" -f CoarseGrainedExecutorBackend || true
}

# The jars a Spark 3.5 distribution ships: Spark's provided-scope tree, plus what Maven put in
# compile scope because our own code uses it too (slf4j, Jackson).
assemble_spark_home() {
  local provided="$home/jobs/target/provided-classpath.txt" runtime="$home/jobs/target/launcher-classpath.txt"
  if [ ! -f "$provided" ] || [ ! -f "$runtime" ] || ! ls "$home"/jobs/target/langid-jobs-*-cluster.jar >/dev/null 2>&1; then
    echo "$me: building the project and the cluster jar (./mvnw -Pcluster -DskipTests package) ..." >&2
    local log
    log="$(mktemp)"
    if ! (cd "$home" && ./mvnw -B -q -Pcluster -DskipTests package) >"$log" 2>&1; then
      cat "$log" >&2
      rm -f "$log"
      fail "the build failed (log above)"
    fi
    rm -f "$log"
  fi
  rm -rf "$spark_home"
  mkdir -p "$spark_home/jars" "$spark_home/bin" "$spark_home/conf"
  local jar
  for jar in $(tr ':' '\n' <"$provided") \
             $(tr ':' '\n' <"$runtime" | grep -E '/org/slf4j/slf4j-api/|/com/fasterxml/jackson/core/jackson-(core|databind|annotations)/'); do
    [ -f "$jar" ] || fail "$jar (from the build's classpath) is missing; rebuild with ./mvnw -Pcluster -DskipTests package"
    ln -s "$jar" "$spark_home/jars/"
  done
  local spark_jar
  spark_jar="$(ls "$spark_home"/jars/spark-core_2.12-*.jar)"
  spark_jar="$(basename "$spark_jar" .jar)"
  echo "Spark ${spark_jar#spark-core_2.12-} assembled by deploy/standalone/cluster.sh from the langid build's Maven dependencies" \
    >"$spark_home/RELEASE"

  # The JVM flags Spark needs on Java 17: one list, kept in the parent pom. Spark's launcher adds
  # them to spark-submit's driver and the executors by itself, not to the Master and Workers.
  local flags
  flags="$(sed -n 's:.*<spark.java17.flags>\(.*\)</spark.java17.flags>.*:\1:p' "$home/pom.xml")"
  cat >"$spark_home/conf/spark-env.sh" <<EOF
# Read by bin/spark-class (as Spark's own load-spark-env.sh does) for every JVM it starts:
# Master, Workers, spark-submit's driver. Executors inherit it from their Worker.
export SPARK_HOME="$spark_home"
# No build directories here, so the launcher must be told which Scala the jars are built for.
export SPARK_SCALA_VERSION=2.12
# Loopback only: left alone, Spark binds to the machine's network address.
export SPARK_LOCAL_IP=127.0.0.1
export SPARK_DAEMON_JAVA_OPTS="$flags"
export SPARK_DAEMON_MEMORY=512m
# ND4J's native ops single-threaded in every JVM (train.native_threads explains why).
export OMP_NUM_THREADS=\${OMP_NUM_THREADS:-1}
export OMP_WAIT_POLICY=\${OMP_WAIT_POLICY:-PASSIVE}
EOF
  cat >"$spark_home/conf/spark-defaults.conf" <<'EOF'
# Read by spark-submit. The driver on loopback too, where executors reach it.
spark.driver.host          127.0.0.1
spark.driver.bindAddress   127.0.0.1
EOF

  # bin/spark-class: what Spark's own script does. Spark's launcher (org.apache.spark.launcher.Main)
  # builds the java command line: class path, conf/spark-defaults.conf, Java 17 flags.
  cat >"$spark_home/bin/spark-class" <<'EOF'
#!/usr/bin/env bash
# Runs a Spark class with the command line Spark's launcher builds (as Spark's bin/spark-class).
set -euo pipefail
SPARK_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC1091
. "$SPARK_HOME/conf/spark-env.sh"
java_cmd="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# The launcher prints NUL, newline, then the command, each argument followed by NUL.
launch="$(mktemp)"
trap 'rm -f "$launch"' EXIT
"$java_cmd" -Xmx128m -cp "$SPARK_HOME/jars/*" org.apache.spark.launcher.Main "$@" >"$launch" || exit $?
words=()
while IFS= read -r -d '' word; do
  words+=("$word")
done <"$launch"
# Anything before the first NUL is a message from the launcher (usage, an error).
[ -z "${words[0]:-}" ] || echo "${words[0]}" >&2
command=("${words[@]:1}")
[ ${#command[@]} -eq 0 ] || command[0]="${command[0]#$'\n'}"
[ ${#command[@]} -gt 0 ] || { echo "spark-class: Spark's launcher printed no command" >&2; exit 1; }
rm -f "$launch"
trap - EXIT
exec "${command[@]}"
EOF
  cat >"$spark_home/bin/spark-submit" <<'EOF'
#!/usr/bin/env bash
# Submits an application (as Spark's bin/spark-submit).
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/spark-class" org.apache.spark.deploy.SparkSubmit "$@"
EOF
  chmod +x "$spark_home/bin/spark-class" "$spark_home/bin/spark-submit"
}

# The first line of a log that matches, with the match's group 1 (sed -n 's/.../\1/p').
from_log() {
  sed -n "$2" "$1" 2>/dev/null | head -1
}

start() {
  local workers=2 cores=1 memory=3g port=7077
  while [ $# -gt 0 ]; do
    case "$1" in
      --workers) workers="$2"; shift 2 ;;
      --cores) cores="$2"; shift 2 ;;
      --memory) memory="$2"; shift 2 ;;
      --port) port="$2"; shift 2 ;;
      *) fail "start: unknown option $1 (--workers N, --cores C, --memory M, --port P)" ;;
    esac
  done
  case "$workers$cores" in *[!0-9]*|"") fail "start: --workers and --cores take a number" ;; esac
  [ "$workers" -ge 1 ] && [ "$cores" -ge 1 ] || fail "start: --workers and --cores must be at least 1"
  [[ "$memory" =~ ^[0-9]+[mMgG]$ ]] || fail "start: --memory takes a size such as 3g or 1500m, not $memory"
  [[ "$port" =~ ^[0-9]+$ ]] || fail "start: --port takes a number, not $port"
  command -v "$java_cmd" >/dev/null 2>&1 || fail "no java found; install a JDK 17 or set JAVA_HOME"
  local name
  for name in $(ls "$state/pids" 2>/dev/null); do
    if alive "$(recorded_pid "$name")"; then
      fail "a cluster started from $state is running ($name: pid $(recorded_pid "$name")); '$me stop' first, or '$me status'"
    fi
  done

  assemble_spark_home
  rm -rf "$state"
  mkdir -p "$state/logs" "$state/pids"

  # nohup as Spark's spark-daemon.sh does: the daemons outlive the shell that started them.
  nohup "$spark_home/bin/spark-class" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port "$port" --webui-port 8080 >"$state/logs/master.log" 2>&1 </dev/null &
  echo $! >"$state/pids/master"

  local master="" ui="" waited=0
  while [ -z "$master" ] || [ -z "$ui" ]; do
    alive "$(recorded_pid master)" || { tail -20 "$state/logs/master.log" >&2; fail "the Master exited (log above: $state/logs/master.log)"; }
    [ "$waited" -lt 60 ] || { stop_all; fail "the Master did not start within 60 s; see $state/logs/master.log"; }
    sleep 1
    waited=$((waited + 1))
    master="$(from_log "$state/logs/master.log" 's/.*Starting Spark master at \(spark:\/\/[0-9.:]*\).*/\1/p')"
    ui="$(from_log "$state/logs/master.log" 's/.*MasterWebUI.* started at \(http:\/\/[0-9.:]*\).*/\1/p')"
  done

  local n
  for n in $(seq 1 "$workers"); do
    mkdir -p "$state/worker-$n"
    nohup "$spark_home/bin/spark-class" org.apache.spark.deploy.worker.Worker \
      --host 127.0.0.1 --cores "$cores" --memory "$memory" --work-dir "$state/worker-$n" --webui-port 8081 \
      "$master" >"$state/logs/worker-$n.log" 2>&1 </dev/null &
    echo $! >"$state/pids/worker-$n"
  done

  waited=0
  while true; do
    local registered=0
    for n in $(seq 1 "$workers"); do
      alive "$(recorded_pid "worker-$n")" \
        || { tail -20 "$state/logs/worker-$n.log" >&2; stop_all; fail "worker $n exited (log above: $state/logs/worker-$n.log)"; }
      grep -q 'Successfully registered with master' "$state/logs/worker-$n.log" && registered=$((registered + 1))
    done
    [ "$registered" -lt "$workers" ] || break
    [ "$waited" -lt 120 ] || { stop_all; fail "$registered of $workers workers registered within 120 s; see $state/logs/"; }
    sleep 1
    waited=$((waited + 1))
  done

  cat >"$state/cluster.env" <<EOF
SPARK_MASTER=$master
SPARK_HOME=$spark_home
WEB_UI=$ui
WORKERS=$workers
EOF
  echo "master: $master"
  echo "spark-home: $spark_home"
  echo "web-ui: $ui"
  echo "workers: $workers x $cores core(s), $memory; logs and work directories: $state"
}

# TERM to the Workers (they stop their executors), then the Master; KILL what is left after 20 s.
stop_all() {
  local pids=() name pid
  for name in $(ls "$state/pids" 2>/dev/null | sort -r); do   # workers before the master
    pid="$(recorded_pid "$name")"
    alive "$pid" || continue
    case "$name" in
      worker-*) pids+=($(executors_of "$name")) ;;
    esac
    pids+=("$pid")
    kill -TERM "$pid" 2>/dev/null || true
  done
  local waited=0 left
  while true; do
    left=()
    for pid in "${pids[@]}"; do
      alive "$pid" && left+=("$pid")
    done
    [ ${#left[@]} -gt 0 ] || break
    if [ "$waited" -ge 20 ]; then
      echo "$me: still running after 20 s, killing: ${left[*]}" >&2
      kill -KILL "${left[@]}" 2>/dev/null || true
      break
    fi
    sleep 1
    waited=$((waited + 1))
  done
  rm -f "$state"/pids/* "$state/cluster.env"
}

stop() {
  if [ ! -d "$state/pids" ] || [ -z "$(ls "$state/pids" 2>/dev/null)" ]; then
    echo "$me: no cluster recorded under $state"
    return 0
  fi
  stop_all
  echo "stopped; logs stay in $state/logs"
}

status() {
  [ -f "$state/cluster.env" ] || { echo "no cluster running from $state"; return 3; }
  # shellcheck disable=SC1091
  . "$state/cluster.env"
  local pid running=0 name
  pid="$(recorded_pid master)"
  if alive "$pid"; then echo "master: $SPARK_MASTER (pid $pid)"; running=1; else echo "master: $SPARK_MASTER DOWN (pid $pid)"; fi
  echo "spark-home: $SPARK_HOME"
  echo "web-ui: $WEB_UI"
  for name in $(ls "$state/pids" | grep '^worker-' | sort -t- -k2 -n); do
    pid="$(recorded_pid "$name")"
    if alive "$pid"; then
      echo "$name: pid $pid, executors: $(executors_of "$name" | paste -sd' ' - | sed 's/^$/none/')"
    else
      echo "$name: DOWN (pid $pid)"
    fi
  done
  if [ "$running" = 1 ] && command -v curl >/dev/null 2>&1; then
    curl -fsS "$WEB_UI/json/" 2>/dev/null \
      | sed -n 's/^  "\(status\|aliveworkers\|cores\|coresused\|memory\|memoryused\)" : "\{0,1\}\([0-9A-Z]*\).*/  \1: \2/p' || true
  fi
  [ "$running" = 1 ]
}

# One line per executor: WORKER PID (for scripts that need to kill one, deploy/standalone/failures.sh).
print_executors() {
  [ -d "$state/pids" ] || return 0
  local name pid
  for name in $(ls "$state/pids" | grep '^worker-' | sort -t- -k2 -n); do
    for pid in $(executors_of "$name"); do
      echo "$name $pid"
    done
  done
}

print_env() {
  [ -f "$state/cluster.env" ] || fail "no cluster running from $state; '$me start' first"
  # shellcheck disable=SC1091
  . "$state/cluster.env"
  echo "export SPARK_HOME=$SPARK_HOME"
  echo "export SPARK_MASTER=$SPARK_MASTER"
}

[ $# -gt 0 ] || { usage; exit 2; }
action="$1"
shift
case "$action" in
  start) start "$@" ;;
  stop) stop ;;
  status) status ;;
  env) print_env ;;
  executors) print_executors ;;
  -h|--help|help) usage ;;
  *) fail "unknown action $action (start, status, env, executors, stop; --help)" ;;
esac
