#!/usr/bin/python3
"""hf_batch.py — batched sampled generations of transformers' generate(): several
prompts at once, left padded, num_return_sequences, rows finishing at EOS; with the
raw logits of every step for replaying samplab's `hf` batches row by row.

Models: small LlamaForCausalLM built from a LlamaConfig (no download), random weights
after torch.manual_seed(WEIGHT_SEED), eval mode (hf_generate.py's build()). For each run:
B prompts of different lengths, left padded to one length with the pad id (0 when the
run has neither pad nor EOS), attention_mask 0 on the padding; torch.manual_seed(SEED),
then
  model.generate(input_ids [B, L], attention_mask, do_sample=True, max_new_tokens=NEW,
                 num_return_sequences=N, eos_token_id=E, pad_token_id=P,
                 output_logits=True, return_dict_in_generate=True, **SETTINGS)
generate() repeats each prompt N times (repeat_interleave: R = B·N rows), draws one
torch.multinomial over the [R, V] probabilities per step, replaces the draws of
finished rows by the pad id (transformers' pad_token_id defaults to the EOS id), and
stops when every row has finished. The runs that finish at EOS take E from a first run
without EOS (a token row 0 drew at some step, or the most frequent token), so rows do finish.

Checked here for every run, from the real library alone:
  - the words of each step (torch.get_rng_state(), analysis/golden/torch_golden.py's
    WordMeter) are 2·V·R;
  - the stored logits through the run's own processors (_get_logits_processor's list)
    over the whole [R, L + t] input_ids, softmax, then R one-row torch.multinomial
    calls in row order on one generator after torch.manual_seed(SEED), give every
    row's tokens before the pad replacement; the words after each row's call are
    measured there (words[b][t]);
  - pad ids replace the draws of finished rows exactly as the output sequences show.

Manifest (OUTDIR/hf_batch.txt, one record a line, '#' comments):
  model NAME vocab=V ... (as hf_generate.txt)
  run ID model=NAME kernel=CAP seed=S settings=K1:V1,...|default chain=C1,...|none
      B=B N=N eos=E|none pad=P|none prompts=ROW;ROW;... tokens=ROW;ROW;...
      words=ROW;ROW;... logits=TENSOR steps=T
    prompts are the B input_ids rows as given to generate() (left padding included);
    tokens and words have R = B·N rows of T entries (tokens as generate() returns them:
    pad after a row's EOS; words: the generator's running total after that row's draw
    at that step); TENSOR is the [T, R, V] float32 raw logits (out.logits stacked) in
    OUTDIR/hf_batch.safetensors.

Usage: hf_batch.py OUTDIR   (CPU kernel as ATEN_CPU_CAPABILITY asks; one thread)
"""
import os
import sys
import warnings

import torch
import transformers
from safetensors.torch import save_file
from transformers import LogitsProcessorList

MODELS = [
    # name, vocab, hidden, layers, heads, kv_heads, intermediate, init_range, weight_seed
    ("llama128", 128, 32, 2, 4, 2, 64, 0.3, 99),
    ("llama512", 512, 32, 2, 4, 2, 64, 0.3, 1234),
]
PROMPT_POOL = [[1, 17, 30, 42, 7, 99, 5, 25], [1, 3, 9], [1, 44, 44, 12, 8], [1, 100], [1, 7, 7, 7, 60, 2],
               [1, 90, 13, 5, 26, 80, 31], [1, 64], [1, 11, 22, 33]]
SETTINGS = [
    ("default", {}),
    ("t07", {"temperature": 0.7}),
    ("k40p09", {"top_k": 40, "top_p": 0.9}),
    ("p095", {"top_p": 0.95, "top_k": 0}),
    ("minp01", {"min_p": 0.1, "top_k": 0}),
    ("rep13", {"repetition_penalty": 1.3, "top_k": 0}),
    ("rep15_t08_k20", {"repetition_penalty": 1.5, "temperature": 0.8, "top_k": 20}),
    ("t03", {"temperature": 0.3}),
]
# (B, N): R = B * N rows, 2 to 8
SHAPES = [(2, 1), (1, 3), (2, 2), (3, 1), (4, 2), (8, 1), (2, 3), (3, 2), (1, 2), (5, 1)]
# special tokens: none, EOS only (pad = EOS), EOS and its own pad
SPECIALS = ["none", "eos", "eos+pad"]
NEW = 12


def chain_of(model, kw, L):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gc, _ = model._prepare_generation_config(None, do_sample=True, max_new_tokens=NEW, **kw)
        return model._get_logits_processor(gc, input_ids_seq_length=L, device="cpu")


def padded(prompts, pad):
    L = max(len(p) for p in prompts)
    ids = [[pad] * (L - len(p)) + p for p in prompts]
    mask = [[0] * (L - len(p)) + [1] * len(p) for p in prompts]
    return torch.tensor(ids, dtype=torch.long), torch.tensor(mask, dtype=torch.long)


def generate(model, ids, mask, seed, N, eos, pad, kw, WordMeter):
    from hf_generate import WordProbe
    torch.manual_seed(seed)
    meter = WordMeter()
    probe = WordProbe(meter)
    extra = {}
    if eos is not None:
        extra["eos_token_id"] = eos
    if pad is not None:
        extra["pad_token_id"] = pad
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = model.generate(ids, attention_mask=mask, do_sample=True, max_new_tokens=NEW, num_return_sequences=N,
                             output_logits=True, return_dict_in_generate=True,
                             logits_processor=LogitsProcessorList([probe]), **extra, **kw)
    end = meter.words()
    L = ids.shape[1]
    toks = out.sequences[:, L:].tolist()
    logits = torch.stack([x.float() for x in out.logits], 0)  # [T, R, V]
    steps = probe.seen[1:] + [end]
    assert probe.seen[0] == 0, "the forward pass drew random words"
    return toks, logits, steps


def replay(model, ids, N, seed, eos, pad, kw, toks, logits, WordMeter):
    """Row by row, one generator: the real processors over the whole batch, then one
    one-row torch.multinomial per row in order. Returns words[r][t]."""
    procs = chain_of(model, kw, ids.shape[1])
    rows = ids.repeat_interleave(N, dim=0)
    R, T = rows.shape[0], logits.shape[0]
    fill = pad if pad is not None else eos
    torch.manual_seed(seed)
    meter = WordMeter()
    words = [[0] * T for _ in range(R)]
    done = [False] * R
    seq = rows.clone()
    for t in range(T):
        with torch.no_grad():
            s = procs(seq, logits[t].clone())
            p = torch.nn.functional.softmax(s, dim=-1)
        nxt = []
        for r in range(R):
            d = torch.multinomial(p[r:r + 1], num_samples=1).item()
            words[r][t] = meter.words()
            got = fill if done[r] else d
            assert got == toks[r][t], (kw, seed, t, r, d, got, toks[r][t])
            nxt.append(got)
            if eos is not None and got == eos:
                done[r] = True
        seq = torch.cat([seq, torch.tensor(nxt, dtype=torch.long)[:, None]], dim=1)
    if eos is not None:
        assert all(done) or T == NEW, "generate() stopped before every row finished"
    return words


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    sys.path.insert(0, os.path.dirname(here))
    import libinfo
    from hf_generate import build
    from torch_golden import WordMeter
    torch.set_num_threads(1)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    cap = torch.backends.cpu.get_cpu_capability()
    tensors = {}
    lines = []
    nrun = 0
    finished = 0
    for mi, spec in enumerate(MODELS):
        name, V = spec[0], spec[1]
        model = build(spec)
        lines.append("model %s vocab=%d hidden=%d layers=%d heads=%d kv_heads=%d intermediate=%d "
                     "init_range=%r weight_seed=%d" % spec)
        todo = []
        k = 0
        for si, (sname, kw) in enumerate(SETTINGS):
            for hi, (B, N) in enumerate(SHAPES):
                if mi == 1 and (si + hi) % 5:
                    continue  # the V = 512 model: one in five
                special = SPECIALS[(si + hi) % len(SPECIALS)]
                seeds = [k * 7919 % 100003, 42 + k] if mi == 0 else [k]
                for seed in seeds:
                    todo.append((kw, B, N, special, seed, k))
                k += 1
        for kw, B, N, special, seed, k in todo:
            prompts = [PROMPT_POOL[(k + i) % len(PROMPT_POOL)] for i in range(B)]
            prompts = [[x % V for x in p] for p in prompts]
            eos = pad = None
            if special != "none":
                # a first run without EOS: its row 0 at step 3 + k % 5 becomes the EOS, or
                # (every other run) its most frequent token, so that every row may finish
                ids, mask = padded(prompts, 0)
                t0, _, _ = generate(model, ids, mask, seed, N, None, None, kw, WordMeter)
                flat = [x for r in t0 for x in r]
                eos = t0[0][3 + k % 5] if seed % 2 else max(sorted(set(flat)), key=flat.count)
                if special == "eos+pad":
                    pad = (eos + 1 + k) % V
            ids, mask = padded(prompts, pad if pad is not None else eos if eos is not None else 0)
            toks, logits, steps = generate(model, ids, mask, seed, N, eos, pad, kw, WordMeter)
            T, R = logits.shape[0], logits.shape[1]
            assert R == B * N and all(len(r) == T for r in toks)
            per = [b - a for a, b in zip([0] + steps[:-1], steps)]
            assert all(w == 2 * V * R for w in per), per
            words = replay(model, ids, N, seed, eos, pad, kw, toks, logits, WordMeter)
            assert [words[R - 1][t] for t in range(T)] == steps
            if eos is not None and T < NEW:
                finished += 1
            nrun += 1
            rid = "b%03d" % nrun
            tname = "%s.logits" % rid
            tensors[tname] = logits.contiguous()
            chain = ",".join(type(x).__name__ for x in chain_of(model, kw, ids.shape[1]))
            sets = ",".join("%s:%r" % (a, b) for a, b in kw.items()) or "default"
            rows = lambda m: ";".join(",".join(map(str, r)) for r in m)  # noqa: E731
            lines.append("run %s model=%s kernel=%s seed=%d settings=%s chain=%s B=%d N=%d eos=%s pad=%s "
                         "prompts=%s tokens=%s words=%s logits=%s steps=%d"
                         % (rid, name, cap, seed, sets, chain or "none", B, N,
                            "none" if eos is None else eos, "none" if pad is None else pad,
                            rows(ids.tolist()), rows(toks), rows(words), tname, T))
    save_file(tensors, os.path.join(outdir, "hf_batch.safetensors"),
              metadata={"producer": "analysis/golden/current/hf_batch.py; transformers %s; torch %s; "
                                    "cpu capability %s" % (transformers.__version__, torch.__version__, cap)})
    with open(os.path.join(outdir, "hf_batch.txt"), "w") as f:
        f.write("# transformers %s generate(do_sample=True, max_new_tokens=%d) on batches of left-padded prompts, "
                "num_return_sequences, EOS; torch %s, one thread; analysis/golden/current/hf_batch.py (format in "
                "its docstring)\n" % (transformers.__version__, NEW, torch.__version__))
        f.write("".join(s + "\n" for s in libinfo.lines()))
        f.write("# every run: words per step = 2 * vocab * rows (checked); the stored logits through the run's own "
                "processors, then one-row torch.multinomial calls in row order on one generator, replay every "
                "row's tokens (checked); %d of %d runs stopped early because every row had emitted EOS\n"
                % (finished, nrun))
        f.write("".join(s + "\n" for s in lines))


if __name__ == "__main__":
    main()
