#!/usr/bin/env bash
# Installs the PyTorch reference benchmark's dependencies from Debian (idempotent) and checks
# that torch's sgemm runs on OpenBLAS, not the reference BLAS: without libopenblas0-pthread,
# Debian's torch falls back to ~8 GFLOP/s and any speed comparison is meaningless.
#   bench/pytorch/setup.sh
set -euo pipefail
PY=/usr/bin/python3
MIN_GFLOPS="${MIN_GFLOPS:-50}"
packages=(python3-torch libopenblas0-pthread)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  # Update the package lists only when apt does not know a candidate for one of the packages.
  for p in "${missing[@]}"; do
    if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
      $sudo apt-get update
      break
    fi
  done
  $sudo apt-get install -y --no-install-recommends "${packages[@]}"
else
  echo "already installed: ${packages[*]}"
fi

# BLAS check: 1024x1024 sgemm throughput (OpenBLAS sizes its own thread pool: all cores by default).
"$PY" - "$MIN_GFLOPS" <<'PYEOF'
import sys, time, torch
min_gflops = float(sys.argv[1])
n = 1024
a = torch.randn(n, n)
b = torch.randn(n, n)
for _ in range(5):
    torch.mm(a, b)
best = 0.0
for _ in range(5):
    reps = 20
    t0 = time.perf_counter()
    for _ in range(reps):
        torch.mm(a, b)
    dt = time.perf_counter() - t0
    best = max(best, 2.0 * n ** 3 * reps / dt / 1e9)
cfg = torch.__config__.show()
info = cfg[cfg.find("BLAS_INFO="):].split(",")[0] if "BLAS_INFO=" in cfg else "BLAS_INFO=?"
loaded = sorted({line.split()[-1] for line in open("/proc/self/maps") if "blas" in line.lower()})
print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, {info}, loaded: {' '.join(loaded) or 'none'}")
print(f"sgemm {n}x{n}: {best:.1f} GFLOP/s")
if best < min_gflops:
    print(f"FAIL: sgemm below {min_gflops:.0f} GFLOP/s; is libopenblas0-pthread installed and selected "
          "(update-alternatives --display libblas.so.3-x86_64-linux-gnu)?", file=sys.stderr)
    sys.exit(1)
print("OK")
PYEOF
