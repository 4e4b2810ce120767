#!/usr/bin/env python3
"""Rewrites joined fastText window text (bench/fasttext-grid.sh, JOINED=1) as explicit feature
tokens, so that fastText (-minn 0 -maxn 0 -wordNgrams 1: every token a word of its own, exact ids)
learns a bag of exactly these features (bench/NGRAMS.md, twelfth session):
  ours       each character, and the n-grams of orders 2..MAXN ending at each position, inside the window
  edges      fastText's own character n-grams of "<window>" (orders 1..MAXN, no lone mark)
  edgesword  edges and the whole window as one more token
  ours_pos   ours and each character with its position
  start, end, both   ours and fastText's n-grams of orders 2..MAXN with the window's start mark <, end mark >, or both
  gapped     ours and gapped n-grams ending at each position: x.z, x..z, xy.z, x.yz (. any one symbol)
  gapped2    ours and the gapped pairs only: x.z, x..z
  shapes     ours and the consonant-vowel shapes of orders 3..6 ending at each position
             (a, e, i, o, u in either case V, other letters C, _ itself, anything else P)
  words      ours and each whole word of 6 symbols or more inside the window (spaces on both sides;
             shorter ones are already n-grams with their spaces)
  lower      ours and, for each of its tokens holding a capital, the same token in lower case
  lowonly    ours of the window in lower case, and each capital as a token of its own (u + its letter)

  bench/fasttext-features.py MODE [MAXN] < joined.txt > tokens.txt
then, for the train, validation and held-out files so rewritten:
  fasttext supervised -input train.txt -output M -minn 0 -maxn 0 -wordNgrams 1 -dim 32 -epoch 1 -lr 0.5 -loss ova -thread 1
  fasttext predict M.bin held-out.txt 1   (compared with each line's first token: the accuracy)"""
import sys


def ours(w, maxn, more=lambda i: []):
    """Each character, and the n-grams of orders 2..maxn ending at each position, inside the window;
    after each position's, the tokens more(i) gives."""
    tokens = []
    for i in range(len(w)):
        tokens.append("1" + w[i])
        for n in range(2, maxn + 1):
            if i - n + 1 >= 0:
                tokens.append(str(n) + w[i - n + 1:i + 1])
        tokens += more(i)
    return tokens


def edges(w, maxn):
    """fastText's character n-grams of "<w>": orders 1..maxn, no lone mark."""
    m = "<" + w + ">"
    return [str(n) + m[i:i + n] for i in range(len(m)) for n in range(1, maxn + 1)
            if i + n <= len(m) and not (n == 1 and (i == 0 or i == len(m) - 1))]


# Gapped n-grams as the offsets back from their last symbol (bench/NGRAMS.md, forty-eighth session).
GAPS = {"gapped": [(0, 2), (0, 3), (0, 1, 3), (0, 2, 3)], "gapped2": [(0, 2), (0, 3)]}


def gapped(w, i, patterns):
    """The gapped n-grams ending at position i: the symbols at each pattern's offsets back, gaps as '.'."""
    return ["g" + "".join(w[i - max(offsets) + k] if max(offsets) - k in offsets else "." for k in range(max(offsets) + 1))
            for offsets in patterns if i - max(offsets) >= 0]


def shape(c):
    if c == "_":
        return "_"
    if c.lower() in "aeiou":
        return "V"
    return "C" if c.isalpha() else "P"


def shapes(w):
    """The consonant-vowel shapes of orders 3..6 ending at each position."""
    s = "".join(shape(c) for c in w)
    return ["c" + s[i - n + 1:i + 1] for i in range(len(s)) for n in range(3, 7) if i - n + 1 >= 0]


mode = sys.argv[1]
maxn = int(sys.argv[2]) if len(sys.argv) > 2 else 6
MODES = ("ours", "ours_pos", "start", "end", "both", "edges", "edgesword", "gapped", "gapped2", "shapes", "words", "lower", "lowonly")
if mode not in MODES:
    sys.exit(f"error: unknown mode '{mode}' ({', '.join(MODES)})")
for line in sys.stdin:
    label, _, w = line.rstrip("\n").partition(" ")
    if mode == "ours":
        tokens = ours(w, maxn)
    elif mode == "ours_pos":
        tokens = ours(w, maxn) + ["p%d%s" % (i, w[i]) for i in range(len(w))]
    elif mode in ("start", "end", "both"):
        tokens = ours(w, maxn)
        for n in range(2, maxn + 1):
            if mode in ("start", "both"):
                tokens.append(str(n) + "<" + w[:n - 1])
            if mode in ("end", "both"):
                tokens.append(str(n) + w[len(w) - n + 1:] + ">")
    elif mode in GAPS:
        tokens = ours(w, maxn, lambda i: gapped(w, i, GAPS[mode]))
    elif mode == "shapes":
        tokens = ours(w, maxn) + shapes(w)
    elif mode == "words":
        tokens = ours(w, maxn) + ["W" + word for word in w.split("_")[1:-1] if len(word) >= 6]
    elif mode == "lower":
        tokens = ours(w, maxn)
        tokens += ["L" + t.lower() for t in tokens if t != t.lower()]
    elif mode == "lowonly":
        tokens = ours(w.lower(), maxn) + ["u" + c.lower() for c in w if c != c.lower()]
    elif mode == "edges":
        tokens = edges(w, maxn)
    else:   # edgesword
        tokens = ["W" + w] + edges(w, maxn)
    sys.stdout.write(label + " " + " ".join(tokens) + "\n")
