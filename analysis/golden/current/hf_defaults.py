#!/usr/bin/python3
"""hf_defaults.py — what transformers' generate(do_sample=True) does with the settings
a caller leaves unset, for checking that samplab's `hf` fills them the same way.

transformers 5.x keeps every sampling field of a fresh GenerationConfig at None;
GenerationModelMixin._prepare_generation_config then fills the fields still None,
first from the model's own generation_config (generation_config.json of a
checkpoint), then from GenerationConfig._get_default_generation_params()
(top_k 50, top_p 1.0, temperature 1.0, typical_p 1.0, repetition_penalty 1.0;
min_p stays None), and generate()'s keyword arguments override both.
_get_logits_processor then builds only the warpers whose value does something
(temperature != 1, top_k != 0, top_p < 1, min_p not None, typical_p < 1, ...).

Records (OUTDIR/hf_defaults.txt, '#' comments), the run lines in hf_generate.py's
format (its docstring), so the same replay reads both:
  default KEY VALUE          _get_default_generation_params()[KEY], or None when
                             the key is absent (min_p, top_h); also what a fresh
                             GenerationConfig() holds for it (None in 5.x)
  chain SETTINGS Class,...   the processor list generate() builds for these
                             keyword arguments on a model whose generation_config
                             sets nothing ("none": no processor)
  run ID ... settings=...    whole generations as in hf_generate.py, with the
      [genconfig=K:V,...]    settings left unset in several combinations, top_k=0,
                             and runs whose model generation_config sets values
                             (genconfig: what it set; generate() got `settings`)
The [steps, V] float32 logits are in OUTDIR/hf_defaults.safetensors.

Usage: hf_defaults.py OUTDIR   (ATEN_CPU_CAPABILITY as the caller sets it; one thread)
"""
import os
import sys
import warnings

import torch
import transformers
from safetensors.torch import save_file
from transformers import GenerationConfig

# generate()'s keyword arguments; unset ones take the defaults above
SETTINGS = [
    ("default", {}),
    ("p09", {"top_p": 0.9}),
    ("typ09", {"typical_p": 0.9}),
    ("rep13", {"repetition_penalty": 1.3}),
    ("t07_p08", {"temperature": 0.7, "top_p": 0.8}),
    ("t15_minp005", {"temperature": 1.5, "min_p": 0.05}),
    ("k0", {"top_k": 0}),
    ("k0_t07", {"top_k": 0, "temperature": 0.7}),
    ("t1_k50_p1", {"temperature": 1.0, "top_k": 50, "top_p": 1.0}),
]
SEEDS_512 = [0, 42, 20261201]
RUNS_32000 = [("default", 5)]
# a checkpoint's generation_config.json that sets sampling values: generate() takes
# them over the library defaults for whatever the call leaves unset
GENCONFIG = {"top_k": 20, "top_p": 0.8, "temperature": 0.9}
GENCONFIG_RUNS = [("default", {}, 0), ("default", {}, 42), ("k0", {"top_k": 0}, 7)]
KEYS = ["temperature", "top_k", "top_p", "min_p", "typical_p", "repetition_penalty", "top_h", "epsilon_cutoff",
        "eta_cutoff"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    sys.path.insert(0, os.path.dirname(here))  # analysis/golden: torch_golden.py
    import hf_generate as hg
    import libinfo
    from torch_golden import WordMeter
    torch.set_num_threads(1)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    cap = torch.backends.cpu.get_cpu_capability()
    lines = []
    params = GenerationConfig._get_default_generation_params()
    fresh = GenerationConfig()
    for k in KEYS:
        lines.append("default %s %r fresh=%r" % (k, params.get(k), getattr(fresh, k, None)))
    tensors = {}
    nrun = 0
    for spec in hg.MODELS:
        name, V = spec[0], spec[1]
        model = hg.build(spec)
        lines.append("model %s vocab=%d hidden=%d layers=%d heads=%d kv_heads=%d intermediate=%d "
                     "init_range=%r weight_seed=%d" % spec)
        if V == 512:
            for sname, kw in SETTINGS:
                chain = ",".join(type(x).__name__ for x in hg.chain_of(model, kw))
                sets = ",".join("%s:%r" % (k, v) for k, v in kw.items()) or "default"
                lines.append("chain %s %s" % (sets, chain or "none"))
            todo = [(kw, seed, None) for _, kw in SETTINGS for seed in SEEDS_512]
            todo += [(kw, seed, GENCONFIG) for _, kw, seed in GENCONFIG_RUNS]
        else:
            d = dict(SETTINGS)
            todo = [(d[s], seed, None) for s, seed in RUNS_32000]
        for kw, seed, gen in todo:
            saved = {k: getattr(model.generation_config, k) for k in GENCONFIG}
            if gen:
                for k, v in gen.items():
                    setattr(model.generation_config, k, v)
            nrun += 1
            rid = "d%03d" % nrun
            toks, logits, words = hg.run_one(model, hg.PROMPTS[name], seed, kw, WordMeter)
            hg.replay(model, hg.PROMPTS[name], seed, kw, toks, logits)
            chain = ",".join(type(x).__name__ for x in hg.chain_of(model, kw))
            for k, v in saved.items():
                setattr(model.generation_config, k, v)
            steps = [b - a for a, b in zip([0] + words[:-1], words)]
            assert all(w == 2 * V for w in steps), (rid, steps)
            tname = "%s.logits" % rid
            tensors[tname] = logits.contiguous()
            sets = ",".join("%s:%r" % (k, v) for k, v in kw.items()) or "default"
            extra = " genconfig=" + ",".join("%s:%r" % kv for kv in gen.items()) if gen else ""
            lines.append("run %s model=%s kernel=%s seed=%d settings=%s%s chain=%s prompt=%s tokens=%s words=%s "
                         "logits=%s steps=%d" % (rid, name, cap, seed, sets, extra, chain or "none",
                                                 ",".join(map(str, hg.PROMPTS[name])), ",".join(map(str, toks)),
                                                 ",".join(map(str, words)), tname, len(toks)))
    save_file(tensors, os.path.join(outdir, "hf_defaults.safetensors"),
              metadata={"producer": "analysis/golden/current/hf_defaults.py; transformers %s; torch %s; "
                                    "cpu capability %s" % (transformers.__version__, torch.__version__, cap)})
    with open(os.path.join(outdir, "hf_defaults.txt"), "w") as f:
        f.write("# transformers %s generate(do_sample=True, max_new_tokens=%d) with settings left unset, on the small "
                "random Llama models of hf_generate.py, torch %s, one thread; analysis/golden/current/hf_defaults.py "
                "(format in its docstring)\n" % (transformers.__version__, hg.NEW, torch.__version__))
        f.write("".join(s + "\n" for s in libinfo.lines()))
        f.write("# every run: words per step = 2 * vocab (checked), and the stored logits through the run's own "
                "processor chain replay its tokens (checked)\n")
        f.write("".join(s + "\n" for s in lines))


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main()
