#!/bin/sh
# Exact counts of the real Rust rand 0.8.5 WeightedIndex<f32> over all 2^23 uniforms
# (analysis/golden/exact_rand, built offline against Debian's librust-rand-dev in
# /usr/share/cargo/registry), for tests/test_stats_exact.c.
# Usage: sh analysis/golden/exact_rand.sh OUTFILE
set -eu
out=${1:?usage: exact_rand.sh OUTFILE}
root=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$root/analysis/golden/exact_rand" &&
  cargo build --offline --release --quiet --target-dir "$root/build/exact_rand")
"$root/build/exact_rand/release/exact_rand" "$root/data/synthetic_49152.txt" > "$out.tmp"
mv "$out.tmp" "$out"
