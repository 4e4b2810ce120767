#!/usr/bin/env bash
# A model trained on the full LibreOffice corpus against the peers trained on the same windows
# (the release's acceptance bars): the model, fastText (tuned, trained on the same prepared
# training windows) and Lingua 1.2.2 on the full corpus's test split, on all of UDHR and on all of
# the sample's Wesnoth set (a third genre), per language; then the release's acceptance checks, which
# name the test split and UDHR, and the same comparisons on the Wesnoth set.
#
#   bench/release-eval.sh MODEL PREPARED [WORK]
#     MODEL     a registry (its current version) or an artefact directory
#     PREPARED  `langid prepare` of data/corpus/libreoffice (the model's and fastText's training data)
#     WORK      reports and tables.md (default work/release-eval); reports already there are reused
#
# fastText's model is cached (~/.cache/langid/fasttext) by its training text: the first run trains
# it on the 13.3M windows (about 35 minutes on 2 busy cores), later runs reuse it.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:?usage: bench/release-eval.sh MODEL PREPARED [WORK]}"
prepared="${2:?usage: bench/release-eval.sh MODEL PREPARED [WORK]}"
work="${3:-$home/work/release-eval}"
mkdir -p "$work"
"$home/bench/fasttext-install.sh"
langid() { "$home/langid" "$@"; }

udhr="$work/udhr"
[ -f "$udhr/summary.json" ] || langid prepare -i "$home/data/sample/udhr" -o "$udhr" > "$work/udhr-prepare.log" 2>&1

wesnoth="$work/wesnoth"
[ -f "$wesnoth/summary.json" ] || langid prepare -i "$home/data/sample/wesnoth" -o "$wesnoth" > "$work/wesnoth-prepare.log" 2>&1

evaluate() {   # NAME OPTIONS...
  local name="$1"; shift
  if [ ! -f "$work/$name/report.json" ]; then
    started=$(date +%s)
    langid evaluate --model "$model" "$@" -o "$work/$name" > "$work/$name.log" 2>&1 \
      || { tail -5 "$work/$name.log"; exit 1; }
    echo "$name: $(( $(date +%s) - started )) s"
  fi
}
evaluate test -i "$prepared" --peer lingua,fasttext
evaluate udhr --windows "$udhr/windows" --sentences "$udhr/sentences" --peer lingua,fasttext --peer-training "$prepared"
evaluate wesnoth --windows "$wesnoth/windows" --sentences "$wesnoth/sentences" --peer lingua,fasttext --peer-training "$prepared"

PYTHONPATH="$home/bench/lib" python3 - "$work" <<'EOF' | tee "$work/tables.md"
import sys
import report_tables as rt
work = sys.argv[1]
reports = {data: rt.load(f"{work}/{data}/report.json") for data in ("test", "udhr", "wesnoth")}
accuracy = {}
for data, title in (("test", "full corpus test split"), ("udhr", "UDHR (second genre)"), ("wesnoth", "Wesnoth (third genre)")):
    detectors = rt.by_name(reports[data])
    columns = [("model", detectors, "langid"), ("fastText tuned", detectors, "fasttext"), ("Lingua", detectors, "lingua-1.2.2")]
    for level in ("windows", "sentences"):
        for (header, language), value in rt.table(title, level, reports[data]["languages"], columns).items():
            accuracy[(data, level, {c[0]: c[2] for c in columns}[header], language)] = value
print(f"\nmodel: {reports['test']['model'].get('version', reports['test']['model'])}")
fasttext = rt.by_name(reports["test"]).get("fasttext")
if fasttext:
    print(f"fastText: {rt.fasttext_line(fasttext)}")

def a(data, level, detector, language="all"):
    return accuracy.get((data, level, detector, language))
if a("test", "windows", "fasttext") is None:
    print("\nacceptance: not checked (no fastText)")
    sys.exit(0)
checks = [
    ("UDHR windows ahead of fastText by >= 1.0 point",
     a("udhr", "windows", "langid") - a("udhr", "windows", "fasttext") >= 0.010),
    ("test-split windows ahead of fastText", a("test", "windows", "langid") > a("test", "windows", "fasttext")),
    ("test-split sentences at least equal", a("test", "sentences", "langid") >= a("test", "sentences", "fasttext")),
    ("UDHR sentences at least equal", a("udhr", "sentences", "langid") >= a("udhr", "sentences", "fasttext")),
]
languages = reports["udhr"]["languages"]
behind = [f"{l} {100 * (a('udhr', 'windows', 'langid', l) - a('udhr', 'windows', 'fasttext', l)):+.1f}"
          for l in languages if a("udhr", "windows", "langid", l) < a("udhr", "windows", "fasttext", l) - 0.010]
checks.append(("no language more than 1 point behind fastText on UDHR windows"
               + (f" (behind: {', '.join(behind)})" if behind else ""), not behind))
print("\nacceptance (the release's bars):")
for text, passed in checks:
    print(f"- [{'x' if passed else ' '}] {text}")
print("\nthe same on the third genre (not among the release's bars):")
for level in ("windows", "sentences"):
    lead = 100 * (a("wesnoth", level, "langid") - a("wesnoth", level, "fasttext"))
    print(f"- Wesnoth {level}: model - fastText {lead:+.2f} points")
EOF
