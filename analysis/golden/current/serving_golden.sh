#!/bin/sh
# serving_golden.sh CHROOT OUTDIR VLLM_GIT_DIR TGI_GIT_DIR
# Runs vLLM's and TGI's own sampler files (plain torch code) in CHROOT's torch:
# vllm_batch.py -> OUTDIR/vllm_batch.txt, tgi_batch.py -> OUTDIR/tgi_batch.txt.
# Each *_GIT_DIR is a git directory (a clone or a bare mirror) of
# github.com/vllm-project/vllm and github.com/huggingface/text-generation-inference;
# the files the scripts load are copied from it at the commits below into a
# temporary folder inside CHROOT at run time, never into this repository.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 CHROOT OUTDIR VLLM_GIT_DIR TGI_GIT_DIR" >&2; exit 2; }
CHROOT=$1 OUT=$2 VLLM=$3 TGI=$4
HERE=$(cd "$(dirname "$0")" && pwd)
# vLLM: the V1 sampler.py of early 2025, and topk_topp_sampler.py of late 2025 (the PyTorch path)
V1=00ec97818a85e1d66b7594e314594651a3ad4263 V2=3babc05a035b42bb9d0ae51b83e102c85e3e5626
TGI_TAG=v3.3.7
TMP=$(chroot "$CHROOT" mktemp -d)
trap 'rm -rf "$CHROOT$TMP"' EXIT
get() { # get GITDIR COMMIT PATH DEST
    mkdir -p "$(dirname "$4/$3")"
    git --git-dir="$1" show "$2:$3" > "$4/$3"
    echo "$3 at $2: blob $(git --git-dir="$1" rev-parse "$2:$3")" >&2
}
gd() { if [ -d "$1/.git" ]; then echo "$1/.git"; else echo "$1"; fi; }
get "$(gd "$VLLM")" $V1 vllm/v1/sample/sampler.py "$CHROOT$TMP/vllm-$V1"
get "$(gd "$VLLM")" $V2 vllm/v1/sample/ops/topk_topp_sampler.py "$CHROOT$TMP/vllm-$V2"
for f in tokens.py logits_process.py; do
    get "$(gd "$TGI")" $TGI_TAG server/text_generation_server/utils/$f "$CHROOT$TMP/tgi"
done
sh "$HERE/chroot_py.sh" "$CHROOT" "$OUT" avx2 vllm_batch.py @/vllm_batch.txt \
    "$(echo $V1 | cut -c1-8)=$TMP/vllm-$V1" "$(echo $V2 | cut -c1-8)=$TMP/vllm-$V2"
sh "$HERE/chroot_py.sh" "$CHROOT" "$OUT" avx2 tgi_batch.py @/tgi_batch.txt "$TGI_TAG=$TMP/tgi"
