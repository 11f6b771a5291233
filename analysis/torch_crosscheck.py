#!/usr/bin/python3
"""torch_crosscheck.py — samplab draw --framework torch against the live torch, as a
user would run it: fresh random seeds, vocabularies, dtypes, K, replacement and
input formats (inline text, a text file, float32/float64 .npy), token by token, and
the words samplab reports against torch's 2·V per race call and 2·K per
replacement call (golden files hold the words measured from torch's state). Seeds include
the limits 0, 2^32 - 1, 2^32, 2^63 and 2^64 - 1; vectors include ties, zeros at both
ends, subnormal and near-FLT_MAX weights. Some trials poison the vector (a negative,
NaN or infinite entry, or all zeros): torch must raise and samplab exit 2 with torch's
message and nothing on stdout. Text is given to torch exactly as samplab parses it:
float32 through the C library's strtof (ctypes), float64 through float().

Usage: /usr/bin/python3 analysis/torch_crosscheck.py [TRIALS] [SEED]   (repo root)
Exit 0 when every trial matches."""
import ctypes
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

libc = ctypes.CDLL(None)
libc.strtof.restype = ctypes.c_float
libc.strtof.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
BIN = os.environ.get('SL_BIN', 'bin/samplab')


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rs = np.random.RandomState(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    bad = errors = 0
    tmp = tempfile.mkdtemp(prefix='torch-crosscheck-')
    for t in range(trials):
        V = int(rs.choice([1, 2, 4, 7, 9, 50, 333, 1000, 2048, 7777, 49152, 100003]))
        kind = rs.randint(0, 8)
        if kind == 0:
            w = rs.random_sample(V)
        elif kind == 1:
            x = rs.standard_normal(V) * rs.choice([1.0, 4.0])
            w = np.exp(x - x.max())
            w /= w.sum()
        elif kind == 2:
            w = rs.random_sample(V) * (rs.random_sample(V) < 0.05)
            w[rs.randint(V)] = 0.5
        elif kind == 3:
            w = 1.0 / np.arange(1, V + 1) ** rs.choice([0.8, 1.2])
        elif kind == 4:  # ties, zeros at both ends
            w = np.full(V, float(rs.choice([0.25, 1.0, 3.0])))
            if V > 2:
                w[0] = w[-1] = 0.0
        elif kind == 5:  # subnormal float32 weights
            w = rs.random_sample(V) * 1e-42
        elif kind == 6:  # near FLT_MAX: p / q overflows to inf for many entries
            w = rs.random_sample(V) * 3e38
        else:  # tiny mixed with ordinary
            w = rs.random_sample(V)
            w[rs.random_sample(V) < 0.5] = 1e-40
        poison = rs.randint(0, 8) == 0
        if poison:
            w = w.copy()
            what = rs.randint(0, 4)
            if what == 3:
                w[:] = 0.0
            else:
                w[rs.randint(V)] = [-0.5, float('nan'), float('inf')][what]
        fmt = str(rs.choice(['%.6g', '%.9g', '%.17g', '%.3e']))
        texts = [fmt % v for v in w]
        form = rs.choice(['inline', 'file', 'npy32', 'npy64']) if V <= 50 else rs.choice(['file', 'npy32', 'npy64'])
        dtype_opt = rs.choice([None, 'float32', 'float64'])
        if form in ('inline', 'file'):
            src_dtype = dtype_opt or 'float32'
            vals32 = [libc.strtof(s.encode(), None) for s in texts]
            vals64 = [float(s) for s in texts]
            if form == 'inline':
                probs = ','.join(texts)
            else:
                probs = os.path.join(tmp, 'p%d.txt' % t)
                with open(probs, 'w') as f:
                    f.write('\n'.join(texts) + '\n')
            p = torch.tensor(vals32 if src_dtype == 'float32' else vals64,
                             dtype=torch.float32 if src_dtype == 'float32' else torch.float64)
        else:
            arr = w.astype(np.float32 if form == 'npy32' else np.float64)
            probs = os.path.join(tmp, 'p%d.npy' % t)
            np.save(probs, arr)
            src_dtype = dtype_opt or ('float32' if form == 'npy32' else 'float64')
            p = torch.from_numpy(arr.copy()).to(torch.float32 if src_dtype == 'float32' else torch.float64)
        nnz = int((p > 0).sum())
        repl = bool(rs.randint(0, 3) == 0)
        k = int(rs.randint(1, 6)) if repl else int(rs.randint(1, max(1, min(V, nnz, 5)) + 1))
        n = int(rs.randint(1, 5))
        if rs.randint(0, 4) == 0:
            seed = [0, 2**32 - 1, 2**32, 2**63, 2**64 - 1][rs.randint(0, 5)]
        else:
            seed = int(rs.randint(0, 2**32, dtype=np.uint64)) << 32 | int(rs.randint(0, 2**32, dtype=np.uint64))
        torch.manual_seed(seed)
        try:
            want = [torch.multinomial(p, k, replacement=repl).tolist() for _ in range(n)]
            err = None
        except RuntimeError as e:
            want, err = None, str(e).splitlines()[0]
        want_words = n * (2 * k if repl else 2 * V)
        cmd = [BIN, 'draw', '--framework', 'torch', '--probs', probs, '--seed', str(seed), '--n', str(n),
               '--num-samples', str(k), '--json']
        if repl:
            cmd.append('--replacement')
        if dtype_opt:
            cmd += ['--dtype', dtype_opt]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if err is not None:
            errors += 1
            if r.returncode != 2 or r.stdout or err not in r.stderr:
                bad += 1
                print('trial %d: torch raises "%s"; samplab exit %d, stdout %r, stderr %s'
                      % (t, err, r.returncode, r.stdout[:60], r.stderr.strip()))
            continue
        if r.returncode != 0:
            print('trial %d: samplab failed: %s' % (t, r.stderr.strip()))
            bad += 1
            continue
        got = json.loads(r.stdout)
        if got['tokens'] != want or got['rng']['words'] != want_words:
            bad += 1
            print('trial %d MISMATCH V=%d form=%s dtype=%s k=%d repl=%s seed=%d: torch %s, samplab %s (words %d vs %d)'
                  % (t, V, form, src_dtype, k, repl, seed, want[:2], got['tokens'][:2], want_words,
                     got['rng']['words']))
    print('torch_crosscheck: torch %s, %d trials (%d raised by torch), %d mismatches'
          % (torch.__version__, trials, errors, bad))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
