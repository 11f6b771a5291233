#!/bin/sh
# Golden outputs of today's llama.cpp (Debian sid llama.cpp / libllama-dev
# 0.7.0, upstream build 11669) through its C API, run in a Debian sid chroot:
#   OUTDIR/llamacpp_chain.txt            llamacpp_chain.c: sampler chains over
#                                        given logits, no model (record formats
#                                        in llamacpp_chain.c)
#   OUTDIR/llamacpp_generate.txt         llamacpp_generate.c: a generation loop
#   OUTDIR/llamacpp_generate_logits.npy  on a tiny random GGUF (make_tiny_gguf.py),
#                                        its per-step logits, float32 [T, V]
#   OUTDIR/llamacpp_orders.txt           `chain orders`: chains in user stage orders
#                                        (--samplers lists) over the same vectors
#   OUTDIR/llamacpp_orders_generate.txt  `generate MODEL NPY orders`: 100-step
#   OUTDIR/llamacpp_orders_logits.npy    generations with user orders, their logits
#   OUTDIR/llamacpp_mirostat.txt         llamacpp_mirostat.c: mirostat v1/v2 and
#                                        adaptive_p over 100-step generations
#   OUTDIR/llamacpp_names.txt            llamacpp_names.cpp: which words and letters
#                                        libllama-common maps to which stage
#   OUTDIR/llamacpp_stages.txt           llamacpp_stages.c: xtc, top_n_sigma, temp_ext
#                                        (dynamic temperature) and logit_bias, alone, in
#                                        orders and in the default chain, 100-step runs;
#                                        XTC's draws read from its decisions
#   OUTDIR/llamacpp_dry.txt              llamacpp_dry.c (only with VOCABDIR, a folder
#                                        holding llama.cpp's models/ggml-vocab-*.gguf:
#                                        mk/vocab.sh fetches them):
#                                        the DRY sampler over five real vocabularies,
#                                        their token pieces and 100-step generations
#   OUTDIR/llamacpp_dry_multi.txt        `dry multi` (with VOCABDIR): breakers of several
#                                        characters, their rests tokenized, restart
#                                        sequences of several tokens, 100-step generations
# The programs are compiled in the chroot with its gcc against libllama
# (pkg-config llama ggml, or llama.pc read directly where the chroot has no
# pkg-config, plus libllama-common for the build number); the
# binaries and the model stay in a scratch folder under CHROOT/tmp.
# Headers: llama.cpp version and build (LLAMA_BUILD_NUMBER of libllama-common,
# dpkg), compiler, llama_print_system_info, the CPU; llamacpp_chain.txt also
# quotes the sampler chain llama-completion prints for its defaults and at
# --temp 0 on the tiny model.
# Usage: sh analysis/golden/current/llamacpp_golden.sh CHROOT OUTDIR [VOCABDIR]
set -eu
chroot_dir=${1:?usage: llamacpp_golden.sh CHROOT OUTDIR}
out=${2:?usage: llamacpp_golden.sh CHROOT OUTDIR [VOCABDIR]}
vocabdir=${3:-}
dry_vocabs="llama-spm llama-bpe gpt-2 qwen2 phi-3"
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-llama.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}  # the same folder as the chroot sees it
cp "$here/llamacpp_chain.c" "$here/llamacpp_generate.c" "$here/llamacpp_probe.h" \
  "$here/llamacpp_names.cpp" "$here/llamacpp_stages.c" "$here/make_tiny_gguf.py" "$here/llamacpp_mirostat.c" \
  "$here/../../../tests/golden_gen.h" "$here/llamacpp_dry.c" "$work/"
in_chroot() { chroot "$chroot_dir" sh -c "cd $inner && $1"; }

# the build: pkg-config's flags, or (a chroot without pkg-config) the same read from llama.pc
cat > "$work/build.sh" <<'EOF_BUILD'
set -eu
if command -v pkg-config >/dev/null 2>&1; then
  V=$(pkg-config --modversion llama)
  L="$(pkg-config --cflags --libs llama ggml)"
else
  pc=$(ls /usr/lib/*/pkgconfig/llama.pc | head -n 1)
  V=$(sed -n 's/^Version: *//p' "$pc")
  L="$(sed -n 's/^Libs: *-L[^ ]* *//p' "$pc") -lggml"
fi
F="-std=c11 -O2 -Wall -Wextra -Werror -DLLAMA_PKG_VERSION=\"$V\""
gcc $F -o chain llamacpp_chain.c $L -lllama-common -lm
gcc $F -o generate llamacpp_generate.c $L -lllama-common -lm
gcc $F -o stages llamacpp_stages.c $L -lllama-common -lm
gcc $F -o mirostat llamacpp_mirostat.c $L -lllama-common -lm
gcc $F -o dry llamacpp_dry.c $L -lm
g++ -std=c++17 -O2 -Wall -Wextra -Werror -DLLAMA_PKG_VERSION=\"$V\" -o names llamacpp_names.cpp -lllama-common
EOF_BUILD
in_chroot 'sh build.sh'
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
# the chains llama-completion builds from --samplers: where greedy replaces dist at --temp 0
order_chains=""
for o in "top_p;top_k;temperature" "top_k;temperature" "temperature;top_k" "top_k" "temperature;top_k;temperature" ""; do
  order_chains="$order_chains# llama-completion --samplers '$o' --temp 0: $(completion_chain "--seed 42 --temp 0 --samplers '$o'")
"
done

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

in_chroot './chain orders > orders.txt 2> orders.err'
{
  sed -n 1p "$work/orders.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  printf '%s' "$order_chains"
  sed 1d "$work/orders.txt"
} > "$out/llamacpp_orders.txt.tmp"
mv "$out/llamacpp_orders.txt.tmp" "$out/llamacpp_orders.txt"

in_chroot './generate tiny.gguf ogen.npy orders > ogen.txt'
{
  sed -n 1p "$work/ogen.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  echo "# model file: make_tiny_gguf.py (python3-gguf GGUFWriter, numpy PCG64 seed 20261201), sha256 $gguf_sha"
  echo "# logits: llamacpp_orders_logits.npy, float32 [T, V], row = step of a run (see rows)"
  sed 1d "$work/ogen.txt"
} > "$out/llamacpp_orders_generate.txt.tmp"
cp "$work/ogen.npy" "$out/llamacpp_orders_logits.npy.tmp"
mv "$out/llamacpp_orders_generate.txt.tmp" "$out/llamacpp_orders_generate.txt"
mv "$out/llamacpp_orders_logits.npy.tmp" "$out/llamacpp_orders_logits.npy"

# every spelling samplab takes or refuses, and a few near misses
in_chroot './names penalties top_k top_p min_p typ_p temperature dry xtc infill top_n_sigma adaptive_p \
  top-k topk TOPK Top-K tOp_K top-p topp nucleus NUCLEUS Top_P min-p minp MIN_P typ-p typp typ TYP Typ-P \
  typical typical_p typical-p temp TEMP Temp temp-ext temp_ext tempext PENALTIES penalty repeat \
  top-n-sigma topnsigma top-n_sigma top_n-sigma TOP_N_SIGMA adaptive-p adaptivep ADAPTIVE_P Dry XTC INFILL \
  mirostat mirostat_v2 dist greedy logit_bias logit-bias top_a tfs_z top__k top--k top_k_ topk2 > names.txt'
{
  sed -n 1p "$work/names.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  sed 1d "$work/names.txt"
} > "$out/llamacpp_names.txt.tmp"
mv "$out/llamacpp_names.txt.tmp" "$out/llamacpp_names.txt"

# the XTC streams: seeds whose MT19937 stream holds a word >= 0xFFFFFF80 at draw 134, 35, 174
# (found by a search over seeds), where libstdc++'s float canonical rounds to 1
in_chroot './stages 100 371965 120 30 508205 20 30 523231 160 30 > stages.txt'
{
  sed -n 1p "$work/stages.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  sed 1d "$work/stages.txt"
} > "$out/llamacpp_stages.txt.tmp"
mv "$out/llamacpp_stages.txt.tmp" "$out/llamacpp_stages.txt"

in_chroot './mirostat > mirostat.txt'
{
  sed -n 1p "$work/mirostat.txt"
  echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
  echo "# llama-completion --mirostat 2 --temp 0: $(completion_chain "--seed 42 --mirostat 2 --temp 0")"
  echo "# llama-completion --mirostat 1 --top-k 5 --samplers top_k: $(completion_chain "--seed 42 --mirostat 1 --top-k 5 --samplers top_k")"
  echo "# llama-completion --samplers 'top_k;adaptive_p;top_p': $(completion_chain "--seed 42 --samplers 'top_k;adaptive_p;top_p'")"
  sed 1d "$work/mirostat.txt"
} > "$out/llamacpp_mirostat.txt.tmp"
mv "$out/llamacpp_mirostat.txt.tmp" "$out/llamacpp_mirostat.txt"

# DRY over real vocabularies (llama.cpp's own test vocabularies, copied in)
if [ -n "$vocabdir" ]; then
  files=""
  for v in $dry_vocabs; do
    cp "$vocabdir/ggml-vocab-$v.gguf" "$work/"
    files="$files ggml-vocab-$v.gguf"
  done
  sums=$(cd "$work" && sha256sum $files | sed 's/ \{1,\}/ /' | tr '\n' ';')
  in_chroot "./dry $files > dry.txt"
  {
    sed -n 1p "$work/dry.txt"
    echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
    echo "# vocabularies (llama.cpp models/, sha256): $sums"
    sed 1d "$work/dry.txt"
  } > "$out/llamacpp_dry.txt.tmp"
  mv "$out/llamacpp_dry.txt.tmp" "$out/llamacpp_dry.txt"
  # breakers of several characters: their restart sequences of several tokens
  in_chroot "./dry multi $files > dry_multi.txt"
  {
    sed -n 1p "$work/dry_multi.txt"
    echo "# debian sid packages: ${pkgs%, }; cpu: $cpu"
    echo "# vocabularies (llama.cpp models/, sha256): $sums"
    sed 1d "$work/dry_multi.txt"
  } > "$out/llamacpp_dry_multi.txt.tmp"
  mv "$out/llamacpp_dry_multi.txt.tmp" "$out/llamacpp_dry_multi.txt"
fi
