#!/usr/bin/python3
"""hf_pipeline.py — the `hf` cases of analysis/golden/hf_golden.py through the REAL
transformers logits processors (not re-expressed in torch ops).

Each case builds a transformers.LogitsProcessorList in the order generate()
builds it (transformers 5.x generation/utils.py _get_logits_processor:
RepetitionPenaltyLogitsProcessor, then the sampling warpers
TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper, MinPLogitsWarper,
TypicalLogitsWarper), with the inactive ones left out by the same rules
(temperature != 1, top_k != 0, top_p < 1, min_p set, typical_p < 1,
repetition_penalty != 1; defaults=1 means generate()'s default top_k = 50).
That order is checked here against the list _get_logits_processor itself
returns for a GenerationConfig with the same settings, on a small model built
from a LlamaConfig. The processors get scores as a [1, V] float32 tensor and
input_ids = [ctx] (only the repetition penalty reads them); the draw lines are
what generate()'s _sample does next: probs = softmax(scores, -1),
torch.multinomial(probs, num_samples=1), 20 times after torch.manual_seed(S).

The CPU kernel is whatever ATEN_CPU_CAPABILITY asks for (run.sh writes one
file with avx2 and one with avx512); the header names it. One thread.
Format: that of data/golden/hf_pipeline.txt (tests/test_logits_hf_golden.c), hf
cases only (vLLM is not installed), plus its sum / exp lines from torch itself.

Usage: hf_pipeline.py OUTFILE
"""
import math
import os
import sys
import warnings

import torch
import transformers
from transformers import (GenerationConfig, LlamaConfig, LlamaForCausalLM, LogitsProcessorList,
                          MinPLogitsWarper, RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper,
                          TopKLogitsWarper, TopPLogitsWarper, TypicalLogitsWarper)

NEG = -float("inf")

DRAWN = {"weather_T0.7_k3", "k40p09", "p09", "t07_default", "rand0_all", "rand1_typ", "ties0_p",
         "rand2_all", "rand3_p", "one_minus_p_0.16"}


def k40p09_logits():
    """The 1000-token vector of hf_golden.py (same construction)."""
    q = [0.16, 0.13, 0.11, 0.095, 0.08, 0.065, 0.055, 0.045, 0.035, 0.016, 0.014, 0.012, 0.011, 0.01]
    q += [0.0045 - 0.0001 * i for i in range(17)]
    rest40 = 0.9208 - sum(q)
    q += [rest40 / 9 * (1 + 0.01 * (4 - i)) for i in range(9)]
    tail = 1.0 - sum(q)
    n_tail = 1000 - len(q)
    w = [1.0 / (i + 10) for i in range(n_tail)]
    sw = sum(w)
    q += [tail * x / sw for x in w]
    return [0.7 * math.log(x) for x in q]


def hf_cases():
    """The hf cases of hf_golden.py, in its order, with its torch.Generator draws."""
    cases = []

    def add(name, logits, **kw):
        cases.append((name, torch.tensor(logits, dtype=torch.float32), kw))
    add("tie_k2", [3, 2, 2, 1], k=2)
    add("top_p_boundary", [math.log(0.5), math.log(0.3), math.log(0.2)], p=0.8)
    add("llc_top_p_0.7", [math.log(x) for x in (0.1, 0.2, 0.3, 0.4)], p=0.7)
    add("one_minus_p_0.16", [math.log(0.14)] * 6 + [math.log(0.16)], p=0.16)
    add("weather_T0.7_k3", [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2], T=0.7, k=3)
    kp = k40p09_logits()
    add("k40p09", kp, T=0.7, k=40, p=0.9)
    add("p09", kp, T=0.7, k=0, p=0.9)
    add("t07_default", kp, T=0.7, defaults=True)
    g = torch.Generator().manual_seed(20261129)
    for i in range(3):
        lg = torch.randint(0, 5, (50,), generator=g).float().tolist()
        add("ties%d_p" % i, lg, p=0.7, min_keep=3)
        add("ties%d_minp" % i, lg, T=0.5, minp=0.6, min_keep=7)
        add("ties%d_typ" % i, lg, typ=0.4, min_keep=4)
        add("ties%d_k" % i, lg, k=7)
    for i in range(6):
        lg = (torch.randn(400, generator=g) * 2.5).tolist()
        ctx = torch.randint(0, 400, (40,), generator=g).tolist()
        add("rand%d_all" % i, lg, T=0.8, k=60, p=0.9, minp=0.02, pen=1.3, ctx=ctx)
        add("rand%d_typ" % i, lg, T=1.2, typ=0.6, min_keep=2)
        add("rand%d_p" % i, lg, T=0.6, p=0.95)
    return cases


def processors(T=None, k=None, p=None, minp=None, typ=None, pen=None, ctx=None, min_keep=1, defaults=False):
    """The LogitsProcessorList generate() would build (min_tokens_to_keep as given)."""
    if k is None and defaults:
        k = 50
    procs = LogitsProcessorList()
    if pen is not None and pen != 1.0:
        procs.append(RepetitionPenaltyLogitsProcessor(penalty=float(pen)))
    if T is not None and T != 1.0:
        procs.append(TemperatureLogitsWarper(T))
    if k is not None and k != 0:
        procs.append(TopKLogitsWarper(top_k=k, min_tokens_to_keep=min_keep))
    if p is not None and p < 1.0:
        procs.append(TopPLogitsWarper(top_p=p, min_tokens_to_keep=min_keep))
    if minp is not None:
        procs.append(MinPLogitsWarper(min_p=minp, min_tokens_to_keep=min_keep))
    if typ is not None and typ < 1.0:
        procs.append(TypicalLogitsWarper(mass=typ, min_tokens_to_keep=min_keep))
    return procs


def check_order(model, kw):
    """The classes and their order must be what _get_logits_processor returns."""
    k = kw.get("k")
    if k is None and kw.get("defaults"):
        k = 50
    gc = GenerationConfig(do_sample=True, temperature=kw.get("T") or 1.0, top_k=k if k is not None else 0,
                          top_p=kw.get("p") if kw.get("p") is not None else 1.0, min_p=kw.get("minp"),
                          typical_p=kw.get("typ") if kw.get("typ") is not None else 1.0,
                          repetition_penalty=float(kw.get("pen") or 1.0))
    with warnings.catch_warnings():
        # it warns that a penalty without input_ids skips the prompt: not our case
        warnings.simplefilter("ignore")
        real = [type(x).__name__ for x in model._get_logits_processor(gc, device="cpu")]
    mine = [type(x).__name__ for x in processors(**kw)]
    assert real == mine, (kw, real, mine)


def fmt(x):
    return "%.9g" % x


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import libinfo
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                         num_attention_heads=2, num_key_value_heads=2)).eval()
    with open(sys.argv[1], "w") as f:
        f.write("# transformers %s logits processors (the real classes, generate()'s order), torch %s, one thread; "
                "analysis/golden/current/hf_pipeline.py\n" % (transformers.__version__, torch.__version__))
        f.write("".join(s + "\n" for s in libinfo.lines()))
        for name, lg, kw in hf_cases():
            check_order(model, kw)
            ids = torch.tensor([kw["ctx"] if kw.get("ctx") is not None else [0]], dtype=torch.long)
            with torch.no_grad():
                s = processors(**kw)(ids, lg.clone().unsqueeze(0))
                pr = torch.nn.functional.softmax(s, dim=-1)
            parts = ["case", "hf", name, "V=%d" % lg.numel()]
            for key in ("T", "k", "p", "minp", "typ", "pen", "min_keep", "defaults"):
                if key in kw and kw[key] is not None:
                    v = kw[key]
                    parts.append("%s=%s" % (key, int(v) if isinstance(v, bool) else repr(v)))
            if kw.get("ctx") is not None:
                parts.append("ctx=" + ",".join(str(c) for c in kw["ctx"]))
            f.write(" ".join(parts) + "\n")
            f.write("logits " + " ".join(fmt(x) for x in lg.tolist()) + "\n")
            kept = [i for i, x in enumerate(s[0].tolist()) if x != NEG]
            f.write("kept " + " ".join(str(i) for i in kept) + "\n")
            f.write("probs " + " ".join(fmt(x) for x in pr[0].tolist()) + "\n")
            if name in DRAWN:
                for seed in (0, 1, 42, 20261129):
                    torch.manual_seed(seed)
                    toks = [torch.multinomial(pr, num_samples=1).squeeze(1).item() for _ in range(20)]
                    f.write("draw %d %s\n" % (seed, " ".join(str(t) for t in toks)))
        # torch's own float32 kernels, as in hf_golden.py: sum / nansum of
        # x[i] = float32(3 sin(0.7 i + 0.1)), and exp over a spread of arguments
        for n in list(range(1, 20)) + [31, 32, 33, 100, 257, 1000, 4099, 8193, 20000, 49152, 100003]:
            x = torch.tensor([3.0 * math.sin(0.7 * i + 0.1) for i in range(n)], dtype=torch.float32)
            y = x.clone()
            y[::5] = float("nan")
            f.write("sum %d %s %s\n" % (n, float(x.unsqueeze(0).sum(-1)).hex(),
                                        float(y.unsqueeze(0).nansum(-1)).hex()))
        e = torch.tensor([-110.0 + 0.0737 * i for i in range(3000)], dtype=torch.float32)
        f.write("exp " + " ".join(float(v).hex() for v in torch.exp(e).tolist()) + "\n")


if __name__ == "__main__":
    main()
