#!/bin/sh
# Builds the rand oracle offline for one rand release and prints the path of
# its binary. Cargo resolves every optional dependency of a package, and a
# registry may lack the other release (Debian 12 has no rand 0.10), so the
# crate is copied to WORKDIR/crate-FEATURE with the dependency lines tagged
# "# OTHER" dropped, then built there; the resolved rand must be VERSION when
# given. Runs on the host and inside a chroot alike (POSIX sh, no paths of
# its own). GOLDEN_ORIGIN names the Debian package in the headers.
# The cargo: SL_CARGO, else rustup's ~/.cargo/bin/cargo when present, else
# cargo on PATH. select_nth_unstable_by's order changed between Rust releases
# and the Debian 12 files record rustup's stable toolchain (rustc 1.95), which
# this kind of machine ships in ~/.cargo/bin (Debian 12's own rustc 1.63
# orders ties differently); the headers name the rustc used, so a mismatch
# shows itself in the diff.
# Usage: sh build.sh rand08|rand010 WORKDIR [VERSION]
set -eu
feat=${1:?usage: build.sh rand08|rand010 WORKDIR [VERSION]}
work=${2:?usage: build.sh rand08|rand010 WORKDIR [VERSION]}
want=${3:-}
case $feat in
  rand08) other=rand010 ;;
  rand010) other=rand08 ;;
  *) echo "build.sh: feature rand08 or rand010, not $feat" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
crate="$work/crate-$feat"
rm -rf "$crate"
mkdir -p "$crate"
cp -r "$here/src" "$here/.cargo" "$here/build.rs" "$crate/"
# the other feature stays declared (empty), so the cfg checks know it
awk -v o="$other" '$NF == o && $(NF-1) == "#" { if (index($0, "\"dep:")) print o " = []"; next } { print }' \
  "$here/Cargo.toml" > "$crate/Cargo.toml"
cargo_bin=${SL_CARGO:-}
if [ -z "$cargo_bin" ]; then
  cargo_bin=cargo
  if [ -x "${HOME:-/nonexistent}/.cargo/bin/cargo" ]; then
    cargo_bin="$HOME/.cargo/bin/cargo"
    PATH="$HOME/.cargo/bin:$PATH"  # its rustc too
    export PATH
  fi
fi
(cd "$crate" && "$cargo_bin" build --offline --release --quiet --features "$feat" \
  --target-dir "$work/target-$feat")
if [ -n "$want" ]; then
  grep -A1 '^name = "rand"$' "$crate/Cargo.lock" | grep -q "^version = \"$want\"\$" ||
    { echo "build.sh: rand $want was not resolved (see $crate/Cargo.lock)" >&2; exit 1; }
fi
echo "$work/target-$feat/release/rand_golden"
