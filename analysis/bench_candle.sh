#!/bin/sh
# make bench, candle section: per-draw time of the real Rust rand 0.8.5
# (WeightedIndex<f32> over StdRng, analysis/golden/rand_golden `bench`,
# release build) against samplab's emulation (analysis/bench_candle.c, -O2,
# the same flags as bin/samplab), measured in the same run on the same machine.
# ratio = samplab / rand: at most 1 means samplab is no slower.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p build
CC=${CC:-gcc}
oracle=$(GOLDEN_ORIGIN="Debian librust-rand-dev" \
  sh analysis/golden/rand_golden/build.sh rand08 "$root/build/rand_golden" 0.8.5)
# shellcheck disable=SC2046
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -fno-fast-math -Isrc $(pkg-config --cflags gsl jansson) \
  -o build/bench_candle analysis/bench_candle.c $(ls src/*/*.c | grep -v '^src/cli/') \
  $(pkg-config --libs gsl jansson) -lm
# Alternate the two programs 5 times and keep each one's best: on a busy
# machine a single pair of runs can land in different load.
rust="" ours=""
for i in 1 2 3 4 5; do
  rust="$rust
$("$oracle" bench)"
  ours="$ours
$(build/bench_candle)"
done
best() { echo "$1" | awk -v k="$2" '$1==k && (m=="" || $2<m) {m=$2} END {print m}'; }
echo "## candle: rand 0.8.5 (real, $(rustc --version | cut -d' ' -f1-2)) vs samplab, ns per call, best of 5x3 alternating runs"
printf '%-28s %10s %10s %8s\n' "what" "rand" "samplab" "ratio"
for k in wi49152 wi8 u32direct u32; do
  r=$(best "$rust" $(echo $k | sed 's/direct//'))
  o=$(best "$ours" $k)
  case $k in
    wi49152) what="WeightedIndex draw, V=49152" ;;
    wi8) what="WeightedIndex draw, V=8" ;;
    u32direct) what="StdRng next_u32" ;;
    u32) what="  via sl_rng_next (*)" ;;
  esac
  printf '%-28s %10s %10s %8s\n' "$what" "$r" "$o" "$(awk -v a="$o" -v b="$r" 'BEGIN {printf "%.2f", a / b}')"
done
echo "(*) the generic interface every method uses: one indirect call per word. The draws"
echo "    above read the keystream buffer directly, as rand's inlined next_u32 does."
