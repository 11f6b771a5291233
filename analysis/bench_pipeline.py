#!/usr/bin/python3
"""bench_pipeline.py — the transformers pipeline (its warpers re-expressed in
torch ops, as analysis/golden/hf_golden.py) against `samplab pipeline
--framework hf` on the synthetic 49,152-token vocabulary, same settings, same
run, under each of torch's CPU kernels (ATEN_CPU_CAPABILITY=avx2 / avx512, and
samplab's --cpu avx2 / avx512, which model their softmax sums). transformers
itself is not installed here; torch is.

torch: one in-process call, in its own process per kernel (the capability is
read at start), the best of 20 calls in thread CPU time.
samplab in process: `samplab bench --framework hf` on the same row, the pipeline
alone with fresh buffers as one `samplab pipeline` run has, and in a session's
scratch as replay and check run it step after step; best of 20, thread CPU time. samplab CLI: the median wall time of one whole process (20 runs)
reading a float32 .npy written here: process start, reading and printing
included."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SETTINGS = [("T 0.7, top-k 50 (do_sample defaults)", dict(T=0.7, defaults=True), ["--temperature", "0.7"]),
            ("T 0.7, top-k 40, top-p 0.9", dict(T=0.7, k=40, p=0.9),
             ["--temperature", "0.7", "--top-k", "40", "--top-p", "0.9"]),
            ("T 0.7, top-p 0.9, min-p 0.05", dict(T=0.7, p=0.9, minp=0.05),
             ["--temperature", "0.7", "--top-p", "0.9", "--min-p", "0.05"])]
KERNELS = ("avx2", "avx512")


def torch_times():
    """run in a child whose ATEN_CPU_CAPABILITY is set: ms per call for each setting"""
    kernel = os.environ.get("ATEN_CPU_CAPABILITY", "avx2")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden"))
    from hf_golden import hf  # it sets ATEN_CPU_CAPABILITY=avx2 (for its golden file): set ours again
    os.environ["ATEN_CPU_CAPABILITY"] = kernel
    import torch
    torch.set_num_threads(1)
    vals = [float(l) for l in open("data/synthetic_49152.txt") if l.strip() and not l.startswith("#")]
    lg = torch.tensor(vals, dtype=torch.float32)
    cap = [l for l in torch.__config__.show().split("\n") if "CPU capability" in l]
    out = {"capability": cap[0].split(":")[-1].strip() if cap else "?", "ms": []}
    for _, kw, _ in SETTINGS:
        hf(lg, **kw)
        best = 1e30
        for _ in range(20):
            t0 = time.thread_time()
            hf(lg, **kw)
            best = min(best, time.thread_time() - t0)
        out["ms"].append(best * 1e3)
    print(json.dumps(out))


def main():
    import numpy as np
    vals = [float(l) for l in open("data/synthetic_49152.txt") if l.strip() and not l.startswith("#")]
    row = np.array(vals, dtype=np.float32)
    tmp = tempfile.mkdtemp(prefix="samplab-bench-")
    npy, rows = os.path.join(tmp, "v.npy"), os.path.join(tmp, "rows.npy")
    np.save(npy, row)
    np.save(rows, row[None, :])
    print("## Logits pipelines (V = 49152, one thread): torch ops vs samplab pipeline --framework hf, per CPU kernel")
    print("| settings | kernel | torch ops, ms/call | samplab in process, ms/call | ratio | in a session's scratch "
          "| ratio | samplab CLI, ms/process | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for kernel in KERNELS:
            env = dict(os.environ, ATEN_CPU_CAPABILITY=kernel)
            tt = json.loads(subprocess.run([sys.executable, os.path.abspath(__file__), "--torch-times"], env=env,
                                           capture_output=True, text=True, check=True).stdout)
            for (name, _, args), a in zip(SETTINGS, tt["ms"]):
                sl = json.loads(subprocess.run(["bin/samplab", "bench", "--framework", "hf", "--logits", rows,
                                                "--cpu", kernel, "--n", "20", "--json"] + args,
                                               capture_output=True, text=True, check=True).stdout)
                b, bs = sl["pipeline_ms_per_call"], sl["pipeline_session_ms_per_call"]
                c = []
                for _ in range(20):
                    t0 = time.perf_counter()
                    subprocess.run(["bin/samplab", "pipeline", "--framework", "hf", "--logits", npy, "--cpu", kernel]
                                   + args, check=True, stdout=subprocess.DEVNULL)
                    c.append(time.perf_counter() - t0)
                c = statistics.median(c) * 1e3
                print("| %s | %s (torch: %s) | %.3f | %.3f | %.2f | %.3f | %.2f | %.2f | %.1f |" % (
                    name, kernel, tt["capability"], a, b, b / a, bs, bs / a, c, c / a))
    finally:
        os.unlink(npy)
        os.unlink(rows)
        os.rmdir(tmp)


if __name__ == "__main__":
    if "--torch-times" in sys.argv:
        torch_times()
    else:
        main()
