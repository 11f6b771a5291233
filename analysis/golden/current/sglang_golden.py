"""SGLang's deterministic sampling (--enable-deterministic-inference, per-request
sampling_seed), run from SGLang's own source files in this torch.

Usage: python3 sglang_golden.py OUT.txt LINE=SRC [LINE=SRC ...]

LINE names the release line samplab follows with that source (0.5.23, 0.5.12) and
SRC is a checkout of github.com/sgl-project/sglang at that line, fetched outside
this repository and never committed, e.g.
    git clone --depth 1 --branch v0.5.23 https://github.com/sgl-project/sglang SRC
(or the two files below alone, at the same paths). From SRC this script reads
    python/sglang/srt/layers/sampler.py          top_k_top_p_min_p_sampling_from_probs_torch,
                                                 multinomial_with_seed, sampling_from_probs_torch
    python/sglang/kernels/ops/sampling/murmur_hash.py   _rotl32_torch, _fmix32_torch,
                                                 _murmur3_mix_torch, _murmur_hash32_torch, murmur_hash32
and executes exactly those functions (their other imports, Triton and the engine's
modules, are not loaded: the functions are taken out of each file's syntax tree and
run with torch, typing.Optional, murmur_hash32 and is_npu() = False as their only
names). murmur_hash32 takes its CPU branch, _murmur_hash32_torch, which SGLang
documents as matching the Triton kernel bit for bit; the kernel is not run (no
Triton, no GPU here). multinomial_with_seed is run eagerly: its
@torch.compile(dynamic=True) is dropped, because inductor's C++ build fails in this
chroot; eager is what torch.compile(disable=True) runs.

What the Sampler around them does is re-expressed here, as read in sampler.py and
sampling_batch_info.py (the same in both lines): logits.div_(temperatures) in
float32, softmax, then the simple path (no row of the batch with top-k, top-p or
min-p: sampling_from_probs_torch, columns are vocabulary ids) or the pytorch
backend's sort path (columns are ranks of the descending sort);
SamplingParams: temperature < 1e-6 becomes temperature 1, top_k 1; top_k -1 is
TOP_K_ALL = 2^30; a batch whose rows all have top_k <= 1 is greedy (argmax of the
logits, no hash). sampling_seed None is 42. The position is the one
ModelRunner.sample passes: forward_batch.seq_lens - 1 (prefill) or
forward_batch.positions (decode), i.e. the index of the last token of the
sequence: prompt length - 1 for the first generated token, + 1 per token.

A kind ending in '*' repeats the same logits at every step (the batch records, whose
rows share position and settings, each with its own seed, as one
`samplab draw --logits [B, V] --n T --seeds S1,S2,...`).
Logits come from a small integer generator that samplab's test rebuilds
(tests/test_sglang_golden.c); each record carries the FNV-1a of its float32 bytes.
"""
import ast
import os
import sys
import time
from typing import Optional

import torch

M64 = (1 << 64) - 1
TOP_K_ALL = 1 << 30


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def make_logits(kind, gseed, V):
    """float32 logits of generator `kind`, as tests/test_sglang_golden.c builds them."""
    import numpy as np

    i = np.arange(V, dtype=np.uint64)
    with np.errstate(over="ignore"):
        x = (np.uint64(gseed) * np.uint64(0x100000001B3) + i + np.uint64(0x9E3779B97F4A7C15))
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = z ^ (z >> np.uint64(31))
    u = (h >> np.uint64(40)).astype(np.float64) * 2.0**-24  # 24 bits, exact
    if kind == "rand":
        x = u * 20.0 - 10.0
    elif kind == "peaked":
        x = u * 4.0 - 2.0
        x[int(gseed % V)] = 12.0
    elif kind == "ties":
        x = (h % np.uint64(4)).astype(np.float64)
    elif kind == "flat":
        x = np.zeros(V)
    elif kind == "neginf":
        x = u * 16.0 - 8.0
        x[(h >> np.uint64(8)) % np.uint64(3) == 0] = -np.inf
        x[int(gseed % V)] = 1.0
    else:
        raise ValueError(kind)
    return torch.from_numpy(x.astype(np.float32))


def fnv(t):
    h = 0xCBF29CE484222325
    for b in t.numpy().tobytes():
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def load_functions(path, names, ns):
    src = open(path).read()
    tree = ast.parse(src)
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.Assign)) and (
            getattr(node, "name", None) in names
            or (isinstance(node, ast.Assign) and any(getattr(t, "id", None) in names for t in node.targets))
        ):
            if isinstance(node, ast.FunctionDef):
                node.decorator_list = [d for d in node.decorator_list if "compile" not in ast.unparse(d)]
                found.append(node.name)
            else:
                found.extend(t.id for t in node.targets)
            mod = ast.Module(body=[node], type_ignores=[])
            exec(compile(mod, path, "exec"), ns)
    missing = set(names) - set(found)
    if missing:
        raise SystemExit(f"{path}: no {sorted(missing)}")


def sglang_functions(src):
    ns = {"torch": torch, "Optional": Optional, "is_npu": lambda: False}
    mh = os.path.join(src, "python/sglang/kernels/ops/sampling/murmur_hash.py")
    load_functions(mh, ["_UINT32_MASK", "_rotl32_torch", "_fmix32_torch", "_murmur3_mix_torch",
                        "_murmur_hash32_torch", "murmur_hash32"], ns)
    sp = os.path.join(src, "python/sglang/srt/layers/sampler.py")
    load_functions(sp, ["top_k_top_p_min_p_sampling_from_probs_torch", "multinomial_with_seed",
                        "sampling_from_probs_torch"], ns)
    return ns


def sample_batch(fn, logits, rows):
    """One step of Sampler.forward (pytorch backend, deterministic) over logits [B, V]."""
    B = logits.shape[0]
    temps, ks, ps = [], [], []
    for r in rows:
        t, k, p = r["temperature"], r["top_k"], r["top_p"]
        if 0 <= t < 1e-6:  # SamplingParams.__post_init__
            t, k = 1.0, 1
        if k == -1:
            k = TOP_K_ALL
        temps.append(t), ks.append(k), ps.append(p)
    seeds = torch.tensor([r["seed"] if r["seed"] is not None else 42 for r in rows], dtype=torch.int64)
    positions = torch.tensor([r["position"] for r in rows], dtype=torch.int64)
    top_ks = torch.tensor(ks, dtype=torch.int32)
    top_ps = torch.tensor(ps, dtype=torch.float)
    min_ps = torch.zeros(B, dtype=torch.float)
    if all(k <= 1 for k in ks):  # is_all_greedy
        return torch.argmax(logits, -1).tolist(), "greedy"
    need = any(k != TOP_K_ALL for k in ks) or any(p != 1.0 for p in ps)
    x = logits.clone()
    x.div_(torch.tensor(temps, dtype=torch.float).view(-1, 1))
    x[:] = torch.softmax(x, dim=-1)
    if not need:
        return fn["sampling_from_probs_torch"](x, sampling_seed=seeds, positions=positions).tolist(), "vocab"
    out = fn["top_k_top_p_min_p_sampling_from_probs_torch"](x, top_ks, top_ps, min_ps, False, seeds, positions)
    return out.tolist(), "rank"


def hash_checks(fn, out):
    """SGLang's own test vectors of murmur_hash32 (test_murmur_hash32_cpu_known_values) and
    the UINT32_MAX triple of issue #25106, through the CPU path."""
    seed = torch.tensor([0, 1, 42, 0x123456789ABCDEF0], dtype=torch.uint64)
    pos = torch.tensor([0, 7, 123, 456], dtype=torch.int64)
    col = torch.tensor([0, 1, 2, 17], dtype=torch.int64)
    h = fn["murmur_hash32"](seed, pos, col)
    for i in range(4):
        for j in range(4):
            out.write(f"hash\t{int(seed[i])}\t{int(pos[i])}\t{int(col[j])}\t{int(h[i, j])}\n")
    gen = 12345
    for _ in range(60):
        gen = splitmix64(gen)
        s, p, c = gen, splitmix64(gen) & 0xFFFFFFFFFFF, splitmix64(gen ^ 1) % 151936
        sv = s - (1 << 64) if s >= 1 << 63 else s
        h = fn["murmur_hash32"](torch.tensor([sv], dtype=torch.int64), torch.tensor([p]), torch.tensor([c]))
        out.write(f"hash\t{s}\t{p}\t{c}\t{int(h[0, 0])}\n")
    h = fn["murmur_hash32"](torch.tensor([7847]), torch.tensor([12345]), torch.tensor([1208]))
    out.write(f"hash\t7847\t12345\t1208\t{int(h[0, 0])}\n")


def cases():
    """(kind, V, B, steps, rows) with rows of seed/position/temperature/top_k/top_p."""
    gen = [20260802]

    def rnd(n):
        gen[0] = splitmix64(gen[0])
        return gen[0] % n

    seeds = [None, 0, 1, 7, 42, 43, 1234, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1, -1, -42, -(2**63)]
    temps = [1.0, 0.7, 1.3, 0.5, 2.0, 0.0, 1e-7]
    tks = [-1, -1, 1, 2, 5, 40, 50]
    tps = [1.0, 1.0, 0.9, 0.5, 0.95, 0.1]
    Vs = [2, 3, 5, 8, 17, 100, 1000, 1024, 1025, 4096, 32000, 50257, 151936]
    kinds = ["rand", "peaked", "ties", "flat", "neginf"]
    out = []
    for n in range(260):
        V = Vs[n % len(Vs)]
        kind = kinds[(n // len(Vs)) % len(kinds)]
        if V >= 32000 and n % 3:
            B = 1 + rnd(2)
        else:
            B = 1 + rnd(8)
        steps = 1 if V >= 32000 else 1 + rnd(4)
        mode = n % 4  # 0: all plain; 1: all filter alike; 2: mixed rows; 3: random per row
        rows = []
        base = {"temperature": temps[rnd(len(temps))], "top_k": tks[rnd(len(tks))], "top_p": tps[rnd(len(tps))]}
        if mode == 0:
            base["top_k"], base["top_p"] = -1, 1.0
        for b in range(B):
            r = dict(base)
            if mode == 2 and b % 2:
                r["top_k"], r["top_p"] = -1, 1.0
            if mode == 3:
                r = {"temperature": temps[rnd(len(temps))], "top_k": tks[rnd(len(tks))], "top_p": tps[rnd(len(tps))]}
            if r["temperature"] < 1e-6 and mode != 3 and n % 5:
                r["temperature"] = 0.8
            r["seed"] = seeds[rnd(len(seeds))]
            r["position"] = [0, 1, 5, 17, 100, 4095, 2**32 - 2, 2**32 + 3][rnd(8)] if n % 7 else rnd(40)
            rows.append(r)
        out.append((kind, V, B, steps, rows))
    # batches as `samplab draw --logits [B, V] --n T --seeds S1,...` gives them: every row the
    # same position and settings, each its own seed (or none), the same logits at every
    # step (kind ending in '*')
    for n in range(48):
        V = [2, 7, 64, 1000, 32000, 151936][n % 6]
        B = 1 + rnd(8) if V < 32000 else 1 + rnd(3)
        steps = 1 + rnd(4) if V < 32000 else 1
        r = {"temperature": temps[rnd(len(temps))], "top_k": tks[rnd(len(tks))], "top_p": tps[rnd(len(tps))],
             "seed": seeds[rnd(len(seeds))], "position": [0, 3, 99, 2**32 - 1][rnd(4)]}
        if n % 3 == 0:
            r["top_k"], r["top_p"] = -1, 1.0
        rows = [dict(r) for _ in range(B)]
        for row in rows[1:]:
            row["seed"] = seeds[rnd(len(seeds))]
        out.append((kinds[n % len(kinds)] + "*", V, B, steps, rows))
    # the UINT32_MAX bucket of issue #25106: seed 7847, position 12345, token 1208 of a
    # vocabulary where 1208 is masked (top-k 1) or plain: the two lines differ here
    for tk, kind in ((-1, "rand"), (1, "rand"), (2, "peaked"), (-1, "neginf")):
        out.append((kind, 1500, 1, 1, [{"temperature": 1.0, "top_k": tk, "top_p": 1.0, "seed": 7847,
                                         "position": 12345}]))
    return out


def main():
    path, specs = sys.argv[1], sys.argv[2:]
    torch.set_num_threads(1)
    lines = [(s.split("=", 1)[0], sglang_functions(s.split("=", 1)[1])) for s in specs]
    with open(path, "w") as out:
        out.write("# SGLang deterministic sampling, its own functions (analysis/golden/current/sglang_golden.py)\n")
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import hashlib
        import libinfo

        for l in libinfo.lines():
            out.write(l + "\n")
        out.write(f"# torch {torch.__version__}, CPU kernel {torch.backends.cpu.get_cpu_capability()}, eager, 1 thread\n")
        for name, spec in zip([l[0] for l in lines], specs):
            src = spec.split("=", 1)[1]
            for f in ("python/sglang/srt/layers/sampler.py", "python/sglang/kernels/ops/sampling/murmur_hash.py"):
                digest = hashlib.sha256(open(os.path.join(src, f), "rb").read()).hexdigest()
                out.write(f"# line {name}: {f} sha256 {digest}\n")
        out.write("# hash\tseed\tposition\tcolumn\tmurmur_hash32\n")
        out.write("# case\tline\tkind\tV\tB\tsteps\tgseed\tfnv(step 0, row 0)\tpath per step\t"
                  "rows: seed/position/temperature/top_k/top_p separated by '/', rows by ';'\t"
                  "tokens: rows by ';', steps by ','\n")
        hash_checks(lines[0][1], out)
        t0 = time.time()
        for c, (kind, V, B, steps, rows) in enumerate(cases()):
            for name, fn in lines:
                gseed = c * 1000
                toks = [[] for _ in range(B)]
                paths = []
                for t in range(steps):
                    same = kind.endswith("*")
                    logits = torch.stack([make_logits(kind.rstrip("*"), gseed + (0 if same else t * 16) + b, V)
                                          for b in range(B)])
                    step_rows = [dict(r, position=r["position"] + t) for r in rows]
                    got, p = sample_batch(fn, logits, step_rows)
                    paths.append(p)
                    for b in range(B):
                        toks[b].append(got[b])
                f0 = fnv(make_logits(kind.rstrip("*"), gseed, V))
                rs = ";".join("/".join(str(x) for x in ("none" if r["seed"] is None else r["seed"], r["position"],
                                                        repr(r["temperature"]), r["top_k"], repr(r["top_p"])))
                              for r in rows)
                ts = ";".join(",".join(str(x) for x in tb) for tb in toks)
                out.write(f"{c}\t{name}\t{kind}\t{V}\t{B}\t{steps}\t{gseed}\t{f0:016x}\t{','.join(paths)}\t{rs}\t{ts}\n")
        print(f"sglang_golden: {c + 1} cases x {len(lines)} lines in {time.time() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
