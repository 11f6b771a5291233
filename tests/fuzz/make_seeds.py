#!/usr/bin/python3
"""make_seeds.py — writes the seed corpora of the fuzz targets into
tests/fuzz/corpus/<target>/: small valid inputs of each format (and a few
near misses) for libFuzzer to mutate. Run from the repository root; needs
numpy (.npy seeds) and the safetensors fixtures under data/golden/safetensors/.
"""
import io
import os
import shutil
import struct

import numpy as np

root = "tests/fuzz/corpus"


def put(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# text: the formats the text reader takes (separators, comments, specials)
put("text", "inline", "3,2,2,1")
put("text", "lines", "0.5\n0.3\n0.2\n")
put("text", "comments", "# probabilities\n0.25, 0.25 # half\n\t0.5\r\n")
put("text", "specials", "1e-300 4.9e-324 1.7976931348623157e308 -0 +1 0x1p-3 inf nan")
put("text", "ties", "3 2 2 1")


def npy(arr, version=None):
    b = io.BytesIO()
    if version:
        np.lib.format.write_array(b, arr, version=version)
    else:
        np.save(b, arr)
    return b.getvalue()


put("npy", "f4.npy", npy(np.array([3, 2, 2, 1], dtype="<f4")))
put("npy", "f8.npy", npy(np.array([0.5, 0.3, 0.2], dtype="<f8")))
put("npy", "f8_v2.npy", npy(np.array([1.0, 2.0], dtype="<f8"), (2, 0)))
put("npy", "f4_v3.npy", npy(np.array([1.0, -np.inf], dtype="<f4"), (3, 0)))
put("npy", "big_endian.npy", npy(np.array([1.0, 2.0], dtype=">f8")))
put("npy", "two_d.npy", npy(np.ones((2, 3), dtype="<f4")))
put("npy", "fortran.npy", npy(np.asfortranarray(np.ones((2, 2), dtype="<f8"))))
put("npy", "empty.npy", npy(np.zeros((0,), dtype="<f4")))
put("npy", "int.npy", npy(np.arange(4, dtype="<i8")))

os.makedirs(os.path.join(root, "safetensors"), exist_ok=True)
# safetensors: the fixtures, and upstream's test vectors (tensor.rs tests)
for f in ("single", "row1"):
    shutil.copy("data/golden/safetensors/%s.safetensors" % f, os.path.join(root, "safetensors", f + ".safetensors"))
raw = struct.pack("<6f", 0, 1, 2, 3, 4, 5)
put("safetensors", "upstream_serialization", bytes([64, 0, 0, 0, 0, 0, 0, 0]) +
    b'{"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}}' + raw)
put("safetensors", "upstream_empty_meta", bytes([40, 0, 0, 0, 0, 0, 0, 0]) +
    b'{"__metadata__":{"framework":"pt"}}' + b" " * 5)


def st(h, data):
    h = h.encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h)) + h + data


put("safetensors", "mixed_dtypes", st(
    '{"logits":{"dtype":"F64","shape":[2,2],"data_offsets":[0,32]},"a":{"dtype":"BF16","shape":[3],'
    '"data_offsets":[32,38]},"h":{"dtype":"F16","shape":[1,3],"data_offsets":[38,44]}}',
    struct.pack("<4d", 1, 2, -1e300, float("-inf")) + bytes([0x80, 0x3f, 0x80, 0xff, 0xc0, 0x7f]) +
    bytes([0x00, 0x3c, 0x01, 0x00, 0x00, 0xfc])))

# draws: token ids separated by any whitespace; counts: id<TAB>count (a one-column file is refused)
put("draws", "ids", "0 1 2 3\n4\n")
put("draws", "mixed_ws", "3\n1 1 2 0\t5\r\n")
put("counts", "plain", "12\n0\n7\n")
put("counts", "id_tab_count", "0\t12\n2\t7\n# comment\n\n999\t1\n")


# gguf: small tokenizer sections as gguf.cpp lays them out, and near misses
def gstr(s):
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("<Q", len(b)) + b


def gguf(kvs, version=3):
    out = b"GGUF" + struct.pack("<IQQ", version, 0, len(kvs))
    for k, t, v in kvs:
        out += gstr(k) + struct.pack("<I", t) + v
    return out


toks = ["<unk>", "<s>", "\u2581a", "<0x0A>", ":", "b\n"]
tok_arr = struct.pack("<IQ", 8, len(toks)) + b"".join(gstr(t) for t in toks)
typ_arr = struct.pack("<IQ", 5, len(toks)) + struct.pack("<6i", 2, 3, 1, 6, 1, 1)
model = ("tokenizer.ggml.model", 8, gstr("llama"))
put("gguf", "spm", gguf([("general.name", 8, gstr("x")), model, ("tokenizer.ggml.tokens", 9, tok_arr),
                         ("tokenizer.ggml.token_type", 9, typ_arr), ("tokenizer.ggml.add_space_prefix", 7, b"\x01"),
                         ("x.u32s", 9, struct.pack("<IQ", 4, 2) + b"\0" * 8), ("x.f64", 12, b"\0" * 8)]))
put("gguf", "bpe_v2", gguf([("tokenizer.ggml.model", 8, gstr("gpt2")), ("tokenizer.ggml.pre", 8, gstr("gpt-2")),
                            ("tokenizer.ggml.tokens", 9, tok_arr)], version=2))
put("gguf", "no_model", gguf([("tokenizer.ggml.tokens", 9, tok_arr)]))
put("gguf", "types_short", gguf([model, ("tokenizer.ggml.tokens", 9, tok_arr),
                                 ("tokenizer.ggml.token_type", 9, struct.pack("<IQ", 5, 2) + b"\0" * 8)]))
put("gguf", "huge_count", gguf([model, ("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 2**63))]))
put("gguf", "truncated", gguf([model, ("tokenizer.ggml.tokens", 9, tok_arr)])[:-3])
put("gguf", "nested", gguf([("a", 9, struct.pack("<IQ", 9, 1) + struct.pack("<IQ", 9, 1) + struct.pack("<IQ", 0, 0)),
                            model, ("tokenizer.ggml.tokens", 9, tok_arr)]))
