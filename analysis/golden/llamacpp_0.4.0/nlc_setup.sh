# nlc_setup.sh — sourced by the node-llama-cpp golden scripts (llamacpp_0.4.0/golden.sh,
# node_llama_cpp/golden.sh) with their NLCDIR OUTDIR arguments: installs
# node-llama-cpp@3.21.1 from the npm registry into NLCDIR (once; about 730 MB),
# clones the llama.cpp source its llama/gitRelease.bundle holds, and sets
# nlc, out (absolute), pkg, bins (its prebuilt Linux x64 libraries), src (the
# clone) and work (a temporary folder removed on exit).
nlc=${1:?usage: golden.sh NLCDIR OUTDIR}
out=${2:?usage: golden.sh NLCDIR OUTDIR}
mkdir -p "$nlc" "$out"
nlc=$(cd "$nlc" && pwd)
out=$(cd "$out" && pwd)
pkg=$nlc/node_modules/node-llama-cpp
if [ ! -d "$pkg" ]; then
  (cd "$nlc" && { [ -f package.json ] || npm init -y >/dev/null; } && npm i -E node-llama-cpp@3.21.1 >/dev/null 2>&1)
fi
[ -d "$nlc/llama.cpp" ] || git -c advice.detachedHead=false clone -q "$pkg/llama/gitRelease.bundle" "$nlc/llama.cpp"
bins=$nlc/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64
src=$nlc/llama.cpp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
