#!/bin/sh
# Golden outputs of today's Rust rand, run in a Debian sid chroot: rand 0.10.3
# (librust-rand-dev: rand_core 0.10.1, chacha20 0.10.2) and rand 0.8.8
# (librust-rand-0.8-dev: rand_chacha 0.3.1, rand_core 0.6.4), both built
# offline from the chroot's directory registry /usr/share/cargo/registry with
# the chroot's cargo and rustc. The oracle is the Debian 12 one,
# analysis/golden/rand_golden, built once per release by its build.sh
# (--features rand010 / rand08).
#
# Writes OUTDIR/rand_MODE_0.10.3.txt and OUTDIR/rand_MODE_0.8.8.txt for MODE in
# raw wi select candle fuzz sub: the same record formats as data/golden/rand_*.txt
# (see the comment lines of each file); `sub` is WeightedIndex<f32> over
# subnormal totals. And OUTDIR/exact_rand_0.10.3.txt, exact_rand_0.8.8.txt:
# data/golden/exact_rand.txt's counts over all 2^23 uniforms. And
# OUTDIR/candle_generate_0.10.3.txt: whole generations of candle 0.11.0's loop,
# re-expressed from candle's source over the real rand 0.10.3 (candle itself is
# not packaged, so not run; candle 0.11 links rand 0.9, which no Debian suite
# packages, and 0.9 and 0.10 share the WeightedIndex rule). Line 1 names the
# crates (and rustc), line 2 the Debian package versions and the CPU (only
# candle's simd=1 sums use AVX).
# Usage: sh analysis/golden/current/rand_golden.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: rand_golden.sh CHROOT OUTDIR}
out=${2:?usage: rand_golden.sh CHROOT OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-rand.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}  # the same folder as the chroot sees it
cp -r "$root/analysis/golden/rand_golden" "$work/oracle"
rm -f "$work/oracle/Cargo.lock"
cp "$root/data/synthetic_49152.txt" "$work/"
pkgs=$(chroot "$chroot_dir" dpkg-query -W -f '${Package} ${Version}, ' \
  librust-rand-dev librust-rand-0.8-dev librust-rand-core-dev librust-chacha20-dev \
  librust-rand-chacha-0.3-dev librust-rand-core-0.6-dev 2>/dev/null || true)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
# emit NAME: line 1 of $work/run.txt, the packages line, then the rest, to OUTDIR/NAME
emit() {
  {
    sed -n 1p "$work/run.txt"
    echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
    sed 1d "$work/run.txt"
  } > "$out/$1.tmp"
  mv "$out/$1.tmp" "$out/$1"
}
for v in 0.10.3 0.8.8; do
  case $v in
    0.10.3) feat=rand010 origin="Debian sid librust-rand-dev" ;;
    0.8.8) feat=rand08 origin="Debian sid librust-rand-0.8-dev" ;;
  esac
  bin=$(chroot "$chroot_dir" env GOLDEN_ORIGIN="$origin" SL_CARGO=cargo \
    sh "$inner/oracle/build.sh" "$feat" "$inner/build" "$v")
  for mode in raw wi wi64 select candle fuzz sub; do
    chroot "$chroot_dir" "$bin" "$mode" > "$work/run.txt"
    emit "rand_${mode}_$v.txt"
  done
  chroot "$chroot_dir" "$bin" exact "$inner/synthetic_49152.txt" > "$work/run.txt"
  emit "exact_rand_$v.txt"
  if [ "$v" = 0.10.3 ]; then
    chroot "$chroot_dir" "$bin" generate > "$work/run.txt"
    emit "candle_generate_$v.txt"
  fi
done
