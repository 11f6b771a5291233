#!/bin/sh
# bench_numpy.sh — per-draw cost of the numpy / numpy-legacy / gsl emulations
# against the real NumPy (Debian python3-numpy), measured in the same run.
# NumPy rebuilds the cumulative table on every choice(V, p=p) call (O(V));
# samplab builds it once per run, so one process drawing N tokens pays it once.
# Vector: softmax of data/synthetic_49152.txt (V = 49,152), written once as
# float64 text with round-trip digits; both sides read the same numbers.
# Times: best of RUNS (default 3); samplab's time is the whole process
# (start, reading 49,152 numbers, validation, cdf, draws) divided by N, and the
# marginal cost of a further draw from (T(100 N) - T(1)) / (100 N - 1).
set -eu
RUNS=${RUNS:-3} N=${N:-10000} BIN=${SL_BIN:-bin/samplab} /usr/bin/python3 - <<'PY'
import os, subprocess, sys, tempfile, time
import numpy as np

RUNS = int(os.environ["RUNS"]); N = int(os.environ["N"]); BIN = os.environ["BIN"]
x = np.loadtxt("data/synthetic_49152.txt", dtype=np.float64)
e = np.exp(x - x.max()); p = e / e.sum()
V = len(p)
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "p49152.txt")
with open(path, "w") as f:
    f.write("\n".join(repr(float(v)) for v in p) + "\n")
pl = [float(v) for v in p]

def best(fn):
    return min(fn() for _ in range(RUNS))

def numpy_single(legacy, calls=200):
    def run():
        if legacy:
            np.random.seed(42)
            t = time.perf_counter()
            for _ in range(calls):
                np.random.choice(V, p=p)
        else:
            rng = np.random.default_rng(42)
            t = time.perf_counter()
            for _ in range(calls):
                rng.choice(V, p=p)
        return (time.perf_counter() - t) / calls
    return best(run)

def numpy_size(legacy, k=100000):
    def run():
        if legacy:
            np.random.seed(42)
            t = time.perf_counter(); np.random.choice(V, p=p, size=k)
        else:
            rng = np.random.default_rng(42)
            t = time.perf_counter(); rng.choice(V, p=p, size=k)
        return (time.perf_counter() - t) / k
    return best(run)

def samplab(fw, n):
    return samplab_total(fw, n) / n

def samplab_total(fw, n):
    def run():
        t = time.perf_counter()
        r = subprocess.run([BIN, "draw", "--framework", fw, "--probs", path, "--seed", "42", "--n", str(n)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        dt = time.perf_counter() - t
        if r.returncode:
            sys.exit("bench_numpy: samplab failed: " + r.stderr.decode())
        return dt
    return best(run)

# Same tokens first: the comparison is only meaningful if the outputs agree.
out = subprocess.run([BIN, "draw", "--framework", "numpy", "--probs", path, "--seed", "42", "--n", "200"],
                     capture_output=True, text=True).stdout.split()
rng = np.random.default_rng(42)
ref = [str(int(rng.choice(V, p=p))) for _ in range(200)]
same = "yes" if out == ref else "NO"

rows = []
np1 = numpy_single(False); npk = numpy_size(False)
lg1 = numpy_single(True); lgk = numpy_size(True)
s_np = samplab("numpy", N); s_lg = samplab("numpy-legacy", N); s_gsl = samplab("gsl", N)
s_np1 = samplab("numpy", 1)
BIG = 100 * N
marg = (samplab_total("numpy", BIG) - s_np1) / (BIG - 1)
print("## NumPy emulation vs NumPy %s (V = %d, softmax of data/synthetic_49152.txt, best of %d)" % (np.__version__, V, RUNS))
print("first 200 draws identical to NumPy's: %s" % same)
print("| what | per draw | NumPy single call / this |")
print("|---|---:|---:|")
def row(name, t):
    print("| %s | %.3g us | %.1f |" % (name, t * 1e6, np1 / t))
row("NumPy default_rng.choice(V, p=p), loop of single calls", np1)
row("NumPy default_rng.choice(V, p=p, size=100000)", npk)
row("NumPy legacy np.random.choice(V, p=p), loop of single calls", lg1)
row("NumPy legacy np.random.choice(V, p=p, size=100000)", lgk)
row("samplab draw --framework numpy --n %d (whole process)" % N, s_np)
row("samplab draw --framework numpy-legacy --n %d (whole process)" % N, s_lg)
row("samplab draw --framework gsl --n %d (whole process)" % N, s_gsl)
row("samplab draw --framework numpy --n 1 (whole process, one draw)", s_np1)
row("samplab --framework numpy, each further draw ((T(%d) - T(1)) / %d)" % (BIG, BIG - 1), marg)
print("ratio: NumPy single-call loop / samplab --framework numpy per draw at --n %d = %.0fx; per further draw = %.0fx"
      % (N, np1 / s_np, np1 / marg))
PY
