#!/bin/sh
# serving_golden.sh CHROOT OUTDIR VLLM_GIT_DIR TGI_GIT_DIR VLLM_0_21_GIT VLLM_0_8_4_GIT
# Runs vLLM's and TGI's own sampler files (plain torch code) in CHROOT's torch:
# vllm_batch.py -> OUTDIR/vllm_batch.txt, tgi_batch.py -> OUTDIR/tgi_batch.txt.
# Each *_GIT is a git directory (a clone or a bare mirror): VLLM_GIT_DIR of
# github.com/vllm-project/vllm, TGI_GIT_DIR of github.com/huggingface/text-generation-inference,
# VLLM_0_21_GIT of github.com/miznchimaki/domesticated_vllm-v0.21.0 and VLLM_0_8_4_GIT of
# github.com/Farrrrland/vllm084 (two repositories that carry vLLM v0.21.0 and v0.8.4: the
# upstream mirror was too big to fetch where this was written; with a full upstream clone,
# give it for all three vLLM arguments and set V021=v0.21.0 V084=v0.8.4 in the environment).
# The files the scripts load are copied from them at the commits below into a temporary
# folder inside CHROOT at run time, never into this repository.
set -eu
[ $# -eq 6 ] || { echo "usage: $0 CHROOT OUTDIR VLLM_GIT_DIR TGI_GIT_DIR VLLM_0_21_GIT VLLM_0_8_4_GIT" >&2; exit 2; }
CHROOT=$1 OUT=$2 VLLM=$3 TGI=$4 VLLM021=$5 VLLM084=$6
HERE=$(cd "$(dirname "$0")" && pwd)
# vLLM: the V1 sampler.py of early 2025, and topk_topp_sampler.py of late 2025 (the PyTorch path)
V1=00ec97818a85e1d66b7594e314594651a3ad4263 V2=3babc05a035b42bb9d0ae51b83e102c85e3e5626
# the same file at v0.21.0 and v0.8.4, as the two repositories above carry them
V021=${V021:-ae9bec9fd026740ee92efdc8de9e91fad79700f1} V084=${V084:-3da8dbf977db31f898fcc61278a1ada862b2c3e1}
TGI_TAG=v3.3.7
TMP=$(chroot "$CHROOT" mktemp -d)
trap 'rm -rf "$CHROOT$TMP"' EXIT
get() { # get GITDIR COMMIT PATH DEST
    mkdir -p "$(dirname "$4/$3")"
    git --git-dir="$1" show "$2:$3" > "$4/$3"
    echo "$3 at $2: blob $(git --git-dir="$1" rev-parse "$2:$3")" >&2
}
gd() { if [ -d "$1/.git" ]; then echo "$1/.git"; else echo "$1"; fi; }
OPS=vllm/v1/sample/ops/topk_topp_sampler.py
get "$(gd "$VLLM")" $V1 vllm/v1/sample/sampler.py "$CHROOT$TMP/vllm-$V1"
get "$(gd "$VLLM")" $V2 $OPS "$CHROOT$TMP/vllm-$V2"
get "$(gd "$VLLM021")" "$V021" $OPS "$CHROOT$TMP/vllm-0.21.0"
get "$(gd "$VLLM084")" "$V084" $OPS "$CHROOT$TMP/vllm-0.8.4"
for f in tokens.py logits_process.py; do
    get "$(gd "$TGI")" $TGI_TAG server/text_generation_server/utils/$f "$CHROOT$TMP/tgi"
done
sh "$HERE/chroot_py.sh" "$CHROOT" "$OUT" avx2 vllm_batch.py @/vllm_batch.txt \
    "$(echo $V1 | cut -c1-8)=$TMP/vllm-$V1" "$(echo $V2 | cut -c1-8)=$TMP/vllm-$V2" \
    "v0.21.0=$TMP/vllm-0.21.0" "v0.8.4=$TMP/vllm-0.8.4"
sh "$HERE/chroot_py.sh" "$CHROOT" "$OUT" avx2 tgi_batch.py @/tgi_batch.txt "$TGI_TAG=$TMP/tgi"
