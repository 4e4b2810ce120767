"""What bench/torch-bag.py and bench/torch-model.py share: the features of the joined fastText
text (built once, cached beside it), the schedule, the loss and the accuracy."""
import math
import os
import numpy as np
import torch
import torch.nn.functional as F

LANGS = ["en", "de", "fr", "es", "it", "pt", "nl", "sv"]
T, O = 16, 6   # window length; orders 1 (the character) .. 6


def load_features(text_dir, edges=False):
    """(ytr, Xtr, yva, Xva, yho, Xho, V): labels and (N, positions, O) feature ids, -1 for none;
    at position i the character and the n-grams of orders 2..6 ending at i (with fastText's
    < > marks around the window if edges), exact ids over the training vocabulary (V of them)."""
    d = text_dir.rstrip("/") + "/"
    cache = d + "torch-features-%s.npz" % ("edges" if edges else "ours")
    if not os.path.exists(cache):
        vocab = {}

        def feats(w, grow):
            out = np.full((T + (2 if edges else 0), O), -1, dtype=np.int64)
            m = ("<" + w + ">") if edges else w
            for i in range(len(m)):
                for n in range(1, O + 1):
                    if i - n + 1 < 0:
                        break
                    if edges and n == 1 and (i == 0 or i == len(m) - 1):
                        continue
                    g = m[i - n + 1:i + 1]
                    k = vocab.get(g)
                    if k is None and grow:
                        k = vocab[g] = len(vocab)
                    if k is not None:
                        out[i, n - 1] = k
            return out

        def encode(name, grow):
            labels, windows = [], []
            for line in open(d + name, encoding="utf-8"):
                label, _, w = line.rstrip("\n").partition(" ")
                labels.append(LANGS.index(label[len("__label__"):]))
                windows.append(w)
            return np.array(labels), np.stack([feats(w, grow) for w in windows])

        ytr, Xtr = encode("windows-train.txt", True)
        yva, Xva = encode("windows-validation.txt", False)
        yho, Xho = encode("windows-held-out.txt", False)
        np.savez(cache, ytr=ytr, Xtr=Xtr, yva=yva, Xva=Xva, yho=yho, Xho=Xho, V=len(vocab))
    z = np.load(cache)
    return z["ytr"], z["Xtr"], z["yva"], z["Xva"], z["yho"], z["Xho"], int(z["V"])


def decay(f, sched):
    """The rate's factor at fraction f of the run: linear to zero, cosine, or none."""
    if sched == "linear":
        return 1 - f
    if sched == "cosine":
        return 0.5 * (1 + math.cos(math.pi * f))
    return 1


def loss(z, y, kind, reduce):
    """One-versus-all (a sigmoid per language, summed) or softmax cross-entropy; summed or averaged over the batch."""
    if kind == "ova":
        per_window = F.binary_cross_entropy_with_logits(z, F.one_hot(y, len(LANGS)).float(), reduction="none").sum(1)
    else:
        per_window = F.cross_entropy(z, y, reduction="none")
    return per_window.sum() if reduce == "sum" else per_window.mean()


def accuracy(model, X, y):
    """Percent of windows whose argmax is the label."""
    model.eval()
    right = 0
    with torch.no_grad():
        for i in range(0, len(y), 8192):
            right += (model(torch.from_numpy(X[i:i + 8192])).argmax(1).numpy() == y[i:i + 8192]).sum()
    model.train()
    return 100 * right / len(y)
