"""Golden data for the exact audit (draw/numpy_choice.c and draw/torch.c), from the real NumPy and torch.

numpy: for each vector, the cdf NumPy's choice builds (float64 cumsum, cdf /= cdf[-1])
and, for each token j < V-1, K_j = number of the 2^53 uniforms u = k*2^-53 whose
searchsorted(cdf, u, 'right') is <= j. K_j is found by NumPy itself: a binary search
over k of searchsorted at k*2^-53, so it checks the C ceiling formula.
torch: for 300 seeds, u = torch.rand(1, float64) after manual_seed(s) and the token of
torch.multinomial(p, 1, replacement=True) after the same seed (same first two words):
the pair must fall in the token's exact interval of k.
Usage: python3 exact_numpy_torch.py OUT
"""
import math
import sys

import numpy as np
import torch

W = [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2]


def softmax(x):
    m = max(x)
    e = [math.exp(v - m) if v != -math.inf else 0.0 for v in x]
    s = 0.0
    for v in e:
        s += v
    return [v / s for v in e]


VECS = {
    "weather": softmax(W),
    "weather_top4": softmax(W[:4] + [-math.inf] * 4),
    "ties": softmax([3.0, 2.0, 2.0, 1.0]),
    "tiny": [0.5, 1e-17, 0.25, 0.0, 0.25 - 1e-17, 3e-300, 0.0],
}

N = 1 << 53


def boundary(cdf, j):
    """First k with searchsorted(cdf, k*2^-53, 'right') > j (found by numpy)."""
    lo, hi = 0, N
    while lo < hi:
        mid = (lo + hi) // 2
        if np.searchsorted(cdf, np.float64(mid) * 2.0 ** -53, side="right") > j:
            hi = mid
        else:
            lo = mid + 1
    return lo


def main():
    out = open(sys.argv[1], "w")
    out.write("# exact audit golden: numpy %s, torch %s\n" % (np.__version__, torch.__version__))
    for name, p in VECS.items():
        arr = np.array(p, dtype=np.float64)
        cdf = arr.cumsum()
        cdf /= cdf[-1]
        ks = [boundary(cdf, j) for j in range(len(p) - 1)]
        out.write("numpy %s %d %s | %s\n" % (name, len(p), " ".join(repr(float(v)) for v in p),
                                             " ".join(str(k) for k in ks)))
    for name in ("weather", "weather_top4", "ties"):
        p = torch.tensor(VECS[name], dtype=torch.float32)
        pairs = []
        for s in range(300):
            torch.manual_seed(s)
            u = torch.rand(1, dtype=torch.float64).item()
            torch.manual_seed(s)
            t = torch.multinomial(p, 1, replacement=True).item()
            pairs.append("%d:%d" % (int(u * 2.0 ** 53), t))
        out.write("torch %s %d %s | %s\n" % (name, len(VECS[name]), " ".join(repr(float(v)) for v in p.tolist()),
                                             " ".join(pairs)))
    out.close()


main()
