"""Golden data for the exact audit at chosen uniforms, from the real torch and NumPy.

Both libraries draw from MT19937 and both let the state be set: with `next`/`pos` at 0
and no twist pending, the next words are the tempered state words in order, and
tempering is invertible. So any uniform can be fed to the real sampler:
  torch 1.13: random64 = w1 << 32 | w2, u = (random64 & (2^53-1)) * 2^-53;
  NumPy legacy RandomState: u = ((w1 >> 5) * 2^26 + (w2 >> 6)) * 2^-53.
Recorded:
  race:  torch.multinomial(p, 1) (exponential race) with u = 0 for chosen entries:
         the token, and the sign of q = exponential_() at u = 0;
  repl:  torch.multinomial(p, 1, replacement=True) at k = K_j - 1 and K_j, where K_j
         = floor(cum_j * 2^53) + 1 from a float32 running sum (the candidates; the C
         test checks its own boundaries are among them and agree);
  npleg: RandomState.choice(V, p=p) at k = K_j - 1 and K_j, K_j = ceil(cdf_j * 2^53).
Usage: python3 exact_crafted.py OUT (as a module: the crafted-state helpers)
"""
import math
import struct
import sys

import numpy as np
import torch

M32 = 0xFFFFFFFF


def untemper(y):
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    t = y
    for _ in range(5):
        t = y ^ ((t << 7) & 0x9D2C5680)
    y = t & M32
    t = y
    for _ in range(3):
        t = y ^ (t >> 11)
    return t & M32


def temper(y):
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & M32


def torch_set_words(words):
    assert len(words) <= 600
    st = bytearray(torch.get_rng_state().numpy().tobytes())
    key = [untemper(w) for w in words] + [0] * (624 - len(words))
    struct.pack_into("<QiiQ", st, 0, 0, 624, 1, 0)
    struct.pack_into("<624Q", st, 24, *key)
    torch.set_rng_state(torch.tensor(list(st), dtype=torch.uint8))


def torch_words(ks):
    out = []
    for k in ks:
        out += [(k >> 32) & M32, k & M32]
    return out


def np_state(ks):
    words = []
    for k in ks:
        words += [(k >> 26) << 5, (k & ((1 << 26) - 1)) << 6]
    key = [untemper(w) for w in words] + [0] * (624 - len(words))
    rs = np.random.RandomState(0)
    rs.set_state(("MT19937", np.array(key, dtype=np.uint32), 0, 0, 0.0))
    return rs


def softmax(x):
    m = max(x)
    e = [math.exp(v - m) if v != -math.inf else 0.0 for v in x]
    s = 0.0
    for v in e:
        s += v
    return [v / s for v in e]


W = [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2]
VECS = {"weather": softmax(W), "weather_top4": softmax(W[:4] + [-math.inf] * 4),
        "zeros_first": [0.0, 0.0, 0.5, 0.25, 0.25]}
N = 1 << 53
HALF = 1 << 52


def main():
    for w in (0, 1, 0x9D2C5680, M32, 123456789):
        assert temper(untemper(w)) == w
    out = open(sys.argv[1], "w")
    out.write("# exact audit golden at chosen uniforms: torch %s, numpy %s\n" % (torch.__version__, np.__version__))
    # the exponential race at u = 0
    races = [("nan_zero_token", [0.5, 0.0, 0.5], [HALF, 0, HALF]),
             ("neg_inf_positive_token", [0.5, 0.5], [0, N - 1]),
             ("first_nan_wins", [0.0, 0.7, 0.0, 0.3], [HALF, 1, 0, 0]),
             ("no_zero", [0.5, 0.5], [HALF, HALF + 1])]
    for name, p, ks in races:
        torch_set_words(torch_words(ks))
        q = torch.empty(len(p), dtype=torch.float32).exponential_(1)
        torch_set_words(torch_words(ks))
        t = torch.multinomial(torch.tensor(p, dtype=torch.float32), 1).item()
        signs = " ".join("%s%s" % ("-" if math.copysign(1, v) < 0 else "+", repr(abs(v))) for v in q.tolist())
        out.write("race %s %d %s | %s | %d | %s\n" % (name, len(p), " ".join(repr(v) for v in p),
                                                     " ".join(str(k) for k in ks), t, signs))
    for name, p in VECS.items():
        p32 = np.array(p, dtype=np.float32)
        cum = np.cumsum(p32, dtype=np.float32)
        cum = cum / cum[-1]
        cum[-1] = 1
        cand = set()
        for c in cum[:-1]:
            K = min(int(math.floor(float(c) * 2.0 ** 53)) + 1, N)
            cand.update(k for k in (K - 1, K) if 0 <= k < N)
        cand.update((0, N - 1))
        pairs = []
        for k in sorted(cand):
            torch_set_words(torch_words([k]))
            pairs.append("%d:%d" % (k, torch.multinomial(torch.tensor(p32), 1, replacement=True).item()))
        out.write("repl %s %d %s | %s\n" % (name, len(p), " ".join(repr(float(v)) for v in p32), " ".join(pairs)))
        arr = np.array(p, dtype=np.float64)
        cdf = arr.cumsum()
        cdf /= cdf[-1]
        cand = set((0, N - 1))
        for c in cdf[:-1]:
            K = min(int(math.ceil(float(c) * 2.0 ** 53)), N)
            cand.update(k for k in (K - 1, K) if 0 <= k < N)
        pairs = []
        for k in sorted(cand):
            pairs.append("%d:%d" % (k, np_state([k]).choice(len(p), p=arr)))
        out.write("npleg %s %d %s | %s\n" % (name, len(p), " ".join(repr(float(v)) for v in arr), " ".join(pairs)))
    # a float32 running sum that overflows: inf/inf = NaN in the table
    p32 = np.array([1, 3e38, 3e38, 1, 5], dtype=np.float32)
    pairs = []
    for k in (0, 1, 2, HALF, N - 1):
        torch_set_words(torch_words([k]))
        pairs.append("%d:%d" % (k, torch.multinomial(torch.tensor(p32), 1, replacement=True).item()))
    out.write("repl overflow %d %s | %s\n" % (len(p32), " ".join(repr(float(v)) for v in p32), " ".join(pairs)))
    out.close()


if __name__ == "__main__":
    main()
