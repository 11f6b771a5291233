#!/bin/sh
# Sample dumps of llama_dump (a real llama.cpp generation through libllama,
# Debian sid llama.cpp / libllama-dev 0.7.0) on the tiny random GGUF of
# analysis/golden/current/make_tiny_gguf.py, one per setting below, written to
# OUTDIR with a manifest OUTDIR/llama_dump.txt (library, packages, CPU, model
# hash, then one line per case: its name and llama_dump's arguments).
# tests/test_cli_llama_dump.c runs the replay and check commands each dump
# records and compares them with the tokens llama.cpp drew.
# Usage: sh analysis/llama_dump/golden.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: golden.sh CHROOT OUTDIR}
out=${2:?usage: golden.sh CHROOT OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-llama-dump.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}
cp "$here/llama_dump.c" "$here/Makefile" "$here/../golden/current/make_tiny_gguf.py" "$work/"
in_chroot() { chroot "$chroot_dir" sh -c "cd $inner && $1"; }
in_chroot 'make -s llama_dump && python3 make_tiny_gguf.py tiny.gguf'

# name, then llama_dump's settings (the prompt and output are added below)
cases='defaults|--seed 42
random_seed|
plain|--seed 0 --temp 1 --top-k 0 --top-p 1 --min-p 0
penalties|--seed 1 --temp 0.9 --repeat-penalty 1.3 --frequency-penalty 0.5 --presence-penalty 0.5
strong_penalties|--seed 123456789 --temp 1.5 --top-k 0 --top-p 1 --min-p 0 --repeat-last-n 16 --repeat-penalty 2 --frequency-penalty 1 --presence-penalty 1
typical|--seed 4294967294 --temp 1.2 --top-k 5 --typical 0.8 --min-keep 1 --repeat-last-n 8 --repeat-penalty 1.5
whole_context|--seed 7 --temp 0.5 --top-p 0.9 --min-p 0.1 --min-keep 2 --repeat-last-n -1 --repeat-penalty 1.1 --frequency-penalty 0.2
greedy|--temp 0 --repeat-penalty 3
prompt_not_accepted|--seed 5 --repeat-penalty 1.3 --no-accept-prompt
long_ids|--seed 11 --prompt-ids 1,300,301,302,303,304,305,306 -n 96 --repeat-penalty 1.2 --presence-penalty 0.3'

pkgs=$(chroot "$chroot_dir" dpkg-query -W -f '${Package} ${Version}, ' \
  libllama-dev libllama0 libggml0 python3-gguf python3-numpy gcc 2>/dev/null || true)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
gguf_sha=$(in_chroot 'sha256sum tiny.gguf' | cut -d' ' -f1)
{
  echo "# llama_dump (analysis/llama_dump/llama_dump.c) on llama.cpp $(in_chroot 'pkg-config --modversion llama') (libllama), one generation per case"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  echo "# model: make_tiny_gguf.py (V = 512), sha256 $gguf_sha; prompt \"hello world\" unless --prompt-ids"
  echo "# each case NAME writes NAME.npy (long_ids: NAME.safetensors), NAME.tokens, NAME.context (NAME.json)"
} > "$out/llama_dump.txt.tmp"
echo "$cases" | while IFS='|' read -r name args; do
  case "$args" in *--prompt-ids*) p=""; ext=safetensors ;; *) p='-p "hello world"'; ext=npy ;; esac
  in_chroot "./llama_dump -m tiny.gguf $p $args -o $name.$ext" > "$work/$name.log"
  echo "case $name $p $args" >> "$out/llama_dump.txt.tmp"
  for f in "$name.$ext" "$name.tokens" "$name.context" "$name.json"; do
    if [ -f "$work/$f" ]; then cp "$work/$f" "$out/$f"; fi
  done
done
mv "$out/llama_dump.txt.tmp" "$out/llama_dump.txt"
