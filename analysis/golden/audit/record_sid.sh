#!/bin/sh
# The live audits against Debian sid's llama-server (package llama.cpp-tools, llama.cpp
# 0.7.0, upstream build b11669) run in a chroot: record_all.sh's recordings into OUTDIR,
# and make test-live's run against that server into OUTDIR/test-live.txt.
#   CHROOT  a Debian sid root (debootstrap --variant=minbase sid CHROOT MIRROR) with /proc,
#           /dev and /dev/pts mounted and llama.cpp-tools and python3-gguf installed
# The tiny model is written inside the chroot with sid's own gguf module (python3-gguf),
# and the server runs there through a wrapper that strips CHROOT from the paths it is given;
# it listens on 127.0.0.1, which the chroot shares with this machine.
# Usage: sh analysis/golden/audit/record_sid.sh CHROOT OUTDIR [SAMPLAB]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:?usage: record_sid.sh CHROOT OUTDIR [SAMPLAB]}" && pwd)
out=${2:?usage: record_sid.sh CHROOT OUTDIR [SAMPLAB]}
sl=${3:-bin/samplab}
die() { echo "record_sid.sh: $*" >&2; exit 2; }
[ -x "$root/usr/bin/llama-server" ] || die "$root: no /usr/bin/llama-server (apt-get install llama.cpp-tools in it)"
[ -d "$root/proc/self" ] || die "$root/proc: not mounted (mount -t proc proc $root/proc)"
chroot "$root" python3 -c 'import gguf' 2>/dev/null || die "$root: no python3-gguf"

dir=/opt/samplab-audit
mkdir -p "$root$dir/bin" "$out"
cp "$here/make_model.py" "$root$dir/make_model.py"
[ -f "$root$dir/audit-tiny.gguf" ] || chroot "$root" python3 "$dir/make_model.py" "$dir/audit-tiny.gguf"
wrap=$root$dir/bin/llama-server
{
  echo '#!/bin/sh'
  echo "# runs $root's llama-server, its arguments' paths taken inside that root"
  printf 'root=%s\n' "$root"
  cat <<'EOF'
n=$#
while [ $n -gt 0 ]; do
  a=$1
  shift
  case $a in "$root"/*) a=${a#"$root"} ;; esac
  set -- "$@" "$a"
  n=$((n - 1))
done
exec chroot "$root" /usr/bin/llama-server "$@"
EOF
} >"$wrap"
chmod +x "$wrap"

SL_LLAMA_SERVER=$wrap sh "$here/record_all.sh" "$out"
{
  echo "package: $(chroot "$root" dpkg-query -W -f '${Package} ${Version}' llama.cpp-tools)"
  echo "gguf: $(chroot "$root" dpkg-query -W -f '${Package} ${Version}' python3-gguf)"
  SL_LLAMA_SERVER=$wrap sh "$here/../../../mk/test-live.sh" "$sl"
} >"$out/test-live.txt" 2>&1 || { cat "$out/test-live.txt"; die "test-live failed against $root's llama-server"; }
cat "$out/test-live.txt"
