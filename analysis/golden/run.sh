#!/bin/sh
# Regenerates every golden file into OUTDIR (default data/golden) from the real
# libraries on this machine; deterministic, so `make golden-check` can diff.
# Usage: sh analysis/golden/run.sh OUTDIR
set -eu
out=${1:-data/golden}
mkdir -p "$out"
here=$(dirname "$0")
/usr/bin/python3 "$here/make_safetensors.py" "$out" >/dev/null
/usr/bin/python3 "$here/../dump_logits.py" --synthetic --out "$out/safetensors/synthetic.safetensors" >/dev/null
