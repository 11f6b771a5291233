#!/usr/bin/python3
"""torch_log.py — torch's float32 log as log_softmax and TypicalLogitsWarper use it.

torch's CPU log_softmax takes the log of each row's sum with the vectorised
Vectorized<float>::log (SLEEF's logf_u10), which is within 1 ulp but not
always glibc's correctly rounded logf; on a near-flat row that ulp reorders
TypicalLogitsWarper's shifted scores. Records (one a line, '#' comments, every
float as the 8 hex digits of its float32 bits):
  log X Y                     Y = torch.log(tensor([..., X, ...]))[i], one
                              contiguous tensor of all the X (vectorised path)
  lsm V X_0..X_{V-1} : Y_0..Y_{V-1}     torch.log_softmax(x, -1) of one row
  typical MASS MIN_KEEP V X_0..X_{V-1} : KEPT   TypicalLogitsWarper(MASS,
                              min_tokens_to_keep=MIN_KEEP) on the row; KEPT the
                              ids left finite, comma-separated
Vectors: numpy.random.default_rng(20261201); the typical rows include two
near-flat V = 3 rows of a real transformers generate() run whose tokens
samplab's typical once failed to predict.

Usage: torch_log.py OUT   (CPU kernel as ATEN_CPU_CAPABILITY asks; one thread)
"""
import os
import sys

import numpy as np
import torch
from transformers.generation.logits_process import TypicalLogitsWarper

FLAT3 = [[-3.8614396e-09, 1.3385937e-07, -9.2356906e-08], [-1.3240656e-07, 2.1950825e-07, -9.3067705e-09]]


def hx(a):
    return " ".join("%08x" % b for b in np.asarray(a, np.float32).view(np.uint32))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import libinfo
    torch.set_num_threads(1)
    R = np.random.default_rng(20261201)
    lines = []
    # row sums of a softmax lie in [1, V]; a few wider values too
    xs = np.concatenate([R.uniform(1, 3, 1500), np.exp(R.uniform(0, 12, 1500)), 1 + R.random(500) * 1e-5,
                         np.exp(R.uniform(-80, 80, 500))]).astype(np.float32)
    ys = torch.log(torch.from_numpy(xs)).numpy()
    lines += ["log %s %s" % (hx([x]), hx([y])) for x, y in zip(xs, ys)]
    rows = [np.asarray(r, np.float32) for r in FLAT3]
    for _ in range(300):
        V = int(R.choice([2, 3, 5, 8, 17, 100]))
        rows.append((R.standard_normal(V) * R.choice([1e-7, 1e-4, 1.0])).astype(np.float32))
    for r in rows:
        y = torch.log_softmax(torch.from_numpy(r)[None], -1)[0].numpy()
        lines.append("lsm %d %s : %s" % (len(r), hx(r), hx(y)))
    for r in rows[:80]:
        for mass, mk in ((0.2, 2), (0.5, 1), (0.9, 1)):
            out = TypicalLogitsWarper(mass, min_tokens_to_keep=mk)(None, torch.from_numpy(r.copy())[None])[0]
            kept = ",".join(str(i) for i in range(len(r)) if torch.isfinite(out[i]))
            lines.append("typical %r %d %d %s : %s" % (mass, mk, len(r), hx(r), kept))
    with open(sys.argv[1], "w") as f:
        f.write("# torch %s float32 log, log_softmax and TypicalLogitsWarper (transformers' class), one thread; "
                "analysis/golden/current/torch_log.py (format in its docstring)\n" % torch.__version__)
        f.write("".join(s + "\n" for s in libinfo.lines()))
        f.write("".join(s + "\n" for s in lines))


if __name__ == "__main__":
    main()
