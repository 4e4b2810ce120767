#!/usr/bin/env bash
# The default pipeline's model against fastText trained on the same prepared training windows of the
# committed sample (data/sample/many/), on the sample's test split and on its two out-of-genre check
# sets (UDHR; the games: OpenTTD, Wesnoth, Freeciv, GCompris), never trained on: window and sentence
# accuracy per language, and the model's lead over fastText with its 95% paired interval.
# Results in docs/RESULTS.md, "The pipeline's model on the committed sample".
#   bench/fasttext-peer.sh [WORK_DIR]        default work/fasttext-peer; tables in WORK_DIR/tables.md
# Environment:
#   PIPELINE=DIR      reuse the work directory of an earlier `./langid pipeline -w DIR` (with its training
#                     windows: `KEEP_TRAIN=1 bench/pipeline-run.sh DIR`) instead of running the pipeline
#   FASTTEXT_SET="loss=softmax epoch=10"   --fasttext-set changes to the tuned peer's arguments
#   BASELINE=1        also the baseline a new user would try (fasttext-baseline)
#   MAX_WINDOWS=N     windows scored of the test split and of each check set, a seeded sample (default
#                     100000, the pipeline's --max-windows)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-$home/work/fasttext-peer}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
"$home/bench/fasttext-install.sh"
langid() { nice -n 10 "$home/langid" "$@"; }
peers=(--peer "fasttext$([ "${BASELINE:-0}" = 1 ] && echo ,fasttext-baseline || true)" --fasttext-cache "$work/fasttext-cache")
for change in ${FASTTEXT_SET:-}; do peers+=(--fasttext-set "$change"); done

pipeline="${PIPELINE:-$work/pipeline}"
if [ -z "${PIPELINE:-}" ]; then
  started=$(date +%s)
  langid pipeline -w "$pipeline" > "$work/pipeline.log" 2>&1
  echo "pipeline: $(( $(date +%s) - started )) s (log: $work/pipeline.log)"
fi
prepared="$pipeline/prepared"
[ -d "$prepared/windows/split=train" ] || { echo "fasttext-peer: $prepared has no training windows (KEEP_TRAIN=1 bench/pipeline-run.sh keeps them)" >&2; exit 1; }

evaluate() {   # NAME DATA-OPTIONS...
  local name="$1"; shift
  if [ ! -f "$work/$name/report.json" ]; then
    started=$(date +%s)
    langid evaluate --model "$pipeline/registry" "$@" --peer-training "$prepared" "${peers[@]}" -o "$work/$name" > "$work/$name.log" 2>&1 \
      || { tail -5 "$work/$name.log"; exit 1; }
    echo "$name: $(( $(date +%s) - started )) s"
  fi
}
evaluate test -i "$prepared" --max-windows "${MAX_WINDOWS:-100000}"
for check in udhr games; do
  evaluate "$check" --windows "$pipeline/checks/$check/windows" --sentences "$pipeline/checks/$check/sentences" \
    --max-windows "${MAX_WINDOWS:-100000}"
done

PYTHONPATH="$home/bench/lib" python3 - "$work" <<'EOF_PY' | tee "$work/tables.md"
import sys
import report_tables as rt
work = sys.argv[1]
summary = []
for data, title in (("test", "sample test split"), ("udhr", "UDHR (out of genre)"), ("games", "games (out of genre)")):
    report = rt.load(f"{work}/{data}/report.json")
    detectors = rt.by_name(report)
    columns = [("pipeline", detectors, "langid"), ("fastText tuned", detectors, "fasttext"),
               ("fastText baseline", detectors, "fasttext-baseline")]
    for level in ("windows", "sentences"):
        rt.table(title, level, report["languages"], columns)
        lead = detectors["fasttext"][level].get("model_lead")
        if lead:
            low, high = lead["interval_95"]
            summary.append(f"| {title} | {level} | {100 * detectors['langid'][level]['accuracy']:.2f}% "
                           f"| {100 * detectors['fasttext'][level]['accuracy']:.2f}% "
                           f"| {100 * lead['accuracy_difference']:+.2f} ({100 * low:+.2f} to {100 * high:+.2f}) |")
print("\n| data | level | pipeline | fastText | difference (95% interval) |\n| --- | --- | --- | --- | --- |")
print("\n".join(summary))
fasttext = rt.by_name(rt.load(f"{work}/test/report.json"))
print()
for name in ("fasttext", "fasttext-baseline"):
    if name in fasttext:
        print(f"- {name}: {rt.fasttext_line(fasttext[name])}")
for peer in rt.load(f"{work}/test/report.json").get("unavailable", []):
    print(f"- not evaluated: {peer['name']} ({peer['reason']})")
EOF_PY
