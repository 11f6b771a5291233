#!/bin/sh
# mkl_agreement.sh BUILDDIR [R] — build analysis/mkl_agreement.c against samplab's
# MKL-path emulation and the Intel MKL unpacked by analysis/golden/mkl_fetch.sh under
# BUILDDIR/mkl, then run it on MKL's auto CPU branch and on its AVX2 branch.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [R]" >&2; exit 2; }
B=$1
R=${2:-2000}
HERE=$(dirname "$0")
M=$B/mkl/usr
[ -f "$M/lib/x86_64-linux-gnu/libmkl_rt.so" ] || sh "$HERE/golden/mkl_fetch.sh" "$B" >/dev/null
# against the static library of this tree (make lib), so it links whatever files the emulation uses
make -C "$HERE/.." -s lib >/dev/null
${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -Wall -Wextra -Werror \
    -I"$HERE/../src" -I"$M/include/mkl" -o "$B/mkl_agreement" "$HERE/mkl_agreement.c" \
    "$HERE/../lib/libsamplab.a" $(pkg-config --libs gsl jansson) -fopenmp \
    -L"$M/lib/x86_64-linux-gnu" -lmkl_rt -lm
st=0
for isa in "" AVX2; do
    echo "== MKL_ENABLE_INSTRUCTIONS=${isa:-(unset)}"
    LD_LIBRARY_PATH="$M/lib/x86_64-linux-gnu" MKL_THREADING_LAYER=SEQUENTIAL \
        MKL_ENABLE_INSTRUCTIONS=$isa "$B/mkl_agreement" "$R" || st=1
done
exit $st
