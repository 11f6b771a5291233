#!/bin/sh
# What Debian sid's libstdc++ does with a uniform that rounds to 1: the oracle
# tests/oracle/stdcxx_uniform.cpp (which make test runs against this machine's
# libstdc++) compiled and run in the chroot with its g++, into
#   OUTDIR/stdcxx_uniform.txt
# GCC 15 and later draw such a uniform again (P0952R2); GCC <= 14 return
# nextafter(1, 0). libllama is built with the distribution's g++, so this is the
# rule of Debian sid's libllama 0.7.0 (tests/test_framework_llamacpp.c).
# Usage: sh analysis/golden/current/stdcxx_golden.sh CHROOT OUTDIR
set -eu
chroot_dir=${1:?usage: stdcxx_golden.sh CHROOT OUTDIR}
out=${2:?usage: stdcxx_golden.sh CHROOT OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d "$chroot_dir/tmp/samplab-stdcxx.XXXXXX")
trap 'rm -rf "$work"' EXIT
inner=${work#"$chroot_dir"}
cp "$root/tests/oracle/stdcxx_uniform.cpp" "$work/"
chroot "$chroot_dir" sh -c "cd $inner && g++ -std=c++17 -O2 -Wall -Wextra -Werror -o su stdcxx_uniform.cpp && ./su > su.txt"
pkgs=$(chroot "$chroot_dir" dpkg-query -W -f '${Package} ${Version}, ' g++ libstdc++6 libllama0 2>/dev/null || true)
{
  sed -n 1p "$work/su.txt"
  echo "# debian sid packages: ${pkgs%, }"
  sed 1d "$work/su.txt"
} > "$out/stdcxx_uniform.txt.tmp"
mv "$out/stdcxx_uniform.txt.tmp" "$out/stdcxx_uniform.txt"
