#!/usr/bin/python3
"""torch_golden.py — golden outputs of the real torch.multinomial (CPU, default generator).

Runs Debian's python3-torch (1.13.1, reported as 1.13.0a0) and writes, for every case,
the tokens torch.multinomial returns and the 32-bit MT19937 words it consumed.
Consumption is measured from torch.get_rng_state() alone: the state array is matched
against MT19937 twists computed with CPython's `random` module (setstate/getrandbits),
never against samplab's C code.

Usage:
  torch_golden.py OUTDIR            write OUTDIR/torch_multinomial.txt and the big vectors
  torch_golden.py --random N SEED   print N extra random cases (same format, V up to 49152) to stdout
  torch_golden.py --fingerprint     words consumed by 1000 float32 exponential_() draws
                                    (2000 = mt19937 path, emulable; else MKL/VSL: not)

Format (one record a line, '#' comments):
  vec NAME DTYPE V v0,v1,...        values printed %.9g (float32) / %.17g (float64),
                                    so strtof / strtod give back the exact tensor
  vecfile NAME DTYPE V FILE         the same, one value a line in FILE (same directory)
  case ID NAME SEED N K R WORDS TOKENS
                                    N calls torch.multinomial(p, K, replacement=R) after
                                    torch.manual_seed(SEED); WORDS = cumulative words after
                                    each call (comma list); TOKENS = calls separated by ';',
                                    samples within a call by ','
  error ID NAME SEED K R WORDS MESSAGE   torch raised MESSAGE (first line) after WORDS words
  exp ID SEED DTYPE N WORDS FNV x0,x1,x2
                                    torch.manual_seed(SEED); torch.empty(N, dtype).exponential_():
                                    the words it drew, FNV-1a 64 of the values' bytes, the first
                                    three values as hex floats (exponential_ decides every race)
"""
import math
import os
import random
import struct
import sys

import numpy as np
import torch

MT_N = 624


def mt_seeded(seed32):
    mt = [seed32 & 0xFFFFFFFF]
    for i in range(1, MT_N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
    return mt


def mt_twist(mt):
    """One MT19937 twist, done by CPython's own generator (index 624 forces it)."""
    r = random.Random()
    r.setstate((3, tuple(mt) + (MT_N,), None))
    r.getrandbits(32 * MT_N)
    return list(r.getstate()[1][:MT_N])


class WordMeter:
    """Counts the words torch's generator has produced since manual_seed."""

    def __init__(self):
        seed = torch.initial_seed()
        self.states = [mt_seeded(seed & 0xFFFFFFFF)]

    def words(self):
        raw = torch.get_rng_state().numpy().tobytes()
        _seed, left, _seeded, nxt = struct.unpack_from('<QiiQ', raw, 0)
        st = [w & 0xFFFFFFFF for w in struct.unpack_from('<624Q', raw, 24)]
        if nxt == 0:
            assert left == 1 and st == self.states[0], 'unexpected fresh state'
            return 0
        assert left == MT_N + 1 - nxt, (left, nxt)
        t = 1
        while True:
            while len(self.states) <= t:
                self.states.append(mt_twist(self.states[-1]))
                if len(self.states) > 200000:
                    raise RuntimeError('state not found')
            if self.states[t] == st:
                return (t - 1) * MT_N + nxt
            t += 1


def fmt(x, dtype):
    return '%.9g' % float(np.float32(x)) if dtype == 'float32' else repr(float(x))


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [v / s for v in e]


TDT = {'float32': torch.float32, 'float64': torch.float64}


class Writer:
    def __init__(self, out, outdir=None):
        self.out = out
        self.outdir = outdir
        self.vecs = {}
        self.ncase = 0

    def vec(self, name, values, dtype, tofile=False):
        strs = [fmt(v, dtype) for v in values]
        # The tensor is built from the printed text, exactly as samplab reads it.
        self.vecs[name] = torch.tensor([float(s) for s in strs], dtype=TDT[dtype])
        if tofile:
            fname = 'torch_vec_%s.txt' % name
            with open(os.path.join(self.outdir, fname), 'w') as f:
                f.write(''.join(s + '\n' for s in strs))
            self.out.write('vecfile %s %s %d %s\n' % (name, dtype, len(strs), fname))
        else:
            self.out.write('vec %s %s %d %s\n' % (name, dtype, len(strs), ','.join(strs)))

    def case(self, name, seed, n, k, repl):
        p = self.vecs[name]
        self.ncase += 1
        cid = 'c%d' % self.ncase
        torch.manual_seed(seed)
        meter = WordMeter()
        toks, words = [], []
        try:
            for _ in range(n):
                t = torch.multinomial(p, k, replacement=bool(repl))
                toks.append(','.join(str(int(x)) for x in t.tolist()))
                words.append(meter.words())
        except RuntimeError as e:
            msg = str(e).splitlines()[0]
            self.out.write('error %s %s %d %d %d %d %s\n' % (cid, name, seed, k, repl, meter.words(), msg))
            return
        self.out.write('case %s %s %d %d %d %d %s %s\n' % (
            cid, name, seed, n, k, repl, ','.join(map(str, words)), ';'.join(toks)))


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def exp_record(w, seed, dtype, n):
    w.ncase += 1
    torch.manual_seed(seed)
    meter = WordMeter()
    x = torch.empty(n, dtype=TDT[dtype]).exponential_()
    words = meter.words()
    h = fnv1a64(x.numpy().tobytes())
    first = ','.join(float(v).hex() for v in x[:3].tolist())
    w.out.write('exp c%d %d %s %d %d %016x %s\n' % (w.ncase, seed, dtype, n, words, h, first))


def random_vector(rs, V):
    kind = rs.randint(0, 5)
    if kind == 0:
        v = rs.dirichlet(np.ones(V) * rs.choice([0.05, 0.3, 1.0, 5.0]))
    elif kind == 1:
        v = np.array(softmax(list(rs.standard_normal(V) * rs.choice([0.5, 2.0, 6.0]))))
    elif kind == 2:
        v = rs.random_sample(V) * (rs.random_sample(V) < 0.2)
        v[rs.randint(0, V)] = rs.random_sample() + 0.01
    elif kind == 3:
        v = rs.randint(0, 6, size=V).astype(float)
        v[rs.randint(0, V)] = 1.0
    else:
        v = rs.random_sample(V) * 10.0 ** rs.randint(-30, 30)
    return [float(x) for x in v]


def random_cases(w, count, seed, prefix, big=False):
    rs = np.random.RandomState(seed)
    sizes = [1, 2, 3, 5, 8, 17, 64, 100, 257, 640, 1000, 3000]
    if big:
        sizes += [10000, 49152, 49152]
    for i in range(count):
        V = int(rs.choice(sizes))
        dtype = 'float32' if rs.randint(0, 3) else 'float64'
        name = '%s%d' % (prefix, i)
        w.vec(name, random_vector(rs, V), dtype)
        nnz = int((w.vecs[name] > 0).sum())
        repl = int(rs.randint(0, 4) == 0)
        if repl:
            k = int(rs.randint(1, 8))
        else:
            # mostly k <= nnz; sometimes beyond, where torch orders the zero ratios
            k = int(rs.randint(1, min(V, max(nnz, 1) + 2) + 1)) if rs.randint(0, 4) == 0 \
                else int(rs.randint(1, min(V, nnz, 6) + 1))
            k = min(k, V)
        n = int(rs.randint(1, 4))
        s = int(rs.randint(0, 2**32, dtype=np.uint64)) << 32 | int(rs.randint(0, 2**32, dtype=np.uint64))
        if rs.randint(0, 3) == 0:
            s = int(rs.randint(0, 1000))
        w.case(name, s, n, k, repl)


def header(out):
    out.write('# torch.multinomial golden outputs: torch %s (Debian python3-torch), numpy %s\n'
              % (torch.__version__, np.__version__))
    out.write('# mkl available: %s; fingerprint: %s\n'
              % (torch.backends.mkl.is_available(), fingerprint()))
    out.write('# written by analysis/golden/torch_golden.py; words measured from get_rng_state()\n')


def fingerprint():
    torch.manual_seed(0)
    meter = WordMeter()
    torch.empty(1000, dtype=torch.float32).exponential_()
    w = meter.words()
    path = 'mt19937 path' if w == 2000 else 'NOT the mt19937 path (MKL/VSL?): cannot be emulated'
    return '1000 float32 exponential_() consumed %d words (%s)' % (w, path)


SEEDS = [0, 1, 42, 2**32 + 42, 2**64 - 1, 123456789, 2**63, 0xDEADBEEFCAFEBABE, 4294967295, 7]


def main_golden(outdir):
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, 'torch_multinomial.txt')
    with open(path, 'w') as out:
        header(out)
        w = Writer(out, outdir)
        weather = softmax([4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2])
        sm4 = softmax([3.0, 2.0, 2.0, 1.0])
        small = {
            'sm4': sm4, 'weather': weather,
            'zeros8': [0, 0.5, 0, 0.25, 0, 0, 0, 0.25],
            'single5': [0, 0, 0, 1, 0], 'v1': [1.0],
            'unnorm6': [3, 1, 7, 0.5, 12, 2], 'uniform10': [1.0] * 10,
            'huge6': [3e38] * 6, 'huge200': [3e38] * 200, 'huge1000': [3e38] * 1000,
            'zeros1000': [0.0] * 1000,
        }
        small['zeros1000'][17] = 0.5
        small['zeros1000'][500] = 0.25
        small['zeros1000'][999] = 0.25
        for dt in ('float32', 'float64'):
            for name, v in small.items():
                w.vec(name + ('' if dt == 'float32' else '_f64'), v, dt)
        # Zipf (s = 1.1) and a top-40-masked softmax, V = 49152, float32, one value a line.
        V = 49152
        z = [1.0 / (i + 1) ** 1.1 for i in range(V)]
        zs = math.fsum(z)
        w.vec('zipf49152', [x / zs for x in z], 'float32', tofile=True)
        rs = np.random.RandomState(2024)
        logits = rs.standard_normal(V) * 3.0
        top = sorted(range(V), key=lambda i: -logits[i])[:40]
        sm = softmax([float(logits[i]) for i in top])
        t40 = [0.0] * V
        for i, pi in zip(top, sm):
            t40[i] = pi
        w.vec('top40_49152', t40, 'float32', tofile=True)

        for dt in ('', '_f64'):
            for name in ('sm4', 'weather', 'zeros8', 'single5', 'v1', 'unnorm6', 'uniform10', 'huge6'):
                for s in SEEDS:
                    w.case(name + dt, s, 3, 1, 0)
            w.case('weather' + dt, 42, 200, 1, 0)
            w.case('sm4' + dt, 0, 100, 1, 0)
            # K > 1 without replacement (incl. K > nnz and ties among +inf ratios)
            for name, ks in (('sm4', (2, 3, 4)), ('weather', (2, 3, 5, 8)), ('unnorm6', (4, 6)),
                             ('zeros8', (2, 3, 4, 6, 8)), ('single5', (1, 2, 5)), ('huge6', (2, 3, 6)),
                             ('huge200', (2, 3, 4, 10)), ('huge1000', (2, 5, 10, 15, 16, 17, 40)),
                             ('zeros1000', (3, 4, 10, 15, 16, 20, 100)), ('uniform10', (3, 10))):
                for k in ks:
                    for s in (0, 42, 2**64 - 1):
                        w.case(name + dt, s, 2, k, 0)
            # replacement=True, several K (incl. K = 1, which in 1.13 takes the cdf path)
            for name in ('sm4', 'weather', 'zeros8', 'single5', 'v1', 'unnorm6', 'huge6', 'uniform10'):
                for k in (1, 2, 3, 5, 7):
                    for s in (0, 42, 2**32 + 42):
                        w.case(name + dt, s, 2, k, 1)
            w.case('weather' + dt, 42, 100, 1, 1)
        for s in SEEDS:
            w.case('zipf49152', s, 2, 1, 0)
            w.case('top40_49152', s, 2, 1, 0)
        w.case('zipf49152', 42, 30, 1, 0)
        w.case('top40_49152', 42, 30, 1, 0)
        for k in (2, 5, 40):
            w.case('zipf49152', 42, 2, k, 0)
            w.case('top40_49152', 0, 2, k, 0)
        w.case('top40_49152', 0, 1, 41, 0)
        for k in (1, 3, 7):
            w.case('zipf49152', 42, 3, k, 1)
            w.case('top40_49152', 42, 3, k, 1)

        # errors: torch raises before any draw
        bad = {'neg': [0.5, -0.1, 0.6], 'nan': [0.5, float('nan'), 0.5], 'inf': [0.5, float('inf'), 0.5],
               'negz': [0.0, -0.0, 1.0], 'allzero': [0.0, 0.0, 0.0], 'ninf': [1.0, -float('inf')]}
        for dt in ('float32', 'float64'):
            sfx = '' if dt == 'float32' else '_f64'
            for name, v in bad.items():
                w.vec('bad_' + name + sfx, v, dt)
                for repl in (0, 1):
                    w.case('bad_' + name + sfx, 42, 1, 1, repl)
                    w.case('bad_' + name + sfx, 42, 1, 2, repl)
            w.case('sm4' + sfx, 42, 1, 5, 0)
            w.case('sm4' + sfx, 42, 1, 0, 0)
            w.case('sm4' + sfx, 42, 1, 0, 1)
        # denormal weights: ratios round to a few values (ties everywhere), or to 0
        w.vec('denorm8', [1e-45] * 8, 'float32')
        w.vec('denorm_mix', [1e-45, 0.0, 3e-45, 1e-44, 1e-45, 2e-45, 0.0, 1e-45], 'float32')
        w.vec('denorm8_f64', [5e-324] * 8, 'float64')
        w.vec('extremes', [1e-30, 3e38, 1e-45, 1.0, 3e38, 0.0], 'float32')
        for name in ('denorm8', 'denorm_mix', 'denorm8_f64', 'extremes'):
            for s in SEEDS[:6]:
                w.case(name, s, 3, 1, 0)
                w.case(name, s, 2, 3, 0)
                w.case(name, s, 2, 3, 1)
            w.case(name, 42, 2, 8 if name != 'extremes' else 6, 0)
        # 3e38 float32: the with-replacement sum overflows to +inf
        w.vec('huge_sum', [3e38, 3e38, 1.0], 'float32')
        for k in (1, 4):
            w.case('huge_sum', 42, 2, k, 1)

        random_cases(w, 80, 20261129, 'r')

        # exponential_ itself: 1.13 takes -log(1 - u), 2.x log1p(-u) (differs in float64)
        for s in (0, 42, 2**64 - 1):
            for dt in ('float32', 'float64'):
                exp_record(w, s, dt, 30000)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--fingerprint':
        print('torch %s, mkl available: %s' % (torch.__version__, torch.backends.mkl.is_available()))
        print(fingerprint())
        return
    if len(sys.argv) == 4 and sys.argv[1] == '--random':
        header(sys.stdout)
        random_cases(Writer(sys.stdout), int(sys.argv[2]), int(sys.argv[3]), 'x', big=True)
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    torch.set_num_threads(1)
    main_golden(sys.argv[1])


if __name__ == '__main__':
    main()
