#!/bin/sh
# bench_torch.sh — speed of `samplab draw --framework torch` against the real
# torch.multinomial (Debian python3-torch), in the same run, one-token calls at
# V = 49,152 (the Zipf vector of data/golden). Both sides are first checked to
# draw the same 200 tokens. Per-call time of samplab = (time of N calls - time of
# 1 call) / (N - 1), so reading the file and starting up do not count.
# CPU time is the headline (other jobs on the machine inflate wall time).
# Usage: sh analysis/bench_torch.sh [N]   (run from the repository root)
set -u
n=${1:-3000}
if ! /usr/bin/python3 -c 'import torch' >/dev/null 2>&1; then
  echo "bench_torch: python3-torch missing (apt-get install python3-torch); skipped"
  exit 0
fi
echo "## torch.multinomial, one token per call, V = 49152 (samplab draw --framework torch vs torch)"
/usr/bin/python3 - "$n" <<'PY'
import os, resource, subprocess, sys, time
import torch
N = int(sys.argv[1])
vec = 'data/golden/torch_vec_zipf49152.txt'
bin_ = os.environ.get('SL_BIN', 'bin/samplab')
p = torch.tensor([float(x) for x in open(vec).read().split()], dtype=torch.float32)

# 1. same tokens
torch.manual_seed(42)
want = [int(torch.multinomial(p, 1)) for _ in range(200)]
out = subprocess.run([bin_, 'draw', '--framework', 'torch', '--probs', vec, '--seed', '42', '--n', '200'],
                     capture_output=True, text=True, check=True).stdout.split()
got = [int(x) for x in out]
same = got == want
print('bit-exact on 200 calls (seed 42): %s' % ('yes' if same else 'NO'))

# 2. torch, in process
def torch_time():
    torch.manual_seed(0)
    for _ in range(50):
        torch.multinomial(p, 1)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(N):
        torch.multinomial(p, 1)
    return (time.process_time() - c0) / N, (time.perf_counter() - w0) / N

# 3. samplab, N calls minus one call, CPU time of the child
def run(n):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    subprocess.run([bin_, 'draw', '--framework', 'torch', '--probs', vec, '--seed', '0', '--n', str(n), '--counts'],
                   stdout=subprocess.DEVNULL, check=True)
    w = time.perf_counter() - w0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime), w

def samplab_time():
    c1, w1 = run(1)
    cn, wn = run(N + 1)
    return max(cn - c1, 1e-9) / N, max(wn - w1, 1e-9) / N

tc = min(torch_time() for _ in range(3))
sc = min(samplab_time() for _ in range(3))
print('torch %s (threads %d, mkl %s): %8.1f us/call CPU, %8.1f us/call wall'
      % (torch.__version__, torch.get_num_threads(), torch.backends.mkl.is_available(), tc[0] * 1e6, tc[1] * 1e6))
print('samplab draw --framework torch:   %8.1f us/call CPU, %8.1f us/call wall' % (sc[0] * 1e6, sc[1] * 1e6))
print('ratio (torch / samplab): %.1fx CPU, %.1fx wall (target >= 10x, bit-exact)' % (tc[0] / sc[0], tc[1] / sc[1]))
print('words per call: %d (2 V), each generated; N = %d calls' % (2 * p.numel(), N))
sys.exit(0 if same else 1)
PY
