#!/usr/bin/env bash
# Installs Debian's fastText (0.9.2) when it is missing, as bench/pytorch/setup.sh installs PyTorch.
# Needs root or sudo; about 8 s with the package lists present (measured), plus apt-get update's time if not.
set -euo pipefail
command -v fasttext > /dev/null && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "fasttext-install: apt-get install fasttext ..." >&2
if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q fasttext > /tmp/fasttext-install.log 2>&1; then
  $sudo apt-get update -q > /tmp/fasttext-install.log 2>&1
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q fasttext >> /tmp/fasttext-install.log 2>&1 \
    || { echo "fasttext-install: apt-get install fasttext failed (log: /tmp/fasttext-install.log)" >&2; exit 1; }
fi
command -v fasttext > /dev/null
