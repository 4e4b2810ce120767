#!/usr/bin/env bash
# The released model (models/) and the default pipeline's model against fastText (trained on the
# same prepared training windows of the committed sample: the tuned settings and the baseline a
# new user would try) and Lingua, on the sample's test split, on UDHR and on the sample's Wesnoth set
# (the second and third genres, never trained on): window and sentence accuracy per language.
# Results in docs/RESULTS.md, "fastText as the peer".
#   bench/fasttext-peer.sh [WORK_DIR]        default work/fasttext-peer; tables in WORK_DIR/tables.md
# Environment: PIPELINE=DIR reuses the work directory of an earlier `./langid pipeline -w DIR`
# instead of running the pipeline (about 10 minutes on 2 cores).
# Note: the release learnt from the full help corpus (data/build-corpus.sh, 13.3M windows);
# fastText here learns from the sample's 1.06M training windows, as the pipeline's model does.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-$home/work/fasttext-peer}"
mkdir -p "$work"
"$home/bench/fasttext-install.sh"
langid() { nice -n 10 "$home/langid" "$@"; }
peers=(--peer lingua,fasttext,fasttext-baseline --fasttext-cache "$work/fasttext-cache")

pipeline="${PIPELINE:-$work/pipeline}"
if [ -z "${PIPELINE:-}" ]; then
  started=$(date +%s)
  langid pipeline -w "$pipeline" > "$work/pipeline.log" 2>&1
  echo "pipeline: $(( $(date +%s) - started )) s (log: $work/pipeline.log)"
fi
prepared="$pipeline/prepared"      # the sample, prepared with conf/local.yaml: fastText's training windows too
udhr="$work/udhr"
[ -f "$udhr/summary.json" ] || langid prepare -i "$home/data/sample/udhr" -o "$udhr" > "$work/udhr-prepare.log" 2>&1
wesnoth="$work/wesnoth"
[ -f "$wesnoth/summary.json" ] || langid prepare -i "$home/data/sample/wesnoth" -o "$wesnoth" > "$work/wesnoth-prepare.log" 2>&1

evaluate() {   # NAME MODEL DATA-OPTIONS... [-- PEER-OPTIONS...]
  local name="$1" model="$2"; shift 2
  if [ ! -f "$work/$name/report.json" ]; then
    started=$(date +%s)
    langid evaluate --model "$model" "$@" -o "$work/$name" > "$work/$name.log" 2>&1 \
      || { tail -5 "$work/$name.log"; exit 1; }
    echo "$name: $(( $(date +%s) - started )) s"
  fi
}
evaluate release-test "$home/models" -i "$prepared" "${peers[@]}"
evaluate release-udhr "$home/models" --windows "$udhr/windows" --sentences "$udhr/sentences" \
  --peer-training "$prepared" "${peers[@]}"
evaluate pipeline-test "$pipeline/registry" -i "$prepared"
evaluate pipeline-udhr "$pipeline/registry" --windows "$udhr/windows" --sentences "$udhr/sentences"
evaluate release-wesnoth "$home/models" --windows "$wesnoth/windows" --sentences "$wesnoth/sentences" \
  --peer-training "$prepared" "${peers[@]}"
evaluate pipeline-wesnoth "$pipeline/registry" --windows "$wesnoth/windows" --sentences "$wesnoth/sentences"

PYTHONPATH="$home/bench/lib" python3 - "$work" <<'EOF' | tee "$work/tables.md"
import sys
import report_tables as rt
work = sys.argv[1]
def load(name):
    return rt.load(f"{work}/{name}/report.json")
for data, title in (("test", "sample test split"), ("udhr", "UDHR (second genre)"), ("wesnoth", "Wesnoth (third genre)")):
    release, pipeline = rt.by_name(load(f"release-{data}")), rt.by_name(load(f"pipeline-{data}"))
    columns = [("released", release, "langid"), ("pipeline", pipeline, "langid"), ("fastText tuned", release, "fasttext"),
               ("fastText baseline", release, "fasttext-baseline"), ("Lingua", release, "lingua-1.2.2")]
    for level in ("windows", "sentences"):
        rt.table(title, level, load(f"release-{data}")["languages"], columns)
fasttext = rt.by_name(load("release-test"))
print()
for name in ("fasttext", "fasttext-baseline"):
    if name in fasttext:
        print(f"- {name}: {rt.fasttext_line(fasttext[name])}")
missing = load("release-test").get("unavailable", [])
for peer in missing:
    print(f"- not evaluated: {peer['name']} ({peer['reason']})")
EOF
