#!/usr/bin/python3
"""PyTorch reference of the langid transformer classifier, with a training-throughput benchmark.

Mirrors `./langid bench train --trainer local --batch N --seconds S`: the same architecture
(model/src/main/java/org/langid/model/graph/LanguageIdGraph.java, transformer block), the same
batch size, Adam, on random windows; prints the median samples/s over ~1 s intervals.

Run with Debian's torch (bench/pytorch/setup.sh installs it and OpenBLAS):
    /usr/bin/python3 bench/pytorch/train_bench.py --batch 1024 --seconds 20
The last line is exactly `samples/s: <integer>`.
"""

import argparse
import math
import os
import statistics
import sys
import time

PAD = 68          # padding index; real symbols are 0..67
SYMBOLS = 68
QUIET_CORES = 0.1  # an interval counts as quiet when other processes used less than this many cores


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=1024, help="windows per step (default 1024)")
    ap.add_argument("--seconds", type=float, default=20.0, help="timed training seconds (default 20)")
    ap.add_argument("--warmup-seconds", type=float, default=5.0, help="untimed warm-up seconds (default 5)")
    ap.add_argument("--threads", type=int, default=None,
                    help="intra-op threads for torch and OpenBLAS (default: all cores available to the process)")
    ap.add_argument("--omp-wait-policy", choices=["passive", "active", "unset"], default="passive",
                    help="OMP_WAIT_POLICY for torch's OpenMP pool, unless set in the environment (default passive: "
                         "spinning OpenMP workers fight OpenBLAS's own threads for the 2 cores, ~2x slower on a "
                         "quiet machine, ~5x slower when any other process runs)")
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--ffn", type=int, default=128)
    ap.add_argument("--window", type=int, default=16)
    ap.add_argument("--classes", type=int, default=8)
    ap.add_argument("--vocab", type=int, default=69, help="embedding rows: 68 symbols + 1 padding index (default 69)")
    ap.add_argument("--dropout", type=float, default=0.0, help="dropout after attention and FFN (default 0: none)")
    ap.add_argument("--padding-mask", action="store_true",
                    help="also do what the Java graph does for padding: additive key mask on the scores and a "
                         "mean over non-padding positions (no effect on the result for random windows, "
                         "which contain no padding; costs a few elementwise ops)")
    ap.add_argument("--pool", type=int, default=64, help="pre-generated batches cycled through (default 64)")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--wait-quiet", type=float, default=0.0,
                    help="before starting, wait up to this many seconds for other processes to use < 0.1 cores "
                         "(checked over 2 s samples); other builds on a 2-core machine wreck the figures")
    ap.add_argument("--verbose", action="store_true", help="print every interval")
    ap.add_argument("--profile-steps", type=int, default=0,
                    help="after the timed run, profile this many steps and print the top ops by self CPU time")
    ap.add_argument("--profile-top", type=int, default=10)
    args = ap.parse_args(argv)
    if args.d_model % args.heads:
        ap.error(f"--d-model {args.d_model} is not divisible by --heads {args.heads}")
    if args.vocab < SYMBOLS + 1:
        ap.error(f"--vocab must be at least {SYMBOLS + 1} (68 symbols + padding)")
    return args


args = parse_args()
cores = len(os.sched_getaffinity(0))
threads = args.threads or cores
# OpenBLAS (pthread build) keeps its own thread pool, sized when the library loads: set it before
# importing torch so --threads governs the GEMMs too (torch.set_num_threads sizes only torch's OpenMP
# pool). An explicit environment setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", str(threads))
if args.omp_wait_policy != "unset":
    os.environ.setdefault("OMP_WAIT_POLICY", args.omp_wait_policy.upper())

import torch                    # noqa: E402
import torch.nn as nn           # noqa: E402
import torch.nn.functional as F  # noqa: E402


class MultiHeadSelfAttention(nn.Module):
    """softmax(Q·Kᵀ/√hs [+ mask])·V per head, written out with matmul and softmax."""

    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.hs = d // heads
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.wo = nn.Linear(d, d)

    def forward(self, a, mask=None):                                     # a: (B, T, d); mask: (B, 1, 1, T) or None
        b, t, d = a.shape
        q = self.wq(a).view(b, t, self.h, self.hs).permute(0, 2, 1, 3)  # (B, H, T, hs)
        k = self.wk(a).view(b, t, self.h, self.hs).permute(0, 2, 1, 3)  # (B, H, T, hs)
        v = self.wv(a).view(b, t, self.h, self.hs).permute(0, 2, 1, 3)  # (B, H, T, hs)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.hs)  # (B, H, T, T)
        if mask is not None:
            scores = scores + mask                                       # (B, H, T, T)
        weights = torch.softmax(scores, dim=-1)                          # (B, H, T, T), rows sum to 1
        out = torch.matmul(weights, v)                                   # (B, H, T, hs)
        out = out.permute(0, 2, 1, 3).reshape(b, t, d)                   # (B, T, d)
        return self.wo(out)                                              # (B, T, d)


class EncoderBlock(nn.Module):
    """Pre-norm: h + MHA(LN(h)); h + W2·relu(W1·LN(h) + b1) + b2."""

    def __init__(self, d, heads, ffn, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = MultiHeadSelfAttention(d, heads)
        self.ln2 = nn.LayerNorm(d, eps=1e-5)
        self.w1 = nn.Linear(d, ffn)
        self.w2 = nn.Linear(ffn, d)
        self.dropout = dropout

    def _drop(self, x):
        return F.dropout(x, self.dropout, self.training) if self.dropout > 0 else x

    def forward(self, h, mask=None):                                     # h: (B, T, d)
        h = h + self._drop(self.attn(self.ln1(h), mask))                 # (B, T, d)
        f = self.ln2(h)                                                  # (B, T, d)
        h = h + self._drop(self.w2(torch.relu(self.w1(f))))              # (B, T, d); inner (B, T, F)
        return h


class LangIdTransformer(nn.Module):
    def __init__(self, vocab=69, window=16, d=64, heads=4, layers=2, ffn=128, classes=8, dropout=0.0,
                 padding_mask=False):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)                          # E (V, d)
        self.position = nn.Parameter(torch.randn(window, d) * 0.02)      # P (T, d)
        self.blocks = nn.ModuleList([EncoderBlock(d, heads, ffn, dropout) for _ in range(layers)])
        self.final_ln = nn.LayerNorm(d, eps=1e-5)
        self.classifier = nn.Linear(d, classes)
        self.padding_mask = padding_mask
        nn.init.normal_(self.embedding.weight, std=0.02)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.xavier_uniform_(m.weight)
                nn.init.zeros_(m.bias)

    def forward(self, x):                                                # x: (B, T) int64
        h = self.embedding(x) + self.position                            # (B, T, d)
        mask = None
        if self.padding_mask:
            real = (x != PAD).to(h.dtype)                                # (B, T)
            mask = ((1.0 - real) * -1e9)[:, None, None, :]               # (B, 1, 1, T)
        for block in self.blocks:
            h = block(h, mask)                                           # (B, T, d)
        h = self.final_ln(h)                                             # (B, T, d)
        if self.padding_mask:
            pooled = (h * real[:, :, None]).sum(1) / real.sum(1, keepdim=True).clamp_min(1.0)  # (B, d)
        else:
            pooled = h.mean(dim=1)                                       # (B, d)
        return self.classifier(pooled)                                   # (B, C)


def blas_line():
    """One line on the BLAS: torch's build setting and the BLAS library actually loaded."""
    cfg = torch.__config__.show()
    parts = []
    for key in ("BLAS_INFO", "LAPACK_INFO"):
        i = cfg.find(key + "=")
        if i >= 0:
            parts.append(cfg[i:].split(",")[0].strip())
    if "MKL" in cfg and "MKL not found" not in torch.__config__.parallel_info():
        parts.append("MKL")
    loaded = set()
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                name = os.path.basename(path)
                if "blas" in name.lower() or name.startswith("libmkl"):
                    loaded.add(os.path.realpath(path))
    except OSError:
        pass
    if loaded:
        parts.append("loaded " + " ".join(sorted(loaded)))
    if os.environ.get("OPENBLAS_NUM_THREADS"):
        parts.append("OPENBLAS_NUM_THREADS=" + os.environ["OPENBLAS_NUM_THREADS"])
    return ", ".join(parts) or "unknown"


def cpu_snapshot():
    """(wall s, machine busy CPU s, this process's CPU s) to tell how much else ran meanwhile."""
    tick = os.sysconf("SC_CLK_TCK")
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    busy = sum(fields[:8]) - fields[3] - fields[4]       # all but idle and iowait (guest is inside user)
    own = os.times()
    return time.perf_counter(), busy / tick, own.user + own.system


def others_cores(before, after):
    """Average number of cores used by other processes between two snapshots."""
    wall = after[0] - before[0]
    return max(0.0, ((after[1] - before[1]) - (after[2] - before[2])) / wall) if wall > 0 else 0.0


def wait_quiet(limit):
    t0 = time.perf_counter()
    while True:
        before = cpu_snapshot()
        time.sleep(2.0)
        busy = others_cores(before, cpu_snapshot())
        waited = time.perf_counter() - t0
        if busy < QUIET_CORES:
            print(f"quiet after {waited:.0f} s (other processes: {busy:.2f} cores)", flush=True)
            return
        if waited >= limit:
            print(f"not quiet after {waited:.0f} s (other processes: {busy:.2f} cores); going on", flush=True)
            return


def main():
    if args.wait_quiet > 0:
        wait_quiet(args.wait_quiet)
    default_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    torch.manual_seed(args.seed)
    model = LangIdTransformer(args.vocab, args.window, args.d_model, args.heads, args.layers, args.ffn,
                              args.classes, args.dropout, args.padding_mask)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)
    n_params = sum(p.numel() for p in model.parameters())

    gen = torch.Generator().manual_seed(args.seed)
    pool = [(torch.randint(0, SYMBOLS, (args.batch, args.window), generator=gen),        # (B, T)
             torch.randint(0, args.classes, (args.batch,), generator=gen))               # (B,)
            for _ in range(args.pool)]

    print(f"model: d_model={args.d_model} heads={args.heads} layers={args.layers} ffn={args.ffn} "
          f"window={args.window} classes={args.classes}"
          + (" dropout=%g" % args.dropout if args.dropout else "")
          + (" padding-mask" if args.padding_mask else ""))
    print(f"params: {n_params}")
    print(f"torch: {torch.__version__}, threads: {torch.get_num_threads()}, blas: {blas_line()}")
    print(f"cores: {cores}, torch's own default threads: {default_threads}, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}")
    print(f"batch: {args.batch}, warm-up: {args.warmup_seconds:g} s, timed: {args.seconds:g} s", flush=True)

    step_i = 0

    def step():
        nonlocal step_i
        x, y = pool[step_i % len(pool)]
        step_i += 1
        logits = model(x)                                                # (B, C)
        loss = F.cross_entropy(logits, y)                                # scalar, mean over batch
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss

    # Warm-up (untimed): at least 2 steps, so allocator and thread pools are up.
    t0 = time.perf_counter()
    warm = 0
    while warm < 2 or time.perf_counter() - t0 < args.warmup_seconds:
        loss = step()
        warm += 1
    print(f"warm-up: {warm} steps in {time.perf_counter() - t0:.1f} s, loss {loss.item():.4f}", flush=True)

    # Timed: intervals of >= 1 s (or one step, if a step is longer). Each interval also records how
    # many cores other processes used meanwhile, so intervals disturbed by other work can be told apart.
    rates, others = [], []
    steps_total = 0
    snap = cpu_snapshot()
    start = interval_start = snap[0]
    interval_steps = 0
    while True:
        step()
        interval_steps += 1
        if time.perf_counter() - interval_start >= 1.0:
            now_snap = cpu_snapshot()
            now = now_snap[0]
            rates.append(interval_steps * args.batch / (now - interval_start))
            others.append(others_cores(snap, now_snap))
            steps_total += interval_steps
            snap, interval_start, interval_steps = now_snap, now, 0
            if now - start >= args.seconds:
                break
    elapsed = interval_start - start
    final_loss = step().item()
    print(f"timed: {steps_total} steps, {steps_total * args.batch} samples in {elapsed:.1f} s over "
          f"{len(rates)} intervals; samples/s min {min(rates):.0f} median {statistics.median(rates):.0f} "
          f"max {max(rates):.0f}; {1000 * elapsed / steps_total:.1f} ms/step; loss {final_loss:.4f}", flush=True)
    if args.verbose:
        for r, o in zip(rates, others):
            print(f"  interval: {r:.0f} samples/s, other processes {o:.2f} cores")
    quiet = [r for r, o in zip(rates, others) if o < QUIET_CORES]
    print(f"other processes used {statistics.mean(others):.2f} of {os.cpu_count()} cores on average; "
          f"{len(quiet)} of {len(rates)} intervals quiet (< {QUIET_CORES} cores)", flush=True)
    if len(quiet) >= max(3, len(rates) // 4):
        median = statistics.median(quiet)
        print(f"median over the quiet intervals: {median:.0f}")
    else:
        median = statistics.median(rates)
        print(f"WARNING: machine not quiet (only {len(quiet)} quiet intervals), figures not comparable; "
              f"median over all intervals: {median:.0f}", flush=True)

    if args.profile_steps > 0:
        profile(step)
    print(f"samples/s: {int(round(median))}")


def profile(step):
    from torch.profiler import ProfilerActivity, profile as tprofile
    with tprofile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(args.profile_steps):
            step()
    events = prof.key_averages()
    total = sum(e.self_cpu_time_total for e in events)
    print(f"profile: {args.profile_steps} steps, top {args.profile_top} ops by self CPU time "
          f"(self total {total / 1000 / args.profile_steps:.1f} ms/step)")
    print(events.table(sort_by="self_cpu_time_total", row_limit=args.profile_top), flush=True)


if __name__ == "__main__":
    sys.exit(main())
