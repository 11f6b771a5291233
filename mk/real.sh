#!/bin/sh
# The real transformers.js and TensorFlow.js for the explorer: mk/real.sh OUTFILE.
# Installs the pinned npm packages into a cache outside the tree (SAMPLAB_JS_DIR,
# default $HOME/.cache/samplab/explorer-js; --ignore-scripts: onnxruntime-node's
# install script fetches from a host this machine cannot reach, and the page does
# not use it), then bundles what the page runs (mk/real.mjs, esbuild) into OUTFILE.
set -eu
out=$1
jsdir=${SAMPLAB_JS_DIR:-$HOME/.cache/samplab/explorer-js}
pkgs="@huggingface/transformers@4.3.1 @tensorflow/tfjs@4.22.0 esbuild@0.28.2"
have() { [ -f "$jsdir/node_modules/$1/package.json" ] &&
  [ "$(node -p "require('$jsdir/node_modules/$1/package.json').version")" = "$2" ]; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "mk/real.sh: node and npm are needed (Debian: nodejs npm)" >&2; exit 2; }
if ! have @huggingface/transformers 4.3.1 || ! have @tensorflow/tfjs 4.22.0 || ! have esbuild 0.28.2; then
  echo "explorer: npm install $pkgs into $jsdir"
  mkdir -p "$jsdir"
  (cd "$jsdir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm i -E --ignore-scripts --no-audit --no-fund --loglevel=error $pkgs >/dev/null)
fi
node mk/real.mjs "$jsdir" "$out"
