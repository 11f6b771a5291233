#!/bin/sh
# make test-browser: installs puppeteer-core from npm into build/browser (the
# version web/test/package.json pins; the browser is Debian's chromium, never
# a download), checks the page's JSON writer against Debian's libjansson, then
# runs web/test/browser.js. The Makefile builds the WASI test programs first.
set -eu
mkdir -p build/browser
if ! cmp -s web/test/package.json build/browser/package.json || [ ! -d build/browser/node_modules/puppeteer-core ]; then
  cp web/test/package.json build/browser/package.json
  echo "test-browser: npm install puppeteer-core into build/browser"
  # the browser is Debian's chromium: nothing downloads one
  PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix build/browser --no-audit --no-fund --loglevel=error >/dev/null
fi
# The page's JSON writer (web/jansson/json.c, in WebAssembly) against Debian's
# libjansson (native) over the same values: 100,000 random records.
cc -O1 -o build/browser/json_jansson web/test/json_diff.c $(pkg-config --cflags --libs jansson)
build/browser/json_jansson 100000 > build/browser/json_jansson.txt
node web/test/wasm-run.js build/wasm/json_diff.wasm 100000 > build/browser/json_wasm.txt
if cmp -s build/browser/json_jansson.txt build/browser/json_wasm.txt; then
  echo "json: the page's writer prints libjansson's bytes for $(wc -l < build/browser/json_jansson.txt) records"
else
  echo "json: FAIL: the page's writer and libjansson differ:"; cmp build/browser/json_jansson.txt build/browser/json_wasm.txt || true
  exit 1
fi
# The page's libm against glibc's on the functions the pipelines use: exp and
# log must agree bit for bit (web/libm_fma.c); the others are reported.
cc -O2 -ffp-contract=off -o build/browser/libm_glibc web/test/libm_diff.c -lm
build/browser/libm_glibc 6 2000000 > build/browser/libm_glibc.txt
node web/test/wasm-run.js build/wasm/libm_diff.wasm 6 2000000 > build/browser/libm_wasm.txt
differ=$(diff build/browser/libm_glibc.txt build/browser/libm_wasm.txt | sed -n 's/^< \([a-z0-9]*\) .*/\1/p' | sort | uniq -c | awk '{printf "%s%s (%d blocks)", (NR > 1 ? ", " : ""), $2, $1}')
echo "libm: page vs glibc over 2^26 float and 2,000,000 double arguments per function differ in ${differ:-none}"
case " $differ" in *" exp ("*|*" log ("*|*text*) echo "libm: FAIL: exp, log or the number text differ"; exit 1 ;; esac
node web/test/browser.js
