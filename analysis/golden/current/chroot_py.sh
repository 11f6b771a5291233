#!/bin/sh
# Runs one Python golden generator inside a Debian sid chroot (python3-torch,
# python3-transformers, python3-numpy, python3-safetensors) and copies what it
# wrote to OUTDIR. The scripts of analysis/golden and analysis/golden/current
# are copied to a scratch folder under CHROOT/tmp; an argument '@' stands for
# the output folder as the chroot sees it, '@/NAME' for a file in it.
# KERNEL is avx2 or avx512 (torch's ATEN_CPU_CAPABILITY) or default (unset).
# Files that lack the version lines of libinfo.py (those of the unmodified
# analysis/golden scripts) get them after their first line; torch_golden.py's
# big vectors are dropped when equal to data/golden's (the replay looks there).
# Usage: sh analysis/golden/current/chroot_py.sh CHROOT OUTDIR KERNEL SCRIPT [ARG...]
set -eu
chroot_dir=${1:?usage: chroot_py.sh CHROOT OUTDIR KERNEL SCRIPT [ARG...]}
out=${2:?}
kernel=${3:?}
script=${4:?}
shift 4
here=$(cd "$(dirname "$0")" && pwd)
golden=$(dirname "$here")
data=$(dirname "$(dirname "$golden")")/data/golden
work=$(mktemp -d "$chroot_dir/tmp/samplab-py.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}  # the same folder as the chroot sees it
cp "$golden"/*.py "$here"/*.py "$work/"
mkdir -p "$work/out" "$out"
n=$#
while [ "$n" -gt 0 ]; do
    a=$1
    shift
    case $a in
        @) a=$inner/out ;;
        @/*) a=$inner/out/${a#@/} ;;
    esac
    set -- "$@" "$a"
    n=$((n - 1))
done
py() {
    if [ "$kernel" = default ]; then
        chroot "$chroot_dir" /usr/bin/env -u ATEN_CPU_CAPABILITY /usr/bin/python3 "$@"
    else
        chroot "$chroot_dir" /usr/bin/env ATEN_CPU_CAPABILITY="$kernel" /usr/bin/python3 "$@"
    fi
}
py "$inner/$script" "$@"
for f in "$work"/out/*.txt; do
    [ -f "$f" ] || continue
    case ${f##*/} in
        torch_vec_*) cmp -s "$f" "$data/${f##*/}" && rm -f "$f" && continue ;;
    esac
    grep -q '^# libraries: ' "$f" || py "$inner/libinfo.py" --insert "$inner/out/${f##*/}"
done
cp -r "$work"/out/. "$out/"
