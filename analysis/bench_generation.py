#!/usr/bin/python3
"""bench_generation.py — whole generations, samplab beside torch in the same run.

1. replay per step: `samplab bench --framework hf` (the loop of `samplab replay`
   in process: the pipeline, torch.multinomial's race, the token accepted) against
   torch's own ops for one step of transformers' generate(do_sample=True): the
   processors re-expressed in torch ops on the growing input_ids (as
   analysis/golden/hf_golden.py does: repetition penalty gather/where/scatter,
   temperature, topk, sort/softmax/cumsum top-p), softmax, torch.multinomial(probs,
   1), torch.cat of the token. V = 32,000 and 49,152; T = 24 and 1,000 steps; hf
   settings T only, top-k + penalty, T + top-k + top-p (and the same on logits
   rounded to bfloat16, whose ties make top-p sort the whole row). samplab runs
   --torch 1.13 --cpu avx2, the line and kernel of the torch here, so both sides
   must draw the same tokens: the "same tokens" column checks it.
2. check at 10,000 x 32,000: the `samplab check` process (no power simulation),
   wall and CPU time, beside torch's processors + softmax over the same steps with
   the observed history (what any checker built on torch spends just to get the
   distributions; timed over the first 1,000 steps, times 10).

Times are CPU time of the calling thread (time.thread_time and samplab's
CLOCK_THREAD_CPUTIME_ID; torch with one thread), the best of several runs: other
jobs on the machine inflate wall time. Ratio = samplab / torch (below 1: faster).
The logits are random (float32 normal x 2, seed 20261201), written as .npy in a
temporary directory. Usage: /usr/bin/python3 analysis/bench_generation.py [--quick]
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

os.environ["ATEN_CPU_CAPABILITY"] = "avx2"
import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
BIN = os.environ.get("SL_BIN", "bin/samplab")
QUICK = "--quick" in sys.argv
NEG = -float("inf")
PROMPT = [1, 17, 300, 42, 7, 99, 5, 250]
SEED = 1234

# name, torch settings, samplab options
SETTINGS = [
    ("T 0.7", dict(T=0.7), ["--temperature", "0.7"]),
    ("top-k 50 + penalty 1.3", dict(k=50, pen=1.3), ["--top-k", "50", "--repetition-penalty", "1.3"]),
    ("T 0.7 + top-k 40 + top-p 0.9", dict(T=0.7, k=40, p=0.9),
     ["--temperature", "0.7", "--top-k", "40", "--top-p", "0.9"]),
]


def processors(scores, input_ids, T=None, k=None, p=None, pen=None):
    """transformers' RepetitionPenalty, Temperature, TopK, TopP in generate()'s order."""
    s = scores.unsqueeze(0)
    if pen is not None:
        sc = torch.gather(s, 1, input_ids)
        sc = torch.where(sc < 0, sc * pen, sc / pen)
        s = s.scatter(1, input_ids, sc)
    if T is not None:
        s = s / T
    if k is not None:
        rm = s < torch.topk(s, min(k, s.size(-1)))[0][..., -1, None]
        s = s.masked_fill(rm, NEG)
    if p is not None:
        sl, si = torch.sort(s, descending=False)
        cp = sl.softmax(dim=-1).cumsum(dim=-1)
        srm = cp <= (1 - p)
        srm[..., -1:] = 0
        rm = srm.scatter(1, si, srm)
        s = s.masked_fill(rm, NEG)
    return s


def torch_generate(logits, kw):
    """generate()'s sampling loop on given logits: (tokens, seconds per step)."""
    torch.manual_seed(SEED)
    ids = torch.tensor([PROMPT], dtype=torch.long)
    toks = []
    t0 = time.thread_time()
    for t in range(logits.shape[0]):
        s = processors(logits[t], ids, **kw)
        probs = torch.softmax(s, dim=-1)
        nxt = torch.multinomial(probs[0], num_samples=1)
        ids = torch.cat([ids, nxt[None, :]], dim=-1)
        toks.append(int(nxt))
    return toks, (time.thread_time() - t0) / logits.shape[0]


def torch_distributions(logits, tokens, kw, steps):
    """the processors + softmax of each step given the observed history: seconds per step."""
    ids = torch.tensor([PROMPT], dtype=torch.long)
    t0 = time.thread_time()
    for t in range(steps):
        s = processors(torch.from_numpy(np.array(logits[t])), ids, **kw)
        torch.softmax(s, dim=-1)
        ids = torch.cat([ids, torch.tensor([[tokens[t]]])], dim=-1)
    return (time.thread_time() - t0) / steps


def samplab_bench(npy, opts, reps):
    out = subprocess.run([BIN, "bench", "--framework", "hf", "--logits", npy, "--seed", str(SEED), "--context",
                          ",".join(map(str, PROMPT)), "--torch", "1.13", "--cpu", "avx2", "--n", str(reps),
                          "--json"] + opts, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def write_logits(path, T, V, seed, bf16=False):
    rng = np.random.default_rng(seed)
    a = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(T, V))
    for t0 in range(0, T, 500):
        x = (rng.standard_normal((min(500, T - t0), V), dtype=np.float32) * 2.0)
        if bf16:  # bfloat16 keeps the top 16 bits: many ties, as a bf16 model's logits have
            x = (x.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
        a[t0:t0 + x.shape[0]] = x
    a.flush()
    del a


def main():
    tmp = tempfile.mkdtemp(prefix="samplab-bench-")
    try:
        run(tmp)
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


def run(tmp):
    print("## Whole generations: samplab replay in process vs torch's own ops (transformers' processors, "
          "softmax, torch.multinomial), torch %s, one thread" % torch.__version__)
    print("CPU time of the calling thread, best of the runs; samplab --torch 1.13 --cpu avx2 (this torch's line "
          "and kernel), both from torch.manual_seed(%d), prompt of %d ids." % (SEED, len(PROMPT)))
    print()
    print("| V | steps | settings | torch ops, ms/step | samplab replay, ms/step | ratio | same tokens |")
    print("|---:|---:|---|---:|---:|---:|---|")
    for V in (32000, 49152):
        for T in ((24,) if QUICK else (24, 1000)):
            for bf16 in (False, True):
                if bf16 and T != 24:
                    continue
                npy = os.path.join(tmp, "logits_%d_%d%s.npy" % (V, T, "_bf16" if bf16 else ""))
                write_logits(npy, T, V, 20261201 + V + T, bf16)
                logits = torch.from_numpy(np.load(npy))
                for name, kw, opts in SETTINGS:
                    if bf16 and "top-p" not in name:
                        continue
                    reps = 5 if T <= 24 else 2
                    best, toks = 1e30, None
                    for _ in range(reps):
                        toks, dt = torch_generate(logits, kw)
                        best = min(best, dt)
                    sl = samplab_bench(npy, opts, reps)
                    ms_t, ms_s = best * 1e3, sl["replay_ms_per_step"]
                    label = name + (" (bf16-rounded logits)" if bf16 else "")
                    print("| %d | %d | %s | %.3f | %.3f | %.2f | %s |" % (
                        V, T, label, ms_t, ms_s, ms_s / ms_t, "yes" if sl["tokens"] == toks else "NO"))
                os.unlink(npy)
    print()

    # check at 10,000 x 32,000
    T, V = (2000, 32000) if QUICK else (10000, 32000)
    npy = os.path.join(tmp, "log.npy")
    write_logits(npy, T, V, 7)
    logits = np.load(npy, mmap_mode="r")
    print("## samplab check on a %d-step log at V = %d (--trials 0: the power simulation aside), "
          "beside torch's processors + softmax over the same steps" % (T, V))
    print("torch: the first 1,000 steps, times %d; samplab: the whole check process (reading the .npy, every "
          "step's distribution, the statistics), wall and CPU (user + sys)." % (T // 1000))
    print()
    print("| settings | torch processors + softmax, s | samplab check, wall s | samplab check, CPU s | ratio "
          "(CPU) | under 1 s |")
    print("|---|---:|---:|---:|---:|---|")
    for name, kw, opts in SETTINGS:
        ctx = ["--context", ",".join(map(str, PROMPT))]
        toks = subprocess.run([BIN, "replay", "--framework", "hf", "--logits", npy, "--seed", str(SEED)] + ctx +
                              opts, capture_output=True, text=True, check=True).stdout
        tf = os.path.join(tmp, "tokens.txt")
        with open(tf, "w") as f:
            f.write(toks)
        tokens = [int(x) for x in toks.split()]
        tt = torch_distributions(logits, tokens, kw, 1000) * T
        best_w, best_c = 1e30, 1e30
        for _ in range(3):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            w0 = time.perf_counter()
            rc = subprocess.run([BIN, "check", "--framework", "hf", "--logits", npy, "--tokens", tf, "--trials", "0"]
                                + ctx + opts, stdout=subprocess.DEVNULL).returncode
            w = time.perf_counter() - w0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if rc not in (0, 1):
                raise SystemExit("bench: samplab check failed (%d)" % rc)
            c = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            best_w, best_c = min(best_w, w), min(best_c, c)
        print("| %s | %.2f | %.2f | %.2f | %.3f | %s |" % (name, tt, best_w, best_c, best_c / tt,
                                                        "yes" if best_w < 1 else "no (wall)"))
    os.unlink(npy)


if __name__ == "__main__":
    main()
