#!/usr/bin/python3
"""vllm_batch.py — vLLM's V1 sampler over batches of requests, seeded and unseeded, run
from vLLM's own source files in this torch: vllm_batch.txt (format: serving_cases.py).

Usage: vllm_batch.py OUT.txt COMMIT=DIR [COMMIT=DIR ...]
DIR is a vLLM source tree at COMMIT (only the sampler files are read, never copied):
  git clone https://github.com/vllm-project/vllm DIR && git -C DIR checkout COMMIT
Two commits are run:
  00ec97818a85e1d66b7594e314594651a3ad4263  vllm/v1/sample/sampler.py: Sampler.apply_temperature,
      apply_top_k_top_p (_apply_top_k_top_p), get_probs, sample (greedy_sample, random_sample)
  3babc05a035b42bb9d0ae51b83e102c85e3e5626  vllm/v1/sample/ops/topk_topp_sampler.py:
      TopKTopPSampler.forward_native (apply_top_k_top_p, apply_top_k_only, random_sample), and
      forward_cpu where every request is seeded (its eager branch); the temperature first, as
      that commit's sampler.py Sampler.apply_temperature divides (logits.div_(temp.unsqueeze(1))),
      written here (that file was read, not loaded)
The engine's other modules those files import are stubs below (vllm.envs, vllm.logger,
vllm.platforms with a platform that is neither CUDA, CPU nor ROCm, so TopKTopPSampler picks
forward_native; vllm.utils, vllm.v1.outputs, vllm.v1.sample.metadata, ...). Each request's
generator is torch.Generator().manual_seed(seed), as v1/worker/gpu_input_batch.py makes it;
the global generator is torch.manual_seed(global) before a batch's first step. Every
generator's words are checked against a fresh one advanced by as many words (its state)
after the last step; an unseeded row's words are where its part of the global fill ends
(q.exponential_() fills [B, V] row after row), which its tokens confirm.
"""
import hashlib
import os
import sys
import types

import numpy as np
import torch

import libinfo
import serving_cases as sc

SAMPLINGS = [
    {'temperature': 1.0}, {'temperature': 0.7, 'top_k': 5}, {'temperature': 1.3, 'top_p': 0.9},
    {'temperature': 0.8, 'top_k': 50, 'top_p': 0.95}, {'temperature': 0.0}, {'temperature': 1.0, 'top_k': 1},
    {'temperature': 1.0, 'top_p': 0.5},
]


class _Log:
    def __getattr__(self, _):
        return lambda *a, **k: None


class _Platform:
    def is_cuda(self):
        return False

    def is_cpu(self):
        return False

    def is_xpu(self):
        return False


def stubs():
    for pkg in ('vllm', 'vllm.v1', 'vllm.v1.sample', 'vllm.v1.sample.ops', 'vllm.model_executor',
                'vllm.model_executor.layers', 'vllm.config'):
        sc.stub(pkg).__path__ = []
    sc.stub('vllm.envs', VLLM_USE_FLASHINFER_SAMPLER=False)
    sys.modules['vllm'].envs = sys.modules['vllm.envs']
    sc.stub('vllm._aiter_ops', rocm_aiter_ops=types.SimpleNamespace(is_enabled=lambda: False))
    sc.stub('vllm.config.model', LogprobsMode=str)
    sc.stub('vllm.logger', init_logger=lambda name: _Log())
    sc.stub('vllm.platforms', CpuArchEnum=types.SimpleNamespace(RISCV='riscv', POWERPC='powerpc', X86='x86'),
         current_platform=_Platform())
    sc.stub('vllm.model_executor.layers.utils', apply_penalties=None)
    sc.stub('vllm.utils', is_pin_memory_available=lambda: False, make_tensor_with_pad=None)
    sc.stub('vllm.v1.outputs', SamplerOutput=None)
    sc.stub('vllm.v1.sample.metadata', SamplingMetadata=None)


def run_case(kind, mod, case):
    cid, V, B, rkind, gen, seeds, gseed, n, st = case
    T = st.get('temperature', 1.0)
    k = st.get('top_k', 0)
    p = st.get('top_p', 1.0)
    base = torch.from_numpy(sc.batch_logits(gen, B, V, rkind))
    torch.manual_seed(gseed)
    gens = {i: torch.Generator().manual_seed(s) for i, s in enumerate(seeds) if s is not None}
    temp = torch.full((B,), T, dtype=torch.float32)
    # gpu_input_batch.py: top_k outside (0, V) is V, and a batch all at V has no top-k
    kt = torch.full((B,), k, dtype=torch.int32) if 0 < k < V else None
    pt = torch.full((B,), p, dtype=torch.float32) if p < 1.0 else None
    toks = [[] for _ in range(B)]
    words = [[] for _ in range(B)]
    gw = 0
    ow = {i: 0 for i in gens}
    greedy = T < 1e-5
    for _ in range(n):
        logits = base.clone()
        if kind == 'sampler':
            s = mod.Sampler()
            md = types.SimpleNamespace(all_greedy=greedy, all_random=not greedy, generators=gens, temperature=temp,
                                       no_top_k=kt is None, top_k=kt, no_top_p=pt is None, top_p=pt)
            logits = s.apply_temperature(logits, md.temperature)
            logits = s.apply_top_k_top_p(logits, md)
            probs = s.get_probs(logits)
            out = s.sample(probs, md)
        else:
            logits.div_(temp.unsqueeze(dim=1))
            sampler = mod.TopKTopPSampler()
            fn = sampler.forward_cpu if kind == 'forward_cpu' else sampler.forward_native
            out = fn(logits, gens, kt, pt)[0]
        # q.exponential_() fills q row after row: row b's noise is the global words
        # [gw + 2Vb, gw + 2V(b + 1)) (two 32-bit words an exponential)
        fill = not greedy and (len(gens) != B or kind == 'forward_cpu')  # forward_cpu fills before its refills
        for b in range(B):
            toks[b].append(int(out[b]))
            if b in gens and not greedy:
                ow[b] += 2 * V
            words[b].append(ow[b] if b in gens else gw + 2 * V * (b + 1) if fill else gw)
        if fill:
            gw += 2 * B * V
    # the words each generator spent, from its state
    assert torch.equal(torch.default_generator.get_state(), sc.words_after(gseed, gw, torch)), (cid, 'global')
    for i, g in gens.items():
        assert torch.equal(g.get_state(), sc.words_after(seeds[i], ow[i], torch)), (cid, i)
    sets = ' '.join('%s=%s' % (key, sc.fmt(st[key])) for key in ('temperature', 'top_k', 'top_p') if key in st)
    return ('case %s-%s V=%d B=%d kind=%s gen=%d seeds=%s global=%d n=%d %s tokens=%s words=%s'
            % (cid, kind, V, B, rkind, gen, sc.seeds_text(seeds), gseed, n, sets, sc.join_rows(toks),
               sc.join_rows(words)))


def main():
    out = sys.argv[1]
    srcs = dict(a.split('=', 1) for a in sys.argv[2:])
    torch.set_num_threads(1)
    stubs()
    lines = []
    heads = []
    for commit, d in srcs.items():
        if commit.startswith('00ec9781'):
            path = os.path.join(d, 'vllm/v1/sample/sampler.py')
            runs = [('sampler', sc.load(path, 'vllm.v1.sample.sampler'))]
        else:
            path = os.path.join(d, 'vllm/v1/sample/ops/topk_topp_sampler.py')
            m = sc.load(path, 'vllm.v1.sample.ops.topk_topp_sampler')
            runs = [('forward_native', m), ('forward_cpu', m)]
        with open(path, 'rb') as f:
            heads.append('# source: vllm %s %s sha256 %s' % (commit, os.path.relpath(path, d),
                                                              hashlib.sha256(f.read()).hexdigest()))
        for kind, mod in runs:
            for case in sc.cases(SAMPLINGS):
                seeds, st = case[5], case[8]
                if kind != 'sampler' and st.get('temperature', 1.0) < 1e-5:
                    continue  # greedy is Sampler.sample's all_greedy, before this module
                if kind == 'forward_cpu' and None in seeds:
                    continue  # a request without a seed: compiled_random_sample (torch.compile), not modelled
                lines.append(run_case(kind, mod, case))
    sc.write(out, '# vLLM V1 sampler on batches of requests (their source, stubbed imports), torch %s, one thread; '
                'analysis/golden/current/vllm_batch.py (format in serving_cases.py)' % torch.__version__,
             heads, lines, libinfo)
    print('vllm_batch: %d cases' % len(lines))


if __name__ == '__main__':
    main()
