#!/usr/bin/env python3
"""Writes data/synthetic_49152.txt: 49,152 logits with a Zipf-like spread.

Token ranks are a fixed random permutation of the ids; the logit of rank r
(1-based) is -1.1 * ln(r) plus uniform noise in [-0.25, 0.25), so softmax
gives a power-law tail like a real LM head. Python's random.Random(seed) with
.random() and .shuffle() only, whose output is stable across Python 3
versions, so the file is reproducible byte for byte:

    python3 analysis/make_synthetic_vocab.py > data/synthetic_49152.txt
"""
import math
import random
import sys

V = 49152
SEED = 20261129


def main() -> None:
    rng = random.Random(SEED)
    ids = list(range(V))
    rng.shuffle(ids)
    logits = [0.0] * V
    for rank, tok in enumerate(ids, start=1):
        logits[tok] = -1.1 * math.log(rank) + (rng.random() - 0.5) * 0.5
    out = sys.stdout
    out.write(f"# synthetic Zipf-like vocabulary: V={V}, seed {SEED}, made by analysis/make_synthetic_vocab.py\n")
    for x in logits:
        out.write(f"{x:.9g}\n")


if __name__ == "__main__":
    main()
