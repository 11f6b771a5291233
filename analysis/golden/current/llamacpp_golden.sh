#!/bin/sh
# Golden outputs of today's llama.cpp (Debian sid llama.cpp / libllama-dev
# 0.7.0, upstream build 11669) through its C API, run in a Debian sid chroot:
#   OUTDIR/llamacpp_chain.txt            llamacpp_chain.c: sampler chains over
#                                        given logits, no model (record formats
#                                        in llamacpp_chain.c)
#   OUTDIR/llamacpp_generate.txt         llamacpp_generate.c: a generation loop
#   OUTDIR/llamacpp_generate_logits.npy  on a tiny random GGUF (make_tiny_gguf.py),
#                                        its per-step logits, float32 [T, V]
# The programs are compiled in the chroot with its gcc against libllama
# (pkg-config llama ggml, plus libllama-common for the build number); the
# binaries and the model stay in a scratch folder under CHROOT/tmp.
# Headers: llama.cpp version and build (LLAMA_BUILD_NUMBER of libllama-common,
# dpkg), compiler, llama_print_system_info, the CPU; llamacpp_chain.txt also
# quotes the sampler chain llama-completion prints for its defaults and at
# --temp 0 on the tiny model.
# Usage: sh analysis/golden/current/llamacpp_golden.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: llamacpp_golden.sh CHROOT OUTDIR}
out=${2:?usage: llamacpp_golden.sh CHROOT OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-llama.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}  # the same folder as the chroot sees it
cp "$here/llamacpp_chain.c" "$here/llamacpp_generate.c" "$here/llamacpp_probe.h" \
  "$here/make_tiny_gguf.py" "$work/"
in_chroot() { chroot "$chroot_dir" sh -c "cd $inner && $1"; }

in_chroot 'F="-std=c11 -O2 -Wall -Wextra -Werror -DLLAMA_PKG_VERSION=\"$(pkg-config --modversion llama)\""
  L="$(pkg-config --cflags --libs llama ggml) -lllama-common -lm"
  gcc $F -o chain llamacpp_chain.c $L && gcc $F -o generate llamacpp_generate.c $L'
in_chroot 'python3 make_tiny_gguf.py tiny.gguf'

pkgs=$(chroot "$chroot_dir" dpkg-query -W -f '${Package} ${Version}, ' \
  libllama-dev libllama0 llama.cpp libggml0 python3-gguf python3-numpy gcc libstdc++6 2>/dev/null || true)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
gguf_sha=$(in_chroot 'sha256sum tiny.gguf' | cut -d' ' -f1)
# llama-completion's own view of the chain (timestamps stripped); its log
# is written by a thread, and a line was once seen missing: up to 3 tries
completion_chain() {
  for try in 1 2 3; do
    c=$(in_chroot "llama-completion -m tiny.gguf -p abc -n 2 -no-cnv -v $1 2>&1" |
      sed -n 's/^.*\(sampler chain: .*\)$/\1/p' | sed 's/ *$//')
    [ -n "$c" ] && break
  done
  echo "$c"
}
chain_default=$(completion_chain "--seed 42")
chain_temp0=$(completion_chain "--temp 0")
chain_penalty=$(completion_chain "--seed 42 --repeat-penalty 1.1")

in_chroot './chain > chain.txt 2> chain.err'
{
  sed -n 1p "$work/chain.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  echo "# llama-completion (defaults): $chain_default"
  echo "# llama-completion --repeat-penalty 1.1: $chain_penalty"
  echo "# llama-completion --temp 0: $chain_temp0"
  sed 1d "$work/chain.txt"
} > "$out/llamacpp_chain.txt.tmp"
mv "$out/llamacpp_chain.txt.tmp" "$out/llamacpp_chain.txt"

in_chroot './generate tiny.gguf gen.npy > gen.txt'
{
  sed -n 1p "$work/gen.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  echo "# model file: make_tiny_gguf.py (python3-gguf GGUFWriter, numpy PCG64 seed 20261201), sha256 $gguf_sha"
  echo "# logits: llamacpp_generate_logits.npy, float32 [T, V], row = step of a run (see rows)"
  sed 1d "$work/gen.txt"
} > "$out/llamacpp_generate.txt.tmp"
cp "$work/gen.npy" "$out/llamacpp_generate_logits.npy.tmp"
mv "$out/llamacpp_generate.txt.tmp" "$out/llamacpp_generate.txt"
mv "$out/llamacpp_generate_logits.npy.tmp" "$out/llamacpp_generate_logits.npy"
