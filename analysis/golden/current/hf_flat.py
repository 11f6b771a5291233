#!/usr/bin/python3
"""hf_flat.py — transformers generate() on near-flat logits, for `samplab check`.

A model whose logits are all within 1e-6 of each other (a barely trained or
tiny-weight model) gives p_t whose log-probabilities differ by about 1e-6: the
log-likelihood's variance under the claim is then about 1e-13 per step, small
enough to vanish in a one-pass sum p l^2 - (sum p l)^2. These runs are real
generations of such logits.

The model: a LlamaForCausalLM from a LlamaConfig (no download, weights unused)
whose forward returns the next row of a fixed [T, V] table; generate() then
does what it does for any model (its processors, softmax, torch.multinomial).
The table: bf16 values x[t, i] = 1e-6 * u, u uniform in [0, 1) from
numpy.random.default_rng(TABLE_SEED + t), rounded to bfloat16 (so the stored
BF16 tensor is exactly what generate() cast to float32). For each run:
torch.manual_seed(SEED), generate(prompt, do_sample=True, max_new_tokens=T,
use_cache=False, **SETTINGS); the tokens are checked again by the run's own
processor list over the table, softmax and torch.multinomial.

Manifest (OUTDIR/hf_flat.txt, '#' comments, one record a line):
  run ID kernel=CAP seed=S settings=K1:V1,...|default chain=Class1,...
      prompt=I1,... tokens=T1,...,TT logits=TENSOR steps=T vocab=V
    settings are generate()'s keyword arguments (top_k is always given);
    TENSOR names a [T, V] BF16 tensor in OUTDIR/hf_flat.safetensors.

Usage: hf_flat.py OUTDIR   (CPU kernel as ATEN_CPU_CAPABILITY asks; one thread)
"""
import os
import sys
import warnings

import numpy as np
import torch
import transformers
from safetensors.torch import save_file
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.modeling_outputs import CausalLMOutputWithPast

V = 4096
T = 24
SCALE = 1e-6
PROMPT = [1, 17, 300, 42]
RUNS = [
    # seed, table seed, settings
    (0, 100, {"top_k": 0}),
    (42, 200, {"top_k": 0, "temperature": 0.7, "top_p": 0.95}),
    (2**32 + 5, 300, {"top_k": 0, "temperature": 1.3}),
    (7, 400, {"top_k": 0, "repetition_penalty": 1.3}),
]


class TableLM(LlamaForCausalLM):
    """forward returns row t of a fixed table, t = tokens generated so far"""

    def forward(self, input_ids=None, **kw):
        t = input_ids.shape[1] - self.plen
        return CausalLMOutputWithPast(logits=self.table[t][None, None, :].float())


def build():
    cfg = LlamaConfig(vocab_size=V, hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                      num_key_value_heads=1, intermediate_size=8, max_position_embeddings=64,
                      bos_token_id=None, eos_token_id=None, pad_token_id=None)
    m = TableLM(cfg).eval()
    m.generation_config.eos_token_id = None
    m.generation_config.pad_token_id = None
    m.generation_config.bos_token_id = None
    m.plen = len(PROMPT)
    return m


def table(seed):
    rows = [np.random.default_rng(seed + t).random(V) * SCALE for t in range(T)]
    return torch.tensor(np.stack(rows), dtype=torch.float32).to(torch.bfloat16)


def chain_of(m, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gc, _ = m._prepare_generation_config(None, do_sample=True, max_new_tokens=T, **kw)
        return m._get_logits_processor(gc, input_ids_seq_length=len(PROMPT), device="cpu")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import libinfo
    torch.set_num_threads(1)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cap = torch.backends.cpu.get_cpu_capability()
    m = build()
    tensors, lines = {}, []
    for n, (seed, tseed, kw) in enumerate(RUNS, 1):
        tab = table(tseed)
        m.table = tab
        ids = torch.tensor([PROMPT], dtype=torch.long)
        torch.manual_seed(seed)
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            o = m.generate(ids, attention_mask=torch.ones_like(ids), do_sample=True, max_new_tokens=T,
                           use_cache=False, **kw)
        toks = o[0, len(PROMPT):].tolist()
        assert len(toks) == T
        # the same tokens from the run's processors over the table (what _sample does)
        procs = chain_of(m, kw)
        torch.manual_seed(seed)
        seq = list(PROMPT)
        for t in range(T):
            with torch.no_grad():
                s = procs(torch.tensor([seq]), tab[t:t + 1].float())
                x = torch.multinomial(torch.nn.functional.softmax(s, dim=-1), num_samples=1).item()
            assert x == toks[t], (n, t, x, toks[t])
            seq.append(x)
        rid = "f%02d" % n
        tensors[rid + ".logits"] = tab.contiguous()
        lines.append("run %s kernel=%s seed=%d settings=%s chain=%s prompt=%s tokens=%s logits=%s.logits steps=%d "
                     "vocab=%d" % (rid, cap, seed, ",".join("%s:%r" % kv for kv in kw.items()),
                                   ",".join(type(p).__name__ for p in procs) or "none",
                                   ",".join(map(str, PROMPT)), ",".join(map(str, toks)), rid, T, V))
    save_file(tensors, os.path.join(out, "hf_flat.safetensors"),
              metadata={"producer": "analysis/golden/current/hf_flat.py; transformers %s; torch %s; cpu capability %s"
                                    % (transformers.__version__, torch.__version__, cap)})
    with open(os.path.join(out, "hf_flat.txt"), "w") as f:
        f.write("# transformers %s generate(do_sample=True) on near-flat bf16 logits (all within %g), torch %s, "
                "one thread; analysis/golden/current/hf_flat.py (format in its docstring)\n"
                % (transformers.__version__, SCALE, torch.__version__))
        f.write("".join(s + "\n" for s in libinfo.lines()))
        f.write("# every run: the tokens replayed through the run's own processor chain (checked)\n")
        f.write("".join(s + "\n" for s in lines))


if __name__ == "__main__":
    main()
