#!/usr/bin/python3
"""make_safetensors.py — writes .safetensors files by the format's own rules, and
the fixtures samplab's reader is tested against.

The writer (save_file) follows huggingface/safetensors `serialize`
(safetensors/src/tensor.rs, 0.4-0.5, what `safetensors.torch.save_file` calls):
tensors sorted by dtype (descending in upstream's Dtype order) then by name,
laid out back to back from offset 0; the header is compact JSON
({"__metadata__": {...}, name: {"dtype", "shape", "data_offsets"}, ...}) padded
with spaces to a multiple of 8 bytes; an 8-byte little-endian length first.
Tensor bytes are torch's own little-endian storage (bfloat16 through an int16
view, as safetensors.torch does), so F16/BF16 rounding is torch's.
`--selftest` checks the writer against upstream's byte-exact test vectors
(test_serialization, test_empty).

Usage: make_safetensors.py OUTDIR   writes OUTDIR/safetensors/{*.safetensors,values.txt}
values.txt: one line per (file, tensor, row): file, tensor, row (-1 = 1-D),
dtype, count, then the values torch reads back (tolist()): %.9g for
F32/F16/BF16 (exact float32), %.17g for F64.
"""
import json
import os
import struct
import sys

import torch

# Upstream's Dtype enum order (alignment order); save_file sorts descending.
DTYPE_ORDER = ["BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "I16", "U16", "F16", "BF16",
               "I32", "U32", "F32", "C64", "F64", "I64", "U64"]
TORCH_TO_ST = {torch.float64: "F64", torch.float32: "F32", torch.float16: "F16",
               torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32",
               torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8", torch.bool: "BOOL"}


def tensor_bytes(t):
    """Raw little-endian bytes of a contiguous CPU tensor."""
    if sys.byteorder != "little":
        raise SystemExit("make_safetensors.py: needs a little-endian host")
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)  # numpy has no bfloat16
    return t.numpy().tobytes()


def serialize(tensors, metadata=None):
    """Bytes of a .safetensors file: tensors maps name -> (dtype name, shape, raw bytes)."""
    items = sorted(tensors.items(), key=lambda kv: (-DTYPE_ORDER.index(kv[1][0]), kv[0]))
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    data = []
    for name, (dtype, shape, raw) in items:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        data.append(raw)
    h = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h)) + h + b"".join(data)


def save_file(tensors, path, metadata=None):
    """Like safetensors.torch.save_file: tensors maps name -> torch tensor."""
    spec = {k: (TORCH_TO_ST[v.dtype], tuple(v.shape), tensor_bytes(v)) for k, v in tensors.items()}
    blob = serialize(spec, metadata)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, path)


def selftest():
    # upstream tensor.rs test_serialization: "attn.0" F32 [1,2,3] = 0..5
    raw = struct.pack("<6f", 0, 1, 2, 3, 4, 5)
    want = bytes([64, 0, 0, 0, 0, 0, 0, 0]) + \
        b'{"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}}' + raw
    assert serialize({"attn.0": ("F32", (1, 2, 3), raw)}) == want
    # test_serialization_forced_alignement: "attn0" [1,1,2,3] pads 7 spaces
    want = bytes([72, 0, 0, 0, 0, 0, 0, 0]) + \
        b'{"attn0":{"dtype":"F32","shape":[1,1,2,3],"data_offsets":[0,24]}}' + b" " * 7 + raw
    assert serialize({"attn0": ("F32", (1, 1, 2, 3), raw)}) == want
    # test_empty
    assert serialize({}) == bytes([8, 0, 0, 0, 0, 0, 0, 0]) + b"{}" + b" " * 6
    assert serialize({}, {"framework": "pt"}) == bytes([40, 0, 0, 0, 0, 0, 0, 0]) + \
        b'{"__metadata__":{"framework":"pt"}}' + b" " * 5
    # the torch path gives the same bytes
    t = torch.arange(6, dtype=torch.float32).reshape(1, 2, 3)
    assert serialize({"attn.0": ("F32", (1, 2, 3), tensor_bytes(t))})[8 + 64:] == raw
    print("make_safetensors.py: writer matches upstream's serialization test vectors")


# Values chosen to exercise each conversion: signed zeros, subnormals of each
# type, the largest finite values, rounding in the narrow types, infinities, NaN.
SPECIAL = [0.0, -0.0, 1.0, -1.5, 3.14159265358979, 1e-3, -2.5e-5, 6e-8, 5.96e-8, 1e-40,
           65504.0, 65520.0, 3.0e38, 3.5e38, 1e300, 1e-310, float("inf"), float("-inf"), float("nan"),
           -7.25, 100.0, 0.1]


def fixtures(outdir):
    d = os.path.join(outdir, "safetensors")
    os.makedirs(d, exist_ok=True)
    g = torch.Generator().manual_seed(20261129)
    V = 48
    base = torch.randn(3, V, generator=g, dtype=torch.float64) * 4.0
    special = torch.tensor(SPECIAL, dtype=torch.float64)
    files = {}
    # Several tensors, every dtype, 1-D and 2-D and 3-D, plus metadata as
    # transformers' save_pretrained writes it, plus an integer tensor.
    multi = {}
    for name, dt in (("f64", torch.float64), ("f32", torch.float32), ("f16", torch.float16), ("bf16", torch.bfloat16)):
        multi["special_" + name] = special.to(dt)
        multi["logits_" + name] = base[0].to(dt)
        multi["rows_" + name] = base.to(dt)
    scores = base.to(torch.float32).clone()
    scores[:, 5:] = float("-inf")  # processed scores: filtered tokens are -inf
    multi["scores"] = scores
    multi["steps"] = base.to(torch.float32).reshape(3, 1, V)[:, :, :].expand(3, 2, V).contiguous()
    multi["ids"] = torch.arange(7, dtype=torch.int64)
    files["multi.safetensors"] = (multi, {"format": "pt", "note": "samplab fixture"})
    files["single.safetensors"] = ({"logits": base[1].to(torch.float32)}, None)
    files["row1.safetensors"] = ({"scores": base[2:3].to(torch.bfloat16)}, None)
    lines = ["# made by analysis/golden/make_safetensors.py with torch %s: file, tensor, row (-1 = 1-D),"
             " dtype, count, values as torch reads them (%%.9g float32, %%.17g float64)" % torch.__version__]
    for fname in sorted(files):
        tensors, meta = files[fname]
        save_file(tensors, os.path.join(d, fname), meta)
        for tname in sorted(tensors):
            t = tensors[tname]
            st = TORCH_TO_ST[t.dtype]
            if st not in ("F64", "F32", "F16", "BF16"):
                continue
            fmt = "%.17g" if st == "F64" else "%.9g"
            rows = [(-1, t)] if t.dim() == 1 else list(enumerate(t.reshape(-1, t.shape[-1])))
            for r, v in rows:
                vals = " ".join(fmt % x for x in v.to(torch.float64).tolist())
                lines.append("%s\t%s\t%d\t%s\t%d\t%s" % (fname, tname, r, st, v.numel(), vals))
    with open(os.path.join(d, "values.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--selftest":
        selftest()
    elif len(sys.argv) == 2:
        selftest()
        fixtures(sys.argv[1])
    else:
        raise SystemExit(__doc__)
