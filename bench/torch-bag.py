#!/usr/bin/env python3
"""Which part of fastText's learning our bag of n-grams lacks (bench/NGRAMS.md, twelfth session):
a bag of our features (each window's characters and its n-grams of orders 2-6 inside the window,
exact ids over the training vocabulary instead of hashed buckets) trained in PyTorch, one setting
at a time between fastText's (per-example SGD: here batch 16 with the loss summed, mean over all
features, no bias, one-versus-all, linear decay) and ours (per-position sum, layer norm, mean;
batch 256 with the loss averaged, Adam on the rest, SGD on the table, cosine).

  bench/torch-bag.py --text DIR [--agg mean_all|pos_ln|pos_mean] [--loss ova|softmax] [--bias]
      [--opt sgd|adam] [--batch B] [--reduce sum|mean] [--lr X] [--table_lr X] [--dim D]
      [--epochs E] [--sched linear|cosine|none] [--warmup FRACTION] [--init uniform|zero] [--seed N]

DIR is the joined fastText text of bench/fasttext-grid.sh (WORK_DIR/text-joined, made with
JOINED=1 HELD_OUT=work/udhr/prepared): windows-train.txt, windows-validation.txt and
windows-held-out.txt (UDHR). The encoded features are cached in DIR/torch-features-*.npz.
Prints: validation and held-out (UDHR) window accuracy. Needs bench/pytorch/setup.sh (Debian's torch:
run with /usr/bin/python3)."""
import argparse, time, math, os, sys
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
p = argparse.ArgumentParser()
p.add_argument("--agg", default="mean_all"); p.add_argument("--loss", default="ova")
p.add_argument("--bias", action="store_true"); p.add_argument("--opt", default="sgd")
p.add_argument("--batch", type=int, default=1); p.add_argument("--lr", type=float, default=0.5)
p.add_argument("--table_lr", type=float, default=None); p.add_argument("--dim", type=int, default=32)
p.add_argument("--epochs", type=float, default=1.0); p.add_argument("--sched", default="linear")
p.add_argument("--reduce", default="sum"); p.add_argument("--init", default="uniform")
p.add_argument("--edges", action="store_true"); p.add_argument("--seed", type=int, default=1)
p.add_argument("--threads", type=int, default=1); p.add_argument("--text", required=True); p.add_argument("--warmup", type=float, default=0); p.add_argument("--rownorm", action="store_true")   # each table row's gradient averaged over its occurrences (tried: worse)
a = p.parse_args()
torch.manual_seed(a.seed); np.random.seed(a.seed); torch.set_num_threads(a.threads)
LANGS = ["en", "de", "fr", "es", "it", "pt", "nl", "sv"]
D = a.text.rstrip("/") + "/"
T, O = 16, 6

def read(name):
    labels, wins = [], []
    for line in open(D + name, encoding="utf-8"):
        lab, _, w = line.rstrip("\n").partition(" ")
        labels.append(LANGS.index(lab[9:])); wins.append(w)
    return np.array(labels), wins

cache = D + "torch-features-%s.npz" % ("edges" if a.edges else "ours")
if os.path.exists(cache):
    z = np.load(cache); ytr, Xtr, yva, Xva, yho, Xho, V = z["ytr"], z["Xtr"], z["yva"], z["Xva"], z["yho"], z["Xho"], int(z["V"])
else:
    vocab = {}
    def feats(w, grow):
        # (T, O): at position i the char and the n-grams of orders 2..6 ending at i; -1 none
        out = np.full((T + (2 if a.edges else 0), O), -1, dtype=np.int64)
        m = ("<" + w + ">") if a.edges else w
        for i in range(len(m)):
            for n in range(1, O + 1):
                if i - n + 1 < 0: break
                if a.edges and n == 1 and (i == 0 or i == len(m) - 1): continue
                g = m[i - n + 1:i + 1]
                k = vocab.get(g)
                if k is None and grow: k = vocab[g] = len(vocab)
                if k is not None: out[i, n - 1] = k
        return out
    def enc(name, grow):
        y, ws = read(name)
        return y, np.stack([feats(w, grow) for w in ws])
    ytr, Xtr = enc("windows-train.txt", True); V = len(vocab)
    yva, Xva = enc("windows-validation.txt", False); yho, Xho = enc("windows-held-out.txt", False)
    np.savez(cache, ytr=ytr, Xtr=Xtr, yva=yva, Xva=Xva, yho=yho, Xho=Xho, V=V)
print("train", len(ytr), "vocab", V, file=sys.stderr)
P = Xtr.shape[1]

class Bag(nn.Module):
    def __init__(s):
        super().__init__()
        s.table = nn.Embedding(V + 1, a.dim, padding_idx=V, sparse=True)
        with torch.no_grad():
            if a.init == "uniform": s.table.weight.uniform_(-1 / a.dim, 1 / a.dim)
            else: s.table.weight.zero_()
            s.table.weight[V].zero_()
        s.pos = nn.Parameter(torch.zeros(P, a.dim))
        s.ln = nn.LayerNorm(a.dim)
        s.out = nn.Linear(a.dim, len(LANGS), bias=a.bias)
        nn.init.zeros_(s.out.weight)
        if a.bias: nn.init.zeros_(s.out.bias)
    def forward(s, x):
        valid = (x >= 0)
        e = s.table(torch.where(valid, x, torch.full_like(x, V)))          # (B, P, O, d)
        if a.agg == "mean_all":
            h = e.sum((1, 2)) / valid.sum((1, 2)).clamp(min=1).unsqueeze(1)   # (B, d)
        elif a.agg == "pos_mean":
            h = (e.sum(2) + s.pos).mean(1)
        else:  # pos_ln: ours
            h = s.ln(e.sum(2) + s.pos).mean(1)
        return s.out(h)

m = Bag()
dense = [q for n, q in m.named_parameters() if n != "table.weight"]
table_lr = a.table_lr if a.table_lr is not None else a.lr
opt_t = torch.optim.SGD([m.table.weight], lr=table_lr)
opt_d = torch.optim.SGD(dense, lr=a.lr) if a.opt == "sgd" else torch.optim.Adam(dense, lr=a.lr)
steps = int(a.epochs * len(ytr) / a.batch)
Xt = torch.from_numpy(Xtr); Yt = torch.from_numpy(ytr)
order = np.concatenate([np.random.permutation(len(ytr)) for _ in range(math.ceil(a.epochs))])

def lossf(z, y):
    if a.loss == "ova":
        t = F.one_hot(y, len(LANGS)).float()
        l = F.binary_cross_entropy_with_logits(z, t, reduction="none").sum(1)
    else:
        l = F.cross_entropy(z, y, reduction="none")
    return l.sum() if a.reduce == "sum" else l.mean()

def evaluate(X, y):
    m.eval(); right = 0
    with torch.no_grad():
        for i in range(0, len(y), 8192):
            right += (m(torch.from_numpy(X[i:i + 8192])).argmax(1).numpy() == y[i:i + 8192]).sum()
    m.train(); return 100 * right / len(y)

t0 = time.time()
for step in range(steps):
    f = step / steps
    scale = (1 - f) if a.sched == "linear" else (0.5 * (1 + math.cos(math.pi * f)) if a.sched == "cosine" else 1)
    if a.warmup and f < a.warmup: scale *= f / a.warmup
    for g in opt_t.param_groups: g["lr"] = table_lr * scale
    for g in opt_d.param_groups: g["lr"] = a.lr * scale
    idx = order[step * a.batch:(step + 1) * a.batch]
    opt_t.zero_grad(); opt_d.zero_grad()
    xb = Xt[idx]
    lossf(m(xb), Yt[idx]).backward()
    if a.rownorm:   # loss summed: dense gradients back to the mean, each table row's to its mean over its occurrences
        for q in dense: q.grad /= len(idx)
        g = m.table.weight.grad.coalesce()
        counts = torch.bincount(xb[xb >= 0].flatten(), minlength=V + 1).float()
        i = g.indices()[0]
        m.table.weight.grad = torch.sparse_coo_tensor(g.indices(), g.values() / counts[i].clamp(min=1).unsqueeze(1), g.shape)
    opt_t.step(); opt_d.step()
    if step % 2000 == 0 and step:
        print(f"\r{step}/{steps} {time.time() - t0:.0f}s", end="", file=sys.stderr)
print(f"\n{' '.join(sys.argv[1:])}: val {evaluate(Xva, yva):.2f} held_out {evaluate(Xho, yho):.2f} ({time.time() - t0:.0f}s)")
