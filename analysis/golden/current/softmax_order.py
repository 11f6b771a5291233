#!/usr/bin/python3
"""softmax_order.py — checks a model of torch's float32 softmax / log_softmax sum
order against the real torch.softmax / torch.log_softmax, per CPU kernel.

The model (read from aten/src/ATen/native/cpu/SoftMaxKernel.cpp
_vec_softmax_lastdim and aten/src/ATen/cpu/vec/functional_base.h reduce_all /
map_reduce_all / VecReduceAllSIMD; L = Vectorized<float>::size(), 8 under AVX2,
16 under AVX-512):
  e_i = exp(x_i - max)                          (torch's vectorised exp)
  n < L:  s = ((e_0 + e_1) + e_2) + ...         (vec_reduce_all's slow path)
  n >= L: a = e[0:L]; a += e[kL:(k+1)L] for every further full vector, in
          order; the t = n mod L tail is added to a[0:t]; then the shuffle
          tree: b_i = a_i + a_(i^8) (L = 16 only), c_i = b_i + b_(i^4),
          d_i = c_i + c_(i^2), s = d_0 + d_1
  softmax:     p_i = e_i * (1 / s)              (the reciprocal rounded first)
  log_softmax: y_i = (x_i - max) - log(s)       (torch's vectorised log)
Runs every input of torch_kernels.py under ATEN_CPU_CAPABILITY=avx2 and avx512
(one child each) and writes how many outputs the model gets bit-exact, for
L = 8 and L = 16. Usage: softmax_order.py OUTFILE
"""
import os
import subprocess
import sys

import numpy as np


def tree(a):
    a = a.copy()
    L = len(a)
    step = L // 2
    while step >= 1:
        a = (a + a[np.arange(L) ^ step]).astype(np.float32)
        step //= 2
    return a[0]


def reduce_sum(e, L):
    n = len(e)
    if n < L:
        s = np.float32(e[0])
        for v in e[1:]:
            s = np.float32(s + v)
        return s
    full = n - n % L
    a = e[0:L].copy()
    for k in range(L, full, L):
        a = (a + e[k:k + L]).astype(np.float32)
    t = n - full
    if t:
        a[:t] = (a[:t] + e[full:]).astype(np.float32)
    return tree(a)


def child():
    import torch
    torch.set_num_threads(1)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_kernels as tk
    cap = torch.backends.cpu.get_cpu_capability()
    stats = {}
    for name, V, seed, kind, P in tk.cases():
        x = tk.make_vec(V, seed, kind, P)
        xt = torch.from_numpy(x).unsqueeze(0)
        sm = torch.softmax(xt, -1)[0].numpy()
        ls = torch.log_softmax(xt, -1)[0].numpy()
        mx = np.float32(x.max())
        xm = (x - mx).astype(np.float32)
        e = torch.exp(torch.from_numpy(xm)).numpy()
        for L in (8, 16):
            s = reduce_sum(e, L)
            p = (e * (np.float32(1) / s)).astype(np.float32)
            # log on a full vector, so that torch takes its vectorised log
            lg = torch.log(torch.full((64,), float(s), dtype=torch.float32))[0].numpy()
            y = (xm - lg).astype(np.float32)
            for op, got, want in (('softmax', p, sm), ('log_softmax', y, ls)):
                k = (op, L)
                ok = np.array_equal(got.view(np.uint32), want.view(np.uint32))
                st = stats.setdefault(k, [0, 0, []])
                st[0] += 1
                st[1] += ok
                if not ok and len(st[2]) < 3:
                    st[2].append(name)
    for (op, L), (n, ok, bad) in sorted(stats.items()):
        print('%s: %-11s model L=%-2d bit-exact on %d of %d vectors%s'
              % (cap, op, L, ok, n, '' if ok == n else ' (first misses: %s)' % ', '.join(bad)))


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--child':
        child()
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import libinfo
    with open(sys.argv[1], 'w') as f:
        f.write('# the softmax / log_softmax sum-order model of analysis/golden/current/softmax_order.py '
                'against torch, one thread\n')
        f.write(''.join(s + '\n' for s in libinfo.lines()))
        for k in ('avx2', 'avx512'):
            env = dict(os.environ, ATEN_CPU_CAPABILITY=k)
            r = subprocess.run([sys.executable, os.path.abspath(__file__), '--child'], env=env, check=True,
                               stdout=subprocess.PIPE, universal_newlines=True)
            f.write(r.stdout)


if __name__ == '__main__':
    main()
