#!/bin/sh
# This build against the one of BENCH_BASE (a commit), same commands, same run, as ratios.
exec /usr/bin/python3 analysis/bench_base.py
