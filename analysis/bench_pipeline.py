#!/usr/bin/python3
"""bench_pipeline.py — the transformers pipeline (its warpers re-expressed in
torch ops, as analysis/golden/hf_golden.py) against `samplab pipeline
--framework hf` on the synthetic 49,152-token vocabulary, same settings, same
run. transformers itself is not installed here; torch is.

torch: median wall time of one in-process call (20 calls).
samplab: median wall time of one CLI process (20 runs) reading a float32
.npy written here, so it includes process start, reading and printing."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

os.environ["ATEN_CPU_CAPABILITY"] = "avx2"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden"))
import numpy as np  # noqa: E402
import torch  # noqa: E402
from hf_golden import hf  # noqa: E402

torch.set_num_threads(1)
vals = [float(l) for l in open("data/synthetic_49152.txt") if l.strip() and not l.startswith("#")]
lg = torch.tensor(vals, dtype=torch.float32)
with tempfile.NamedTemporaryFile(suffix=".npy", delete=False) as f:
    np.save(f, lg.numpy())
    npy = f.name
settings = [("T 0.7, top-k 50 (do_sample defaults)", dict(T=0.7, defaults=True), ["--temperature", "0.7", "--defaults"]),
            ("T 0.7, top-k 40, top-p 0.9", dict(T=0.7, k=40, p=0.9),
             ["--temperature", "0.7", "--top-k", "40", "--top-p", "0.9"]),
            ("T 0.7, top-p 0.9, min-p 0.05", dict(T=0.7, p=0.9, minp=0.05),
             ["--temperature", "0.7", "--top-p", "0.9", "--min-p", "0.05"])]
print("## Logits pipelines (V = 49152, one thread): torch ops vs samplab pipeline --framework hf")
print("| settings | torch ops, ms/call | samplab CLI, ms/process | ratio |")
print("|---|---|---|---|")
for name, kw, args in settings:
    hf(lg, **kw)
    t = []
    for _ in range(20):
        t0 = time.perf_counter()
        hf(lg, **kw)
        t.append(time.perf_counter() - t0)
    c = []
    for _ in range(20):
        t0 = time.perf_counter()
        subprocess.run(["bin/samplab", "pipeline", "--framework", "hf", "--logits", npy] + args,
                       check=True, stdout=subprocess.DEVNULL)
        c.append(time.perf_counter() - t0)
    a, b = statistics.median(t) * 1e3, statistics.median(c) * 1e3
    print("| %s | %.2f | %.2f | %.2f |" % (name, a, b, b / a))
os.unlink(npy)
