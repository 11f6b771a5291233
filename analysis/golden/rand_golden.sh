#!/bin/sh
# Golden outputs of the real Rust rand 0.8.5 (Debian's librust-rand-dev:
# rand 0.8.5, rand_chacha 0.3.1, rand_core 0.6.3), built offline against the
# directory registry /usr/share/cargo/registry (analysis/golden/rand_golden/
# .cargo/config.toml), then run once per golden file. The rustc version is in
# every header: only the select_nth_unstable_by order depends on it.
# Usage: sh analysis/golden/rand_golden.sh OUTDIR
set -eu
out=${1:?usage: rand_golden.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
# select_nth_unstable_by's order changed between Rust releases, and the
# committed files record rustup's stable toolchain (rustc 1.95), which this
# kind of machine ships in ~/.cargo/bin; Debian 12's own rustc 1.63 orders
# ties differently. Prefer rustup's cargo when present (or SL_CARGO); the
# header line names the rustc used, so a mismatch shows itself in the diff.
cargo_bin=${SL_CARGO:-cargo}
if [ -z "${SL_CARGO:-}" ] && [ -x "$HOME/.cargo/bin/cargo" ]; then
  cargo_bin="$HOME/.cargo/bin/cargo"
  PATH="$HOME/.cargo/bin:$PATH"
  export PATH
fi
(cd "$root/analysis/golden/rand_golden" &&
  "$cargo_bin" build --offline --release --quiet --target-dir "$root/build/rand_golden")
bin="$root/build/rand_golden/release/rand_golden"
for mode in raw wi select candle fuzz; do
  "$bin" "$mode" > "$out/rand_$mode.txt.tmp"
  mv "$out/rand_$mode.txt.tmp" "$out/rand_$mode.txt"
done
