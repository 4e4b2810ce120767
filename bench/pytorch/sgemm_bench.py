"""Single-precision matrix products on one thread: GFLOP/s of (N, N) @ (N, N) for SECONDS.

Bound by the core's multiply-add units, not by memory (three 1 MB matrices at N=512): run two of
these at once to see whether the machine's two cores have a multiply-add unit each
(bench/training/scaling.sh). Last line: 'gflops: X'.
"""
import argparse
import time

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--size", type=int, default=512)
parser.add_argument("--seconds", type=float, default=6.0)
args = parser.parse_args()
torch.set_num_threads(1)
a = torch.randn(args.size, args.size)
b = torch.randn(args.size, args.size)
for _ in range(5):
    a @ b
started = time.time()
products = 0
while time.time() - started < args.seconds:
    a @ b
    products += 1
print("gflops: %.1f" % (products * 2 * args.size ** 3 / (time.time() - started) / 1e9))
