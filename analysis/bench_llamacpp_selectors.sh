#!/bin/sh
# make bench, llama.cpp's selecting samplers: the mean time of one step of
# mirostat, mirostat v2 and adaptive_p at V = 151,936 in samplab (a llamacpp
# session step, analysis/bench_llamacpp_selectors.c, -O2 as bin/samplab) and in
# libllama 0.7.0's llama_sampler_apply (bench_llamacpp_selectors_llama.c, built
# in a Debian sid chroot), on the same logits and settings; each program 5 times,
# alternating, the best median step of each. ratio = samplab / libllama: at most 1 means
# samplab is no slower. The token sums of the two must agree (same draws).
# With VOCAB_DIR holding ggml-vocab-qwen2.gguf (mk/vocab.sh; make bench passes it),
# also the whole default chain with DRY and XTC on (issue: no slower than libllama).
# Usage: bench_llamacpp_selectors.sh [CHROOT] (or CHROOT in the environment,
# as make bench CHROOT=DIR passes it); skipped without one.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
chroot_dir=${1:-${CHROOT:-}}
if [ -z "$chroot_dir" ] || [ ! -x "$chroot_dir/usr/bin/gcc" ]; then
  echo "## llama.cpp selecting samplers: skipped (give a Debian sid chroot with libllama-dev: CHROOT=DIR)"
  exit 0
fi
chroot_dir=$(cd "$chroot_dir" && pwd)
mkdir -p build
CC=${CC:-gcc}
# shellcheck disable=SC2046
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -fno-fast-math -Isrc -Itests \
  $(pkg-config --cflags gsl jansson) -o build/bench_llamacpp_selectors analysis/bench_llamacpp_selectors.c \
  $(ls src/*/*.c | grep -v '^src/cli/') $(pkg-config --libs gsl jansson) -fopenmp -lm
work=$(mktemp -d "$chroot_dir/tmp/samplab-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}
cp analysis/bench_llamacpp_selectors_llama.c tests/golden_gen.h "$work/"
vocab=${VOCAB_DIR:-}/ggml-vocab-qwen2.gguf
modes="mirostat mirostat_v2 adaptive_p"
ours_arg="" theirs_arg=""
if [ -n "${VOCAB_DIR:-}" ] && [ -f "$vocab" ]; then
  cp "$vocab" "$work/"
  ours_arg=$vocab theirs_arg=ggml-vocab-qwen2.gguf modes="$modes chain_dry_xtc"
fi
chroot "$chroot_dir" sh -c "cd $inner && gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -o bench \
  bench_llamacpp_selectors_llama.c -lllama -lggml -lm"
ver=$(chroot "$chroot_dir" dpkg-query -W -f '${Version}' libllama-dev 2>/dev/null || echo unknown)
ours="" theirs=""
for i in 1 2 3 4 5; do
  ours="$ours
$(build/bench_llamacpp_selectors $ours_arg)"
  theirs="$theirs
$(chroot "$chroot_dir" sh -c "cd $inner && ./bench $theirs_arg")"
done
best() { echo "$1" | awk -v k="$2" '$1==k && (m=="" || $2<m) {m=$2} END {print m}'; }
sumof() { echo "$1" | awk -v k="$2" '$1==k {print $3; exit}'; }
echo "## llama.cpp selecting samplers and the whole chain (DRY, XTC on) at V = 151,936: libllama $ver llama_sampler_apply vs samplab's session step, median ms per step of 100-step generations, best of 5 alternating runs"
printf '%-14s %10s %10s %8s %s\n' "sampler" "libllama" "samplab" "ratio" "same tokens"
for k in $modes; do
  t=$(best "$theirs" $k)
  o=$(best "$ours" $k)
  same=no
  [ "$(sumof "$theirs" $k)" = "$(sumof "$ours" $k)" ] && same=yes
  printf '%-14s %10s %10s %8s %s\n' "$k" "$t" "$o" "$(awk -v a="$o" -v b="$t" 'BEGIN {printf "%.2f", a / b}')" "$same"
done
