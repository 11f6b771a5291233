#!/bin/sh
# torch2_golden.sh — golden outputs of a real torch 2.x (Debian trixie's
# python3-torch 2.6.0, CPU, no MKL) for the `--torch 2` variant, written to
# OUTDIR/torch_multinomial.txt by the same analysis/golden/torch_golden.py.
# torch 2.x is not packaged for this Debian release, so it runs in a trixie
# chroot, made once with Debian's own tool (about 1.5 GB, a few minutes):
#   debootstrap --variant=minbase --include=python3-torch,python3-numpy trixie CHROOT
#   mount -t proc proc CHROOT/proc
# Not part of run.sh / golden-check (which use the libraries of this system);
# the committed copy is data/torch2/torch_multinomial.txt, whose big vectors
# are the same files as data/golden's (tests look there for them).
# Usage: sh analysis/golden/torch2_golden.sh CHROOT OUTDIR
set -eu
root=${1:?usage: torch2_golden.sh CHROOT OUTDIR}
out=${2:?usage: torch2_golden.sh CHROOT OUTDIR}
here=$(dirname "$0")
work=$(mktemp -d "$root/tmp/torch2-golden.XXXXXX")
cp "$here/torch_golden.py" "$work/"
inside=${work#"$root"}
chroot "$root" /usr/bin/python3 "$inside/torch_golden.py" "$inside/out" 2>/dev/null
mkdir -p "$out"
cp "$work/out/torch_multinomial.txt" "$out/"
rm -rf "$work"
