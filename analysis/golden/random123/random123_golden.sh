#!/bin/sh
# random123_golden.sh BUILDDIR OUTDIR — build random123_golden.c against the
# Random123 headers Debian's librandom123-dev installs and write its records to
# OUTDIR/random123/random123.txt (a temp file renamed into place).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BUILDDIR OUTDIR" >&2; exit 2; }
B=$1
OUT=$2/random123
HERE=$(dirname "$0")
mkdir -p "$B" "$OUT"
# Random123's headers are C and C++; ctr.incr() is its C++ member, so the program is built as C++.
${CXX:-g++} -std=c++11 -O1 -Wall -Wextra -Werror -x c++ -o "$B/random123_golden" "$HERE/random123_golden.c"
VER=$(dpkg-query -W -f='${Version}' librandom123-dev 2>/dev/null || echo unknown)
{
    echo "# package: librandom123-dev $VER"
    "$B/random123_golden"
} > "$OUT/random123.txt.tmp"
mv "$OUT/random123.txt.tmp" "$OUT/random123.txt"
echo "random123_golden: wrote $OUT/random123.txt ($(wc -l < "$OUT/random123.txt") lines)" >&2
