#!/usr/bin/python3
"""numpy_crosscheck.py - `samplab draw --framework numpy / numpy-legacy` against the
real NumPy on random seeds and vectors that appear in no test, draw by draw.

Usage: /usr/bin/python3 analysis/numpy_crosscheck.py [TRIALS] [MASTER_SEED]
(run from the repository root after `make`; SL_BIN overrides bin/samplab).

Each trial picks a framework, a seed (numpy: any size up to 2^128 - 1, often
above 2^64, or a limit: 0, 2^32 - 1, 2^32, 2^63, 2^64 - 1, 2^64, 2^128 - 1;
legacy: below 2^32, with 0 and 2^32 - 1), a vector (Dirichlet, softmax of normal
logits, Zipf-like, with zero entries, ties with zeros at both ends, subnormal or
tiny entries, V from 1 to 100003) written as text or as a
float32/float64 .npy, optionally --dtype float32 and --num-samples K, and then
compares every token and the word count with NumPy's own choice. It also
perturbs the sum to compare accept/reject (exit 2 with NumPy's reason).
Exit 0 only if every trial agrees.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

TRIALS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
MASTER = int(sys.argv[2]) if len(sys.argv) > 2 else 20261129
BIN = os.environ.get("SL_BIN", "bin/samplab")
meta = np.random.default_rng(MASTER)


def make_vector():
    V = int(meta.choice([1, 2, 3, 5, 7, 8, 17, 100, 1000, 4096, 32000, 49152, 60000, 100003]))
    kind = meta.integers(0, 6)
    if kind == 0:
        p = meta.dirichlet(np.full(V, float(meta.choice([0.05, 0.5, 5.0]))))
    elif kind == 1:
        x = meta.normal(0.0, float(meta.choice([0.5, 2.5, 8.0])), V)
        e = np.exp(x - x.max())
        p = e / e.sum()
    elif kind == 2:
        w = 1.0 / np.arange(1, V + 1) ** float(meta.uniform(0.5, 1.5))
        p = w / w.sum()
    elif kind == 4:  # ties, zeros at both ends
        p = np.ones(V)
        if V > 2:
            p[0] = p[-1] = 0.0
        p = p / p.sum()
    elif kind == 5:  # subnormal (float64) or tiny entries among ordinary ones
        p = meta.random(V)
        p[meta.random(V) < 0.4] = float(meta.choice([1e-310, 1e-30]))
        p = p / p.sum()
    else:
        p = meta.random(V)
        p[meta.random(V) < 0.3] = 0.0
        if p.sum() == 0:
            p[0] = 1.0
        p = p / p.sum()
    return p


def numpy_draws(fw, seed, p, n, k):
    V = len(p)
    if fw == "numpy":
        rng = np.random.default_rng(seed)
        out = [rng.choice(V, p=p, size=k) if k else rng.choice(V, p=p) for _ in range(n)]
    else:
        np.random.seed(seed)
        out = [np.random.choice(V, p=p, size=k) if k else np.random.choice(V, p=p) for _ in range(n)]
    return [int(x) for row in out for x in np.atleast_1d(row)]


def run_samplab(args):
    r = subprocess.run([BIN, "draw"] + args, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    fails = 0
    agree = draws = rejects = 0
    with tempfile.TemporaryDirectory() as tmp:
        for t in range(TRIALS):
            fw = "numpy" if meta.random() < 0.6 else "numpy-legacy"
            limit = meta.random() < 0.2
            if fw == "numpy" and limit:
                seed = [0, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64, 2**128 - 1][int(meta.integers(0, 7))]
            elif fw == "numpy":
                bits = int(meta.choice([8, 32, 64, 65, 96, 128]))
                seed = int.from_bytes(meta.bytes(16), "little") % (2 ** bits)
            elif limit:
                seed = [0, 2**32 - 1][int(meta.integers(0, 2))]
            else:
                seed = int(meta.integers(0, 2 ** 32))
            p = make_vector()
            form = meta.choice(["text", "npy64", "npy32", "text32"])
            perturb = meta.random() < 0.15
            if perturb:
                p = p.copy()
                p[int(meta.integers(0, len(p)))] += float(meta.choice([1e-9, 3e-8, 2e-4, 5e-4, -2.0]))
            path = os.path.join(tmp, "p%d" % t)
            extra = []
            if form == "text":
                path += ".txt"
                with open(path, "w") as f:
                    f.write("\n".join(repr(float(x)) for x in p) + "\n")
                numpy_p = [float(x) for x in p]
            elif form == "text32":
                path += ".txt"
                with open(path, "w") as f:
                    f.write("\n".join(repr(float(x)) for x in p) + "\n")
                numpy_p = np.array([float(x) for x in p], dtype=np.float32)
                extra = ["--dtype", "float32"]
            elif form == "npy64":
                path += ".npy"
                np.save(path, p.astype(np.float64))
                numpy_p = np.load(path)
            else:
                path += ".npy"
                np.save(path, p.astype(np.float32))
                numpy_p = np.load(path)
            n = int(meta.choice([1, 3, 50, 400]))
            k = int(meta.choice([0, 0, 1, 7]))
            args = ["--framework", fw, "--probs", path, "--seed", str(seed), "--n", str(n), "--json"] + extra
            if k:
                args += ["--num-samples", str(k)]
            try:
                want = numpy_draws(fw, seed, numpy_p, n, k)
                err = None
            except ValueError as e:
                want, err = None, str(e)
            rc, out, stderr = run_samplab(args)
            label = "trial %d: %s seed=%d V=%d form=%s n=%d k=%d" % (t, fw, seed, len(p), form, n, k)
            if err is not None:
                if rc == 2 and ("(NumPy: %s)" % err) in stderr and out == "":
                    rejects += 1
                    continue
                print("FAIL %s: NumPy rejects (%s), samplab rc=%d %s" % (label, err, rc, stderr.strip()))
                fails += 1
                continue
            if rc != 0:
                print("FAIL %s: samplab rc=%d: %s" % (label, rc, stderr.strip()))
                fails += 1
                continue
            js = json.loads(out)
            got = [x for row in js["tokens"] for x in (row if isinstance(row, list) else [row])]
            words = js["rng"]["words"]
            per = 1 if fw == "numpy" else 2
            if got != want or words != per * len(want):
                bad = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), None)
                print("FAIL %s: first difference at draw %s (samplab %s, numpy %s), words %d"
                      % (label, bad, got[bad] if bad is not None else "-",
                         want[bad] if bad is not None else "-", words))
                fails += 1
                continue
            agree += 1
            draws += len(want)
    print("numpy_crosscheck: %d trials: %d agree draw by draw (%d draws), %d rejected by both, %d failures"
          % (TRIALS, agree, draws, rejects, fails))
    return 1 if fails else 0


sys.exit(main())
