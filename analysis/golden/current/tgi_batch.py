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


def stubs():
    for pkg in ('text_generation_server', 'text_generation_server.pb', 'text_generation_server.utils',
                'outlines', 'outlines.fsm'):
        sc.stub(pkg).__path__ = []
    enum = types.SimpleNamespace
    pb2 = sc.stub('text_generation_server.pb.generate_pb2',
               FinishReason=enum(FINISH_REASON_LENGTH=0, FINISH_REASON_EOS_TOKEN=1, FINISH_REASON_STOP_SEQUENCE=2),
               GrammarType=enum(GRAMMAR_TYPE_NONE=0, GRAMMAR_TYPE_JSON=1, GRAMMAR_TYPE_REGEX=2),
               NextTokenChooserParameters=None, StoppingCriteriaParameters=None)
    sys.modules['text_generation_server.pb'].generate_pb2 = pb2
    sc.stub('text_generation_server.utils.watermark', WatermarkLogitsProcessor=None)
    sc.stub('outlines.fsm.guide', RegexGuide=None)
    sc.stub('loguru', logger=types.SimpleNamespace(info=print, warning=print))


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
    sets = ' '.join('%s=%s' % (key, sc.fmt(st[key]))
                    for key in ('temperature', 'top_k', 'top_p', 'typical_p', 'repetition_penalty') if key in st)
    ctext = ' context=%s' % ','.join(map(str, ctx)) if pen != 1.0 else ''
    return ('case %s-tgi V=%d B=%d kind=%s gen=%d seeds=%s n=%d %s%s tokens=%s words=%s'
            % (cid, V, B, rkind, gen, sc.seeds_text(seeds), n, sets, ctext, sc.join_rows(toks), sc.join_rows(words)))


def edge_lines(lp):
    """Top-p's threshold where TGI and transformers part: two logits [0, d] whose smaller
    softmax value lies between float32(1 - p) (transformers' TopPLogitsWarper) and
    1 - float32(p) in float32 (TGI's top_p_opposite), found by bisection on torch's own
    softmax; the kept counts of both warpers, run on them."""
    from transformers import TopPLogitsWarper
    out = []
    for j, p in enumerate((0.9, 0.95, 0.5, 0.7, 0.99, 0.8, 0.6, 0.3)):
        a = float(torch.tensor(1 - p, dtype=torch.float32))
        b = float(torch.tensor(1.0) - torch.tensor(p, dtype=torch.float32))
        lo_t, hi_t = min(a, b), max(a, b)
        if lo_t == hi_t:
            continue
        small = lambda d: float(torch.tensor([0.0, d]).softmax(-1)[0])  # noqa: E731
        lo, hi = 0.0, 40.0  # small(d) falls as d grows
        found = None
        for _ in range(200):
            mid = float(torch.tensor((lo + hi) / 2, dtype=torch.float32))
            v = small(mid)
            if lo_t < v <= hi_t:
                found = mid
                break
            if v > hi_t:
                lo = mid
            else:
                hi = mid
        if found is None:
            continue  # no float32 d puts the value in the gap
        x = torch.tensor([[0.0, found]])
        tgi = lp.HeterogeneousTopPLogitsWarper([p], torch.float32, torch.device('cpu'))(None, x.clone())
        hf = TopPLogitsWarper(top_p=p)(None, x.clone())
        out.append('edge e%03d-tgi V=2 logits=0,%r top_p=%r kept=%d hf_kept=%d'
                   % (j + 1, found, p, int(torch.isfinite(tgi).sum()), int(torch.isfinite(hf).sum())))
    return out


def main():
    out = sys.argv[1]
    tag, d = sys.argv[2].split('=', 1)
    torch.set_num_threads(1)
    stubs()
    utils = os.path.join(d, 'server/text_generation_server/utils')
    lp = sc.load(os.path.join(utils, 'logits_process.py'), 'text_generation_server.utils.logits_process')
    tokens_mod = sc.load(os.path.join(utils, 'tokens.py'), 'text_generation_server.utils.tokens')
    heads = []
    for f in ('tokens.py', 'logits_process.py'):
        with open(os.path.join(utils, f), 'rb') as fh:
            heads.append('# source: text-generation-inference %s server/text_generation_server/utils/%s sha256 %s'
                         % (tag, f, hashlib.sha256(fh.read()).hexdigest()))
    # top_k > V: HeterogeneousTopKLogitsWarper gathers index k - 1 of a topk clamped to V, a
    # RuntimeError (samplab refuses it)
    lines = [run_case(tokens_mod, c) for c in sc.cases(SAMPLINGS) if c[8].get('top_k', 0) <= c[1]]
    lines += edge_lines(lp)
    sc.write(out, '# TGI HeterogeneousNextTokenChooser on batches of requests (its source, stubbed imports), torch %s, '
                'one thread; analysis/golden/current/tgi_batch.py (format in serving_cases.py)' % torch.__version__,
             heads, lines, libinfo)
    print('tgi_batch: %d cases' % len(lines))


if __name__ == '__main__':
    main()
