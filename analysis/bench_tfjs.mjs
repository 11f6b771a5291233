// bench_tfjs.mjs — TensorFlow.js 4.22.0's own tf.multinomial timed under Node on its CPU
// backend (tfjs-core's multinomial op, then tfjs-backend-cpu's Multinomial kernel: softmax, a
// float32 cdf, a fresh seedrandom Alea per row), on one row of float32 logits, seed 42, K
// samples a call. Prints the time per call (best of RUNS, each the mean over CALLS calls) and
// the first call's tokens, which bench_tfjs.sh compares with samplab's.
// Usage: node bench_tfjs.mjs JSDIR LOGITS.txt K CALLS RUNS
import fs from "fs";
import path from "path";
import { createRequire } from "module";

const [JSDIR, FILE, K, CALLS, RUNS] = process.argv.slice(2);
const require = createRequire(path.join(JSDIR, "package.json"));
const tf = require("@tensorflow/tfjs-core");
require("@tensorflow/tfjs-backend-cpu");
await tf.setBackend("cpu");
await tf.ready();

// the numbers of the text file, '#' lines skipped, rounded to float32 as samplab reads them
const text = fs.readFileSync(FILE, "utf8").split("\n").filter((l) => !l.startsWith("#")).join(" ");
const row = Float32Array.from(text.split(/\s+/).filter((s) => s.length).map(Number));
const logits = tf.tensor2d(row, [1, row.length]);
const k = Number(K);

function call() {
  const t = tf.multinomial(logits, k, 42, false);
  const out = t.dataSync();
  t.dispose();
  return out;
}

const first = Array.from(call()); // warm up: V8's compiler, the backend's first kernel run
for (let i = 0; i < 3; i++) call();
let best = Infinity;
for (let r = 0; r < Number(RUNS); r++) {
  const t0 = process.hrtime.bigint();
  for (let c = 0; c < Number(CALLS); c++) call();
  const dt = Number(process.hrtime.bigint() - t0) / 1e9 / Number(CALLS);
  best = dt < best ? dt : best;
}
console.log(best);
console.log(first.join(" "));
process.exit(0);
