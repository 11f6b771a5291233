#!/bin/sh
# Regenerates every golden file into OUTDIR from the real libraries on this
# machine: sh analysis/golden/run.sh OUTDIR (deterministic, byte-identical to
# what is committed under data/golden; `make golden-check` diffs).
set -eu
out=${1:?usage: sh analysis/golden/run.sh OUTDIR}
mkdir -p "$out"
/usr/bin/python3 analysis/golden/numpy_golden.py "$out"
