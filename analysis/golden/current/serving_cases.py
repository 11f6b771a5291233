"""serving_cases.py — the batches vllm_batch.py and tgi_batch.py run, and the logits of
each row, made exactly as tests/golden_gen.h's gg_fill_logits makes them (SplitMix64,
u * 20 - 10 in float32, +12 for one in a thousand), so the Criterion test regenerates
them instead of reading them. A row's kind changes them after: 'ties' floors every
value (a few levels, many ties), 'neginf' sets every entry i % 3 == 1 to -inf.

A case line: case ID key=value ... tokens=ROW|ROW... words=ROW|ROW..., a ROW being
the comma-separated values of its steps (tokens[b][t]; words[b][t] the running words
of the generator row b drew from after step t: its own, or the global one).
"""
import importlib.util
import sys
import types

import numpy as np

GAMMA = np.uint64(0x9E3779B97F4A7C15)
C1 = np.uint64(0xBF58476D1CE4E5B9)
C2 = np.uint64(0x94D049BB133111EB)


def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * C1
    z = (z ^ (z >> np.uint64(27))) * C2
    return z ^ (z >> np.uint64(31))


def gg_logits(seed, n):
    """gg_fill_logits(seed, n): float32[n]"""
    with np.errstate(over='ignore'):
        i = np.arange(n, dtype=np.uint64)
        s0 = np.uint64(seed)
        z1 = _mix(s0 + (np.uint64(2) * i + np.uint64(1)) * GAMMA)
        z2 = _mix(s0 + (np.uint64(2) * i + np.uint64(2)) * GAMMA)
    u = (z1 >> np.uint64(40)).astype(np.uint32).astype(np.float32) * np.float32(1.0 / 16777216.0)
    x = u * np.float32(20.0) - np.float32(10.0)
    bump = (z2 % np.uint64(1000)) == 0
    x[bump] = x[bump] + np.float32(12.0)
    return x


def row_logits(gen, b, V, kind):
    x = gg_logits(gen + b, V)
    if kind == 'ties':
        x = np.floor(x).astype(np.float32)
    elif kind == 'neginf':
        x[1::3] = -np.inf
    return x


def batch_logits(gen, B, V, kind):
    return np.stack([row_logits(gen, b, V, kind) for b in range(B)])


def seeds_text(seeds):
    return ','.join('none' if s is None else str(s) for s in seeds)


def join_rows(rows):
    return '|'.join(','.join(str(v) for v in r) for r in rows)


def words_after(gen_seed, words, torch):
    """Whether a generator seeded gen_seed that spent `words` 32-bit words has the state of
    `g`: a fresh one advanced by randint(0, 2) draws (one word each: random() % 2)."""
    f = torch.Generator().manual_seed(gen_seed)
    if words:
        torch.randint(0, 2, (words,), generator=f)
    return f.get_state()


def cases(samplings):
    """(id, V, B, kind, gen, seeds, global_seed, n, setting) for every batch run:
    many seeds, seeded and unseeded mixes, the same requests in other orders, B 1..8,
    V 2..151,936, ties and -inf, each setting of `samplings`."""
    out = []
    mixes = [
        [7], [None], [7, None], [None, 7], [7, 9], [None, None],
        [7, None, 9], [9, None, 7], [None, 7, 9], [7, 9, None],
        [1, 2, 3, 4], [None, 1, None, 2], [2**63 + 5, None, 0, 2**32 + 1, None],
        [11, 12, None, 13, 14, None, 15, 16], [None] * 8, [5, 6, 7, 8, 9, 10, 11, 12],
        [42, None, 42, None, 42, None],
    ]
    shapes = [(2, 'plain'), (7, 'ties'), (100, 'plain'), (100, 'neginf'), (1000, 'ties'), (1000, 'plain'),
              (32000, 'plain')]
    k = 0
    for si, setting in enumerate(samplings):
        for mi, seeds in enumerate(mixes):
            V, kind = shapes[(si * 3 + mi) % len(shapes)]
            k += 1
            gen = 1000 + 17 * k
            out.append(('c%04d' % k, V, len(seeds), kind, gen, seeds, 3 + mi, 3, setting))
    # the vocabulary of Qwen2 (151,936): a few batches, two steps
    for seeds in ([7, None, 9], [None] * 4 + [1, 2, 3, 4], [123456789]):
        k += 1
        out.append(('c%04d' % k, 151936, len(seeds), 'plain', 5000 + k, seeds, 0, 2, samplings[0]))
    return out


def write(out, title, heads, lines, libinfo):
    """The golden file: its title, the library lines, the sources read, the records."""
    with open(out, 'w') as f:
        f.write(title + '\n')
        f.write('\n'.join(libinfo.lines()) + '\n')
        f.write('\n'.join(heads) + '\n')
        f.write('# every generator: its words checked against a fresh one advanced by as many (get_state)\n')
        f.write('\n'.join(lines) + '\n')


def stub(name, **attrs):
    """A module standing in for one of the engine's that a sampler file imports."""
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def load(path, name):
    """The engine's file at path, imported as module name (its imports already stubbed)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def fmt(v):
    return repr(float(v)) if isinstance(v, float) else str(v)
