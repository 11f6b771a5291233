"""Golden data for samplab's exprace method over mt19937, from the real NumPy.

samplab's `--method exprace --rng mt19937 --seed S` is the exponential race
argmax_i w_i / E_i, E_i = -log(1 - U_i), first index on ties, where U_i are
genrand_res53 uniforms from MT19937 init_genrand(S): exactly NumPy's legacy
np.random.seed(S); np.random.random_sample(V), one block of V per draw. NumPy
computes the race here with its own log and argmax (first index of the max).
Weights are integers given by a formula (exact in float64 in C and NumPy), so
no vector file is needed; some are zero.
Recorded: one line per (vector, seed): name V seed | the first 12 tokens.
Usage: python3 exprace_numpy.py OUT
"""
import sys

import numpy as np


def weights(kind, V):
    i = np.arange(V, dtype=np.uint64)
    if kind == "hash":  # spread integers 0..2^20-1, about 1/16 of them zero
        h = (i * np.uint64(2654435761) + np.uint64(12345)) % np.uint64(2**32)
        w = (h >> np.uint64(12)).astype(np.float64)
        w[(h & np.uint64(15)) == 0] = 0.0
        return w
    if kind == "zipf":  # floor(2^40 / (i + 1)): a heavy head and a long tail
        return np.floor(2.0**40 / (i.astype(np.float64) + 1.0))
    if kind == "ties":  # three values, many exact ties
        return ((i * np.uint64(7)) % np.uint64(3) + np.uint64(1)).astype(np.float64)
    raise ValueError(kind)


def main():
    out = sys.argv[1]
    lines = ["# exprace over mt19937 (legacy RandomState random_sample, log, argmax): numpy %s" % np.__version__,
             "# kind V seed | tokens of draws 1..12"]
    for kind, V in (("hash", 7), ("hash", 1000), ("zipf", 1000), ("ties", 513), ("hash", 49152), ("zipf", 49152)):
        w = weights(kind, V)
        for seed in (0, 1, 42, 4294967295):
            np.random.seed(seed)
            toks = []
            for _ in range(12):
                u = np.random.random_sample(V)
                e = -np.log(1.0 - u)
                toks.append(int(np.argmax(w / e)))
            lines.append("%s %d %d | %s" % (kind, V, seed, " ".join(map(str, toks))))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
