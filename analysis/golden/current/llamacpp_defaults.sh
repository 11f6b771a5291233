#!/bin/sh
# What llama.cpp 0.7.0 (Debian sid llama.cpp, upstream build b11669) does with
# the sampling settings a user leaves unset: llama-completion -v prints the
# values common_params_sampling (common/common.h) holds and the sampler chain
# common_sampler_init builds from them. Run on the tiny random GGUF of
# make_tiny_gguf.py, for the defaults and for the settings that turn each stage
# off, in a Debian sid chroot (needs llama.cpp and python3-gguf there).
# Output OUTDIR/llamacpp_defaults.txt, '#' comments, then per argument set:
#   args ARGS     llama-completion -m tiny.gguf -p abc -n 2 -no-cnv -v --seed 42 ARGS
#   params ...    its "sampler params:" lines joined (its own %.3f formatting)
#   chain ...     its "sampler chain:" line ('?' marks a stage that does nothing)
# Usage: sh analysis/golden/current/llamacpp_defaults.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: llamacpp_defaults.sh CHROOT OUTDIR}
out=${2:?usage: llamacpp_defaults.sh CHROOT OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-llama-defaults.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}  # the same folder as the chroot sees it
cp "$here/make_tiny_gguf.py" "$work/"
in_chroot() { chroot "$chroot_dir" sh -c "cd $inner && $1"; }
in_chroot 'python3 make_tiny_gguf.py tiny.gguf'
pkgs=$(chroot "$chroot_dir" dpkg-query -W -f '${Package} ${Version}, ' llama.cpp libllama0 libggml0 2>/dev/null || true)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
# the two records of one run; llama-completion logs from a thread, and a line
# was once seen missing (llamacpp_golden.sh): up to 3 tries
sampler_lines() {
  for try in 1 2 3; do
    c=$(in_chroot "llama-completion -m tiny.gguf -p abc -n 2 -no-cnv -v --seed 42 $1 2>&1" |
      awk '/sampler params:/ {p = 1; printf "params"; next}
           p && /^\t/ {sub(/^\t/, " "); printf "%s", $0; next}
           p {p = 0; print ""}
           /sampler chain: / {sub(/^.*sampler chain: /, "chain "); sub(/ *$/, ""); print}')
    [ "$(printf '%s\n' "$c" | grep -c '^params \|^chain ')" -eq 2 ] && break
  done
  printf '%s\n' "$c"
}
version=$(in_chroot 'llama-completion --version 2>&1' | grep -m1 '^version' || echo 'version unknown')
{
  echo "# llamacpp_defaults: llama-completion -v sampler lines, llama.cpp $version; analysis/golden/current/llamacpp_defaults.sh"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  for a in "" "--top-k 0" "--top-p 1" "--min-p 0" "--temp 1" "--top-k 0 --top-p 1 --min-p 0 --temp 1" \
    "--temp 0" "--repeat-penalty 1.1"; do
    echo "args $a" | sed 's/ *$//'
    sampler_lines "$a"
  done
} > "$out/llamacpp_defaults.txt.tmp"
mv "$out/llamacpp_defaults.txt.tmp" "$out/llamacpp_defaults.txt"
