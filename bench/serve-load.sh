#!/usr/bin/env bash
# The HTTP service under load on loopback: the serving module alone (what the serving image runs:
# no Spark, no ND4J), 16 concurrent connections from wrk (Debian's), each request one real sentence
# from the committed samples (every language and genre in data/sample/) as {"text": ...} to POST /v1/detect.
# 10 s of warm-up, then SECONDS_UNDER_LOAD (60) timed. Prints requests/s, p50/p99 latency, errors
# (non-2xx and socket errors) and the server's resident memory after warm-up and after the load.
#   bench/serve-load.sh [MODEL] [SECONDS_UNDER_LOAD]
#   SERVE_ARGS: more options for the server, e.g. "--engine onnx-float" (model.onnx instead of model.int8.onnx)
# wrk and the server share the machine's cores; run it on an otherwise idle machine.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:-$home/models}"
duration="${2:-60}"
work="$home/work/serve-load"
mkdir -p "$work"
command -v wrk > /dev/null || apt-get install -y wrk > "$work/apt.log" 2>&1 || { echo "bench/serve-load.sh: cannot install wrk" >&2; exit 1; }

# The serving module's jars, as the image has them.
(cd "$home" && ./mvnw -B -q -pl serving -DskipTests package dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory=target/lib) > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
cp "$home"/serving/target/langid-serving-*.jar "$home/serving/target/lib/"

# Request bodies: every sentence of the sample (both genres), one JSON body per line.
python3 - "$home/data/sample" > "$work/bodies.jsonl" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/**/*.txt", recursive=True)):
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line:
            print(json.dumps({"text": line}, ensure_ascii=False))
PY
cat > "$work/post.lua" <<'LUA'
local bodies = {}
for line in io.lines(os.getenv("BODIES")) do bodies[#bodies + 1] = line end
local i = math.random(#bodies)
request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/v1/detect", {["Content-Type"] = "application/json"}, bodies[i])
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT requests=%d duration_s=%.2f non2xx=%d socket_errors=%d p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
LUA

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# A fixed heap, touched at start-up (SERVE_JAVA_OPTS to change): left to itself the JVM commits
# heap lazily, up to a quarter of this machine's memory, and resident memory then grows under
# load without any leak (measured: 195 -> 431 MiB in 60 s with -Xmx256m alone). With the heap
# resident from the start, what still grows is the rest: native memory, code, threads.
java ${SERVE_JAVA_OPTS:--Xms256m -Xmx256m -XX:+AlwaysPreTouch} -cp "$home/serving/target/lib/*" org.langid.serving.ServeCommand --model "$model" --host 127.0.0.1 --port "$port" \
  ${SERVE_ARGS:-} > "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
rss() { echo $(( $(ps -o rss= -p "$server") / 1024 )); }

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(wc -l < "$work/bodies.jsonl") request bodies; model $(cat "$model/current" 2>/dev/null || basename "$model")"
echo "started: $(rss) MiB resident"
BODIES="$work/bodies.jsonl" wrk -t2 -c16 -d10s -s "$work/post.lua" "http://127.0.0.1:$port" > "$work/warmup.txt"
after_warmup=$(rss)
( while sleep 10; do echo "$(rss)"; done ) > "$work/rss-during.txt" 2> /dev/null &
sampler=$!
BODIES="$work/bodies.jsonl" wrk -t2 -c16 -d"${duration}s" --timeout 10s -s "$work/post.lua" "http://127.0.0.1:$port" > "$work/load.txt"
kill $sampler 2> /dev/null || true
after_load=$(rss)
result=$(grep '^RESULT' "$work/load.txt")
eval "${result#RESULT }"
printf 'load: %d s, 16 connections, %d requests: %.0f requests/s, p50 %.1f ms, p99 %.1f ms, %d non-2xx, %d socket errors\n' \
  "$duration" "$requests" "$(echo "$requests / $duration_s" | bc -l)" "$p50_ms" "$p99_ms" "$non2xx" "$socket_errors"
echo "resident memory: $after_warmup MiB after warm-up, every 10 s under load: $(paste -sd' ' "$work/rss-during.txt"), $after_load MiB after the load"
