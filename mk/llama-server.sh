#!/bin/sh
# Builds llama-server from the llama.cpp source that npm's node-llama-cpp@3.21.1
# bundles (llama.cpp v0.4.0, llama/gitRelease.bundle) with Debian's cmake, into a
# cache folder outside the source tree, for `make test-live` and the recordings of
# analysis/golden/audit/. Prints the path of the llama-server binary.
#   SL_LLAMA_SERVER_DIR  the build's folder
#                        (default ${XDG_CACHE_HOME:-$HOME/.cache}/samplab/llama-server-0.4.0)
#   NLCDIR               where node-llama-cpp is installed and its bundle cloned
#                        (default ${XDG_CACHE_HOME:-$HOME/.cache}/samplab/nlc, as `make golden-nlc`)
# Idempotent: a stamp file marks a finished build, so a second run only prints.
# The build runs in a temporary folder beside the destination and is renamed into
# place when it has finished, so an interrupted build is never taken.
# Usage: sh mk/llama-server.sh [-q]   (-q: print nothing but the path)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/samplab
dest=${SL_LLAMA_SERVER_DIR:-$cache/llama-server-0.4.0}
nlcdir=${NLCDIR:-$cache/nlc}
quiet=0
[ "${1:-}" = -q ] && quiet=1
say() { [ $quiet = 1 ] || echo "llama-server.sh: $*" >&2; }

if [ -f "$dest/stamp" ] && [ -x "$dest/bin/llama-server" ]; then
  echo "$dest/bin/llama-server"
  exit 0
fi
command -v cmake >/dev/null 2>&1 || { echo "llama-server.sh: cmake not found (apt-get install -y cmake)" >&2; exit 2; }
command -v npm >/dev/null 2>&1 || { echo "llama-server.sh: npm not found" >&2; exit 2; }
mkdir -p "$(dirname "$dest")" "$nlcdir"
# one build at a time: a second caller waits for the first, then finds the stamp
exec 9>"$dest.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if [ -f "$dest/stamp" ] && [ -x "$dest/bin/llama-server" ]; then
  echo "$dest/bin/llama-server"
  exit 0
fi

# nlc_setup.sh installs node-llama-cpp into NLCDIR (once) and clones its bundle;
# it reads its two arguments from the positional parameters and sets src and work.
say "source: node-llama-cpp@3.21.1 in $nlcdir (the first run installs about 730 MB)"
set -- "$nlcdir" "$(dirname "$dest")"
. "$here/../analysis/golden/llamacpp_0.4.0/nlc_setup.sh"
[ -f "$src/tools/server/server.cpp" ] || { echo "llama-server.sh: $src has no tools/server/server.cpp" >&2; exit 2; }

tmp=$(mktemp -d "$dest.tmp.XXXXXX")
trap 'rm -rf "$work" "$tmp"' EXIT
trap 'exit 130' INT TERM
t0=$(date +%s)
say "building in $tmp (about 8-15 minutes on 2 cores)"
# Release, portable code (no -march=native: the binary may meet another CPU of
# the same cache), no libcurl (models are local files), llama-server only.
cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DBUILD_SHARED_LIBS=OFF >"$tmp/cmake.log" 2>&1 ||
  { tail -n 20 "$tmp/cmake.log" >&2; echo "llama-server.sh: cmake configure failed" >&2; exit 2; }
cmake --build "$tmp/build" -j"${SL_JOBS:-2}" --target llama-server >"$tmp/build.log" 2>&1 ||
  { tail -n 20 "$tmp/build.log" >&2; echo "llama-server.sh: build failed" >&2; exit 2; }
# Keep bin/ (a static llama-server: no shared library to find) and
# the logs; drop the object files.
mkdir -p "$tmp/out"
cp -a "$tmp/build/bin" "$tmp/out/bin"
mv "$tmp/cmake.log" "$tmp/build.log" "$tmp/out/"
"$tmp/out/bin/llama-server" --version >"$tmp/out/version.txt" 2>&1 ||
  { cat "$tmp/out/version.txt" >&2; echo "llama-server.sh: the built llama-server does not run" >&2; exit 2; }
t1=$(date +%s)
{
  echo "llama.cpp commit $(git -C "$src" log -1 --format=%h) from node-llama-cpp@3.21.1 llama/gitRelease.bundle"
  grep -m1 '^version' "$tmp/out/version.txt" || true
  cmake --version | head -n 1
  gcc --version | head -n 1
  echo "flags: CMAKE_BUILD_TYPE=Release GGML_NATIVE=OFF LLAMA_CURL=OFF --target llama-server"
  echo "cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')"
  echo "build seconds: $((t1 - t0))"
} >"$tmp/out/stamp.tmp"
mv "$tmp/out/stamp.tmp" "$tmp/out/stamp"
rm -rf "$dest"
mv "$tmp/out" "$dest"
say "built in $((t1 - t0)) s"
echo "$dest/bin/llama-server"
