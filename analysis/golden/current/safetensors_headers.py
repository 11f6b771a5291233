#!/usr/bin/python3
"""safetensors_headers.py — the safetensors library's own verdict on files with
hand-written and mutated headers, for samplab's reader (src/io/safetensors.c):
__metadata__ forms, duplicate keys, offsets out of order, overlapping, short or
past the end, shapes that do not match the bytes, dtypes, trailing bytes,
non-objects, and 2,000 random mutations of three valid headers (the header
length recomputed, so each mutation tests the JSON and the layout rules).
Each file goes through safetensors.deserialize (the Rust reader that
safe_open and load use).

Output, one line per file: HEX OK or HEX ERR, HEX the whole file.
Usage: safetensors_headers.py OUT.txt
"""
import json
import random
import struct
import sys

import safetensors

F4 = struct.pack('<4f', 1, 2, 3, 4)


def entry(dtype='F32', shape=(4,), off=(0, 16)):
    return {'dtype': dtype, 'shape': list(shape), 'data_offsets': list(off)}


def obj(d):
    return json.dumps(d, separators=(',', ':'))


HAND = [
    (obj({'x': entry()}), F4),
    (obj({'__metadata__': {'a': 'b'}, 'x': entry()}), F4),
    (obj({'__metadata__': None, 'x': entry()}), F4),
    (obj({'__metadata__': {}, 'x': entry()}), F4),
    (obj({'__metadata__': {'a': 1}, 'x': entry()}), F4),
    (obj({'__metadata__': {'a': None}, 'x': entry()}), F4),
    (obj({'__metadata__': {'a': ['b']}, 'x': entry()}), F4),
    (obj({'__metadata__': {'a': {'b': 'c'}}, 'x': entry()}), F4),
    (obj({'__metadata__': {'a': True}, 'x': entry()}), F4),
    (obj({'__metadata__': 'abc', 'x': entry()}), F4),
    (obj({'__metadata__': ['a'], 'x': entry()}), F4),
    (obj({'__metadata__': 1, 'x': entry()}), F4),
    (obj({'__metadata__': entry(), 'x': entry()}), F4),
    (obj({'__metadata__': {'a': 'b'}}), b''),
    (obj({}), b''),
    (obj({'x': entry(), 'y': entry(off=(16, 32))}), F4 + F4),
    (obj({'y': entry(off=(16, 32)), 'x': entry()}), F4 + F4),
    (obj({'x': entry(off=(16, 32)), 'y': entry()}), F4 + F4),
    (obj({'x': entry(), 'y': entry(off=(8, 24))}), F4 + F4[:8]),
    (obj({'x': entry(), 'y': entry(off=(0, 16))}), F4),
    (obj({'x': entry(), 'y': entry(off=(20, 36))}), F4 + F4 + b'\0' * 4),
    (obj({'x': entry(off=(0, 12))}), F4),
    (obj({'x': entry(off=(0, 20))}), F4),
    (obj({'x': entry(off=(4, 20))}), F4 + b'\0' * 4),
    (obj({'x': entry(off=(16, 0))}), F4),
    (obj({'x': entry(shape=(5,))}), F4),
    (obj({'x': entry(shape=(2, 2))}), F4),
    (obj({'x': entry(shape=(2, 3))}), F4),
    (obj({'x': entry(shape=())}), F4[:4]),
    (obj({'x': entry(shape=(0,), off=(0, 0))}), b''),
    (obj({'x': entry(dtype='F64', shape=(2,))}), F4),
    (obj({'x': entry(dtype='F16', shape=(8,))}), F4),
    (obj({'x': entry(dtype='BF16', shape=(8,))}), F4),
    (obj({'x': entry(dtype='I32')}), F4),
    (obj({'x': entry(dtype='f32')}), F4),
    (obj({'x': entry(dtype='F4', shape=(32,))}), F4),
    (obj({'x': entry(dtype='F4', shape=(3,), off=(0, 2))}), F4[:2]),
    (obj({'x': entry(dtype='F6_E2M3', shape=(4,), off=(0, 3))}), F4[:3]),
    (obj({'x': entry(dtype='BOOL', shape=(16,))}), F4),
    (obj({'x': dict(entry(), extra=1)}), F4),
    (obj({'x': {'dtype': 'F32', 'shape': [4]}}), F4),
    (obj({'x': {'shape': [4], 'data_offsets': [0, 16]}}), F4),
    (obj({'x': {'dtype': 'F32', 'data_offsets': [0, 16]}}), F4),
    (obj({'x': dict(entry(), shape=[4.0])}), F4),
    (obj({'x': dict(entry(), shape=[-4])}), F4),
    (obj({'x': dict(entry(), shape='4')}), F4),
    (obj({'x': dict(entry(), data_offsets=[0, 16, 16])}), F4),
    (obj({'x': dict(entry(), data_offsets=[0])}), F4),
    (obj({'x': dict(entry(), data_offsets=[0.0, 16])}), F4),
    (obj({'x': dict(entry(), dtype=32)}), F4),
    (obj({'x': 1}), F4),
    (obj({'x': None}), F4),
    (obj({'x': [entry()]}), F4),
    (obj({'': entry()}), F4),
    (obj({'x\u00e9': entry()}), F4),
    (obj({'x\n': entry()}), F4),
    (obj({'x': entry(shape=(1, 4))}), F4),
    (obj({'x': entry(shape=(4, 1))}), F4),
    (obj({'x': entry(shape=(1, 1, 4))}), F4),
    (obj({'x': entry(shape=(2 ** 62, 4), off=(0, 16))}), F4),
    (obj({'x': entry(shape=(2 ** 32, 2 ** 32), off=(0, 16))}), F4),
    ('[1,2]', b''),
    ('"x"', b''),
    ('1', b''),
    ('null', b''),
    (' ' + obj({'x': entry()}), F4),
    (obj({'x': entry()}) + '   ', F4),
    ('\n' + obj({'x': entry()}), F4),
    (obj({'x': entry()}) + '\x00\x00', F4),
    (obj({'x': entry()}) + 'xx', F4),
    ('\ufeff' + obj({'x': entry()}), F4),
    ('{"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4),
    ('{"x":{"dtype":"F32","dtype":"F64","shape":[4],"data_offsets":[0,16]}}', F4),
    ('{"__metadata__":{"a":"b","a":"c"},"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4),
    ('{"__metadata__":{"a":"\\u0000"},"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4),
    ('{"__metadata__":{"a":"\\ud800"},"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4),
    ('{"x":{"dtype":"F32","shape":[18446744073709551616],"data_offsets":[0,16]}}', F4),
    ('{"x":{"dtype":"F32","shape":[4e0],"data_offsets":[0,16]}}', F4),
    ('{"x":{"dtype":"F32","shape":[04],"data_offsets":[0,16]}}', F4),
    ('{"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},}', F4),
    ("{'x':{'dtype':'F32','shape':[4],'data_offsets':[0,16]}}", F4),
    ('{"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}', F4),
]
ALPHA = ['"', ',', ':', '[', ']', '{', '}', ' ', '\n', '\\', '0', '4', '16', '-', '.', 'e', 'null', 'true',
         '"__metadata__"', '"dtype"', '"shape"', '"data_offsets"', '"F32"', '"F64"', '"x"', '\x00', '\xff', '\\u0000']


def verdict(b):
    try:
        safetensors.deserialize(b)
        return 'OK'
    except Exception:
        return 'ERR'


def main():
    rng = random.Random(20240616)
    files = []
    for h, data in HAND:
        hb = h.encode('utf-8', errors='surrogatepass')
        files.append(struct.pack('<Q', len(hb)) + hb + data)
    bases = HAND[:3] + [HAND[15]]
    for _ in range(2000):
        h, data = rng.choice(bases)
        h = list(h)
        for _ in range(rng.randint(1, 3)):
            op = rng.randint(0, 2)
            i = rng.randrange(len(h) + 1)
            if op == 0 and h:
                del h[min(i, len(h) - 1)]
            elif op == 1:
                h.insert(i, rng.choice(ALPHA))
            elif h:
                h[min(i, len(h) - 1)] = rng.choice(ALPHA)
        hb = ''.join(h).encode('latin1', errors='replace') if rng.random() < 0.1 else ''.join(h).encode('utf-8')
        files.append(struct.pack('<Q', len(hb)) + hb + data)
    with open(sys.argv[1], 'w') as out:
        out.write('# safetensors %s: safetensors.deserialize on %d files; written by '
                  'analysis/golden/current/safetensors_headers.py\n' % (safetensors.__version__, len(files)))
        for b in files:
            out.write('%s %s\n' % (b.hex(), verdict(b)))


if __name__ == '__main__':
    main()
