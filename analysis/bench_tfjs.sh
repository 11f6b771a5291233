#!/bin/sh
# bench_tfjs.sh — TensorFlow.js 4.22.0's tf.multinomial under Node (analysis/bench_tfjs.mjs: the
# real op on its CPU backend) beside samplab's `--framework tfjs` emulation, on the same logits
# (data/synthetic_49152.txt, V = 49,152), seed 42, in one run, per draw: one sample a call (a
# generation step: softmax and cdf over V for one token) and 10,000 samples a call (the cdf
# shared). samplab's time is the whole `samplab draw` process (N calls of K samples; tfjs
# repeats one call's draw for a fixed seed, so N calls are N times the same work) divided by
# the draws, wall clock as Node's side is timed, best of RUNS; for K = 1 also `samplab bench
# --framework tfjs` in process (thread CPU time per step). The first call's tokens must be the
# same on both sides. JSDIR (default ~/.cache/samplab/js) must hold @tensorflow/tfjs-core and
# @tensorflow/tfjs-backend-cpu 4.22.0 (npm i -E --ignore-scripts @tensorflow/tfjs@4.22.0, or as
# analysis/golden/js/tfjs_multinomial.sh installs them); without them, or without node, the row
# is skipped: nothing is installed from here.
set -u
JSDIR=${JSDIR:-$HOME/.cache/samplab/js}
BIN=${SL_BIN:-bin/samplab}
RUNS=${RUNS:-3}
if ! command -v node >/dev/null 2>&1 || [ ! -f "$JSDIR/node_modules/@tensorflow/tfjs-backend-cpu/package.json" ]; then
  echo "bench_tfjs: node or $JSDIR/node_modules/@tensorflow/tfjs-backend-cpu missing; skipped"
  exit 0
fi
L=data/synthetic_49152.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ver=$(node -p "require('$JSDIR/node_modules/@tensorflow/tfjs-backend-cpu/package.json').version")
echo "## tfjs emulation vs TensorFlow.js $ver (CPU backend) under Node $(node --version) (V = 49,152, seed 42, best of $RUNS)"
# The two samplab columns differ in what they redo: `draw --n N` on one vector prepares its cdf
# once for the N calls (tfjs redoes softmax and cdf at every call), the in-process replay does
# it at every step, as tfjs does; with one sample a call, the in-process ratio is the like for
# like one.
echo "| samples a call | tf.multinomial per draw | samplab draw per draw (whole process, cdf once) | samplab bench per draw (in process, cdf every step) | same first call | tfjs / samplab process | tfjs / samplab in process |"
echo "|---:|---:|---:|---:|---|---:|---:|"
# the row repeated, as a [T, V] text file, for bench's replay loop (one sample a step)
awk -v n=200 'BEGIN { ORS = "" } /^#/ { next } { a[++m] = $1 } END { for (r = 0; r < n; r++) { for (i = 1; i <= m; i++) print (i > 1 ? " " : "") a[i]; print "\n" } }' "$L" > "$tmp/rows.txt"
for k in 1 10000; do
  if [ "$k" = 1 ]; then calls=500; else calls=20; fi
  # stderr: tfjs-core prints a banner advising tfjs-node under Node
  node analysis/bench_tfjs.mjs "$JSDIR" "$L" "$k" "$calls" "$RUNS" > "$tmp/js.txt" 2>/dev/null || exit 1
  js=$(sed -n 1p "$tmp/js.txt")
  best=
  for r in $(seq "$RUNS"); do
    t0=$(date +%s.%N)
    "$BIN" draw --framework tfjs --logits "$L" --seed 42 --num-samples "$k" --n "$calls" > "$tmp/sl.txt" 2>/dev/null || exit 1
    t1=$(date +%s.%N)
    best=$(echo "$t0 $t1 $calls ${best:-inf}" | awk '{ d = ($2 - $1) / $3; print (d < $4 || $4 == "inf") ? d : $4 }')
  done
  same=NO
  [ "$(head -n 1 "$tmp/sl.txt")" = "$(sed -n 2p "$tmp/js.txt")" ] && same=yes
  sb=-
  if [ "$k" = 1 ]; then
    sb=$("$BIN" bench --framework tfjs --logits "$tmp/rows.txt" --seed 42 --n "$RUNS" --json |
         sed -n 's/.*"replay_ms_per_step":\([0-9.e+-]*\).*/\1/p')
    [ -n "$sb" ] || { echo "bench_tfjs: samplab bench failed"; exit 1; }
  fi
  echo "$k $js $best $sb $same" | awk '{ k = $1; js = $2 / k; pr = $3 / k;
    ip = ($4 == "-") ? "-" : sprintf("%.3g ms", $4 / k); ir = ($4 == "-") ? "-" : sprintf("%.1fx", js * 1e3 / ($4 / k));
    printf "| %d | %.3g ms | %.3g ms | %s | %s | %.1fx | %s |\n", k, js * 1e3, pr * 1e3, ip, $5, js / pr, ir }'
done
