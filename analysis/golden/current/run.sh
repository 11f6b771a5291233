#!/bin/sh
# Regenerates the golden files of today's libraries (a Debian sid chroot) into
# OUTDIR (normally data/golden/current). Each generator names its library
# version, build, compiler and CPU in its output's header.
# Usage: sh analysis/golden/current/run.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: run.sh CHROOT OUTDIR}
out=${2:?usage: run.sh CHROOT OUTDIR}
mkdir -p "$out"
here=$(dirname "$0")
# One line per generator:
# llama.cpp 0.7.0 (libllama C API): llamacpp_chain.txt, llamacpp_generate.txt + _logits.npy
sh "$here/llamacpp_golden.sh" "$chroot_dir" "$out"
# Rust rand 0.10.3 and 0.8.8 (offline cargo): rand_{raw,wi,select,candle,fuzz,sub}_{0.10.3,0.8.8}.txt
sh "$here/rand_golden.sh" "$chroot_dir" "$out"
