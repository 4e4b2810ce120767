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
windows-held-out.txt (UDHR). The encoded features are cached in DIR/torch-features-*.npz (bench/torch_common.py).
Prints: validation and held-out (UDHR) window accuracy. Needs bench/pytorch/setup.sh (Debian's torch:
run with /usr/bin/python3)."""
import argparse, time, math, sys
import numpy as np, torch, torch.nn as nn
from torch_common import LANGS, load_features, decay, loss, accuracy
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
ytr, Xtr, yva, Xva, yho, Xho, V = load_features(a.text, a.edges)
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

t0 = time.time()
for step in range(steps):
    f = step / steps
    scale = decay(f, a.sched)
    if a.warmup and f < a.warmup: scale *= f / a.warmup
    for g in opt_t.param_groups: g["lr"] = table_lr * scale
    for g in opt_d.param_groups: g["lr"] = a.lr * scale
    idx = order[step * a.batch:(step + 1) * a.batch]
    opt_t.zero_grad(); opt_d.zero_grad()
    xb = Xt[idx]
    loss(m(xb), Yt[idx], a.loss, a.reduce).backward()
    if a.rownorm:   # loss summed: dense gradients back to the mean, each table row's to its mean over its occurrences
        for q in dense: q.grad /= len(idx)
        g = m.table.weight.grad.coalesce()
        counts = torch.bincount(xb[xb >= 0].flatten(), minlength=V + 1).float()
        i = g.indices()[0]
        m.table.weight.grad = torch.sparse_coo_tensor(g.indices(), g.values() / counts[i].clamp(min=1).unsqueeze(1), g.shape)
    opt_t.step(); opt_d.step()
    if step % 2000 == 0 and step:
        print(f"\r{step}/{steps} {time.time() - t0:.0f}s", end="", file=sys.stderr)
print(f"\n{' '.join(sys.argv[1:])}: val {accuracy(m, Xva, yva):.2f} held_out {accuracy(m, Xho, yho):.2f} ({time.time() - t0:.0f}s)")
