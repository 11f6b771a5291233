// Golden draws of TensorFlow.js 4.22.0's tf.multinomial on its CPU backend (npm
// @tensorflow/tfjs-core and @tensorflow/tfjs-backend-cpu 4.22.0, seedrandom 3.0.5), under Node:
// the real op (ops/multinomial.js multinomial_, then the CPU kernel kernels/Multinomial.js:
// softmax unless normalized, a float32 cdf, seedrandom.alea(seed.toString()) per row) over
// vectors this script makes, and seedrandom's alea alone over seeds of every kind.
// Writes OUTDIR/NAME.txt and OUTDIR/NAME_vectors.safetensors (one [R, V] float32 tensor a pool).
// Usage: node tfjs_multinomial.mjs JSDIR OUTDIR [NAME CASES STREAM]
//   JSDIR holds node_modules/@tensorflow/*; NAME defaults to tfjs_multinomial, CASES to 400,
//   STREAM (the seed of this script's own generator, which picks the vectors and cases) to 1.
import fs from "fs";
import crypto from "crypto";
import path from "path";
import { createRequire } from "module";

const [JSDIR, OUT, NAME = "tfjs_multinomial", CASES = "400", STREAM = "1"] = process.argv.slice(2);
const require = createRequire(path.join(JSDIR, "package.json"));
const tf = require("@tensorflow/tfjs-core");
require("@tensorflow/tfjs-backend-cpu");
const alea = require("seedrandom/lib/alea");
await tf.setBackend("cpu");
await tf.ready();

// ---- this script's own generator (xorshift32), so another STREAM gives other cases
let st = (0x9e3779b9 ^ Math.imul(Number(STREAM), 0x85ebca6b)) >>> 0 || 1;
const u32 = () => { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st; };
for (let i = 0; i < 20; i++) u32();
const unif = () => (u32() + 0.5) / 4294967296;
const gauss = () => Math.sqrt(-2 * Math.log(unif())) * Math.cos(2 * Math.PI * unif());
const pick = (a) => a[u32() % a.length];

const pools = {};
function pool(name, kind, R, V, f) {
  const a = new Float32Array(R * V);
  for (let r = 0; r < R; r++) for (let i = 0; i < V; i++) a[r * V + i] = f(r, i);
  pools[name] = { kind, R, V, a };
}
// logits pools (normalized = false)
pool("two", "logits", 6, 2, (r, i) => (i ? gauss() * 2 : 0));
pool("small8", "logits", 1, 8, (r, i) => [4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2][i]);
pool("ties64", "logits", 8, 64, () => Math.round(gauss() * 2) / 2);    // many ties
pool("cont1000", "logits", 8, 1000, () => gauss() * 3);
pool("masked256", "logits", 8, 256, () => (unif() < 0.4 ? -Infinity : gauss() * 2));
pool("peaked300", "logits", 6, 300, () => gauss() * 15);
pool("big50k", "logits", 2, 50000, () => gauss() * 4);
// probability pools (normalized = true: used as given, not divided by their sum)
pool("p2", "probs", 4, 2, (r, i) => [[0.25, 0.75], [0.5, 0.5], [1, 0], [0.1, 0.2]][r][i]);
pool("pzeros32", "probs", 6, 32, (r, i) => ((i * 5 + r) % 4 === 0 ? 0 : unif()) / 16);
pool("poff100", "probs", 6, 100, (r) => unif() * [0.5, 2, 1, 0.01, 10, 1][r] / 50); // sums far from 1
pool("pbig50k", "probs", 1, 50000, () => unif() / 25000);
// what the kernel takes without a check: negative and NaN probabilities, NaN and +Infinity logits
pool("pneg40", "probs", 4, 40, (r, i) => (i % 9 === 4 ? -0.05 : i === 20 + r ? NaN : unif() / 15));
pool("lnan16", "logits", 4, 16, (r, i) => (i === 3 * r + 2 ? [NaN, Infinity, -Infinity, NaN][r] : gauss()));

// ---- the records
const lines = [];
const put = (...f) => lines.push(f.join("\t"));
const ver = (p) => JSON.parse(fs.readFileSync(path.join(JSDIR, "node_modules", p, "package.json"))).version;
const src = (p) => path.join(JSDIR, "node_modules", p);
const sha = (p) => crypto.createHash("sha256").update(fs.readFileSync(src(p))).digest("hex");
const head = [
  `# TensorFlow.js's tf.multinomial on the CPU backend under Node (analysis/golden/js/tfjs_multinomial.mjs; cases ${CASES}, stream ${STREAM})`,
  `# packages: @tensorflow/tfjs-core ${ver("@tensorflow/tfjs-core")}, @tensorflow/tfjs-backend-cpu ${ver("@tensorflow/tfjs-backend-cpu")}, seedrandom ${ver("seedrandom")} (npm); backend ${tf.getBackend()}`,
  `# node ${process.version}, v8 ${process.versions.v8}, ${process.platform} ${process.arch}`,
];
for (const f of ["@tensorflow/tfjs-backend-cpu/dist/kernels/Multinomial.js", "@tensorflow/tfjs-backend-cpu/dist/kernels/Softmax.js",
                 "@tensorflow/tfjs-core/dist/ops/multinomial.js", "seedrandom/lib/alea.js"])
  head.push(`# ${f} sha256 ${sha(f)}`);
head.push("# alea\tseed as given (JSON)\tseed.toString()\tthe first 8 outputs of alea(seed.toString()) times 2^32, then the 1000th");
head.push("# number\tan integer in decimal\tNumber(BigInt(it)).toString(), the string a seed of that value gives");
head.push("# throws\twhat\tthe error tf.multinomial throws");
head.push("# batch\tkind\tpool (all its rows as one [R, V] tensor)\tnumSamples\tseed\teach row's tokens, rows separated by spaces");
head.push("# jscase\tkind\tpool (row 0)\tnumSamples\tseed, a number that is no integer in [0, 2^128), as String(seed) writes it\ttokens");
head.push("# case\tid\tkind (logits: normalized false; probs: normalized true)\tpool\trow\tnumSamples\tseed (the exact integer value of the number given)\ttokens");

// alea over seeds of every kind: tf.multinomial passes seed.toString()
const aleaSeeds = [1, 2, 42, 12345, -1, -42, 0.5, 1.5, -2.25, 0.1, 1e-7, 3.14159, 2 ** 31, 2 ** 32, 2 ** 32 + 1,
                   2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e21, 1.5e300, 123456789012345680000, "abc", ""];
for (const s of aleaSeeds) {
  const g = alea(s.toString());
  const v = [];
  for (let i = 0; i < 8; i++) v.push(g() * 4294967296);
  for (let i = 8; i < 999; i++) g();
  v.push(g() * 4294967296);
  put("alea", JSON.stringify(s), s.toString(), v.join(","));
}

// the string an integer seed gives once it is a JavaScript number
const ints = ["1", "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740995",
              "18446744073709551615", "18446744073709551616", "12345678901234567890", "99999999999999999999",
              "999999999999999999999", "1000000000000000000000", "1234567890123456789012", "340282366920938463463374607431768211455",
              "4611686018427387903", "36028797018963971", "73786976294838206464"];
for (let i = 0; i < 40; i++) {
  let b = 0n;
  const digits = 1 + (u32() % 38); // below 2^128, samplab's seeds
  for (let j = 0; j < digits; j++) b = b * 10n + BigInt(u32() % 10);
  ints.push(b.toString());
}
for (const s of ints) put("number", s, Number(BigInt(s)).toString());

// what tf.multinomial refuses
for (const [what, f] of [["one outcome", () => tf.multinomial(tf.tensor1d([0.5]), 1, 7)],
                         ["rank 3", () => tf.multinomial(tf.zeros([1, 1, 2]), 1, 7)]]) {
  try { f(); put("throws", what, "-"); } catch (e) { put("throws", what, e.message); }
}

const rowOf = (name, r) => { const p = pools[name]; return p.a.slice(r * p.V, (r + 1) * p.V); };
let id = 0;
function run(name, r, K, seed) {
  const p = pools[name];
  const t = tf.tensor1d(rowOf(name, r), "float32");
  const out = tf.multinomial(t, K, seed, p.kind === "probs");
  const toks = Array.from(out.dataSync());
  t.dispose(); out.dispose();
  put("case", id++, p.kind, name, r, K, BigInt(seed).toString(), toks.join(","));
}
const seeds = [1, 2, 7, 42, 1234, 99991, 2 ** 31 - 1, 2 ** 32, 2 ** 32 + 7, 123456789012, 2 ** 53 - 1,
               2 ** 53, 2 ** 53 + 2, 2 ** 63, 18446744073709551615];
// every row of every pool once
for (const name of Object.keys(pools)) for (let r = 0; r < pools[name].R; r++) run(name, r, 16, pick(seeds));
for (let c = 0; c < Number(CASES); c++) {
  const name = pick(Object.keys(pools));
  const K = pick([1, 1, 2, 3, 5, 10, 32, 100]);
  // another stream draws its seeds too: any integer from 1 to 2^64 as a number
  const seed = STREAM === "1" ? pick(seeds) : Number(BigInt(u32()) << BigInt(u32() % 33)) || 3;
  run(name, u32() % pools[name].R, K, seed);
}

// each pool as one [R, V] tensor: the kernel's row loop, a new alea(seed) for every row
for (const name of Object.keys(pools)) {
  const p = pools[name], K = 8, seed = pick(seeds);
  const t = tf.tensor2d(p.a, [p.R, p.V], "float32");
  const out = tf.multinomial(t, K, seed, p.kind === "probs");
  const v = out.dataSync(), rows = [];
  for (let r = 0; r < p.R; r++) rows.push(Array.from(v.slice(r * K, (r + 1) * K)).join(","));
  t.dispose(); out.dispose();
  put("batch", p.kind, name, K, BigInt(seed).toString(), rows.join(" "));
}

// seeds only a JavaScript number holds (negative, fractional, 1e21, Infinity): tf.multinomial
// takes any number and seeds alea with its String(); the first row of every pool, 8 samples
// (after every other record, so they take nothing from this script's stream)
for (const seed of [-1, -42, 0.5, 1.5, -2.25, 1e-7, 3.14159, 1e21, -1e21, 2.5e-300, Infinity, -Infinity]) {
  for (const name of Object.keys(pools)) {
    const p = pools[name];
    const t = tf.tensor1d(rowOf(name, 0), "float32");
    const out = tf.multinomial(t, 8, seed, p.kind === "probs");
    const toks = Array.from(out.dataSync());
    t.dispose(); out.dispose();
    put("jscase", p.kind, name, 8, String(seed), toks.join(","));
  }
}

// ---- write: the pools, then the records
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
fs.writeFileSync(path.join(OUT, `${NAME}_vectors.safetensors`), Buffer.concat([hl, Buffer.from(hj), ...bufs]));
fs.writeFileSync(path.join(OUT, `${NAME}.txt`), head.concat(lines).join("\n") + "\n");
