#!/bin/sh
# Golden draws of transformers.js 4.3.1 under Node (transformers_js.mjs): the
# library's own random, processors, LogitsSampler and onnxruntime-node TopK over
# the logits pools the script writes beside them.
#   OUTDIR/transformers_js.txt                 the records (header: package, Node and V8 versions)
#   OUTDIR/transformers_js_logits.safetensors  the logits, one [R, V] float32 tensor per pool
# JSDIR: a folder outside the repository where @huggingface/transformers@4.3.1 is (or is then)
# installed from the npm registry; --ignore-scripts, as onnxruntime-node's install script
# fetches from a host this machine cannot reach (its Linux x64 binary is in the package).
# Usage: sh analysis/golden/js/transformers_js.sh JSDIR OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jsdir=$1
out=$2
command -v node >/dev/null || { echo "transformers_js.sh: node not found" >&2; exit 2; }
if [ ! -f "$jsdir/node_modules/@huggingface/transformers/package.json" ]; then
  mkdir -p "$jsdir"
  (cd "$jsdir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm i -E --ignore-scripts @huggingface/transformers@4.3.1 >/dev/null)
fi
v=$(node -p "require('$jsdir/node_modules/@huggingface/transformers/package.json').version")
[ "$v" = 4.3.1 ] || { echo "transformers_js.sh: $jsdir has @huggingface/transformers $v, not 4.3.1" >&2; exit 2; }
mkdir -p "$out"
node "$here/transformers_js.mjs" "$jsdir" "$out" 2>/dev/null
