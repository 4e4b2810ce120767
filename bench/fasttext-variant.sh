#!/usr/bin/env bash
# One fastText setting on the sample's training windows (text joined: spaces written _, as the
# tuned peer), scored on UDHR's windows; prints NAME and the accuracy. bench/NGRAMS.md,
# "What our bag of n-grams lacks". One thread, so that two runs share 2 cores.
#   bench/fasttext-variant.sh DIR NAME FASTTEXT-ARGS...
# DIR holds train.tsv (`langid bench windows -i PREPARED --split train -o DIR/train.tsv`) and
# udhr.tsv (`langid bench windows -i UDHR-PREPARED -o DIR/udhr.tsv`), each language<TAB>window.
set -euo pipefail
cd "$1"; n=$2; shift 2
[ -f ft-train.txt ] || awk -F'\t' 'BEGIN{srand(1)} {gsub(/ /,"_",$2); print rand() "\t__label__" $1 " " $2}' train.tsv \
  | sort -k1,1 | cut -f2- > ft-train.txt                       # seeded random order: fastText reads in file order
[ -f ft-udhr.txt ] || { cut -f2 udhr.tsv | sed 's/ /_/g' > ft-udhr.txt; cut -f1 udhr.tsv > udhr-labels.txt; }
fasttext supervised -input ft-train.txt -output ftx-$n -thread 1 -verbose 0 "$@" >/dev/null 2>&1
fasttext predict ftx-$n.bin ft-udhr.txt | sed 's/__label__//' | paste -d' ' - udhr-labels.txt | awk -v n=$n '{t++; if($1==$2)c++} END{printf "%s %.2f\n", n, 100*c/t}'
rm -f ftx-$n.bin ftx-$n.vec
