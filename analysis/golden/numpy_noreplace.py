#!/usr/bin/python3
"""numpy_noreplace.py - golden outputs of the real NumPy's weighted choice
without replacement: Generator.choice(V, size=K, replace=False, p=p[, shuffle])
(numpy/random/_generator.pyx) and np.random.choice(V, size=K, replace=False, p=p)
(RandomState.choice, numpy/random/mtrand.pyx), for the numpy / numpy-legacy
emulations' --num-samples K --no-replacement.

Usage: python3 analysis/golden/numpy_noreplace.py OUTFILE
(Debian 12's /usr/bin/python3 for data/golden/numpy_noreplace.txt; the sid
chroot's through analysis/golden/current/run.sh for data/golden/current/).
Deterministic: every seed and vector is fixed here, so a rerun is byte-identical.

Line formats (fields separated by one space; words in lowercase hex without 0x,
floats as float.hex()):
  vec NAME f64|f32 V X1 .. XV   p given inline (f32: passed as a float32 ndarray;
                                the values are its exact widening)
  zipf NAME V Z                 p_i = (1/(i+1)) / H, with p_i = 0 where Z > 0 and
                                i % Z == Z - 1; H summed left to right in float64
                                over the other entries
  flat NAME V                   p_i = 1/V (ties everywhere)
  ch gen|leg SEED VEC K SHUF ROUNDS NEXT I1 .. IK
                                gen: default_rng(SEED).choice(V, size=K,
                                replace=False, p=p, shuffle=SHUF); leg:
                                np.random.seed(SEED); np.random.choice(V, size=K,
                                replace=False, p=p) (SHUF is -). ROUNDS = rounds of
                                NumPy's loop (the cdf rebuilt each round), NEXT =
                                the bit generator's next random_raw() word after
                                the call (the words spent)
  chh gen|leg SEED VEC K SHUF ROUNDS NEXT FNV
                                the same for large K: FNV = FNV-1a 64 over the
                                tokens as little-endian int64 bytes
  err gen|leg VEC K MESSAGE     the ValueError choice raises (its text)
"""
import os
import sys

import numpy as np

OUT = sys.argv[1]


def fx(x):
    return float(x).hex()


def zipf(V, Z):
    keep = [not (Z > 0 and i % Z == Z - 1) for i in range(V)]
    H = 0.0
    for i in range(V):
        if keep[i]:
            H += 1.0 / (i + 1)
    return np.array([(1.0 / (i + 1)) / H if keep[i] else 0.0 for i in range(V)], dtype=np.float64)


def softmax(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max())
    return e / e.sum()


lines = []
vecs = {}


def vec(name, p, f32=False):
    p = np.asarray(p, dtype=np.float32 if f32 else np.float64)
    vecs[name] = p
    lines.append("vec %s %s %d %s" % (name, "f32" if f32 else "f64", len(p),
                                      " ".join(fx(x) for x in p.astype(np.float64))))


def zvec(name, V, Z):
    vecs[name] = zipf(V, Z)
    lines.append("zipf %s %d %d" % (name, V, Z))


def flat(name, V):
    vecs[name] = np.full(V, 1.0 / V, dtype=np.float64)
    lines.append("flat %s %d" % (name, V))


r7 = np.random.default_rng(7).random(100)
r8 = np.random.default_rng(8).random(1000) ** 4
vec("v2", [0.5, 0.5])
vec("v2skew", [0.999, 0.001])
vec("uniform4", [0.25] * 4)
vec("thirds", [1 / 3] * 3)
vec("ties", [0.3, 0.3, 0.2, 0.2])
vec("zeros_mixed", [0.0, 0.5, 0.0, 0.25, 0.0, 0.25])
vec("zeros_lead", [0.0, 0.0, 0.7, 0.3])
vec("one_nonzero", [0.0, 1.0, 0.0])
vec("tiny", [1.0 - 2.0 ** -40, 2.0 ** -41, 2.0 ** -41])
vec("subnormal", [1.0, 5e-324, 5e-324])
vec("weather", softmax([4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2]))
vec("weather_f32", softmax([4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2]).astype(np.float32), True)
vec("tenths_f32", [0.1] * 10, True)
vec("rand100", r7 / r7.sum())
vec("rand1000", r8 / r8.sum())
zvec("zipf1000z3", 1000, 3)
flat("flat1000", 1000)
zvec("zipf32000", 32000, 0)
zvec("zipf151936", 151936, 0)
zvec("zipf151936z7", 151936, 7)
flat("flat151936", 151936)
# the validation errors
vec("nan", [0.5, float("nan"), 0.5])
vec("negative", [0.6, -0.1, 0.5])
vec("sum09", [0.45, 0.45])

GEN_SEEDS = [0, 1, 42, 2 ** 64 + 5, 2 ** 128 - 1]
LEG_SEEDS = [0, 1, 42, 2 ** 32 - 1]


def fnv(tokens):
    h = 0xcbf29ce484222325
    for b in np.asarray(tokens, dtype="<i8").tobytes():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def rounds_of(rand, V, K, p):
    """The rounds NumPy's loop takes, on a copy of the generator (same words)."""
    n_uniq, r = 0, 0
    p = p.astype(np.float64).copy()
    found = np.zeros(K, dtype=np.int64)
    while n_uniq < K:
        x = rand(K - n_uniq)
        if n_uniq > 0:
            p[found[0:n_uniq]] = 0
        cdf = np.cumsum(p)
        cdf /= cdf[-1]
        new = cdf.searchsorted(x, side="right")
        _, ui = np.unique(new, return_index=True)
        ui.sort()
        new = new.take(ui)
        found[n_uniq:n_uniq + new.size] = new
        n_uniq += new.size
        r += 1
    return r, found


def record(kind, seed, name, K, shuf):
    p = vecs[name]
    V = len(p)
    try:
        if kind == "gen":
            g = np.random.default_rng(seed)
            out = g.choice(V, size=K, replace=False, p=p, shuffle=shuf)
            nxt = int(g.bit_generator.random_raw())
            g2 = np.random.default_rng(seed)
            rounds, again = rounds_of(g2.random, V, K, p)
        else:
            np.random.seed(seed)
            out = np.random.choice(V, size=K, replace=False, p=p)
            nxt = int(np.random.mtrand._rand._bit_generator.random_raw())
            rs = np.random.RandomState(seed)
            rounds, again = rounds_of(rs.random_sample, V, K, p)
    except ValueError as e:
        lines.append("err %s %s %d %s" % (kind, name, K, str(e)))
        return
    # the loop above is NumPy's own, re-run only to count its rounds
    assert (again == out).all(), (kind, seed, name, K)
    sh = ("1" if shuf else "0") if kind == "gen" else "-"
    head = "%s %x %s %d %s %d %x" % (kind, seed, name, K, sh, rounds, nxt)
    if K > 4096:
        lines.append("chh %s %x" % (head, fnv(out)))
    else:
        lines.append("ch %s %s" % (head, " ".join(str(int(t)) for t in out)))


def ks(V, nz):
    out = {1, 2, 3, V // 2, nz - 1, nz}
    return sorted(k for k in out if 1 <= k <= nz)


for name in list(vecs):
    if name in ("nan", "negative", "sum09"):
        continue
    p = vecs[name]
    V, nz = len(p), int(np.count_nonzero(p > 0))
    big = V > 20000
    for K in ks(V, nz):
        if big and K > 5000 and K not in (nz,):
            continue
        gs = GEN_SEEDS[:2] if big else GEN_SEEDS
        ls = LEG_SEEDS[:2] if big else LEG_SEEDS
        for s in gs:
            record("gen", s, name, K, True)
            if not big or K <= 1000:
                record("gen", s, name, K, False)
        for s in ls:
            record("leg", s, name, K, False)
    # NumPy's refusals: more than the non-zero entries, more than V
    for kind in ("gen", "leg"):
        if nz < V:
            record(kind, 0, name, nz + 1, True)
        record(kind, 0, name, V + 1, True)
# p's own checks come first, whatever K is
for name in ("nan", "negative", "sum09"):
    for kind in ("gen", "leg"):
        record(kind, 0, name, 1, True)
        record(kind, 0, name, len(vecs[name]) + 1, True)
# every K of a small vector, many seeds (K = 1 is the replacement path's draw)
for s in range(20):
    for K in range(1, 9):
        record("gen", 1000 + s, "weather", K, s % 2 == 0)
        record("leg", 1000 + s, "weather", K, False)
    for K in (1, 10, 50, 99, 100):
        record("gen", 2000 + s, "rand100", K, True)
        record("leg", 2000 + s, "rand100", K, False)

with open(OUT + ".tmp", "w") as f:
    f.write("# numpy %s, python %d.%d; written by analysis/golden/numpy_noreplace.py\n"
            % (np.__version__, sys.version_info[0], sys.version_info[1]))
    for line in lines:
        f.write(line + "\n")
os.replace(OUT + ".tmp", OUT)
