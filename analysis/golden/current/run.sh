#!/bin/sh
# Golden outputs of today's libraries (Debian sid: torch 2.14.1, transformers
# 5.12.1, NumPy 2.4.6), run inside a sid chroot (docs in
# analysis/golden/torch2_golden.sh for how such a chroot is made; it needs
# python3-torch, python3-transformers, python3-numpy, python3-safetensors).
# Writes OUTDIR (make golden-current: data/golden/current). Every file's
# header names the library versions, the MKL build flag and the CPU kernel
# (analysis/golden/current/libinfo.py). Not run by CI.
# Usage: sh analysis/golden/current/run.sh CHROOT OUTDIR
set -eu
root=${1:?usage: run.sh CHROOT OUTDIR}
out=${2:?usage: run.sh CHROOT OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
golden=$(dirname "$here")
data=$(dirname "$(dirname "$golden")")/data/golden
work=$(mktemp -d "$root/tmp/golden-current.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$golden"/*.py "$here"/*.py "$work/"
mkdir -p "$work/out" "$out"
in=${work#"$root"}
o=$in/out
py() { chroot "$root" /usr/bin/python3 "$@"; }
# py_on KERNEL ...: the same under ATEN_CPU_CAPABILITY=KERNEL (avx2, avx512)
py_on() { k=$1; shift; chroot "$root" /usr/bin/env ATEN_CPU_CAPABILITY="$k" /usr/bin/python3 "$@"; }

# One line per generator:
py "$in/torch_golden.py" "$o" && py "$in/libinfo.py" --insert "$o/torch_multinomial.txt"
py "$in/torch_kernels.py" "$o/torch_kernels.txt"
py "$in/softmax_order.py" "$o/torch_softmax_order.txt"
py_on avx2 "$in/hf_pipeline.py" "$o/hf_pipeline.txt"
py_on avx512 "$in/hf_pipeline.py" "$o/hf_pipeline_avx512.txt"
py_on avx2 "$in/hf_generate.py" "$o"
py_on avx512 "$in/hf_generate.py" "$o" hf_generate_avx512
py "$in/numpy_golden.py" "$o" && for f in "$work"/out/numpy_*.txt; do py "$in/libinfo.py" --insert "$o/${f##*/}"; done
py "$in/exact_numpy_torch.py" "$o/exact_numpy_torch.txt" && py "$in/libinfo.py" --insert "$o/exact_numpy_torch.txt"

# The big vectors are shared with data/golden when equal (the replay looks there).
for f in "$work"/out/torch_vec_*.txt; do
    if [ -f "$f" ] && cmp -s "$f" "$data/$(basename "$f")"; then rm -f "$f"; fi
done
cp -r "$work"/out/. "$out/"
