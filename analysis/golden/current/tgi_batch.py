#!/usr/bin/python3
"""tgi_batch.py — Text Generation Inference's sampling over batches of requests, run from
TGI's own source files in this torch: tgi_batch.txt (format: serving_cases.py).

Usage: tgi_batch.py OUT.txt TAG=DIR
DIR is TGI's server/ tree at TAG (only two files are loaded, never copied):
  git clone https://github.com/huggingface/text-generation-inference R &&
  git -C R archive v3.3.7 server/text_generation_server/utils | tar -x -C DIR
Run: server/text_generation_server/utils/tokens.py HeterogeneousNextTokenChooser (as
flash_causal_lm.py builds it per batch: dtype float32, device cpu, every request
do_sample=True), its warpers from utils/logits_process.py, and HeterogeneousSampling's
per-request Sampling(seed) generators, called once per step on the batch's scores with
the context as input_ids (the same for every row, fixed across steps). The imports of the
engine's other modules are stubs below (text_generation_server.pb.generate_pb2, the
watermark, outlines' RegexGuide, loguru); transformers is the chroot's. TGI's router gives
an unseeded request a random seed, so every row here has one. Every generator's words are
checked against a fresh one advanced by as many (its state).
"""
import hashlib
import importlib.util
import os
import sys
import types

import torch

import libinfo
import serving_cases as sc

SAMPLINGS = [
    {'temperature': 1.0}, {'temperature': 0.7, 'top_k': 5}, {'temperature': 1.3, 'top_p': 0.9},
    {'temperature': 0.8, 'top_k': 50, 'top_p': 0.95}, {'typical_p': 0.9}, {'repetition_penalty': 1.3},
    {'temperature': 0.6, 'top_p': 0.5, 'repetition_penalty': 0.8},
]
CONTEXT = (0, 1, 2, 5, 1, 17, 99)


def stub(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def stubs():
    for pkg in ('text_generation_server', 'text_generation_server.pb', 'text_generation_server.utils',
                'outlines', 'outlines.fsm'):
        stub(pkg).__path__ = []
    enum = types.SimpleNamespace
    pb2 = stub('text_generation_server.pb.generate_pb2',
               FinishReason=enum(FINISH_REASON_LENGTH=0, FINISH_REASON_EOS_TOKEN=1, FINISH_REASON_STOP_SEQUENCE=2),
               GrammarType=enum(GRAMMAR_TYPE_NONE=0, GRAMMAR_TYPE_JSON=1, GRAMMAR_TYPE_REGEX=2),
               NextTokenChooserParameters=None, StoppingCriteriaParameters=None)
    sys.modules['text_generation_server.pb'].generate_pb2 = pb2
    stub('text_generation_server.utils.watermark', WatermarkLogitsProcessor=None)
    stub('outlines.fsm.guide', RegexGuide=None)
    stub('loguru', logger=types.SimpleNamespace(info=print, warning=print))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def fmt(v):
    return repr(float(v)) if isinstance(v, float) else str(v)


def run_case(tokens_mod, case):
    cid, V, B, rkind, gen, seeds, _, n, st = case
    # TGI's router seeds a request without one at random: here each gets 100 + its row
    seeds = [100 + b if s is None else s for b, s in enumerate(seeds)]
    base = torch.from_numpy(sc.batch_logits(gen, B, V, rkind))
    ctx = [c % V for c in CONTEXT]
    pen = st.get('repetition_penalty', 1.0)
    chooser = tokens_mod.HeterogeneousNextTokenChooser(
        dtype=torch.float32, device=torch.device('cpu'), watermark=[False] * B,
        temperature=[st.get('temperature', 1.0)] * B, repetition_penalty=[pen] * B, frequency_penalty=[0.0] * B,
        top_k=[st.get('top_k', 0)] * B, top_p=[st.get('top_p', 1.0)] * B, typical_p=[st.get('typical_p', 1.0)] * B,
        do_sample=[True] * B, seeds=seeds, tokenizer=None, grammars=[''] * B, grammar_types=[0] * B,
        fsm_grammar_states=[0] * B)
    input_ids = torch.tensor([ctx] * B, dtype=torch.int64)
    toks = [[] for _ in range(B)]
    words = [[] for _ in range(B)]
    for t in range(n):
        next_ids = chooser(input_ids, base.clone(), 0)[0]
        for b in range(B):
            toks[b].append(int(next_ids[b]))
            words[b].append(2 * V * (t + 1))
    for b in range(B):
        g = chooser.choice.sampling_mapping[b].generator
        assert torch.equal(g.get_state(), sc.words_after(seeds[b], 2 * V * n, torch)), (cid, b)
    sets = ' '.join('%s=%s' % (key, fmt(st[key]))
                    for key in ('temperature', 'top_k', 'top_p', 'typical_p', 'repetition_penalty') if key in st)
    ctext = ' context=%s' % ','.join(map(str, ctx)) if pen != 1.0 else ''
    return ('case %s-tgi V=%d B=%d kind=%s gen=%d seeds=%s n=%d %s%s tokens=%s words=%s'
            % (cid, V, B, rkind, gen, sc.seeds_text(seeds), n, sets, ctext, sc.join_rows(toks), sc.join_rows(words)))


def main():
    out = sys.argv[1]
    tag, d = sys.argv[2].split('=', 1)
    torch.set_num_threads(1)
    stubs()
    utils = os.path.join(d, 'server/text_generation_server/utils')
    load(os.path.join(utils, 'logits_process.py'), 'text_generation_server.utils.logits_process')
    tokens_mod = load(os.path.join(utils, 'tokens.py'), 'text_generation_server.utils.tokens')
    heads = []
    for f in ('tokens.py', 'logits_process.py'):
        with open(os.path.join(utils, f), 'rb') as fh:
            heads.append('# source: text-generation-inference %s server/text_generation_server/utils/%s sha256 %s'
                         % (tag, f, hashlib.sha256(fh.read()).hexdigest()))
    # top_k > V: HeterogeneousTopKLogitsWarper gathers index k - 1 of a topk clamped to V, a
    # RuntimeError (samplab refuses it)
    lines = [run_case(tokens_mod, c) for c in sc.cases(SAMPLINGS) if c[8].get('top_k', 0) <= c[1]]
    with open(out, 'w') as f:
        f.write('# TGI HeterogeneousNextTokenChooser on batches of requests (its source, stubbed imports), torch %s, '
                'one thread; analysis/golden/current/tgi_batch.py (format in serving_cases.py)\n' % torch.__version__)
        f.write('\n'.join(libinfo.lines()) + '\n')
        f.write('\n'.join(heads) + '\n')
        f.write('# every generator: its words checked against a fresh one advanced by as many (get_state)\n')
        f.write('\n'.join(lines) + '\n')
    print('tgi_batch: %d cases' % len(lines))


if __name__ == '__main__':
    main()
