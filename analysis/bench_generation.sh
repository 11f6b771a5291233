#!/bin/sh
# Whole generations: samplab replay (in process) and check beside torch's own ops, same run.
if ! /usr/bin/python3 -c 'import torch, numpy' >/dev/null 2>&1; then
  echo "bench_generation: python3-torch or python3-numpy missing; skipped"
  exit 0
fi
exec /usr/bin/python3 analysis/bench_generation.py "$@"
