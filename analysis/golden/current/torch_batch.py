#!/usr/bin/python3
"""torch_batch.py — torch.multinomial on 2-D input: p [B, V], K samples a row, with and
without replacement, N calls after one torch.manual_seed(SEED) (CPU, default generator).

For every case the tokens of each call are recorded, and from the real library alone:
  - the words after each call (torch.get_rng_state(), torch_golden.py's WordMeter);
  - that B one-row calls torch.multinomial(p[b:b+1], K, replacement) in row order on
    the same generator give the same tokens, and the words after each row's call
    (words[b][n]: the generator's running total after row b's draw in call n).
Probabilities are float32 (a few cases float64), made with a torch.Generator of their
own (so the default generator is untouched): uniform, Zipf-like, ties (all equal), zeros
among them, one-hot; V from 2 to 151,936.

Manifest (OUTDIR/torch_batch.txt, one record a line, '#' comments):
  case ID seed=S B=B V=V K=K replacement=0|1 n=N dtype=float32|float64 kind=KIND
       probs=TENSOR tokens=ROW;ROW;... words=ROW;ROW;...
    TENSOR names the [B, V] tensor in OUTDIR/torch_batch.safetensors; each ROW of
    tokens holds row b's N·K tokens (call after call), each ROW of words its N running
    totals.
  error ID seed=S B=B V=V K=K replacement=R dtype=D kind=KIND probs=TENSOR message=TEXT
    torch raised TEXT (first line).

Usage: torch_batch.py OUTDIR
"""
import os
import sys

import torch
from safetensors.torch import save_file


def probs_of(kind, B, V, dtype, gen):
    if kind == "uniform":
        p = torch.rand(B, V, generator=gen, dtype=torch.float64)
    elif kind == "zipf":
        r = torch.rand(B, V, generator=gen, dtype=torch.float64)
        p = 1.0 / (1.0 + torch.argsort(r, dim=1).double()) ** 1.1
    elif kind == "ties":
        p = torch.ones(B, V, dtype=torch.float64)
    elif kind == "zeros":
        p = torch.rand(B, V, generator=gen, dtype=torch.float64)
        p[torch.rand(B, V, generator=gen) < 0.6] = 0
        p[:, 0] += 1e-3
    elif kind == "onehot":
        p = torch.zeros(B, V, dtype=torch.float64)
        for b in range(B):
            p[b, int(torch.randint(V, (1,), generator=gen))] = 1
    else:
        raise ValueError(kind)
    return p.to(dtype)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    sys.path.insert(0, os.path.dirname(here))
    import libinfo
    from torch_golden import WordMeter
    torch.set_num_threads(1)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    gen = torch.Generator().manual_seed(20261202)
    cases = []
    kinds = ["uniform", "zipf", "ties", "zeros", "onehot"]
    i = 0
    for V in (2, 3, 8, 100, 1000):
        for B in (1, 2, 3, 5, 8):
            for K in sorted({1, 2, min(5, V), V}):
                for R in (0, 1):
                    kind = kinds[i % len(kinds)]
                    dtype = "float64" if i % 7 == 3 else "float32"
                    cases.append((i * 31 % 9973, B, V, K, R, 1 + i % 3, dtype, kind))
                    i += 1
    for V, B, K, R, kind in ((49152, 3, 1, 0, "zipf"), (49152, 2, 4, 1, "uniform"), (151936, 2, 1, 0, "zipf"), (32000, 4, 2, 0, "uniform")):
        cases.append((i, B, V, K, R, 1, "float32", kind))
        i += 1
    tensors = {}
    lines = []
    nerr = 0
    for cid, (seed, B, V, K, R, N, dtype, kind) in enumerate(cases, 1):
        p = probs_of(kind, B, V, {"float32": torch.float32, "float64": torch.float64}[dtype], gen)
        tname = "c%03d.probs" % cid
        tensors[tname] = p.contiguous()
        head = "ID=c%03d seed=%d B=%d V=%d K=%d replacement=%d" % (cid, seed, B, V, K, R)
        torch.manual_seed(seed)
        meter = WordMeter()
        try:
            calls = []
            for _ in range(N):
                calls.append(torch.multinomial(p, K, replacement=bool(R)).tolist())
        except RuntimeError as e:
            lines.append("error %s dtype=%s kind=%s probs=%s message=%s"
                         % (head, dtype, kind, tname, str(e).splitlines()[0]))
            nerr += 1
            continue
        total = meter.words()
        # the same draws as B one-row calls in row order on one generator
        torch.manual_seed(seed)
        meter = WordMeter()
        words = [[0] * N for _ in range(B)]
        for n in range(N):
            for b in range(B):
                one = torch.multinomial(p[b:b + 1], K, replacement=bool(R)).tolist()[0]
                assert one == calls[n][b], (head, n, b, one, calls[n][b])
                words[b][n] = meter.words()
        assert words[B - 1][N - 1] == total, (head, words, total)
        toks = [[x for n in range(N) for x in calls[n][b]] for b in range(B)]
        rows = lambda m: ";".join(",".join(map(str, r)) for r in m)  # noqa: E731
        lines.append("case %s n=%d dtype=%s kind=%s probs=%s tokens=%s words=%s"
                     % (head, N, dtype, kind, tname, rows(toks), rows(words)))
    save_file(tensors, os.path.join(outdir, "torch_batch.safetensors"),
              metadata={"producer": "analysis/golden/current/torch_batch.py; torch %s" % torch.__version__})
    with open(os.path.join(outdir, "torch_batch.txt"), "w") as f:
        f.write("# torch %s torch.multinomial on [B, V] input, K samples, with and without replacement, N calls; "
                "analysis/golden/current/torch_batch.py (format in its docstring)\n" % torch.__version__)
        f.write("".join(s + "\n" for s in libinfo.lines()))
        f.write("# every case: B one-row calls in row order on one generator draw the same tokens (checked); "
                "%d cases, %d raised\n" % (len(cases), nerr))
        f.write("".join(s.replace("ID=", "") + "\n" for s in lines))


if __name__ == "__main__":
    main()
