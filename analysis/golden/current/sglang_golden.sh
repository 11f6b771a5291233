#!/bin/sh
# sglang_golden.sh CHROOT OUTDIR LINE=SRC [LINE=SRC ...]
# Runs SGLang's own sampling functions (sglang_golden.py says which, and how they
# are loaded) in CHROOT's torch and writes OUTDIR/sglang.txt (torch's own CPU kernel,
# AVX-512 here) and OUTDIR/sglang_avx2.txt (ATEN_CPU_CAPABILITY=avx2). Each SRC is a
# checkout of github.com/sgl-project/sglang at the release named by LINE (0.5.23,
# 0.5.12), fetched outside this repository and never committed, for example
#     git clone --depth 1 --branch v0.5.23 https://github.com/sgl-project/sglang SRC
# Only python/sglang/srt/layers/sampler.py and
# python/sglang/kernels/ops/sampling/murmur_hash.py are read; they are copied into a
# temporary folder under CHROOT/tmp for the run and removed after it.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 CHROOT OUTDIR LINE=SRC [LINE=SRC ...]" >&2; exit 2; }
chroot_dir=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-sglang.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}
cp "$here/sglang_golden.py" "$here/libinfo.py" "$work/"
specs=
for spec in "$@"; do
    line=${spec%%=*} src=${spec#*=}
    for f in python/sglang/srt/layers/sampler.py python/sglang/kernels/ops/sampling/murmur_hash.py; do
        mkdir -p "$work/$line/$(dirname "$f")"
        cp "$src/$f" "$work/$line/$f"
    done
    specs="$specs $line=$inner/$line"
done
mkdir -p "$out"
# shellcheck disable=SC2086 # one word per LINE=DIR
chroot "$chroot_dir" /usr/bin/env -u ATEN_CPU_CAPABILITY /usr/bin/python3 "$inner/sglang_golden.py" \
    "$inner/sglang.txt" $specs
# shellcheck disable=SC2086
chroot "$chroot_dir" /usr/bin/env ATEN_CPU_CAPABILITY=avx2 /usr/bin/python3 "$inner/sglang_golden.py" \
    "$inner/sglang_avx2.txt" $specs
cp "$work/sglang.txt" "$work/sglang_avx2.txt" "$out/"
