#!/usr/bin/env bash
# Submits any langid subcommand to a Spark cluster with spark-submit and the cluster jar
# (Spark and Hadoop provided by the cluster; our code, ND4J and the rest inside).
#
#   ./mvnw -Pcluster -DskipTests package           # builds jobs/target/langid-jobs-*-cluster.jar
#   deploy/spark-submit/submit.sh --master yarn -- \
#       retrain --corpus hdfs:///langid/corpus --registry hdfs:///langid/registry --trainer spark --workers 4
#   deploy/spark-submit/submit.sh --master spark://head:7077 --executors 4 -- \
#       prepare -i hdfs:///corpora/libreoffice -o hdfs:///langid/prepared --overwrite
#   deploy/spark-submit/submit.sh --master k8s://https://api.example:6443 --deploy-mode cluster \
#       --image registry.example/langid-job:0.1.0 --profile local:///opt/langid/conf/local.yaml -- retrain ...
#
# Options (everything after -- is the langid subcommand and its arguments):
#   --master URL           spark://HOST:PORT, yarn, k8s://https://HOST:PORT or local[N] (default: $SPARK_MASTER)
#   --deploy-mode MODE     client | cluster (default client)
#   --profile FILE         configuration profile (default conf/local.yaml, for pipeline conf/pipeline.yaml, with
#                          --gpu conf/gpu.yaml); only for the subcommands that read one (pipeline, prepare,
#                          train, retrain). A local file is shipped with --files, with the profiles it is
#                          written on (base:); hdfs://, s3a:// ... are read by the driver where they are;
#                          local:///PATH is a file already on the driver (a path inside the k8s image).
#   --gpu                  one GPU per executor and per task (as train-gpu.sh); needs the CUDA jar
#                          (./mvnw -Pcuda,cluster -DskipTests package)
#   --discovery FILE       GPU discovery script (default deploy/gpu/discover-gpus.sh; on Kubernetes
#                          /opt/langid/deploy/gpu/discover-gpus.sh inside the image)
#   --executors N          executors to start (YARN, Kubernetes: spark.executor.instances;
#                          standalone: spark.cores.max = N x executor cores)
#   --executor-cores N     cores per executor (default: Spark's, 1 on YARN and Kubernetes, a worker's
#                          all on standalone; 1 with --gpu, and with --executors on standalone)
#   --image IMAGE          Kubernetes: container image of driver and executors (default: $LANGID_IMAGE)
#   --namespace NS         Kubernetes namespace (default: $LANGID_K8S_NAMESPACE, else default)
#   --service-account SA   Kubernetes service account of the driver (default langid-spark,
#                          deploy/kubernetes/langid-common.yaml)
#   --conf KEY=VALUE       one more spark-submit setting; repeatable
# Environment: SPARK_HOME (spark-submit is $SPARK_HOME/bin/spark-submit, else spark-submit on PATH),
#   LANGID_JAR (default: the newest jobs/target/langid-jobs-*-cluster.jar; on Kubernetes in cluster
#   mode local:///opt/langid/langid-jobs-cluster.jar, the jar inside the image),
#   SPARK_SUBMIT_EXTRA (more spark-submit arguments, word-split, e.g. "--executor-memory 4g"),
#   LANGID_LOG_FILE (client mode: the driver's log; default work/logs/<subcommand>-<time>-<pid>.log).
# Client mode: the driver runs here, with ./langid's logging (conf/log4j2.properties: progress on
#   the console, library logs in work/logs/); a master on 127.0.0.1 or localhost keeps the driver
#   on loopback too (SPARK_LOCAL_IP, spark.driver.host, spark.driver.bindAddress).
# Run here against the standalone cluster of deploy/standalone/cluster.sh (prepare, train, evaluate;
# deploy/standalone/README.md). NOT RUN against YARN, Kubernetes or a GPU: none was available.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
me="submit.sh"

fail() {
  echo "$me: $*" >&2
  exit 1
}

master="${SPARK_MASTER:-}"
deploy_mode=client
profile=""
gpu=false
discovery=""
executors=""
executor_cores=""
image="${LANGID_IMAGE:-}"
namespace="${LANGID_K8S_NAMESPACE:-default}"
service_account=langid-spark
extra_conf=()
while [ $# -gt 0 ]; do
  case "$1" in
    --master) master="$2"; shift 2 ;;
    --deploy-mode) deploy_mode="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --gpu) gpu=true; shift ;;
    --discovery) discovery="$2"; shift 2 ;;
    --executors) executors="$2"; shift 2 ;;
    --executor-cores) executor_cores="$2"; shift 2 ;;
    --image) image="$2"; shift 2 ;;
    --namespace) namespace="$2"; shift 2 ;;
    --service-account) service_account="$2"; shift 2 ;;
    --conf) extra_conf+=(--conf "$2"); shift 2 ;;
    -h|--help) sed -n '2,42p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) fail "unknown option $1 (the langid subcommand and its arguments go after --; --help lists the options)" ;;
  esac
done
[ $# -gt 0 ] || fail "no langid subcommand; usage: $me --master URL [options] -- SUBCOMMAND [ARGS...]"
command_name="$1"
shift
job_args=("$@")

case "$master" in
  spark://*) kind=standalone ;;
  yarn) kind=yarn ;;
  k8s://*) kind=kubernetes ;;
  local|local\[*) kind=local ;;
  "") fail "no --master (spark://HOST:PORT, yarn, k8s://https://HOST:PORT or local[N]); or set SPARK_MASTER" ;;
  *) fail "--master $master is not spark://..., yarn, k8s://... or local[...]" ;;
esac
case "$deploy_mode" in
  client|cluster) ;;
  *) fail "--deploy-mode $deploy_mode is not client or cluster" ;;
esac
if [ "$kind" = local ]; then
  [ "$deploy_mode" = client ] || fail "a local master runs in client mode only"
  [ "$gpu" = false ] || fail "--gpu needs a cluster master (yarn, k8s:// or spark://)"
fi
for count in "$executors" "$executor_cores"; do
  case "$count" in
    ""|[1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;;
    *) fail "--executors and --executor-cores take a number from 1 to 999, not $count" ;;
  esac
done

submit="${SPARK_HOME:+$SPARK_HOME/bin/}spark-submit"
command -v "$submit" >/dev/null 2>&1 \
  || fail "no spark-submit (looked for ${submit}); install Spark 3.5 and set SPARK_HOME"

# The application jar: in the image for Kubernetes cluster mode, else the local build.
if [ -n "${LANGID_JAR:-}" ]; then
  jar="$LANGID_JAR"
elif [ "$kind" = kubernetes ] && [ "$deploy_mode" = cluster ]; then
  jar="local:///opt/langid/langid-jobs-cluster.jar"
else
  # shellcheck disable=SC2012  # newest first; the names have no newlines
  jar="$(ls -t "$home"/jobs/target/langid-jobs-*-cluster.jar 2>/dev/null | head -1 || true)"
  build_profiles=cluster
  [ "$gpu" = true ] && build_profiles=cuda,cluster
  [ -n "$jar" ] || fail "no cluster jar in jobs/target; build it with: ./mvnw -P$build_profiles -DskipTests package"
fi
case "$jar" in
  *://*) ;;   # a URI (local:// in an image, hdfs://, ...): checked where it is read
  *)
    [ -f "$jar" ] || fail "the jar $jar does not exist"
    if [ "$kind" = standalone ] && [ "$deploy_mode" = cluster ]; then
      echo "$me: note: in standalone cluster mode each worker reads $jar itself; it must exist there too (or set LANGID_JAR to an hdfs:// URI)" >&2
    fi
    if [ "$gpu" = true ]; then
      command -v unzip >/dev/null 2>&1 || fail "--gpu looks for ND4J's CUDA backend in $jar with unzip, which is not installed"
      unzip -qql "$jar" 'org/nd4j/linalg/jcublas/*' >/dev/null 2>&1 \
        || fail "$jar has no CUDA backend; build it with ./mvnw -Pcuda,cluster -DskipTests package"
    fi
    ;;
esac

settings=(--master "$master" --deploy-mode "$deploy_mode" --name "langid $command_name"
          --class org.langid.jobs.cli.LangidCommand)
files=()

# The profile: only the subcommands that read one get it; it travels with the job.
case "$command_name" in
  pipeline|prepare|train|retrain) takes_profile=true ;;
  *) takes_profile=false ;;
esac
config_args=()
if [ "$takes_profile" = true ]; then
  for arg in "${job_args[@]}"; do
    case "$arg" in
      -c|--config|--config=*) fail "give the profile to $me with --profile (it ships it to the driver), not to $command_name" ;;
    esac
  done
  if [ -z "$profile" ]; then
    profile="$home/conf/local.yaml"
    [ "$command_name" = pipeline ] && profile="$home/conf/pipeline.yaml"   # as ./langid pipeline
    [ "$gpu" = true ] && profile="$home/conf/gpu.yaml"
  fi
  case "$profile" in
    local://*) config_args=(--config "${profile#local://}") ;;
    *://*) config_args=(--config "$profile") ;;
    *)
      [ -f "$profile" ] || fail "profile $profile does not exist"
      profile="$(cd "$(dirname "$profile")" && pwd)/$(basename "$profile")"
      files+=("$profile")
      # A profile written on another (base: FILE, a name beside it) travels with its bases.
      layer="$profile"
      for _ in 1 2 3 4 5 6 7 8; do
        base="$(sed -n 's/^base:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$layer")"
        [ -n "$base" ] || break
        layer="$(dirname "$layer")/$base"
        [ -f "$layer" ] || fail "profile $profile is written on $layer, which does not exist"
        files+=("$layer")
      done
      if [ "$deploy_mode" = client ]; then
        config_args=(--config "$profile")
      else
        # YARN and Kubernetes put --files in the driver's working directory in cluster mode.
        [ "$kind" = standalone ] \
          && fail "standalone cluster mode cannot ship $profile to the driver; use client mode or an hdfs:// or s3a:// profile"
        config_args=(--config "$(basename "$profile")")
      fi
      ;;
  esac
elif [ -n "$profile" ]; then
  fail "langid $command_name reads no profile; drop --profile"
fi

# A cluster on this machine (deploy/standalone/cluster.sh): driver and executors on loopback only.
case "$master" in
  spark://127.0.0.1:*|spark://localhost:*|local|local\[*)
    export SPARK_LOCAL_IP=127.0.0.1
    settings+=(--conf spark.driver.host=127.0.0.1 --conf spark.driver.bindAddress=127.0.0.1)
    ;;
esac
# The driver in client mode runs from this checkout: its defaults and its logging, as ./langid's.
if [ "$deploy_mode" = client ]; then
  log_file="${LANGID_LOG_FILE:-$home/work/logs/$command_name-$(date +%Y%m%d-%H%M%S)-$$.log}"
  settings+=(--driver-java-options
             "-Dlangid.home=$home -Dlog4j2.configurationFile=$home/conf/log4j2.properties -Dlangid.log.file=$log_file")
fi

# ND4J's native ops single-threaded, as ./langid runs them (train.native_threads explains why).
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"   # the driver, in client mode
settings+=(--conf spark.executorEnv.OMP_NUM_THREADS=1 --conf spark.executorEnv.OMP_WAIT_POLICY=PASSIVE)
# The training step's batched products use the JDK's vector API (pom.xml); Spark's launcher adds
# its own module openings to every JVM but not this module. The default options, so that a
# job's own extraJavaOptions add to them; without the module the products stay on libnd4j.
settings+=(--conf spark.executor.defaultJavaOptions=--add-modules=jdk.incubator.vector
           --conf spark.driver.defaultJavaOptions=--add-modules=jdk.incubator.vector)

case "$kind" in
  yarn)
    settings+=(--conf spark.yarn.appMasterEnv.OMP_NUM_THREADS=1)
    ;;
  kubernetes)
    [ -n "$image" ] || fail "Kubernetes needs --image (the job image, deploy/docker/Dockerfile.job) or LANGID_IMAGE"
    settings+=(--conf "spark.kubernetes.container.image=$image"
               --conf "spark.kubernetes.namespace=$namespace"
               --conf "spark.kubernetes.authenticate.driver.serviceAccountName=$service_account"
               --conf spark.kubernetes.driverEnv.OMP_NUM_THREADS=1)
    if [ "$deploy_mode" = cluster ] && [ ${#files[@]} -gt 0 ]; then
      case " ${extra_conf[*]:-} ${SPARK_SUBMIT_EXTRA:-} " in
        *spark.kubernetes.file.upload.path=*) ;;
        *) fail "Kubernetes cluster mode uploads $profile through --conf spark.kubernetes.file.upload.path=s3a://... (or hdfs://); give that, or a profile inside the image (e.g. --profile local:///opt/langid/conf/local.yaml)" ;;
      esac
    fi
    ;;
esac

[ "$gpu" = true ] && executor_cores="${executor_cores:-1}"
if [ -n "$executors" ]; then
  # Jobs start once every executor asked for has registered (or after 30 s): the Spark trainer
  # caches each worker's shard where its first task ran, so a job that started on the first
  # executor alone would keep all shards there.
  settings+=(--conf spark.scheduler.minRegisteredResourcesRatio=1.0)
  if [ "$kind" = standalone ]; then
    executor_cores="${executor_cores:-1}"
    settings+=(--conf "spark.cores.max=$((executors * executor_cores))")
  else
    settings+=(--conf "spark.executor.instances=$executors")
  fi
fi
[ -z "$executor_cores" ] || settings+=(--conf "spark.executor.cores=$executor_cores")

# GPU: one GPU per executor and per task; each task binds ND4J to the GPU it was given (GpuBinding).
if [ "$gpu" = true ]; then
  settings+=(--conf spark.task.cpus=1
             --conf spark.executor.resource.gpu.amount=1
             --conf spark.task.resource.gpu.amount=1)
  case "$kind" in
    yarn)
      # YARN localises --files in the executor's working directory before it starts.
      discovery="${discovery:-$home/deploy/gpu/discover-gpus.sh}"
      [ -x "$discovery" ] || fail "GPU discovery script $discovery does not exist or is not executable"
      files+=("$discovery")
      settings+=(--conf "spark.executor.resource.gpu.discoveryScript=./$(basename "$discovery")")
      ;;
    kubernetes)
      # The script is in the image; Spark asks Kubernetes for nvidia.com/gpu on each executor pod.
      settings+=(--conf "spark.executor.resource.gpu.discoveryScript=${discovery:-/opt/langid/deploy/gpu/discover-gpus.sh}"
                 --conf spark.executor.resource.gpu.vendor=nvidia.com)
      ;;
    standalone)
      # Standalone workers discover their GPUs themselves; configure each worker with
      # SPARK_WORKER_OPTS="-Dspark.worker.resource.gpu.amount=N
      #   -Dspark.worker.resource.gpu.discoveryScript=/path/to/deploy/gpu/discover-gpus.sh".
      [ -z "$discovery" ] || fail "--discovery: standalone workers run their own discovery script (spark.worker.resource.gpu.discoveryScript)"
      ;;
  esac
fi

if [ ${#files[@]} -gt 0 ]; then
  settings+=(--files "$(IFS=,; echo "${files[*]}")")
fi

# The driver JVM names the incubator module on stderr at start-up: chatter, not for the console.
# shellcheck disable=SC2086  # SPARK_SUBMIT_EXTRA is a list of words by design
exec "$submit" "${settings[@]}" "${extra_conf[@]}" ${SPARK_SUBMIT_EXTRA:-} \
  "$jar" "$command_name" "${config_args[@]}" "${job_args[@]}" \
  2> >(grep -v --line-buffered '^WARNING: Using incubator modules: jdk\.incubator\.vector$' >&2)
