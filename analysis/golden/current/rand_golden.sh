#!/bin/sh
# Golden outputs of today's Rust rand, run in a Debian sid chroot: rand 0.10.3
# (librust-rand-dev: rand_core 0.10.1, chacha20 0.10.2) and rand 0.8.8
# (librust-rand-0.8-dev: rand_chacha 0.3.1, rand_core 0.6.4), both built
# offline from the chroot's directory registry /usr/share/cargo/registry with
# the chroot's cargo and rustc. One source (analysis/golden/current/rand_golden,
# the rand 0.8.5 oracle of analysis/golden/rand_golden behind a compatibility
# module), built once per rand version (--features r010 / r08).
#
# Writes OUTDIR/rand_MODE_0.10.3.txt and OUTDIR/rand_MODE_0.8.8.txt for MODE in
# raw wi select candle fuzz sub: the same record formats as data/golden/rand_*.txt
# (see the comment lines of each file); `sub` is WeightedIndex<f32> over
# subnormal totals. Line 1 names the crates and rustc, line 2 the Debian
# package versions and the CPU (only candle's simd=1 sums use AVX).
# Usage: sh analysis/golden/current/rand_golden.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: rand_golden.sh CHROOT OUTDIR}
out=${2:?usage: rand_golden.sh CHROOT OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-rand.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}  # the same folder as the chroot sees it
cp -r "$here/rand_golden" "$work/src"
rm -f "$work/src/Cargo.lock"
pkgs=$(chroot "$chroot_dir" dpkg-query -W -f '${Package} ${Version}, ' \
  librust-rand-dev librust-rand-0.8-dev librust-rand-core-dev librust-chacha20-dev \
  librust-rand-chacha-0.3-dev librust-rand-core-0.6-dev 2>/dev/null || true)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
for v in 0.10.3 0.8.8; do
  case $v in
    0.10.3) feat=r010 ;;
    0.8.8) feat=r08 ;;
  esac
  chroot "$chroot_dir" sh -c "cd $inner/src && cargo build --offline --release --quiet \
    --features $feat --target-dir $inner/target-$feat"
  # The lock file cargo wrote names the crates actually resolved.
  grep -A1 '^name = "rand"$' "$work/src/Cargo.lock" | grep -q "version = \"$v\"" ||
    { echo "rand_golden.sh: rand $v was not resolved" >&2; exit 1; }
  rm -f "$work/src/Cargo.lock"
  for mode in raw wi select candle fuzz sub; do
    chroot "$chroot_dir" "$inner/target-$feat/release/rand_golden_current" "$mode" > "$work/$mode.txt"
    {
      sed -n 1p "$work/$mode.txt"
      echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
      sed 1d "$work/$mode.txt"
    } > "$out/rand_${mode}_$v.txt.tmp"
    mv "$out/rand_${mode}_$v.txt.tmp" "$out/rand_${mode}_$v.txt"
  done
done
