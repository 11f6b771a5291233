#!/usr/bin/python3
"""exact_torch2.py — torch 2.x's exact-audit paths at chosen uniforms, from the real torch.

Every uniform of a call is chosen through a crafted MT19937 state
(analysis/golden/exact_crafted.py: with pos at 0 and no twist pending, the next
words are the tempered state words; tempering is inverted), so the test can feed
the same words to samplab's draw and to its audit's model. u = k * 2^-53 with
random64 = w1 << 32 | w2, k = random64 & (2^53 - 1).

Records (one a line; DTYPE is float32 or float64):
  race DTYPE REPL NAME V p_0 .. p_{V-1} | k_0 .. k_{V-1} | token | q_0 .. q_{V-1}
      torch.multinomial(p, 1, replacement=REPL) with u_i = k_i * 2^-53 (REPL = 1
      also takes the race in 2.x), and q = exponential_() at the same uniforms,
      signed ('+0.0' at u = 0 is 2.x's log1p(-0) = -0 times -1).
  cdf DTYPE NAME V p_0 .. p_{V-1} | ka,kb:ta,tb ...
      torch.multinomial(p, 2, replacement=True) (the cdf path) with the two samples'
      uniforms ka and kb. The candidates are K_j - 1, K_j and K_j + 1 for every
      boundary K_j = floor(cum_j * 2^53) + 1 of the running sum in p's dtype
      (cum /= sum, cum[V-1] = 1), and 0 and 2^53 - 1; sorted, each is ka once, with
      the next one (the first after the last) as kb.
  words DTYPE V N REPL | W
      words of MT19937 one multinomial(p, N, replacement=REPL) call consumed (the
      generator's `next` field, read before the state's first twist): 2V on the
      race, 2N on the cdf path.
  rand DTYPE REPL V SEED p_0 .. | k_0 .. | token
      seeded pseudo-random vectors with zeros, ties and u = 0 planted at random
      (Python's random.Random(SEED), as listed), torch's token.

Usage: exact_torch2.py OUT [--random FIRST COUNT]
  --random: only rand records, for seeds FIRST .. FIRST+COUNT-1 (the committed file
  holds seeds 0 .. 199; SL_EXACT_TORCH2_EXTRA=FILE make test replays such a file).
"""
import math
import random
import struct
import sys

import numpy as np
import torch

import libinfo
from exact_crafted import torch_set_words, torch_words

N = 1 << 53
HALF = 1 << 52
DT = {"float32": torch.float32, "float64": torch.float64}
NP = {"float32": np.float32, "float64": np.float64}


def fmt_p(p, dt):
    return " ".join(repr(float(v)) for v in np.array(p, dtype=NP[dt]))


def signed(v):
    return "%s%s" % ("-" if math.copysign(1, v) < 0 else "+", repr(abs(v)))


def race(p, ks, dt, repl):
    torch_set_words(torch_words(ks))
    q = torch.empty(len(p), dtype=DT[dt]).exponential_(1).tolist()
    torch_set_words(torch_words(ks))
    t = torch.multinomial(torch.tensor(p, dtype=DT[dt]), 1, replacement=bool(repl)).item()
    return t, q


def next_field():
    return struct.unpack_from("<QiiQ", torch.get_rng_state().numpy().tobytes(), 0)[3]


# (name, p, ks): every uniform chosen
RACES = [
    ("nan_after_inf", [0.5, 0.0], [0, 0]),
    ("inf_first_of_two", [0.25, 0.5, 0.25], [HALF, 0, 0]),
    ("inf_beats_largest_ratio", [0.999, 1e-6], [1, 0]),
    ("inf_then_zero_no_u0", [0.5, 0.0, 0.5], [0, 7, HALF]),
    ("zero_weight_u0_wins", [0.0, 0.3, 0.0, 0.7], [HALF, HALF, 0, N - 1]),
    ("zero_weights_no_u0", [0.0, 0.3, 0.0, 0.7], [1, HALF, 1, HALF]),
    ("all_u0", [0.2, 0.3, 0.5], [0, 0, 0]),
    ("all_u0_zero_last", [0.2, 0.3, 0.0], [0, 0, 0]),
    ("tie_equal_uniforms", [0.5, 0.5], [HALF, HALF]),
    ("tie_adjacent_uniforms", [0.5, 0.5], [HALF + 1, HALF]),
    ("tie_u_max", [0.5, 0.5], [N - 1, N - 1]),
    ("u_min_positive", [0.5, 0.5], [1, 2]),
    ("tiny_loses", [1e-45, 1.0], [1, HALF]),
    ("tiny_inf_wins", [1e-45, 1.0], [0, HALF]),
    ("tiny_pair", [1e-45, 1e-45, 0.0], [HALF, HALF + 1, HALF]),
    ("tiny_pair_far", [1e-45, 1e-45], [N - 1, 1]),
    ("tiny64", [5e-324, 1.0], [1, N - 1]),
    ("huge_overflow_tie", [3e38, 3e38], [2, 1]),
    ("huge_vs_one", [1.0, 3e38], [1, N - 1]),
    ("weather_mid", [0.515483558177948, 0.25598156452178955, 0.17158956825733185, 0.03134658560156822,
                     0.01408492960035801, 0.006994368974119425, 0.003473300952464342, 0.0010461381170898676],
     [HALF, HALF // 2, HALF // 3, 1 << 40, 1 << 30, 1 << 20, 1 << 10, 3]),
]

W = [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2]


def softmax(x):
    m = max(x)
    e = [math.exp(v - m) if v != -math.inf else 0.0 for v in x]
    s = 0.0
    for v in e:
        s += v
    return [v / s for v in e]


CDFS = [
    ("weather", softmax(W)),
    ("weather_top4", softmax(W[:4] + [-math.inf] * 4)),
    ("zeros_first", [0.0, 0.0, 0.5, 0.25, 0.25]),
    ("ties", [1.0, 1.0, 1.0]),
    ("tiny", [1e-45, 1.0, 1e-45, 0.0]),
    ("tiny64", [5e-324, 1.0, 0.0, 5e-324]),
    ("overflow32", [1.0, 3e38, 3e38, 1.0, 5.0]),
    ("overflow64", [1.0, 1e308, 1e308, 1.0]),  # float64 only: the entries are inf in float32
]


def boundaries(p, dt):
    """Candidate boundaries of the cdf path: both sides of floor(cum_j 2^53) + 1."""
    a = np.array(p, dtype=NP[dt])
    with np.errstate(over="ignore", invalid="ignore"):
        cum = np.cumsum(a, dtype=NP[dt])  # sequential, as torch's kernel
        cum = cum / cum[-1]
    cand = {0, N - 1}
    for c in cum[:-1]:
        if not math.isfinite(float(c)):
            continue
        K = min(int(math.floor(float(c) * 2.0 ** 53)) + 1, N)
        cand.update(k for k in (K - 1, K, K + 1) if 0 <= k < N)
    return sorted(cand)


def main():
    first, count = 0, 200
    if len(sys.argv) == 5 and sys.argv[2] == "--random":
        first, count = int(sys.argv[3]), int(sys.argv[4])
    elif len(sys.argv) != 2:
        sys.exit(__doc__)
    only_rand = len(sys.argv) == 5
    out = open(sys.argv[1], "w")
    out.write("# torch 2.x exact audit at chosen uniforms: torch %s\n" % torch.__version__)
    out.write("".join(s + "\n" for s in libinfo.lines()))
    nrace = ncdf = nwords = nrand = 0
    for dt in ("float32", "float64") if not only_rand else ():
        for repl in (0, 1):
            for name, p, ks in RACES:
                t, q = race(p, ks, dt, repl)
                out.write("race %s %d %s %d %s | %s | %d | %s\n" % (dt, repl, name, len(p), fmt_p(p, dt),
                          " ".join(str(k) for k in ks), t, " ".join(signed(v) for v in q)))
                nrace += 1
    for dt in ("float32", "float64") if not only_rand else ():
        for name, p in CDFS:
            if dt == "float32" and name == "overflow64":
                continue
            pairs = []
            ks = boundaries(p, dt)
            for i in range(0, len(ks)):
                ka, kb = ks[i], ks[i + 1] if i + 1 < len(ks) else ks[0]
                torch_set_words(torch_words([ka, kb]))
                ta, tb = torch.multinomial(torch.tensor(p, dtype=DT[dt]), 2, replacement=True).tolist()
                pairs.append("%d,%d:%d,%d" % (ka, kb, ta, tb))
            out.write("cdf %s %s %d %s | %s\n" % (dt, name, len(p), fmt_p(p, dt), " ".join(pairs)))
            ncdf += 1
    for dt in ("float32", "float64") if not only_rand else ():
        for V, n, repl in ((8, 1, 0), (8, 1, 1), (8, 2, 1), (8, 5, 1), (8, 3, 0), (200, 1, 1), (200, 2, 1)):
            torch_set_words(torch_words([HALF] * 300))
            a = next_field()
            torch.multinomial(torch.ones(V, dtype=DT[dt]), n, replacement=bool(repl))
            out.write("words %s %d %d %d | %d\n" % (dt, V, n, repl, next_field() - a))
            nwords += 1
    for seed in range(first, first + count):
        rng = random.Random(seed)
        dt = ("float32", "float64")[seed % 2]
        V = rng.randint(2, 12)
        p = [rng.choice([0.0, 0.0, 1.0, 0.5, 1e-45 if dt == "float32" else 5e-324, rng.random(), rng.random()])
             for _ in range(V)]
        if not any(p):
            p[rng.randrange(V)] = 1.0
        ks = [rng.choice([0, 1, HALF, N - 1, rng.randrange(N), rng.randrange(N), rng.randrange(N)])
              for _ in range(V)]
        repl = int(seed % 3 == 0)
        t, _ = race(p, ks, dt, repl)
        out.write("rand %s %d %d %d %s | %s | %d\n" % (dt, repl, V, seed, fmt_p(p, dt), " ".join(str(k) for k in ks),
                                                        t))
        nrand += 1
    out.close()
    print("exact_torch2: %d race, %d cdf, %d words, %d rand records" % (nrace, ncdf, nwords, nrand))


if __name__ == "__main__":
    main()
