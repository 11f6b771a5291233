#!/bin/sh
# bench_transformers_js.sh — one generation step of transformers.js 4.3.1 under Node
# (analysis/bench_transformers_js.mjs: its own processors, onnxruntime-node TopK, softmax and
# _weightedIndex) beside samplab's emulation, on the same logits (data/synthetic_49152.txt,
# V = 49,152), the same seed and settings, in one run. samplab's time is `samplab bench
# --framework transformers-js` (in process, per step of a replay over the row repeated, the
# history growing as generate() grows it) and the whole `samplab draw --n N` process divided
# by N (wall clock, as Node's side is timed: on a loaded machine the in-process column is the
# steadier). JSDIR (default ~/.cache/samplab/js) must hold @huggingface/transformers 4.3.1
# (npm i -E --ignore-scripts, as analysis/golden/js/transformers_js.sh installs it); without
# it, or without node, the row is skipped: nothing is installed from here.
set -u
JSDIR=${JSDIR:-$HOME/.cache/samplab/js}
BIN=${SL_BIN:-bin/samplab}
STEPS=${STEPS:-2000} RUNS=${RUNS:-3}
if ! command -v node >/dev/null 2>&1 || [ ! -f "$JSDIR/node_modules/@huggingface/transformers/package.json" ]; then
  echo "bench_transformers_js: node or $JSDIR/node_modules/@huggingface/transformers missing; skipped"
  exit 0
fi
L=data/synthetic_49152.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ver=$(node -p "require('$JSDIR/node_modules/@huggingface/transformers/package.json').version")
echo "## transformers.js emulation vs transformers.js $ver under Node $(node --version) (V = 49,152, seed 42, best of $RUNS)"
echo "| settings | transformers.js per step | samplab bench (in process) | samplab draw --n $STEPS (whole process) | same first 200 tokens | transformers.js / samplab in process | transformers.js / samplab process |"
echo "|---|---:|---:|---:|---|---:|---:|"
for k in default 0; do
  set -- ; [ "$k" = default ] || set -- --top-k "$k"
  node analysis/bench_transformers_js.mjs "$JSDIR" "$L" "$STEPS" "$RUNS" ${1+"$2"} > "$tmp/js.txt" || exit 1
  js=$(sed -n 1p "$tmp/js.txt")
  # the row repeated STEPS times, as a [T, V] text file, for bench's replay loop
  awk -v n=200 'BEGIN { ORS = "" } /^#/ { next } { a[++m] = $1 } END { for (r = 0; r < n; r++) { for (i = 1; i <= m; i++) print (i > 1 ? " " : "") a[i]; print "\n" } }' "$L" > "$tmp/rows.txt"
  sb=$("$BIN" bench --framework transformers-js --logits "$tmp/rows.txt" --n "$RUNS" "$@" --json |
       sed -n 's/.*"replay_ms_per_step":\([0-9.e+-]*\).*/\1/p')
  [ -n "$sb" ] || { echo "bench_transformers_js: samplab bench failed"; exit 1; }
  best=
  for r in $(seq "$RUNS"); do
    t0=$(date +%s.%N)
    "$BIN" draw --framework transformers-js --logits "$L" --n "$STEPS" "$@" > "$tmp/sl.txt" || exit 1
    t1=$(date +%s.%N)
    best=$(echo "$t0 $t1 $STEPS ${best:-inf}" | awk '{ d = ($2 - $1) / $3; print (d < $4 || $4 == "inf") ? d : $4 }')
  done
  same=NO
  [ "$(head -n 200 "$tmp/sl.txt" | paste -sd' ' -)" = "$(sed -n 2p "$tmp/js.txt")" ] && same=yes
  echo "$js $sb $best $same $k" | awk '{ printf "| top_k %s | %.3g ms | %.3g ms | %.3g ms | %s | %.1fx | %.1fx |\n", ($5 == "default" ? "50 (default)" : "0 (all V)"), $1 * 1e3, $2, $3 * 1e3, $4, $1 * 1e3 / $2, $1 / $3 }'
done
