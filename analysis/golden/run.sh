#!/bin/sh
# Regenerates every golden file from the real libraries on this machine into
# OUTDIR (make golden: data/golden; make golden-check: a scratch folder that
# is then diffed against data/golden). Each generator names its library
# version in its output's header. Usage: sh analysis/golden/run.sh OUTDIR
set -eu
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
here=$(dirname "$0")
# NumPy 1.24 computes exp and power with its own AVX-512 kernels where the CPU has them
# (SVML), and with libm's elsewhere: a last-bit difference in the vectors built from them.
# Its AVX-512 dispatch is turned off, so every x86-64 machine writes libm's values.
if grep -q -w avx512f /proc/cpuinfo 2>/dev/null; then
  export NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
fi
# One line per generator:
/usr/bin/python3 "$here/hf_golden.py" "$out/hf_pipeline.txt"
/usr/bin/python3 "$here/torch_golden.py" "$out"
/usr/bin/python3 "$here/numpy_golden.py" "$out"
# NumPy choice(V, size=K, replace=False, p=p), Generator and legacy: numpy_noreplace.txt
/usr/bin/python3 "$here/numpy_noreplace.py" "$out/numpy_noreplace.txt"
/usr/bin/python3 "$here/exact_numpy_torch.py" "$out/exact_numpy_torch.txt"
/usr/bin/python3 "$here/exact_crafted.py" "$out/exact_crafted.txt"
/usr/bin/python3 "$here/exprace_numpy.py" "$out/exprace_numpy.txt"
# Random123 (librandom123-dev) Threefry-2x32-20 and Philox-4x32-10: random123/random123.txt
sh "$here/random123/random123_golden.sh" build/golden-random123 "$out"
# Rust rand 0.8.5 + candle LogitsProcessor re-expressed (cargo, librust-rand-dev): rand_*.txt, exact_rand.txt
sh "$here/rand_golden.sh" "$out"
# .safetensors fixtures written by the format's rules with torch, and dump_logits.py --synthetic
/usr/bin/python3 "$here/make_safetensors.py" "$out" >/dev/null
/usr/bin/python3 "$here/../dump_logits.py" --synthetic --out "$out/safetensors/synthetic.safetensors" >/dev/null
