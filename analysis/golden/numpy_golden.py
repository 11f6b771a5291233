#!/usr/bin/python3
"""numpy_golden.py - golden outputs of the real NumPy for the numpy / numpy-legacy
emulations and the pcg64 / numpy-mt19937 random sources.

Usage: /usr/bin/python3 analysis/golden/numpy_golden.py OUTDIR

Writes OUTDIR/numpy_vectors.txt, numpy_seedseq.txt, numpy_pcg64.txt,
numpy_choice.txt, numpy_legacy.txt, numpy_validate.txt. Deterministic: every
seed and vector is fixed here, so a rerun is byte-identical.

Line formats (one case per line, fields separated by one space; integers that
are words or states are lowercase hex without 0x, floats are float.hex()):
  numpy_vectors.txt   vec NAME f64|f32 V X1 .. XV   (X = value as float64; f32 =
                      passed to NumPy as a float32 ndarray, the values are its
                      exact widening)
                      zipf NAME f64|f32 V   (p_i = (1/(i+1)) / H, H summed left
                      to right in float64; f32 = each p_i rounded to float32)
  numpy_seedseq.txt   ss SEED W0 .. W7   (SeedSequence(SEED).generate_state(8) uint32)
                      ssk SEED KEY W0 .. W7   (SeedSequence(SEED, spawn_key=(KEY,)))
  numpy_pcg64.txt     pcg SEED STATE INC R1 .. R16 END  (PCG64(SEED): state and
                      increment after seeding, 16 random_raw words, state after)
                      dbl SEED D1 .. D8  (default_rng(SEED).random(8))
                      adv SEED DELTA STATE R1 R2  (PCG64(SEED).advance(DELTA))
  numpy_choice.txt    gen SEED VEC C K I1 .. I(C+K) END  (default_rng(SEED); C calls
                      rng.choice(V, p=p); one call rng.choice(V, p=p, size=K) when
                      K > 0; END = PCG64 state after)
                      tie VEC U I  (cdf.searchsorted(U, side='right') on NumPy's cdf)
                      forced VEC STATE INC I  (PCG64 with this state and increment,
                      then Generator.choice(V, p=p))
  numpy_legacy.txt    raw SEED W1 .. W8   (MT19937 legacy seeding, random_raw)
                      dbl SEED D1 .. D4   (np.random.seed(SEED); random_sample(4))
                      leg SEED VEC C K I1 .. I(C+K) POS KEY0 KEY1 KEY623
                      seed SEED ok|MESSAGE
  numpy_validate.txt  val gen|leg VEC ok|MESSAGE  (ValueError text of choice)
"""
import sys
import os
import numpy as np

OUT = sys.argv[1]
HEADER = ("# numpy %s (Debian python3-numpy), python %d.%d; written by "
          "analysis/golden/numpy_golden.py\n" % (np.__version__, sys.version_info[0],
                                                 sys.version_info[1]))


def h(x):
    return "%x" % int(x)


def fx(x):
    return float(x).hex()


def write(name, lines):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER)
        for line in lines:
            f.write(line + "\n")


# ------------------------------------------------------------------ vectors
def zipf(V):
    H = 0.0
    for i in range(V):
        H += 1.0 / (i + 1)
    return np.array([(1.0 / (i + 1)) / H for i in range(V)], dtype=np.float64)


def softmax(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max())
    return e / e.sum()


weather = softmax([4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2])
rand100 = np.random.default_rng(7).random(100)
rand100 = rand100 / rand100.sum()
rand1000 = np.random.default_rng(8).random(1000) ** 4
rand1000 = rand1000 / rand1000.sum()
f32_peak = np.full(257, np.float32(1e-6), dtype=np.float32)
f32_peak[100] = np.float32(1.0) - np.float32(256e-6)

# name -> (dtype, values as NumPy receives them); zipf vectors built by formula
VECS = [
    ("uniform4", "f64", [0.25, 0.25, 0.25, 0.25]),
    ("thirds", "f64", [1 / 3, 1 / 3, 1 / 3]),
    ("ties", "f64", [0.5, 0.0, 0.5, 0.0]),
    ("zeros_lead", "f64", [0.0, 0.0, 1.0]),
    ("zeros_trail", "f64", [1.0, 0.0, 0.0]),
    ("zeros_mixed", "f64", [0.0, 0.2, 0.0, 0.0, 0.3, 0.5, 0.0]),
    ("v1", "f64", [1.0]),
    ("tiny", "f64", [1e-300, 1.0, 5e-324]),
    ("negzero", "f64", [-0.0, 0.75, 0.25]),
    ("sub1", "f64", [0.3, 0.3, 0.39999999]),
    ("over1", "f64", [0.3, 0.3, 0.40000001]),
    ("weather", "f64", list(weather)),
    ("weather_f32", "f32", list(weather.astype(np.float32))),
    ("tenths_f32", "f32", [np.float32(0.1)] * 10),
    ("peak_f32", "f32", list(f32_peak)),
    ("rand100", "f64", list(rand100)),
    ("rand1000", "f64", list(rand1000)),
    ("zipf", "f64", None),
    ("zipf_f32", "f32", None),
]
ZIPF_V = 49152
_zipf = zipf(ZIPF_V)


def vec_array(name):
    for n, dt, vals in VECS + VALVECS:
        if n == name:
            if vals is None:
                a = _zipf
                return a.astype(np.float32) if dt == "f32" else a.copy()
            return np.array(vals, dtype=np.float32 if dt == "f32" else np.float64)
    raise KeyError(name)


def vec_param(name):
    """p exactly as a user passes it: a float32 ndarray, or a Python list of floats."""
    a = vec_array(name)
    return a if a.dtype == np.float32 else [float(x) for x in a]


# Validation vectors: accept/reject around NumPy's tolerances.
atol64 = float(np.sqrt(np.finfo(np.float64).eps))
atol32 = np.sqrt(np.finfo(np.float32).eps)
b32 = np.float32(0.5) + atol32  # float32 near 0.5 + atol32
VALVECS = [
    ("at_atol64", "f64", [0.5, 0.5 + 2.0 ** -26]),
    ("past_atol64", "f64", [0.5, 0.5 + 2.0 ** -26 + 2.0 ** -52]),
    ("under_atol64", "f64", [0.5, 0.5 - 2.0 ** -26]),
    ("below_atol64", "f64", [0.5, 0.5 - 2.0 ** -26 - 2.0 ** -53]),
    ("near64", "f64", [0.25, 0.25, 0.5 + 1.4e-8]),
    ("over64", "f64", [0.25, 0.25, 0.5 + 2e-8]),
    ("f32_in", "f32", [0.5, 0.5003]),
    ("f32_in_as64", "f64", [float(np.float32(0.5)), float(np.float32(0.5003))]),
    ("f32_out", "f32", [0.5, 0.5004]),
    ("f32_edge_lo", "f32", [0.5, np.nextafter(b32, np.float32(0))]),
    ("f32_edge", "f32", [0.5, b32]),
    ("f32_edge_hi", "f32", [0.5, np.nextafter(b32, np.float32(1))]),
    ("f32_low", "f32", [0.25, 0.25, 0.4996]),
    ("nan", "f64", [0.5, float("nan"), 0.5]),
    ("neg", "f64", [0.6, -0.1, 0.5]),
    ("neg_nan", "f64", [-1.0, float("nan"), 2.0]),
    ("inf_mid", "f64", [float("inf"), 0.5]),
    ("inf_last", "f64", [0.5, float("inf")]),
    ("inf_first3", "f64", [float("inf"), 0.5, 0.5]),
    ("neginf_last", "f64", [0.5, float("-inf")]),
    ("allzero", "f64", [0.0, 0.0]),
    ("half", "f64", [0.25, 0.25]),
    ("double", "f64", [1.0, 1.0]),
    ("kahan", "f64", [1.0] + [1e-16] * 3000 + [-0.0]),
    ("many_small", "f64", [1.0 / 3000] * 3000),
    ("f32_nan", "f32", [0.5, float("nan"), 0.5]),
    ("f32_neg", "f32", [1.5, -0.5]),
]


def vectors_file():
    lines = []
    for name, dt, vals in VECS + VALVECS:
        if vals is None:
            lines.append("zipf %s %s %d" % (name, dt, ZIPF_V))
        else:
            a = vec_array(name)
            lines.append("vec %s %s %d %s" % (name, dt, len(a), " ".join(fx(x) for x in a)))
    # Check the zipf formula as numpy sees it: first, middle, last entries.
    z = _zipf
    lines.append("# zipf check p[0]=%s p[1]=%s p[%d]=%s" % (fx(z[0]), fx(z[1]), ZIPF_V - 1, fx(z[-1])))
    write("numpy_vectors.txt", lines)


# ------------------------------------------------------------------ SeedSequence / PCG64
SEEDS = [0, 1, 2, 42, 1234, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 63,
         2 ** 64 - 1, 2 ** 64, 2 ** 64 + 1, 2 ** 96 + 12345, 2 ** 127,
         2 ** 128 - 1, 0xDEADBEEFCAFEBABE0123456789ABCDEF, 12345678901234567890]
# SeedSequence also takes more than 128 bits: the extra entropy words go through
# the second mixing loop.
SS_EXTRA = [2 ** 128, 2 ** 128 + 3, 2 ** 160 - 1, 2 ** 200 + 99, 3 ** 150]


def pcg_state(bg):
    s = bg.state["state"]
    return s["state"], s["inc"]


def seedseq_file():
    lines = []
    for s in SEEDS + SS_EXTRA:
        w = np.random.SeedSequence(s).generate_state(8, np.uint32)
        lines.append("ss %s %s" % (h(s), " ".join(h(x) for x in w)))
    # A spawn key (the pcg64 source's stream): entropy padded to 4 words, key appended.
    for s in [0, 42, 2 ** 64 + 1, 2 ** 128 - 1, 2 ** 160 - 1]:
        for k in [0, 1, 7, 2 ** 32 + 5]:
            w = np.random.SeedSequence(s, spawn_key=(k,)).generate_state(8, np.uint32)
            lines.append("ssk %s %s %s" % (h(s), h(k), " ".join(h(x) for x in w)))
    write("numpy_seedseq.txt", lines)


ADV = [0, 1, 2, 3, 1000, 2 ** 32 + 7, 2 ** 64 - 1, 2 ** 64, 2 ** 100 + 5,
       2 ** 127, 2 ** 128 - 1, 2 ** 128 - 16]


def pcg64_file():
    lines = []
    for s in SEEDS + SS_EXTRA:
        bg = np.random.PCG64(s)
        st, inc = pcg_state(bg)
        raw = bg.random_raw(16)
        end, _ = pcg_state(bg)
        lines.append("pcg %s %s %s %s %s" % (h(s), h(st), h(inc),
                                             " ".join(h(x) for x in raw), h(end)))
    for s in SEEDS:
        d = np.random.default_rng(s).random(8)
        lines.append("dbl %s %s" % (h(s), " ".join(fx(x) for x in d)))
    for s in [0, 42, 2 ** 64 + 1, 2 ** 128 - 1]:
        for d in ADV:
            bg = np.random.PCG64(s)
            bg.advance(d)
            st, _ = pcg_state(bg)
            raw = bg.random_raw(2)
            lines.append("adv %s %s %s %s" % (h(s), h(d), h(st), " ".join(h(x) for x in raw)))
    write("numpy_pcg64.txt", lines)


# ------------------------------------------------------------------ Generator.choice
CALLS, K = 5, 7


def choice_file():
    lines = []
    for s in SEEDS:
        for name, _, _ in VECS:
            p = vec_param(name)
            V = len(p)
            rng = np.random.default_rng(s)
            idx = [int(rng.choice(V, p=p)) for _ in range(CALLS)]
            idx += [int(x) for x in rng.choice(V, p=p, size=K)]
            end, _ = pcg_state(rng.bit_generator)
            lines.append("gen %s %s %d %d %s %s" % (h(s), name, CALLS, K,
                                                   " ".join(map(str, idx)), h(end)))
    # Long runs: draw by draw over many words.
    for s, name, k in [(42, "zipf", 10000), (2 ** 128 - 1, "weather", 10000),
                       (2 ** 64 + 1, "zipf_f32", 5000), (0, "rand1000", 5000)]:
        p = vec_param(name)
        rng = np.random.default_rng(s)
        idx = [int(x) for x in rng.choice(len(p), p=p, size=k)]
        end, _ = pcg_state(rng.bit_generator)
        lines.append("gen %s %s 0 %d %s %s" % (h(s), name, k, " ".join(map(str, idx)), h(end)))
    # Ties: u exactly on a cdf entry and one ulp either side.
    for name in ["uniform4", "thirds", "ties", "zeros_mixed", "weather", "negzero", "sub1"]:
        p = np.asarray(vec_param(name), dtype=np.float64)
        cdf = p.cumsum()
        cdf /= cdf[-1]
        us = set()
        for c in cdf:
            for u in (c, np.nextafter(c, 0.0), np.nextafter(c, 1.0)):
                if 0.0 <= u < 1.0:
                    us.add(float(u))
        us.add(0.0)
        us.add(float(np.nextafter(1.0, 0.0)))
        for u in sorted(us):
            lines.append("tie %s %s %d" % (name, fx(u), int(cdf.searchsorted(u, side="right"))))
    # Forced states: a PCG64 state whose next double is exactly a cdf entry.
    M = 0x2360ED051FC65DA44385DF649FCCF645
    Minv = pow(M, -1, 2 ** 128)
    inc = pcg_state(np.random.PCG64(5))[1]
    for name in ["uniform4", "ties", "thirds", "weather"]:
        p = np.asarray(vec_param(name), dtype=np.float64)
        cdf = p.cumsum()
        cdf /= cdf[-1]
        for c in cdf[:-1]:
            m = int(c * 2.0 ** 53)  # u = m * 2^-53 exactly when c is on the grid
            if m * 2.0 ** -53 != c:
                continue
            # new state with hi ^ lo and rotation giving output word m << 11
            want = m << 11
            hi = 0x0123456789ABCDEF & ~(0x3F << 58)  # rotation 0
            lo = hi ^ want
            new = (hi << 64) | lo
            old = ((new - inc) * Minv) % 2 ** 128
            bg = np.random.PCG64()
            bg.state = {"bit_generator": "PCG64", "state": {"state": old, "inc": inc},
                        "has_uint32": 0, "uinteger": 0}
            g = np.random.Generator(bg)
            i = int(g.choice(len(p), p=vec_param(name)))
            lines.append("forced %s %s %s %d" % (name, h(old), h(inc), i))
    write("numpy_choice.txt", lines)


# ------------------------------------------------------------------ legacy RandomState
LSEEDS = [0, 1, 42, 4357, 5489, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 123456789, 3141592653]


def mt_state():
    st = np.random.get_state()
    return st[2], st[1][0], st[1][1], st[1][623]


def legacy_file():
    lines = []
    for s in LSEEDS:
        bg = np.random.MT19937()
        bg._legacy_seeding(s)
        lines.append("raw %s %s" % (h(s), " ".join(h(x) for x in bg.random_raw(8))))
        np.random.seed(s)
        lines.append("dbl %s %s" % (h(s), " ".join(fx(x) for x in np.random.random_sample(4))))
    for s in LSEEDS:
        for name, _, _ in VECS:
            p = vec_param(name)
            V = len(p)
            np.random.seed(s)
            idx = [int(np.random.choice(V, p=p)) for _ in range(CALLS)]
            idx += [int(x) for x in np.random.choice(V, p=p, size=K)]
            pos, k0, k1, k623 = mt_state()
            lines.append("leg %s %s %d %d %s %d %s %s %s" % (
                h(s), name, CALLS, K, " ".join(map(str, idx)), pos, h(k0), h(k1), h(k623)))
    for s, name, k in [(42, "zipf", 10000), (2 ** 32 - 1, "weather", 10000), (7, "zipf_f32", 3000)]:
        p = vec_param(name)
        np.random.seed(s)
        idx = [int(x) for x in np.random.choice(len(p), p=p, size=k)]
        pos, k0, k1, k623 = mt_state()
        lines.append("leg %s %s 0 %d %s %d %s %s %s" % (
            h(s), name, k, " ".join(map(str, idx)), pos, h(k0), h(k1), h(k623)))
    for s in [0, 2 ** 32 - 1, 2 ** 32, 2 ** 64, 2 ** 128 - 1]:
        try:
            np.random.seed(s)
            lines.append("seed %s ok" % h(s))
        except ValueError as e:
            lines.append("seed %s %s" % (h(s), str(e)))
    write("numpy_legacy.txt", lines)


# ------------------------------------------------------------------ validation
def validate_file():
    lines = []
    for name, _, _ in VECS + VALVECS:
        p = vec_param(name)
        for which in ("gen", "leg"):
            try:
                if which == "gen":
                    np.random.default_rng(0).choice(len(p), p=p)
                else:
                    np.random.seed(0)
                    np.random.choice(len(p), p=p)
                lines.append("val %s %s ok" % (which, name))
            except ValueError as e:
                lines.append("val %s %s %s" % (which, name, str(e)))
    write("numpy_validate.txt", lines)


vectors_file()
seedseq_file()
pcg64_file()
choice_file()
legacy_file()
validate_file()
