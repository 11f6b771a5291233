#!/usr/bin/python3
"""torch_kernels.py — torch's float32 reductions under each CPU kernel, bit for bit.

torch picks its vectorised kernels (aten/src/ATen/cpu/vec) by CPU capability at
start-up; ATEN_CPU_CAPABILITY=avx2 / avx512 forces one. The sum orders differ
(8 vs 16 lanes), so the last bits of softmax, log_softmax and sum can differ.
This script runs the same inputs through torch.softmax(x, -1),
torch.log_softmax(x, -1), torch.exp(x), torch.cumsum(x, -1) and torch.sum(x, -1)
(x a [1, V] float32 tensor) in one child process per configuration:
kernel in {default, avx2, avx512} x threads in {1, torch's default}, and writes
what each produced, then how the configurations differ.

Usage: torch_kernels.py OUTFILE

Inputs (so a C test can rebuild them exactly, without storing them):
  word i (i = 0 .. V-1) is the i-th output of splitmix64 started at SEED:
    s += 0x9e3779b97f4a7c15; z = s; z = (z ^ z>>30) * 0xbf58476d1ce4e5b9;
    z = (z ^ z>>27) * 0x94d049bb133111eb; word = z ^ z>>31   (mod 2^64)
  m = word >> 40 (24 bits), value by KIND (all exact in float32):
    uni8   x = (m - 2^23) * 2^-20                    in [-8, 8)
    wide   x = (m - 2^23) * 2^(e - 23), e = ((word >> 20) & 31) - 20
                                                     |x| from 2^-43 to 2^11
    ties   x = m >> 22                               0, 1, 2 or 3
  then x = -inf when (word & 0xfffff) >= P (P = 1048576: every entry finite).

Format (one record a line, '#' comments; floats are float.hex() of the float32):
  vec NAME V SEED KIND P FINITE          FINITE = number of finite entries
  out NAME OP CONFIG WSUM A B C          OP in softmax, log_softmax, exp, cumsum, sum;
                                         CONFIG = KERNEL/THREADS (e.g. avx512/1,
                                         default/2) with KERNEL as asked and the
                                         capability torch reported in the header;
                                         WSUM = sum of u_i * (2 i + 1) mod 2^64 over
                                         the outputs' float32 bit patterns u_i, as
                                         16 hex digits (1 value for sum);
                                         A = output at the first argmax of x
                                         (softmax: 1/sum of exp exactly, since
                                         exp(0) = 1; log_softmax: -log(sum)),
                                         B = output at index 0, C = last output
  full NAME OP CONFIG x0 x1 ...          every output, only for V <= 128
  diff NAME OP CFG1 CFG2 NDIFF MAXULP    elements that differ between two
                                         configurations and the largest distance
                                         in units in the last place
  config KERNEL THREADS CAPABILITY NUM_THREADS   what torch reported in that child
  summary OP CFG1 CFG2 FINITE_LO FINITE_HI VECTORS DIFFER MAXULP
                                         the diff lines grouped by number of finite
                                         entries (FINITE_LO <= FINITE < FINITE_HI)
"""
import os
import struct
import subprocess
import sys

VS = [8, 100, 999, 1000, 1001, 1024, 4096, 32000, 49152, 100003]
OPS = ['softmax', 'log_softmax', 'exp', 'cumsum', 'sum']
FULL_P = 1 << 20
M64 = (1 << 64) - 1


def splitmix64(seed, n):
    """The first n words of splitmix64 from state seed (numpy uint64 wraps mod 2^64)."""
    import numpy as np
    s = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9e3779b97f4a7c15)
    z = (s ^ (s >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
    return z ^ (z >> np.uint64(31))


def make_vec(V, seed, kind, P):
    """float32 numpy array of the documented inputs (every step exact)."""
    import numpy as np
    w = splitmix64(seed, V)
    m = (w >> np.uint64(40)).astype(np.int64)
    if kind == 'uni8':
        x = (m - (1 << 23)).astype(np.float64) * 2.0 ** -20
    elif kind == 'wide':
        e = ((w >> np.uint64(20)) & np.uint64(31)).astype(np.int64) - 20
        x = np.ldexp((m - (1 << 23)).astype(np.float64), e - 23)
    elif kind == 'ties':
        x = (m >> 22).astype(np.float64)
    else:
        raise ValueError(kind)
    x[(w & np.uint64(0xfffff)) >= np.uint64(P)] = -np.inf
    x32 = x.astype(np.float32)
    assert np.array_equal(x32.astype(np.float64), x)
    return x32


def check_splitmix():
    # the reference sequence of splitmix64 from state 0 (Vigna's splitmix64.c)
    assert int(splitmix64(0, 1)[0]) == 0xe220a8397b1dcdaf


def cases():
    """(name, V, seed, kind, P): every V with all entries finite (3 kinds, 2 seeds),
    then masked vectors whose expected number of finite entries runs from 1 to
    a few thousand (-inf as top-k / top-p / min-p leave them)."""
    out = []
    for V in VS:
        for kind in ('uni8', 'wide', 'ties'):
            for seed in (1, 2):
                out.append(('%s_%d_s%d' % (kind, V, seed), V, seed, kind, FULL_P))
        if V in (1000, 1001, 4096, 32000, 100003):
            for fin in (2, 8, 16, 17, 40, 50, 100, 200, 500, 1000, 2000, 4000):
                if fin >= V:
                    continue
                P = max(1, round(FULL_P * fin / V))
                for seed in (3, 4):
                    out.append(('uni8_%d_f%d_s%d' % (V, fin, seed), V, seed, 'uni8', P))
    return out


def wsum(ys):
    """sum of u_i * (2 i + 1) mod 2^64, u_i the float32 bit patterns: changes with any one output"""
    import numpy as np
    u = np.ascontiguousarray(ys, dtype='<f4').view('<u4').astype(np.uint64)
    return int((u * (np.arange(len(u), dtype=np.uint64) * np.uint64(2) + np.uint64(1))).sum(dtype=np.uint64))


def child(kernel, threads, path):
    """Runs in a fresh interpreter with ATEN_CPU_CAPABILITY already set; saves
    every output to path (.npz) and what torch reported."""
    import numpy as np
    import torch
    if threads == '1':
        torch.set_num_threads(1)
    res = {'config': np.array([kernel, threads, torch.backends.cpu.get_cpu_capability(),
                               str(torch.get_num_threads())])}
    for name, V, seed, kind, P in cases():
        x = torch.from_numpy(make_vec(V, seed, kind, P)).unsqueeze(0)
        for op in OPS:
            if op == 'softmax':
                y = torch.softmax(x, -1)
            elif op == 'log_softmax':
                y = torch.log_softmax(x, -1)
            elif op == 'exp':
                y = torch.exp(x)
            elif op == 'cumsum':
                y = torch.cumsum(x, -1)
            else:
                y = torch.sum(x, -1, keepdim=True)
            assert y.dtype == torch.float32
            res[name + ' ' + op] = y[0].numpy().copy()
    np.savez(path, **res)


def ulps(a, b):
    """Per element distance in float32 units in the last place (NaN = NaN)."""
    import numpy as np
    def ordered(v):
        u = v.view(np.uint32).astype(np.int64)
        return np.where(u >> 31, -(u & 0x7fffffff), u)
    d = np.abs(ordered(a) - ordered(b))
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    return np.where(same, 0, d)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == '--child':
        child(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tempfile
    import numpy as np
    import libinfo
    import torch
    check_splitmix()
    configs = [(k, t) for k in ('default', 'avx2', 'avx512') for t in ('1', 'default')]
    runs = {}
    tmp = tempfile.mkdtemp()
    for k, t in configs:
        env = dict(os.environ)
        env.pop('ATEN_CPU_CAPABILITY', None)
        if k != 'default':
            env['ATEN_CPU_CAPABILITY'] = k
        path = os.path.join(tmp, '%s-%s.npz' % (k, t))
        subprocess.run([sys.executable, os.path.abspath(__file__), '--child', k, t, path], env=env, check=True)
        runs[(k, t)] = np.load(path)
    cfgname = {}
    summary = {}
    buckets = [(1, 16), (16, 100), (100, 1000), (1000, 10000), (10000, 1 << 30)]
    with open(sys.argv[1], 'w') as f:
        f.write('# torch float32 reductions per CPU kernel and thread count; '
                'analysis/golden/current/torch_kernels.py (format in its docstring)\n')
        f.write(''.join(s + '\n' for s in libinfo.lines()))
        for c in configs:
            kk, tt, cap, nt = [str(v) for v in runs[c]['config']]
            cfgname[c] = '%s/%s' % (kk, nt)
            f.write('config %s %s %s %s\n' % (kk, tt, cap, nt))
        for name, V, seed, kind, P in cases():
            x = make_vec(V, seed, kind, P)
            fin = int(np.isfinite(x).sum())
            am = int(np.argmax(x))
            f.write('vec %s %d %d %s %d %d\n' % (name, V, seed, kind, P, fin))
            for op in OPS:
                outs = {}
                for c in configs:
                    ys = runs[c][name + ' ' + op]
                    outs[c] = ys
                    a = ys[0] if op == 'sum' else ys[am]
                    f.write('out %s %s %s %016x %s %s %s\n' % (
                        name, op, cfgname[c], wsum(ys), float(a).hex(),
                        float(ys[0]).hex(), float(ys[-1]).hex()))
                    if V <= 128:
                        f.write('full %s %s %s %s\n' % (name, op, cfgname[c],
                                                         ' '.join(float(y).hex() for y in ys)))
                pairs = [(('avx512', '1'), ('avx2', '1')), (('default', '1'), ('avx2', '1')),
                         (('avx2', 'default'), ('avx2', '1')), (('avx512', 'default'), ('avx512', '1'))]
                for c1, c2 in pairs:
                    d = ulps(outs[c1], outs[c2])
                    nd, mu = int((d > 0).sum()), int(d.max())
                    f.write('diff %s %s %s %s %d %d\n' % (name, op, cfgname[c1], cfgname[c2], nd, mu))
                    b = next(b for b in buckets if b[0] <= fin < b[1])
                    st = summary.setdefault((op, cfgname[c1], cfgname[c2], b), [0, 0, 0])
                    st[0] += 1
                    st[1] += nd > 0
                    st[2] = max(st[2], mu)
        for (op, c1, c2, b), (nv, ndiff, mu) in summary.items():
            f.write('summary %s %s %s %d %d %d %d %d\n' % (op, c1, c2, b[0], b[1], nv, ndiff, mu))
    for path in os.listdir(tmp):
        os.remove(os.path.join(tmp, path))
    os.rmdir(tmp)


if __name__ == '__main__':
    main()
