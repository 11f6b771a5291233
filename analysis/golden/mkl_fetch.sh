#!/bin/sh
# mkl_fetch.sh BUILDDIR — fetch Intel MKL 2020.4 from Debian 12's non-free
# archive and unpack it under BUILDDIR/mkl, without touching the machine's
# apt sources: apt gets its own source list, lists and cache under BUILDDIR.
# The packages are unpacked (dpkg -x), not installed.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
B=$1
A=$B/mkl-apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$B/mkl" "$A/debs"
A=$(cd "$A" && pwd)
# The archive is the one this machine's apt already uses (MIRROR overrides it):
# the first URI of its deb822 sources, or of a one-line sources.list entry.
if [ -z "${MIRROR:-}" ]; then
    MIRROR=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null \
             | grep -v -- '-security' | head -1)
fi
if [ -z "${MIRROR:-}" ]; then
    MIRROR=$(sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}\([^[:space:]]*\).*/\2/p' \
             /etc/apt/sources.list 2>/dev/null | grep -v -- '-security' | head -1)
fi
[ -n "${MIRROR:-}" ] || { echo "mkl_fetch: no Debian archive found in /etc/apt; set MIRROR" >&2; exit 2; }
echo "deb $MIRROR bookworm main non-free non-free-firmware" > "$A/sources.list"
: > "$A/status"
OPTS="-o Dir::Etc::SourceList=$A/sources.list -o Dir::Etc::SourceParts=/dev/null
 -o Dir::State::Lists=$A/lists -o Dir::Cache=$A/cache -o Dir::State::status=$A/status
 -o Debug::NoLocking=1 -o APT::Get::AllowUnauthenticated=false"
# shellcheck disable=SC2086
apt-get $OPTS update >&2
# The MKL runtime pieces torch-like code needs: the rt dispatcher, core,
# LP64 interface, sequential threading, and the CPU-specific kernels.
PKGS="libmkl-rt libmkl-core libmkl-intel-lp64 libmkl-sequential libmkl-gnu-thread
 libmkl-def libmkl-avx2 libmkl-avx512 libmkl-mc3 libmkl-vml-def libmkl-vml-avx2
 libmkl-vml-avx512 libmkl-vml-mc3 libmkl-dev"
GOT=
for p in $PKGS; do
    # shellcheck disable=SC2086
    if apt-cache $OPTS show "$p" >/dev/null 2>&1; then GOT="$GOT $p"; fi
done
echo "mkl_fetch: packages: $GOT" >&2
# shellcheck disable=SC2086
(cd "$A/debs" && apt-get $OPTS download $GOT >&2)
for d in "$A"/debs/*.deb; do dpkg -x "$d" "$B/mkl"; done
ls "$A"/debs >&2
find "$B/mkl" -name 'libmkl_rt.so*' | head -1
