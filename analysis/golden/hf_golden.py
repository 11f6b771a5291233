#!/usr/bin/python3
"""hf_golden.py — golden outputs for samplab's `hf` and `vllm` pipelines.

transformers and vLLM are not installed on this machine; torch (Debian's
python3-torch) is. So this script re-expresses, operation by operation in
torch ops, what transformers' warpers (src/transformers/generation/
logits_process.py: RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper,
TopKLogitsWarper, TopPLogitsWarper, MinPLogitsWarper, TypicalLogitsWarper, in
generate()'s order) and vLLM's sampler (vllm/v1/sample: apply_penalties,
temperature, MinPLogitsProcessor, apply_top_k_top_p_pytorch) do to a float32
tensor. What it checks is therefore torch's float32 arithmetic (softmax, sort,
cumsum, comparisons with Python scalars) under those exact operations, not the
libraries' wiring. Output: one case per block, read by
tests/test_logits_hf_golden.c. Deterministic: fixed seeds, CPU, one thread.

Usage: /usr/bin/python3 analysis/golden/hf_golden.py OUTFILE
"""
import math
import os
import sys

# torch picks its vectorised kernels by CPU: fix the AVX2 ones (the default
# on AVX2 and, in torch 1.13, on AVX-512 machines) so the softmax sums, and
# so this file, are the same wherever it is regenerated.
os.environ["ATEN_CPU_CAPABILITY"] = "avx2"
import torch  # noqa: E402

torch.set_num_threads(1)
NEG = -float("inf")


def hf(scores, T=None, k=None, p=None, minp=None, typ=None, pen=None, ctx=None, min_keep=1, defaults=False):
    s = scores.clone().unsqueeze(0)
    if pen is not None and pen != 1.0:
        ids = torch.tensor([ctx], dtype=torch.long)
        sc = torch.gather(s, 1, ids)
        sc = torch.where(sc < 0, sc * pen, sc / pen)
        s = s.scatter(1, ids, sc)
    if T is not None and T != 1.0:
        s = s / T
    if k is None and defaults:
        k = 50
    if k is not None and k != 0:
        kk = min(max(k, min_keep), s.size(-1))
        rm = s < torch.topk(s, kk)[0][..., -1, None]
        s = s.masked_fill(rm, NEG)
    if p is not None and p < 1.0:
        sl, si = torch.sort(s, descending=False)
        cp = sl.softmax(dim=-1).cumsum(dim=-1)
        srm = cp <= (1 - p)
        srm[..., -min_keep:] = 0
        rm = srm.scatter(1, si, srm)
        s = s.masked_fill(rm, NEG)
    if minp is not None:
        probs = torch.softmax(s, dim=-1)
        top = probs.amax(dim=-1, keepdim=True)
        rm = probs < (minp * top)
        si = torch.argsort(s, descending=True, dim=-1)
        srm = torch.gather(rm, dim=-1, index=si)
        srm[..., :min_keep] = False
        rm = srm.scatter(1, si, srm)
        s = s.masked_fill(rm, NEG)
    if typ is not None and typ < 1.0:
        norm = torch.nn.functional.log_softmax(s, dim=-1)
        pp = torch.exp(norm)
        ent = -(norm * pp).nansum(-1, keepdim=True)
        shifted = torch.abs((-norm) - ent)
        ss, si = torch.sort(shifted, descending=False)
        sl = s.gather(-1, si)
        cp = sl.softmax(dim=-1).cumsum(dim=-1)
        last = (cp < typ).sum(dim=1)
        last.clamp_(max=ss.shape[-1] - 1)
        srm = ss > ss.gather(1, last.view(-1, 1))
        srm[..., :min_keep] = 0
        rm = srm.scatter(1, si, srm)
        s = s.masked_fill(rm, NEG)
    return s[0], torch.softmax(s, dim=-1)[0]


def vllm(scores, T=None, k=None, p=None, minp=None, pen=None, ctx=None):
    s = scores.clone().unsqueeze(0)
    if pen is not None and pen != 1.0:
        mask = torch.zeros_like(s, dtype=torch.bool)
        mask[0, torch.tensor(ctx, dtype=torch.long)] = True
        # _custom_ops.apply_repetition_penalties_torch
        rp = torch.tensor([pen], dtype=torch.float32).unsqueeze(dim=1).repeat(1, s.size(1))
        penalties = torch.where(mask, rp, 1.0)
        scaling = torch.where(s > 0, 1.0 / penalties, penalties)
        s *= scaling
    if T is not None and T != 1.0:
        s = s / torch.tensor([[T]], dtype=torch.float32)
    if minp is not None and minp > 0:
        probs = torch.softmax(s, dim=-1)
        top = probs.amax(dim=-1, keepdim=True)
        adj = torch.tensor([[minp]], dtype=torch.float32) * top
        s = s.masked_fill(probs < adj, NEG)
    if (k is not None and k > 0) or (p is not None and p < 1.0):
        ls, li = s.sort(dim=-1, descending=False)
        if k is not None and k > 0:
            thr = ls.gather(1, torch.tensor([[ls.size(1) - k]]))
            ls.masked_fill_(ls < thr, NEG)
        if p is not None and p < 1.0:
            ps = ls.softmax(dim=-1)
            psum = torch.cumsum(ps, dim=-1)
            m = psum <= 1 - torch.tensor([p], dtype=torch.float32).unsqueeze(1)
            m[:, -1] = False
            ls.masked_fill_(m, NEG)
        s = s.scatter(dim=-1, index=li, src=ls)
    return s[0], torch.softmax(s, dim=-1)[0]


def fmt(x):
    return "%.9g" % x


def k40p09_logits():
    """A 1000-token vector built like the 000 document's k40p09 step: at
    T = 0.7, top-p 0.9 alone keeps 31 tokens, the top 40 hold 0.9208 of the
    mass, and top-40-then-renormalised top-p 0.9 keeps 14."""
    q = [0.16, 0.13, 0.11, 0.095, 0.08, 0.065, 0.055, 0.045, 0.035, 0.016, 0.014, 0.012, 0.011, 0.01]
    q += [0.0045 - 0.0001 * i for i in range(17)]           # 15..31: the 31st reaches 0.9
    rest40 = 0.9208 - sum(q)
    q += [rest40 / 9 * (1 + 0.01 * (4 - i)) for i in range(9)]  # 32..40: top-40 mass 0.9208
    tail = 1.0 - sum(q)
    n_tail = 1000 - len(q)
    w = [1.0 / (i + 10) for i in range(n_tail)]
    sw = sum(w)
    q += [tail * x / sw for x in w]
    return [0.7 * math.log(x) for x in q]


DRAWN = {"weather_T0.7_k3", "k40p09", "p09", "t07_default", "rand0_all", "rand1_typ", "ties0_p",
         "rand2_all", "rand3_p", "ties1_pk", "one_minus_p_0.16"}


def main():
    out = sys.argv[1]
    cases = []
    def add(fw, name, logits, **kw):
        cases.append((fw, name, torch.tensor(logits, dtype=torch.float32), kw))
    add("hf", "tie_k2", [3, 2, 2, 1], k=2)
    add("vllm", "tie_k2", [3, 2, 2, 1], k=2)
    bnd = [math.log(0.5), math.log(0.3), math.log(0.2)]
    add("hf", "top_p_boundary", bnd, p=0.8)
    add("vllm", "top_p_boundary", bnd, p=0.8)
    add("hf", "llc_top_p_0.7", [math.log(x) for x in (0.1, 0.2, 0.3, 0.4)], p=0.7)
    add("vllm", "llc_top_p_0.7", [math.log(x) for x in (0.1, 0.2, 0.3, 0.4)], p=0.7)
    # 1 - p: transformers rounds the double 1 - 0.16 to float32 (0.83999997),
    # vLLM subtracts in float32 (0.84000003); this cumsum lands on 0.84000003
    one_minus_p = [math.log(0.14)] * 6 + [math.log(0.16)]
    add("hf", "one_minus_p_0.16", one_minus_p, p=0.16)
    add("vllm", "one_minus_p_0.16", one_minus_p, p=0.16)
    add("hf", "weather_T0.7_k3", [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2], T=0.7, k=3)
    kp = k40p09_logits()
    add("hf", "k40p09", kp, T=0.7, k=40, p=0.9)
    add("hf", "p09", kp, T=0.7, k=0, p=0.9)
    add("hf", "t07_default", kp, T=0.7, defaults=True)
    add("vllm", "k40p09", kp, T=0.7, k=40, p=0.9)
    g = torch.Generator().manual_seed(20261129)
    for i in range(3):  # tie-heavy: which of the tied tokens survives follows torch's sort order
        lg = torch.randint(0, 5, (50,), generator=g).float().tolist()
        add("hf", "ties%d_p" % i, lg, p=0.7, min_keep=3)
        add("hf", "ties%d_minp" % i, lg, T=0.5, minp=0.6, min_keep=7)
        add("hf", "ties%d_typ" % i, lg, typ=0.4, min_keep=4)
        add("hf", "ties%d_k" % i, lg, k=7)
        add("vllm", "ties%d_pk" % i, lg, k=7, p=0.5)
    for i in range(6):
        lg = (torch.randn(400, generator=g) * 2.5).tolist()
        ctx = torch.randint(0, 400, (40,), generator=g).tolist()
        add("hf", "rand%d_all" % i, lg, T=0.8, k=60, p=0.9, minp=0.02, pen=1.3, ctx=ctx)
        add("hf", "rand%d_typ" % i, lg, T=1.2, typ=0.6, min_keep=2)
        add("hf", "rand%d_p" % i, lg, T=0.6, p=0.95)
        add("vllm", "rand%d_all" % i, lg, T=0.8, k=60, p=0.9, minp=0.02, pen=1.3, ctx=ctx)
        add("vllm", "rand%d_p" % i, lg, T=0.6, p=0.95)
    with open(out, "w") as f:
        f.write("# transformers' warpers and vLLM's sampler re-expressed in torch %s ops, CPU capability AVX2 "
                "(transformers and vLLM are not installed); analysis/golden/hf_golden.py\n" % torch.__version__)
        for fw, name, lg, kw in cases:
            s, pr = (hf if fw == "hf" else vllm)(lg, **kw)
            parts = ["case", fw, name, "V=%d" % lg.numel()]
            for key in ("T", "k", "p", "minp", "typ", "pen", "min_keep", "defaults"):
                if key in kw and kw[key] is not None:
                    v = kw[key]
                    parts.append("%s=%s" % (key, int(v) if isinstance(v, bool) else repr(v)))
            if kw.get("ctx") is not None:
                parts.append("ctx=" + ",".join(str(c) for c in kw["ctx"]))
            f.write(" ".join(parts) + "\n")
            f.write("logits " + " ".join(fmt(x) for x in lg.tolist()) + "\n")
            kept = [i for i, x in enumerate(s.tolist()) if x != NEG]
            f.write("kept " + " ".join(str(i) for i in kept) + "\n")
            f.write("probs " + " ".join(fmt(x) for x in pr.tolist()) + "\n")
            if fw == "vllm" and name in DRAWN:
                # random_sample for a seeded request: q.exponential_(generator=g), argmax(probs / q)
                for seed in (0, 7, 42):
                    g = torch.Generator().manual_seed(seed)
                    toks = []
                    for _ in range(20):
                        p2 = pr.unsqueeze(0)
                        q = torch.empty_like(p2)
                        q.exponential_(generator=g)
                        toks.append(p2.div(q).argmax(dim=-1).item())
                    f.write("draw %d %s\n" % (seed, " ".join(str(t) for t in toks)))
            if fw == "hf" and name in DRAWN:
                # generate's _sample: probs = softmax(scores) ([1, V] float32),
                # next_tokens = torch.multinomial(probs, num_samples=1)
                for seed in (0, 1, 42, 20261129):
                    torch.manual_seed(seed)
                    toks = [torch.multinomial(pr.unsqueeze(0), num_samples=1).item() for _ in range(20)]
                    f.write("draw %d %s\n" % (seed, " ".join(str(t) for t in toks)))
        # the float32 kernels themselves, on vectors both sides compute as
        # x[i] = float32(3 sin(0.7 i + 0.1)): torch.sum / nansum (cascade
        # order) and torch.exp (SLEEF) over a spread of arguments
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
