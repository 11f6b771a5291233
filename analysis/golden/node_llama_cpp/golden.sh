#!/bin/sh
# Golden generations of node-llama-cpp 3.21.1 itself, on this Debian 12 machine
# with its prebuilt Linux x64 binaries (getLlama({gpu: false, build: "never"})):
#   OUTDIR/generations.txt  generate.mjs: each run's options as node-llama-cpp
#                           spells them, the prompt ids and the generated ids;
#                           then logits.c's `rows` and `argmax` records
#   OUTDIR/logits.npy       logits.c: float32 [T, V], the logits of each step,
#                           teacher forced through the same libllama.v0.4.0.so
#   OUTDIR/tiny.gguf        the model (572 KB), for its vocabulary
# The model is analysis/golden/current/make_tiny_gguf.py's tiny random GGUF,
# written with the gguf-py of the llama.cpp source the package bundles.
# NLCDIR: a folder outside the repository where node-llama-cpp@3.21.1 is (or
# is then) installed from the npm registry and its llama/gitRelease.bundle cloned.
# Usage: sh analysis/golden/node_llama_cpp/golden.sh NLCDIR OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../llamacpp_0.4.0/nlc_setup.sh"
cp "$here/generate.mjs" "$here/logits.c" "$work/"
ln -s "$nlc/node_modules" "$work/node_modules"
PYTHONPATH=$src/gguf-py /usr/bin/python3 "$here/../current/make_tiny_gguf.py" "$work/tiny.gguf"
(cd "$work" && gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$src/include" -I"$src/ggml/include" -o logits logits.c \
  -L"$bins" -Wl,-rpath,"$bins" -l:libllama.v0.4.0.so -l:libggml.v0.4.0.so -lggml-base)
(cd "$work" && node generate.mjs tiny.gguf > gen.txt)
(cd "$work" && GGML_BACKEND_DIR=$bins ./logits tiny.gguf gen.txt logits.npy > rows.txt)
built=$(strings "$bins/libllama.v0.4.0.so" | grep -m1 '^GCC: ' || true)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
{
  sed -n 1p "$work/gen.txt"
  echo "# prebuilt libllama.v0.4.0.so ($built; $(cat "$bins/_nlcBuildMetadata.json")); bundled llama.cpp commit $(git -C "$src" log -1 --format=%h); logits.c: $(gcc --version | head -n 1); tiny.gguf sha256 $(sha256sum "$work/tiny.gguf" | cut -d' ' -f1); cpu: $cpu"
  sed 1d "$work/gen.txt"
  cat "$work/rows.txt"
} > "$out/generations.tmp"
mv "$out/generations.tmp" "$out/generations.txt"
mv "$work/logits.npy" "$out/logits.npy"
cp "$work/tiny.gguf" "$out/tiny.gguf" # its vocabulary: DRY's breakers are matched against it (--vocab)
