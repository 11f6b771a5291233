#!/usr/bin/python3
"""hf_generate.py — whole sampled generations of transformers' generate(), with the
raw logits of every step, for replaying samplab's `hf` pipeline token by token.

Models: small LlamaForCausalLM built from a LlamaConfig (no download), random
weights after torch.manual_seed(WEIGHT_SEED), eval mode, no EOS (every run
makes max_new_tokens tokens). For each run: torch.manual_seed(SEED), then
  model.generate(prompt, do_sample=True, max_new_tokens=24, output_logits=True,
                 return_dict_in_generate=True, **SETTINGS)
The raw logits (out.logits: what the processors receive each step) are stored
as one [T, V] float32 tensor per run in hf_generate.safetensors. The words the
default generator spent are measured from torch.get_rng_state() alone (the MT
twist matching of analysis/golden/torch_golden.py), before each step's
processors run and once after generate(), without drawing anything.
Every run is then checked here: the real processors of that run (the list
_get_logits_processor builds for the same generation config) applied to the
stored logits with context prompt + tokens so far, softmax, and
torch.multinomial after torch.manual_seed(SEED) give the same tokens.

Manifest (OUTDIR/STEM.txt, one record a line, '#' comments):
  model NAME vocab=V hidden=H layers=L heads=A kv_heads=K intermediate=I
        init_range=R weight_seed=W
  run ID model=NAME kernel=CAP seed=S settings=K1:V1,K2:V2|default
      chain=Class1,Class2,... prompt=I1,I2,... tokens=T1,...,T24
      words=W1,...,W24 logits=TENSOR steps=24
    settings are generate()'s keyword arguments as given (unset ones take
    generate()'s defaults, e.g. top_k 50); chain is the processor list
    generate() built from them, in order; words = cumulative MT19937 words
    after each step's draw (torch.manual_seed(S) at 0); TENSOR names the
    [steps, V] float32 tensor in OUTDIR/STEM.safetensors.

Usage: hf_generate.py OUTDIR [STEM]   (CPU kernel as ATEN_CPU_CAPABILITY asks; one thread)
  STEM (default hf_generate) names OUTDIR/STEM.txt and STEM.safetensors; any
  other stem than the default runs the V = 512 model's settings with seed 0 only
  (run.sh: hf_generate_avx512, the same runs on the AVX-512 kernel).
"""
import os
import sys
import warnings

import torch
import transformers
from safetensors.torch import save_file
from transformers import LlamaConfig, LlamaForCausalLM, LogitsProcessor, LogitsProcessorList

MODELS = [
    # name, vocab, hidden, layers, heads, kv_heads, intermediate, init_range, weight_seed
    ("llama512", 512, 32, 2, 4, 2, 64, 0.3, 1234),
    ("llama32000", 32000, 64, 2, 4, 2, 128, 0.3, 4321),
]
PROMPTS = {"llama512": [1, 17, 300, 42, 7, 99, 5, 250], "llama32000": [1, 15043, 29892, 3186, 338, 263, 1243, 29889]}
SETTINGS = [
    ("default", {}),
    ("t07", {"temperature": 0.7}),
    ("k40p09", {"top_k": 40, "top_p": 0.9}),
    ("p095", {"top_p": 0.95, "top_k": 0}),
    ("minp01", {"min_p": 0.1, "top_k": 0}),
    ("minp01_k50", {"min_p": 0.1}),
    ("typ09", {"typical_p": 0.9, "top_k": 0}),
    ("rep13", {"repetition_penalty": 1.3, "top_k": 0}),
    ("rep13_k20", {"repetition_penalty": 1.3, "top_k": 20}),
]
SEEDS_512 = [0, 42, 20261201]
RUNS_32000 = [("default", 0), ("k40p09", 42), ("rep13_k20", 7)]
NEW = 24


class WordProbe(LogitsProcessor):
    """Reads the words spent so far each step (get_rng_state only); leaves the scores alone."""

    def __init__(self, meter):
        self.meter = meter
        self.seen = []

    def __call__(self, input_ids, scores):
        self.seen.append(self.meter.words())
        return scores


def build(spec):
    name, V, H, L, A, K, I, rng, wseed = spec
    torch.manual_seed(wseed)
    cfg = LlamaConfig(vocab_size=V, hidden_size=H, num_hidden_layers=L, num_attention_heads=A,
                      num_key_value_heads=K, intermediate_size=I, initializer_range=rng,
                      max_position_embeddings=64, bos_token_id=None, eos_token_id=None, pad_token_id=None)
    m = LlamaForCausalLM(cfg).eval()
    m.generation_config.eos_token_id = None
    m.generation_config.pad_token_id = None
    m.generation_config.bos_token_id = None
    return m


def chain_of(model, kw):
    """The processor list generate() builds for these settings (its own helpers)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gc, _ = model._prepare_generation_config(None, do_sample=True, max_new_tokens=NEW, **kw)
        return model._get_logits_processor(gc, input_ids_seq_length=8, device="cpu")


def run_one(model, prompt, seed, kw, WordMeter):
    ids = torch.tensor([prompt], dtype=torch.long)
    torch.manual_seed(seed)
    meter = WordMeter()
    probe = WordProbe(meter)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=True, max_new_tokens=NEW,
                             output_logits=True, return_dict_in_generate=True,
                             logits_processor=LogitsProcessorList([probe]), **kw)
    end = meter.words()
    toks = out.sequences[0, len(prompt):].tolist()
    logits = torch.cat([x.float() for x in out.logits], 0)
    # words after step t's draw = what the probe saw at step t + 1, then the end
    words = probe.seen[1:] + [end]
    assert probe.seen[0] == 0, "the forward pass drew random words"
    assert len(toks) == NEW and logits.shape[0] == NEW
    return toks, logits, words


def replay(model, prompt, seed, kw, toks, logits):
    """The stored logits through the real processors must give the same tokens."""
    procs = chain_of(model, kw)
    torch.manual_seed(seed)
    seq = list(prompt)
    for t in range(logits.shape[0]):
        with torch.no_grad():
            s = procs(torch.tensor([seq], dtype=torch.long), logits[t:t + 1].clone())
            p = torch.nn.functional.softmax(s, dim=-1)
        nxt = torch.multinomial(p, num_samples=1).item()
        assert nxt == toks[t], (kw, seed, t, nxt, toks[t])
        seq.append(nxt)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    stem = sys.argv[2] if len(sys.argv) == 3 else "hf_generate"
    small = stem != "hf_generate"
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    sys.path.insert(0, os.path.dirname(here))  # analysis/golden: torch_golden.py
    import libinfo
    from torch_golden import WordMeter
    torch.set_num_threads(1)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    cap = torch.backends.cpu.get_cpu_capability()
    tensors = {}
    lines = []
    nrun = 0
    for spec in MODELS[:1] if small else MODELS:
        name, V = spec[0], spec[1]
        model = build(spec)
        lines.append("model %s vocab=%d hidden=%d layers=%d heads=%d kv_heads=%d intermediate=%d "
                     "init_range=%r weight_seed=%d" % spec)
        if V == 512:
            todo = [(s, kw, seed) for s, kw in SETTINGS for seed in (SEEDS_512[:1] if small else SEEDS_512)]
        else:
            d = dict(SETTINGS)
            todo = [(s, d[s], seed) for s, seed in RUNS_32000]
        for sname, kw, seed in todo:
            nrun += 1
            rid = "r%03d" % nrun
            toks, logits, words = run_one(model, PROMPTS[name], seed, kw, WordMeter)
            replay(model, PROMPTS[name], seed, kw, toks, logits)
            steps = [b - a for a, b in zip([0] + words[:-1], words)]
            assert all(w == 2 * V for w in steps), (rid, steps)
            tname = "%s.logits" % rid
            tensors[tname] = logits.contiguous()
            chain = ",".join(type(x).__name__ for x in chain_of(model, kw))
            sets = ",".join("%s:%r" % (k, v) for k, v in kw.items()) or "default"
            lines.append("run %s model=%s kernel=%s seed=%d settings=%s chain=%s prompt=%s tokens=%s words=%s "
                         "logits=%s steps=%d" % (rid, name, cap, seed, sets, chain or "none",
                                                 ",".join(map(str, PROMPTS[name])), ",".join(map(str, toks)),
                                                 ",".join(map(str, words)), tname, len(toks)))
    # one metadata entry: safetensors keeps them in a hash map, so several would
    # come out in a different order each run and the file would not be reproducible
    save_file(tensors, os.path.join(outdir, stem + ".safetensors"),
              metadata={"producer": "analysis/golden/current/hf_generate.py; transformers %s; torch %s; "
                                    "cpu capability %s" % (transformers.__version__, torch.__version__, cap)})
    with open(os.path.join(outdir, stem + ".txt"), "w") as f:
        f.write("# transformers %s generate(do_sample=True, max_new_tokens=%d) on small random Llama models, torch %s, "
                "one thread; analysis/golden/current/hf_generate.py (format in its docstring)\n"
                % (transformers.__version__, NEW, torch.__version__))
        f.write("".join(s + "\n" for s in libinfo.lines()))
        f.write("# every run: words per step = 2 * vocab (checked), and the stored logits through the run's own "
                "processor chain replay its tokens (checked)\n")
        f.write("".join(s + "\n" for s in lines))


if __name__ == "__main__":
    main()
