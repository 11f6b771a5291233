// Golden draws of transformers.js 4.3.1 itself (npm @huggingface/transformers), under Node:
// its own random (src/utils/random.js), GenerationConfig, the processor list
// PreTrainedModel._get_logits_processor builds, LogitsSampler.getSampler's sampler and the
// onnxruntime-node TopK it calls, run over committed float32 logits as generate() runs its loop
// (models/modeling_utils.js: processors over all_input_ids, sampler on the row, the token
// pushed onto all_input_ids). Writes OUTDIR/transformers_js.txt and
// OUTDIR/transformers_js_logits.safetensors (the logits, one tensor per pool).
// Usage: node transformers_js.mjs JSDIR OUTDIR   (JSDIR holds node_modules/@huggingface/transformers)
import fs from "fs";
import crypto from "crypto";
import path from "path";

const [JSDIR, OUT] = process.argv.slice(2);
const PKG = path.join(JSDIR, "node_modules/@huggingface/transformers");
const SRC = path.join(PKG, "src");
const imp = (f) => import(path.join(SRC, f));
const { random } = await imp("utils/random.js");
const { Tensor, topk } = await imp("utils/tensor.js");
const { LogitsSampler } = await imp("generation/logits_sampler.js");
const { GenerationConfig } = await imp("generation/configuration_utils.js");
const { PreTrainedModel } = await imp("models/modeling_utils.js");

// ---- the logits pools: a fixed xorshift generator of this script, rounded to float32
let st = 0x9e3779b9 >>> 0;
const u32 = () => { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st; };
const unif = () => (u32() + 0.5) / 4294967296;
const gauss = () => Math.sqrt(-2 * Math.log(unif())) * Math.cos(2 * Math.PI * unif());
const pools = {};
function pool(name, R, V, f) {
  const a = new Float32Array(R * V);
  for (let r = 0; r < R; r++) for (let i = 0; i < V; i++) a[r * V + i] = f(r, i);
  pools[name] = { R, V, a };
}
const small = [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2];
pool("small8", 1, 8, (r, i) => small[i]);
pool("ties256", 48, 256, () => Math.round(gauss() * 4) / 2);         // steps of 0.5: many ties
pool("cont1000", 40, 1000, () => gauss() * 3);
pool("big8192", 8, 8192, () => Math.round(gauss() * 24) / 8);        // ties at the top too
pool("masked512", 24, 512, () => (unif() < 0.3 ? -Infinity : gauss() * 2));
pool("flat64", 16, 64, (r, i) => ((i * 7 + r) % 13 === 0 ? 1.5 : 0.25)); // two values only
pool("wide300", 24, 300, () => gauss() * 12);                          // peaked rows

// ---- the records
const lines = [];
const put = (...f) => lines.push(f.join("\t"));
const sha = (f) => crypto.createHash("sha256").update(fs.readFileSync(path.join(SRC, f))).digest("hex");
const ver = (p) => JSON.parse(fs.readFileSync(path.join(JSDIR, "node_modules", p, "package.json"))).version;
const cpu = (fs.readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/) || [, "?"])[1];
const head = [
  `# transformers.js's own sampler classes under Node (analysis/golden/js/transformers_js.mjs)`,
  `# packages: @huggingface/transformers ${ver("@huggingface/transformers")}, onnxruntime-node ${ver("onnxruntime-node")}, onnxruntime-common ${ver("onnxruntime-common")} (npm, --ignore-scripts)`,
  `# node ${process.version}, v8 ${process.versions.v8}, ${process.platform} ${process.arch}; TopK on onnxruntime's CPU execution provider`,
  `# cpu: ${cpu}`,
];
for (const f of ["utils/random.js", "utils/maths.js", "utils/tensor.js", "generation/logits_sampler.js",
                 "generation/logits_process.js", "generation/configuration_utils.js", "models/modeling_utils.js"])
  head.push(`# src/${f} sha256 ${sha(f)}`);
head.push("# seed\tS\tthe first random() values after random.seed(S)");
head.push("# exp\tx\tMath.exp(x) (float64 bits in hex)");
head.push("# topk\ttensor\trow\tk\tthe indices topk(row, k) returns, in order");
head.push("# case\tid\tkind (gen: one row a step; draw: one row every step)\ttensor\trow\tsteps\tseed\tsettings given\tprompt ids\ttokens");

// random.seed and random(): the generator and its seeding
for (const s of [0, 1, 2, 42, 7, 12345, 4294967295, 4294967296, 4294967296 + 5, 123456789012, 2 ** 53 - 1, 2 ** 53]) {
  random.seed(s);
  const v = [];
  for (let i = 0; i < 6; i++) v.push(random.random());
  // then skip to the 700th value: past the first twist of the state
  for (let i = 6; i < 700; i++) random.random();
  v.push(random.random());
  put("seed", s, v.join(","));
}

// Math.exp over the softmax's arguments (x - max of float32 values), some far out
const hex = (x) => { const b = Buffer.alloc(8); b.writeDoubleBE(x); return b.toString("hex"); };
for (let i = 0; i < 512; i++) {
  const a = Math.fround(gauss() * 20), b = Math.fround(gauss() * 20);
  const x = i < 448 ? a - Math.max(a, b) : (i < 480 ? -700 - unif() * 50 : (unif() - 0.5) * 1e-6);
  put("exp", hex(x), hex(Math.exp(x)));
}

// ORT's TopK order, ties included, on every path its kernel takes (k = 1; the heap; nth_element + sort)
const rowOf = (name, r) => { const p = pools[name]; return p.a.slice(r * p.V, (r + 1) * p.V); };
for (const [name, rows, ks] of [["ties256", [0, 1, 2, 3], [1, 2, 3, 4, 10, 50, 100, 128, 200, 256]],
                                ["flat64", [0, 1], [1, 2, 5, 13, 40, 64]],
                                ["big8192", [0], [1, 3, 50, 500, 2000]],
                                ["masked512", [0, 1], [1, 50, 300, 512]]]) {
  for (const r of rows) for (const k of ks) {
    const [, ix] = await topk(new Tensor("float32", rowOf(name, r), [pools[name].V]), k);
    put("topk", name, r, k, Array.from(ix.data, Number).slice(0, 300).join(","));
  }
}

// generations: settings in the order generate() takes them
const tvals = [undefined, 1.0, 0.7, 1.3, 0.25, 2.0, 0.0, -1.5];
const kvals = [undefined, 0, 1, 2, 3, 5, 10, 40, 100];
const pvals = [undefined, undefined, undefined, 0.9, 0.5];
const rvals = [undefined, undefined, 1.2, 0.8, 1.5];
const nvals = [undefined, undefined, undefined, 1, 2, 3];
const seeds = [0, 1, 42, 7, 2024, 4294967296 + 3, 123456789012, 2 ** 53, 99];
const names = Object.keys(pools).filter((n) => n !== "small8");
const pick = (a) => a[u32() % a.length];

async function run(id, kind, name, r0, T, seed, set, prompt) {
  const p = pools[name];
  random.seed(seed);
  const gc = new GenerationConfig({ do_sample: true, ...set });
  const procs = PreTrainedModel.prototype._get_logits_processor.call({}, gc, prompt.length, null);
  const sampler = LogitsSampler.getSampler(gc);
  const ids = [prompt.map(BigInt)];
  const out = [];
  for (let t = 0; t < T; t++) {
    const r = kind === "draw" ? r0 : r0 + t;
    const logits = new Tensor("float32", rowOf(name, r), [1, p.V]);
    const scores = procs(ids, logits);
    const [[tok]] = await sampler(scores[0]);
    ids[0].push(BigInt(tok));
    out.push(Number(tok));
  }
  const s = Object.entries(set).map(([k, v]) => `${k}=${v}`).join(",") || "-";
  put("case", id, kind, name, r0, T, seed, s, prompt.join(",") || "-", out.join(","));
}

let id = 0;
await run(id++, "draw", "small8", 0, 10, 42, { top_k: 3, temperature: 1.0 }, []); // the recipe's example
await run(id++, "draw", "small8", 0, 20, 42, {}, []);
for (let c = 0; c < 420; c++) {
  const name = pick(names), p = pools[name];
  const kind = c % 5 === 4 ? "draw" : "gen";
  const T = kind === "draw" ? 4 + (u32() % 17) : 1 + (u32() % Math.min(16, p.R));
  const r0 = kind === "draw" ? u32() % p.R : u32() % (p.R - T + 1);
  const set = {};
  const t = pick(tvals), k = pick(kvals), tp = pick(pvals), rp = pick(rvals), ng = pick(nvals);
  if (t !== undefined) set.temperature = t;
  if (k !== undefined) set.top_k = k;
  if (tp !== undefined) set.top_p = tp;
  if (rp !== undefined) set.repetition_penalty = rp;
  if (ng !== undefined) set.no_repeat_ngram_size = ng;
  const plen = u32() % 9;
  const prompt = [];
  for (let i = 0; i < plen; i++) prompt.push(i >= 2 && u32() % 3 === 0 ? prompt[i - 2] : u32() % p.V);
  await run(id++, kind, name, r0, T, pick(seeds), set, prompt);
}

// ---- write: the safetensors file of the pools, then the records
const meta = {}, bufs = [];
let off = 0;
for (const [n, p] of Object.entries(pools)) {
  const b = Buffer.from(p.a.buffer, p.a.byteOffset, p.a.byteLength);
  meta[n] = { dtype: "F32", shape: [p.R, p.V], data_offsets: [off, off + b.length] };
  off += b.length;
  bufs.push(b);
}
let hj = JSON.stringify(meta);
while ((hj.length + 8) % 8) hj += " ";
const hl = Buffer.alloc(8);
hl.writeBigUInt64LE(BigInt(hj.length));
fs.writeFileSync(path.join(OUT, "transformers_js_logits.safetensors"), Buffer.concat([hl, Buffer.from(hj), ...bufs]));
fs.writeFileSync(path.join(OUT, "transformers_js.txt"), head.concat(lines).join("\n") + "\n");
process.exit(0); // onnxruntime's session keeps the loop alive
