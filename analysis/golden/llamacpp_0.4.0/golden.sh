#!/bin/sh
# Golden outputs of llama.cpp v0.4.0 as node-llama-cpp 3.21.1 ships it: its
# prebuilt Linux x64 libllama.v0.4.0.so (built with GCC 11.4 on Ubuntu 22.04,
# per its _nlcBuildMetadata.json), run on this Debian 12 machine through the C
# API by the programs of analysis/golden/current/ (compiled here with gcc against
# the headers of the llama.cpp source the package bundles):
#   OUTDIR/llamacpp_chain.txt    llamacpp_chain.c: chains over given logits
#   OUTDIR/llamacpp_orders.txt   `chain orders`: user stage orders
#   OUTDIR/llamacpp_stages.txt   llamacpp_stages.c: xtc, top_n_sigma, temp_ext, logit_bias
#   OUTDIR/llamacpp_dry.txt      llamacpp_dry.c, with VOCABDIR (llama.cpp's models/ggml-vocab-*.gguf,
#                                which sh mk/vocab.sh fetches): DRY over five vocabularies
#   OUTDIR/llamacpp_dry_multi.txt `dry multi`, with VOCABDIR: breakers of several characters,
#                                their restart sequences of several tokens
# The same command lines as analysis/golden/current/llamacpp_golden.sh, so the
# files compare record by record with Debian sid's 0.7.0 ones. NLCDIR is a
# folder outside the repository: node-llama-cpp is installed there from the npm
# registry (once; about 730 MB) and its llama/gitRelease.bundle cloned for the
# headers.
# Usage: sh analysis/golden/llamacpp_0.4.0/golden.sh NLCDIR OUTDIR [VOCABDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cur=$(cd "$here/../current" && pwd)
vocabdir=${3:-}
. "$here/nlc_setup.sh"
cp "$cur/llamacpp_chain.c" "$cur/llamacpp_probe.h" "$cur/llamacpp_stages.c" "$cur/llamacpp_dry.c" "$work/"
I="-I$src/include -I$src/ggml/include"
L="-L$bins -Wl,-rpath,$bins -l:libllama.v0.4.0.so -l:libggml.v0.4.0.so -lggml-base -lllama-common -lm"
F="-std=c11 -O2 -Wall -Wextra -Werror -DLLAMA_PKG_VERSION=\"0.4.0\""
(cd "$work" && gcc $F $I -o chain llamacpp_chain.c $L && gcc $F $I -o stages llamacpp_stages.c $L &&
  gcc $F $I -o dry llamacpp_dry.c $L)
meta=$(cat "$bins/_nlcBuildMetadata.json")
built=$(strings "$bins/libllama.v0.4.0.so" | grep -m1 '^GCC: ' || true)
commit=$(git -C "$src" log -1 --format=%h)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
head_lines() {
  echo "# node-llama-cpp 3.21.1 prebuilt libllama.v0.4.0.so ($built; $meta); headers of its bundled llama.cpp (commit $commit); this program: $(gcc --version | head -n 1); cpu: $cpu"
}
run() { # NAME ARGS...: OUTDIR/NAME from the program's stdout, the header after its first line
  name=$1
  shift
  (cd "$work" && "$@" > "$name.raw" 2> "$name.err")
  { sed -n 1p "$work/$name.raw"; head_lines; sed 1d "$work/$name.raw"; } > "$out/$name.tmp"
  mv "$out/$name.tmp" "$out/$name"
}
run llamacpp_chain.txt ./chain
run llamacpp_orders.txt ./chain orders
# the XTC streams of llamacpp_golden.sh: seeds whose stream holds a float of 1 early
run llamacpp_stages.txt ./stages 100 371965 120 30 508205 20 30 523231 160 30
# DRY: the vocabularies in llamacpp_golden.sh's order, their sha256 in the header as there
if [ -n "$vocabdir" ]; then
  files=""
  for v in llama-spm llama-bpe gpt-2 qwen2 phi-3; do
    files="$files $(cd "$vocabdir" && pwd)/ggml-vocab-$v.gguf"
  done
  run llamacpp_dry.txt ./dry $files
  sums=$(cd "$vocabdir" && sha256sum ggml-vocab-llama-spm.gguf ggml-vocab-llama-bpe.gguf ggml-vocab-gpt-2.gguf \
    ggml-vocab-qwen2.gguf ggml-vocab-phi-3.gguf | sed 's/ \{1,\}/ /' | tr '\n' ';')
  { sed -n 1,2p "$out/llamacpp_dry.txt"; echo "# vocabularies (llama.cpp models/, sha256): $sums"; sed 1,2d "$out/llamacpp_dry.txt"; } \
    > "$out/llamacpp_dry.txt.tmp"
  mv "$out/llamacpp_dry.txt.tmp" "$out/llamacpp_dry.txt"
  run llamacpp_dry_multi.txt ./dry multi $files
  { sed -n 1,2p "$out/llamacpp_dry_multi.txt"; echo "# vocabularies (llama.cpp models/, sha256): $sums"
    sed 1,2d "$out/llamacpp_dry_multi.txt"; } > "$out/llamacpp_dry_multi.txt.tmp"
  mv "$out/llamacpp_dry_multi.txt.tmp" "$out/llamacpp_dry_multi.txt"
fi
