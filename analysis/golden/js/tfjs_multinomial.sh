#!/bin/sh
# Golden draws of TensorFlow.js 4.22.0's tf.multinomial on the CPU backend under Node
# (tfjs_multinomial.mjs): the real op over the vector pools the script writes beside them.
#   OUTDIR/tfjs_multinomial.txt                 the records (header: packages, Node and V8 versions)
#   OUTDIR/tfjs_multinomial_vectors.safetensors the vectors, one [R, V] float32 tensor per pool
# JSDIR: a folder outside the repository; @tensorflow/tfjs-core and @tensorflow/tfjs-backend-cpu
# 4.22.0 are (or are then) installed from the npm registry into JSDIR/tfjs.
# Usage: sh analysis/golden/js/tfjs_multinomial.sh JSDIR OUTDIR [NAME CASES STREAM]
#   (NAME CASES STREAM: another set of cases, as the mjs takes them; the default is the committed one)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jsdir=$1/tfjs
out=$2
shift 2
command -v node >/dev/null || { echo "tfjs_multinomial.sh: node not found" >&2; exit 2; }
if [ ! -f "$jsdir/node_modules/@tensorflow/tfjs-backend-cpu/package.json" ]; then
  mkdir -p "$jsdir"
  (cd "$jsdir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm i -E --ignore-scripts @tensorflow/tfjs-core@4.22.0 @tensorflow/tfjs-backend-cpu@4.22.0 >/dev/null)
fi
for p in tfjs-core tfjs-backend-cpu; do
  v=$(node -p "require('$jsdir/node_modules/@tensorflow/$p/package.json').version")
  [ "$v" = 4.22.0 ] || { echo "tfjs_multinomial.sh: $jsdir has @tensorflow/$p $v, not 4.22.0" >&2; exit 2; }
done
mkdir -p "$out"
node "$here/tfjs_multinomial.mjs" "$jsdir" "$out" "$@" 2>/dev/null
