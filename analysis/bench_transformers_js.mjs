// bench_transformers_js.mjs — transformers.js 4.3.1's own generation step timed under Node:
// the processor list generate() builds, LogitsSampler's MultinomialSampler (onnxruntime-node
// TopK, softmax, _weightedIndex) after random.seed(42), on one row of float32 logits, each drawn
// token pushed onto the history as generate() does. Prints the time per step (best of RUNS)
// and the first 200 tokens, which bench_transformers_js.sh compares with samplab's.
// Usage: node bench_transformers_js.mjs JSDIR LOGITS.txt STEPS RUNS [top_k]
import fs from "fs";
import path from "path";

const [JSDIR, FILE, STEPS, RUNS, TOPK] = process.argv.slice(2);
const SRC = path.join(JSDIR, "node_modules/@huggingface/transformers/src");
const imp = (f) => import(path.join(SRC, f));
const { random } = await imp("utils/random.js");
const { Tensor } = await imp("utils/tensor.js");
const { LogitsSampler } = await imp("generation/logits_sampler.js");
const { GenerationConfig } = await imp("generation/configuration_utils.js");
const { PreTrainedModel } = await imp("models/modeling_utils.js");

// the numbers of the text file, '#' lines skipped, rounded to float32 as samplab reads them
const text = fs.readFileSync(FILE, "utf8").split("\n").filter((l) => !l.startsWith("#")).join(" ");
const row = Float32Array.from(text.split(/\s+/).filter((s) => s.length).map(Number));
const set = TOPK === undefined ? {} : { top_k: Number(TOPK) };

async function run(steps) {
  random.seed(42);
  const gc = new GenerationConfig({ do_sample: true, ...set });
  const procs = PreTrainedModel.prototype._get_logits_processor.call({}, gc, 0, null);
  const sampler = LogitsSampler.getSampler(gc);
  const ids = [[]];
  const out = [];
  const t = process.hrtime.bigint();
  for (let s = 0; s < steps; s++) {
    const scores = procs(ids, new Tensor("float32", row.slice(), [1, row.length]));
    const [[tok]] = await sampler(scores[0]);
    ids[0].push(BigInt(tok));
    out.push(Number(tok));
  }
  return [Number(process.hrtime.bigint() - t) / 1e9 / steps, out];
}

await run(20); // warm up: onnxruntime's session, V8's compiler
let best = Infinity, toks;
for (let r = 0; r < Number(RUNS); r++) {
  const [dt, out] = await run(Number(STEPS));
  if (dt < best) [best, toks] = [dt, out];
}
console.log(best);
console.log(toks.slice(0, 200).join(" "));
process.exit(0);
