#!/bin/sh
# Regenerates the golden files of today's libraries (a Debian sid chroot) into
# OUTDIR (normally data/golden/current). Each generator names its library
# version, build, compiler and CPU in its output's header.
# VOCABDIR holds llama.cpp's models/ggml-vocab-*.gguf (sh mk/vocab.sh fetches them) for
# llamacpp_dry.txt; without it that file is left as it is.
# Usage: sh analysis/golden/current/run.sh CHROOT OUTDIR [VOCABDIR]
set -eu
chroot_dir=${1:?usage: run.sh CHROOT OUTDIR [VOCABDIR]}
out=${2:?usage: run.sh CHROOT OUTDIR [VOCABDIR]}
vocabdir=${3:-}
mkdir -p "$out"
here=$(dirname "$0")
# py KERNEL SCRIPT [ARG...]: a Python generator in the chroot (chroot_py.sh)
py() { sh "$here/chroot_py.sh" "$chroot_dir" "$out" "$@"; }
# One line per generator:
# llama.cpp 0.7.0 (libllama C API): llamacpp_chain.txt, llamacpp_generate.txt + _logits.npy, llamacpp_dry.txt
sh "$here/llamacpp_golden.sh" "$chroot_dir" "$out" "$vocabdir"
# llama.cpp 0.7.0's defaults as llama-completion prints them (sampler params, chain): llamacpp_defaults.txt
sh "$here/llamacpp_defaults.sh" "$chroot_dir" "$out"
# libstdc++'s uniform of 1, as libllama 0.7.0 is built with it
sh "$here/stdcxx_golden.sh" "$chroot_dir" "$out"
# Rust rand 0.10.3 and 0.8.8 (offline cargo): rand_{raw,wi,select,candle,fuzz,sub}_{0.10.3,0.8.8}.txt,
# exact_rand_{0.10.3,0.8.8}.txt, candle_generate_0.10.3.txt
sh "$here/rand_golden.sh" "$chroot_dir" "$out"
# torch 2.14.1 multinomial, analysis/golden/torch_golden.py unmodified: torch_multinomial.txt
py default torch_golden.py @
# torch float32 softmax/log_softmax/exp/cumsum/sum per CPU kernel and threads: torch_kernels.txt
py default torch_kernels.py @/torch_kernels.txt
# the 8/16-lane softmax sum-order model checked against torch: torch_softmax_order.txt
py default softmax_order.py @/torch_softmax_order.txt
# transformers 5.12.1 logits processors on the hf cases of hf_golden.py: hf_pipeline.txt, _avx512.txt
py avx2 hf_pipeline.py @/hf_pipeline.txt
py avx512 hf_pipeline.py @/hf_pipeline_avx512.txt
# transformers 5.12.1 generate() on small random Llama models: hf_generate.txt + .safetensors, _avx512
py avx2 hf_generate.py @
py avx512 hf_generate.py @ hf_generate_avx512
# transformers 5.12.1 generate() on batches (left-padded prompts, num_return_sequences, EOS and pad): hf_batch.txt + .safetensors
py avx2 hf_batch.py @
# torch 2.14.1 torch.multinomial on [B, V] (K samples, with and without replacement, N calls): torch_batch.txt + .safetensors
py default torch_batch.py @
# transformers 5.12.1 generate() with settings left unset (its defaults, a model's generation_config): hf_defaults.txt
py avx2 hf_defaults.py @
# torch float32 log (SLEEF logf_u10), log_softmax and TypicalLogitsWarper per kernel: torch_log.txt, _avx512.txt
py avx2 torch_log.py @/torch_log.txt
py avx512 torch_log.py @/torch_log_avx512.txt
# transformers 5.12.1 generate() on near-flat bf16 logits (check's variance): hf_flat.txt + .safetensors
py avx512 hf_flat.py @
# NumPy 2.4.6, analysis/golden/numpy_golden.py and exact_numpy_torch.py unmodified
py default numpy_golden.py @
py default exact_numpy_torch.py @/exact_numpy_torch.txt
py default exprace_numpy.py @/exprace_numpy.txt
# NumPy 2.4.6 choice(V, size=K, replace=False, p=p), Generator and legacy: numpy_noreplace.txt
py default numpy_noreplace.py @/numpy_noreplace.txt
py default exact_crafted.py @/exact_crafted.txt
# torch 2.x's exact-audit paths at chosen uniforms (race, cdf, words, seeded vectors): exact_torch2.txt
py default exact_torch2.py @/exact_torch2.txt
# NumPy 2.4.6 numpy.lib.format._read_array_header on 2,947 .npy headers: npy_headers.txt
py default npy_headers.py @/npy_headers.txt
# safetensors 0.8.0 deserialize on 2,082 probe files: safetensors_headers.txt
py default safetensors_headers.py @/safetensors_headers.txt
# Ollama v0.24.0's Go sampler (sample/ copied from OLLAMA_GIT, a clone of github.com/ollama/ollama,
# into the chroot at run time) with the chroot's golang-go: ollama_0.24.tsv, ollama_exp.tsv, ollama_pcg.tsv
if [ -n "${OLLAMA_GIT:-}" ]; then
    sh "$here/ollama_golden.sh" "$chroot_dir" "$OLLAMA_GIT" "$out"
else
    echo "run.sh: OLLAMA_GIT not set: ollama_0.24.tsv and ollama_pcg.tsv kept as they are" >&2
fi
# vLLM's V1 sampler and TGI 3.3.7's HeterogeneousNextTokenChooser on batches of requests, from
# their own files (VLLM_GIT, TGI_GIT: git directories of their repositories): vllm_batch.txt, tgi_batch.txt
if [ -n "${VLLM_GIT:-}" ] && [ -n "${TGI_GIT:-}" ]; then
    sh "$here/serving_golden.sh" "$chroot_dir" "$out" "$VLLM_GIT" "$TGI_GIT"
else
    echo "run.sh: VLLM_GIT or TGI_GIT not set: vllm_batch.txt and tgi_batch.txt kept as they are" >&2
fi
# SGLang's deterministic sampling, its own sampler.py and murmur_hash.py functions (SGLANG_SRC:
# "0.5.23=DIR 0.5.12=DIR", checkouts of github.com/sgl-project/sglang at those releases): sglang.txt
if [ -n "${SGLANG_SRC:-}" ]; then
    # shellcheck disable=SC2086 # one word per LINE=DIR
    sh "$here/sglang_golden.sh" "$chroot_dir" "$out" $SGLANG_SRC
else
    echo "run.sh: SGLANG_SRC not set: sglang.txt kept as it is" >&2
fi
