#!/usr/bin/python3
"""dump_logits.py — dump a model's next-token logits, and the scores transformers'
`generate` really samples from, into a .safetensors file samplab reads.

With a transformers model (needs transformers and the model's weights on disk or
in the Hugging Face cache; nothing is downloaded unless your setup allows it):

    dump_logits.py --model PATH_OR_NAME --prompt "Tomorrow's weather is" --out dump.safetensors

  writes, as 1-D float tensors of the vocabulary size V:
    logits            the model's raw logits for the next token (forward pass, last position)
    <setting>         generate(max_new_tokens=1, output_scores=True)'s processed scores for
                      each setting (temperature, top-k, top-p, repetition penalty ...):
                      removed tokens are -inf, exactly what generate feeds to softmax
  and, with --steps N > 1, also steps_<setting> of shape [N, V]: the scores of N
  generated steps (one row per step: samplab's --row I picks step I).
  The context ids (prompt) go into the header's __metadata__ as "context_ids",
  for --repetition-penalty's --context. Settings default to those of the study
  in the project's background notes; --setting NAME:key=value,... adds one
  (values parsed as Python literals), e.g. --setting k40p09:do_sample=True,temperature=0.7,top_k=40,top_p=0.9

Without a model (torch only), a deterministic stand-in with the same layout:

    dump_logits.py --synthetic --out synthetic.safetensors [--vocab 256] [--seed 0]

  logits (F32 [V]), logits_bf16 (BF16 [V], as a bfloat16 model returns them),
  t07 (logits / 0.7, generate's TemperatureLogitsWarper), t07k40 (then top-k 40 as
  TopKLogitsWarper: everything below the 40th largest is -inf, ties kept) and
  steps (F32 [4, V]).

A whole generation, what `samplab replay` and `samplab check` read (--generate):

    dump_logits.py --generate --out gen.safetensors [--model PATH_OR_NAME] [--prompt TEXT | --prompt-ids 1,2,3]
                   [--steps 24] [--seed 42] [--set temperature=0.7,top_k=40,top_p=0.9,repetition_penalty=1.3]

  runs torch.manual_seed(SEED), then model.generate(ids, do_sample=True, max_new_tokens=STEPS,
  output_logits=True, return_dict_in_generate=True, **SET) and writes
    gen.safetensors   tensor "logits", F32 [T, V]: the raw logits of each step (before any
                      processor); __metadata__: prompt_ids, tokens (the generated ids), settings,
                      seed, model, transformers and torch versions, the samplab command that replays it
    gen.tokens        the generated ids, one per line (check's --tokens)
    gen.context       the prompt ids, one line (replay's and check's --context)
  top_k is always passed (0 when --set has none): generate's hidden default top_k = 50 would
  otherwise filter every step. End-of-sequence is switched off (eos_token_id None), so every
  run has STEPS steps and no processor other than the settings' touches the logits.
  Without --model the model is a tiny random-weight LlamaForCausalLM built from a LlamaConfig
  (V = --vocab, default 512; weights from torch.manual_seed(--model-seed)), nothing downloaded.
  With a real model: --model NAME_OR_PATH (a local folder with config.json, weights and the
  tokenizer, or a hub name already in the cache), --prompt "..." tokenised by its tokenizer;
  logits of a large vocabulary take T * V * 4 bytes (24 steps of V = 32,000: 3 MB).
  Then:
    samplab replay --framework hf --logits gen.safetensors --tensor logits \
        --context gen.context --seed 42 --temperature 0.7 --top-k 40 --top-p 0.9 --repetition-penalty 1.3
    samplab check  ... the same ... --tokens gen.tokens

Then, for example:
    samplab pipeline --framework hf --logits dump.safetensors --tensor logits --temperature 0.7 --top-k 40
    samplab draw --logits dump.safetensors --tensor steps --row 2 ...

The file is written with safetensors.torch.save_file when the `safetensors`
package is installed, else with analysis/golden/make_safetensors.py, which
follows the same format rules byte for byte.
"""
import argparse
import ast
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden"))

# The settings of the study (do_sample=True keeps generate's hidden top_k=50).
SETTINGS = {
    "t07_default": dict(do_sample=True, temperature=0.7),
    "t07": dict(do_sample=True, temperature=0.7, top_k=0),
    "k40": dict(do_sample=True, temperature=0.7, top_k=40),
    "p09": dict(do_sample=True, temperature=0.7, top_k=0, top_p=0.9),
    "k40p09": dict(do_sample=True, temperature=0.7, top_k=40, top_p=0.9),
    "rep13": dict(do_sample=False, repetition_penalty=1.3),
}


def save(tensors, path, metadata):
    try:
        from safetensors.torch import save_file
    except ImportError:
        from make_safetensors import save_file
    tensors = {k: v.detach().cpu().contiguous() for k, v in tensors.items()}
    save_file(tensors, path, metadata=metadata)


def parse_setting(text):
    name, _, kv = text.partition(":")
    kw = {}
    for item in filter(None, kv.split(",")):
        k, _, v = item.partition("=")
        kw[k.strip()] = ast.literal_eval(v.strip())
    return name, kw


def dump_model(args):
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
        import transformers
    except ImportError:
        raise SystemExit("dump_logits.py: transformers is not installed (use --synthetic for a stand-in)")
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForCausalLM.from_pretrained(args.model)
    model.eval()
    ids = tok(args.prompt, return_tensors="pt").input_ids
    settings = dict(SETTINGS)
    for s in args.setting or []:
        name, kw = parse_setting(s)
        settings[name] = kw
    tensors = {}
    with torch.inference_mode():
        tensors["logits"] = model(ids).logits[0, -1, :].clone()
        for name, kw in settings.items():
            torch.manual_seed(args.seed)
            g = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=args.steps,
                               min_new_tokens=args.steps, output_scores=True,
                               return_dict_in_generate=True, pad_token_id=tok.eos_token_id, **kw)
            tensors[name] = g.scores[0][0].clone()
            if args.steps > 1:
                tensors["steps_" + name] = torch.stack([s[0] for s in g.scores])
    meta = {"model": args.model, "transformers": transformers.__version__, "torch": torch.__version__,
            "context_ids": ",".join(str(int(i)) for i in ids[0]),
            "settings": repr(settings)}
    save(tensors, args.out, meta)
    print("%s: %d tensors of V = %d (%s)" % (args.out, len(tensors), tensors["logits"].numel(),
                                             ", ".join(sorted(tensors))))


def dump_synthetic(args):
    g = torch.Generator().manual_seed(args.seed)
    V = args.vocab
    logits = (torch.randn(V, generator=g, dtype=torch.float64) * 3.0).to(torch.float32)
    t07 = logits / 0.7  # TemperatureLogitsWarper: scores / temperature, in the scores' dtype
    kth = torch.topk(t07, min(40, V))[0][-1]
    t07k40 = t07.masked_fill(t07 < kth, float("-inf"))  # TopKLogitsWarper
    steps = (torch.randn(4, V, generator=g, dtype=torch.float64) * 3.0).to(torch.float32)
    tensors = {"logits": logits, "logits_bf16": logits.to(torch.bfloat16), "t07": t07, "t07k40": t07k40,
               "steps": steps}
    meta = {"synthetic": "1", "seed": str(args.seed), "torch": torch.__version__,
            "context_ids": "1,2,3"}
    save(tensors, args.out, meta)
    print("%s: %d tensors of V = %d (%s)" % (args.out, len(tensors), V, ", ".join(sorted(tensors))))


# generate() keyword -> samplab option (hf pipeline)
SAMPLAB_OPTS = {"temperature": "--temperature", "top_k": "--top-k", "top_p": "--top-p", "min_p": "--min-p",
                "typical_p": "--typical", "repetition_penalty": "--repetition-penalty"}


def tiny_llama(vocab, seed):
    from transformers import LlamaConfig, LlamaForCausalLM
    torch.manual_seed(seed)
    cfg = LlamaConfig(vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=512,
                      bos_token_id=None, eos_token_id=None, pad_token_id=None)
    return LlamaForCausalLM(cfg)


def dump_generate(args):
    try:
        import transformers
    except ImportError:
        raise SystemExit("dump_logits.py: --generate needs transformers")
    if args.model:
        from transformers import AutoModelForCausalLM, AutoTokenizer
        tok = AutoTokenizer.from_pretrained(args.model)
        model = AutoModelForCausalLM.from_pretrained(args.model)
        ids = (torch.tensor([[int(x) for x in args.prompt_ids.split(",")]]) if args.prompt_ids
               else tok(args.prompt, return_tensors="pt").input_ids)
        name = args.model
    else:
        model = tiny_llama(args.vocab, args.model_seed)
        ids = torch.tensor([[int(x) for x in (args.prompt_ids or "1,300,301,302,303").split(",")]])
        name = "tiny random LlamaForCausalLM (vocab %d, hidden 64, 2 layers, torch.manual_seed(%d))" % (
            args.vocab, args.model_seed)
    model.eval()
    kw = {}
    for item in filter(None, (args.set or "").split(",")):
        k, _, v = item.partition("=")
        kw[k.strip()] = ast.literal_eval(v.strip())
    kw.setdefault("top_k", 0)
    gc = model.generation_config
    gc.eos_token_id = None
    gc.pad_token_id = gc.pad_token_id if gc.pad_token_id is not None else 0
    torch.manual_seed(args.seed)
    with torch.inference_mode():
        g = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=True, max_new_tokens=args.steps,
                           output_logits=True, return_dict_in_generate=True, **kw)
    logits = torch.stack([x[0] for x in g.logits]).to(torch.float32)
    gen = [int(t) for t in g.sequences[0, ids.shape[1]:]]
    prompt = [int(t) for t in ids[0]]
    opts = []
    for k, v in sorted(kw.items()):
        if k not in SAMPLAB_OPTS:
            raise SystemExit("dump_logits.py: setting %s has no samplab option" % k)
        opts += [SAMPLAB_OPTS[k], repr(v)]
    stem = args.out[:-len(".safetensors")] if args.out.endswith(".safetensors") else args.out
    cmd = ("samplab replay --framework hf --logits %s --tensor logits --context %s.context --seed %d %s"
           % (os.path.basename(args.out), os.path.basename(stem), args.seed, " ".join(opts)))
    meta = {"model": name, "transformers": transformers.__version__, "torch": torch.__version__,
            "prompt_ids": ",".join(map(str, prompt)), "tokens": ",".join(map(str, gen)),
            "settings": repr(dict(sorted(kw.items()))), "seed": str(args.seed), "steps": str(len(gen)),
            "replay": cmd}
    save({"logits": logits}, args.out, meta)
    with open(stem + ".tokens", "w") as f:
        f.write("".join("%d\n" % t for t in gen))
    with open(stem + ".context", "w") as f:
        f.write(",".join(map(str, prompt)) + "\n")
    print("%s: logits [%d, %d]; %s.tokens, %s.context\n%s" % (args.out, logits.shape[0], logits.shape[1],
                                                              stem, stem, cmd))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--out", required=True, help="the .safetensors file to write")
    ap.add_argument("--model", help="transformers model name or path")
    ap.add_argument("--prompt", default="Tomorrow's weather is")
    ap.add_argument("--setting", action="append", help="NAME:key=value,... an extra generate() setting")
    ap.add_argument("--steps", type=int, default=1, help="generated steps (rows of steps_<setting>)")
    ap.add_argument("--seed", type=int, default=None, help="default 0 (--generate: 42)")
    ap.add_argument("--synthetic", action="store_true", help="no model: a seeded stand-in with the same layout")
    ap.add_argument("--vocab", type=int, default=None, help="V for --synthetic (256) or --generate's tiny model (512)")
    ap.add_argument("--generate", action="store_true", help="a whole generation: per-step logits and tokens")
    ap.add_argument("--prompt-ids", help="--generate: the prompt as token ids, e.g. 1,300,301")
    ap.add_argument("--set", help="--generate: generate() settings, key=value,... (Python literals)")
    ap.add_argument("--model-seed", type=int, default=0, help="--generate without --model: the weights' seed")
    args = ap.parse_args()
    if args.generate:
        args.vocab = args.vocab or 512
        if args.seed is None:
            args.seed = 42
        dump_generate(args)
        return
    args.vocab = args.vocab or 256
    if args.seed is None:
        args.seed = 0
    if args.synthetic:
        dump_synthetic(args)
    elif args.model:
        dump_model(args)
    else:
        ap.error("give --model PATH_OR_NAME or --synthetic")


if __name__ == "__main__":
    main()
