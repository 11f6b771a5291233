#!/bin/sh
# Golden outputs of the real Rust rand 0.8.5 (Debian 12's librust-rand-dev:
# rand 0.8.5, rand_chacha 0.3.1, rand_core 0.6.3), built offline against the
# directory registry /usr/share/cargo/registry by analysis/golden/rand_golden/
# build.sh (--features rand08; the same oracle builds rand 0.10.3 and 0.8.8 in
# a sid chroot: current/rand_golden.sh), then run once per golden file:
# OUTDIR/rand_MODE.txt for MODE in raw wi select candle fuzz, and
# OUTDIR/exact_rand.txt (WeightedIndex<f32> counted over all 2^23 uniforms,
# for tests/test_stats_exact.c), and OUTDIR/candle_generate.txt (candle
# 0.11.0's generation loop re-expressed from its source over the real rand:
# candle itself is not packaged, so not run). The rustc version is in the rand_* headers:
# only the select_nth_unstable_by order depends on it.
# Usage: sh analysis/golden/rand_golden.sh OUTDIR
set -eu
out=${1:?usage: rand_golden.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(GOLDEN_ORIGIN="Debian librust-rand-dev" \
  sh "$root/analysis/golden/rand_golden/build.sh" rand08 "$root/build/rand_golden" 0.8.5)
for mode in raw wi wi64 select candle fuzz; do
  "$bin" "$mode" > "$out/rand_$mode.txt.tmp"
  mv "$out/rand_$mode.txt.tmp" "$out/rand_$mode.txt"
done
"$bin" exact "$root/data/synthetic_49152.txt" > "$out/exact_rand.txt.tmp"
mv "$out/exact_rand.txt.tmp" "$out/exact_rand.txt"
"$bin" generate > "$out/candle_generate.txt.tmp"
mv "$out/candle_generate.txt.tmp" "$out/candle_generate.txt"
