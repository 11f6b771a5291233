#!/bin/sh
# mkl_vsl_golden.sh BUILDDIR OUTFILE — build analysis/golden/mkl_vsl_golden.c
# against the Intel MKL that mkl_fetch.sh unpacked under BUILDDIR/mkl, run it
# and write its records to OUTFILE. MKL runs sequentially (no OpenMP runtime
# of Intel's is unpacked); MKL_ENABLE_INSTRUCTIONS, if set, is passed through
# and named in the header, so the same records can be made per CPU kernel.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BUILDDIR OUTFILE" >&2; exit 2; }
B=$1
OUT=$2
HERE=$(dirname "$0")
M=$B/mkl/usr
[ -f "$M/lib/x86_64-linux-gnu/libmkl_rt.so" ] || sh "$HERE/mkl_fetch.sh" "$B" >/dev/null
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -I"$M/include/mkl" -o "$B/mkl_vsl_golden" \
    "$HERE/mkl_vsl_golden.c" -L"$M/lib/x86_64-linux-gnu" -lmkl_rt -lm
DEB=$(ls "$B"/mkl-apt/debs/libmkl-rt_*.deb 2>/dev/null | head -1)
PKG=$( [ -n "$DEB" ] && echo "libmkl-rt $(dpkg-deb -f "$DEB" Version) " || echo 'unknown ')
CPU=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
LD_LIBRARY_PATH="$M/lib/x86_64-linux-gnu" MKL_THREADING_LAYER=SEQUENTIAL \
    "$B/mkl_vsl_golden" > "$OUT.body"
{
    head -3 "$OUT.body"
    echo "# package: ${PKG}(Debian 12 non-free, unpacked by mkl_fetch.sh); cpu: ${CPU:-unknown}"
    tail -n +4 "$OUT.body"
} > "$OUT.tmp"
rm -f "$OUT.body"
mv "$OUT.tmp" "$OUT"
echo "mkl_vsl_golden: wrote $OUT ($(wc -l < "$OUT") lines)" >&2
