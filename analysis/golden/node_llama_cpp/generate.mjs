// generate.mjs — generations by node-llama-cpp 3.21.1 itself (its prebuilt
// addon and libllama.v0.4.0.so, CPU only) on the tiny GGUF of
// analysis/golden/current/make_tiny_gguf.py, through the two APIs that hand
// back raw token ids: LlamaContextSequence.evaluate (yieldEogToken: true, so a
// run goes on past </s>) and LlamaCompletion.generateCompletion's onToken.
// Each run's options are written as node-llama-cpp spells them; options left
// out are left out of the call too (node-llama-cpp's defaults apply).
// Usage: node generate.mjs MODEL.gguf > generations.txt
// Records, one per line:
//   run ID api=evaluate|completion steps=N
//   opts ID KEY=VALUE ...      (only the options given; xtc.probability, repeatPenalty.penalty ...)
//   prompt ID t ...            (the token ids evaluated before the first step)
//   tokens ID t ...            (the generated ids)
//   clock ID S0 S1             (seed left out: Math.floor(Date.now() / 1000) before and after the run)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { getLlama, LlamaCompletion, TokenBias } from "node-llama-cpp";

const modelPath = process.argv[2];
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" });
const model = await llama.loadModel({ modelPath });

const prompts = [[1, 300, 301, 302, 303, 304, 305, 306], [1, 40, 41, 42], [1, 13, 200, 13, 201]];
const cases = [];
const add = (api, steps, prompt, opts, extra = {}) => cases.push({ api, steps, prompt, opts, ...extra });

// defaults left unset: temperature 0 (greedy), so the seed does not matter
add("evaluate", 60, prompts[0], {});
add("evaluate", 40, prompts[1], { topK: 5 });
// sampling with given seeds over temperature / topK / topP / minP
const temps = [0.3, 0.8, 1.0, 1.7];
let s = 0;
for (const t of temps)
  for (const seed of [0, 42, 123456789, 4294967294]) {
    const o = { temperature: t, seed };
    if (s % 4 === 1) o.topK = 3;
    if (s % 4 === 2) { o.topP = 0.6; o.minP = 0.02; }
    if (s % 4 === 3) { o.topK = 0; o.topP = 1; }
    add("evaluate", 40, prompts[s % 3], o);
    s++;
  }
add("evaluate", 40, prompts[0], { temperature: 0.8, seed: 7, topK: 1000, topP: 1.5, minP: 0.1 });
add("evaluate", 40, prompts[1], { temperature: 1e-50, seed: 7 });
add("evaluate", 40, prompts[2], { temperature: 0.8, seed: 2 ** 32 + 5 });
add("evaluate", 40, prompts[0], { temperature: 0.8, seed: -3.5 });
// xtc (its own mt19937 seeded with the dist's seed), also under greedy
for (const [p, th, seed, t] of [[0.5, 0.1, 11, 0.8], [1, 0.05, 12, 1.2], [0.3, 0.2, 13, 1.0], [2, -1, 14, 0.9], [0.7, 0.1, 15, 0]])
  add("evaluate", 40, prompts[seed % 3], { temperature: t, seed, xtc: { probability: p, threshold: th } });
// repeatPenalty at evaluate: punishTokens is the caller's, here the last lastTokens generated ids
for (const [pen, last, fq, pr, seed, t] of [[1.3, 64, 0, 0, 21, 0], [1.1, 16, 0.2, 0.3, 22, 0.8], [2.0, 8, 0, 0, 23, 1.0], [1, 32, 0.5, 0, 24, 0.7], [0.8, 64, 0, 0.4, 25, 0.9]])
  add("evaluate", 60, prompts[seed % 3], { temperature: t, seed, repeatPenalty: { penalty: pen, frequencyPenalty: fq, presencePenalty: pr, maxPunishTokens: last } }, { punishLast: last });
// tokenBias: numbers are probabilities (logit p/(1-p)), {logit} raw, "never" -inf
add("evaluate", 40, prompts[0], { temperature: 0.8, seed: 31, tokenBias: [[50, { logit: 3.5 }], [51, "never"], [52, 0.9]] });
add("evaluate", 40, prompts[1], { temperature: 0, tokenBias: [[60, { logit: 50 }]] });
add("evaluate", 40, prompts[2], { temperature: 1.1, seed: 32, topK: 8, tokenBias: [[70, { logit: -2 }], [71, 0.3]],
  xtc: { probability: 0.6, threshold: 0.05 }, repeatPenalty: { penalty: 1.2, maxPunishTokens: 20 } }, { punishLast: 20 });
// LlamaCompletion: its own repeatPenalty (the last lastTokens generated ids, the newline token
// dropped unless penalizeNewLine), here with penalizeNewLine: true
add("completion", 50, null, { temperature: 0.8, seed: 41, repeatPenalty: { penalty: 1.2, lastTokens: 24, penalizeNewLine: true } });
add("completion", 50, null, { temperature: 0.9, seed: 42 });
add("completion", 50, null, {});
// the seed left out: the time in whole seconds, read at every step
add("evaluate", 30, prompts[0], { temperature: 0.8 });
// dryRepeatPenalty: the addon's DRY after the penalties over the tokens it generated (the prompt is
// not accepted); lastTokens left out is -1, which llama_sampler_init_dry clamps to 0 (DRY off)
const dry = (strength, more = {}) => ({ strength, ...more });
for (const [d, seed, t, extra] of [
  [dry(0.8), 51, 0, {}],                                                   // lastTokens left out
  [dry(0.8, { lastTokens: 64 }), 52, 0, {}],                               // greedy loops: DRY breaks them
  [dry(2.0, { lastTokens: 100, allowedLength: 3 }), 53, 0, {}],
  [dry(1.5, { lastTokens: 200, base: 2, allowedLength: 1, sequenceBreakers: [] }), 54, 0.3, {}],
  [dry(0.8, { lastTokens: 64 }), 55, 0.5, { topK: 10 }],
  [dry(1.0, { lastTokens: 32, sequenceBreakers: ["\n", "a"] }), 56, 0.4, { xtc: { probability: 0.5, threshold: 0.1 } }],
  [dry(0.8, { lastTokens: 64, base: 0.5 }), 57, 0, {}],                     // base below 1: DRY off
  [dry(0.8, { lastTokens: 64, allowedLength: 0 }), 58, 0, {}],              // allowedLength at least 1
  [dry(3.0, { lastTokens: 0 }), 59, 0, {}],                                // lastTokens 0: DRY off
  [dry(0.8, { lastTokens: 48 }), 60, 0, { repeatPenalty: { penalty: 1.1, maxPunishTokens: 16 } }],
])
  add("evaluate", 80, prompts[seed % 3], { temperature: t, seed, ...extra, dryRepeatPenalty: d },
      extra.repeatPenalty ? { punishLast: 16 } : {});

function tokenBiasOf(list) {
  const b = new TokenBias(model.tokenizer);
  // set() takes text; the ids' own bias map is what the addon reads (_biases)
  for (const [tok, v] of list)
    b._biases.set(tok, v === "never" ? -Infinity : typeof v === "number" ? Math.log(v / (1 - v)) : v.logit);
  return b;
}
function flat(o, pre = "") {
  const r = [];
  for (const [k, v] of Object.entries(o)) {
    if (k === "tokenBias")
      r.push("tokenBias=" + v.map(([t, b]) => t + ":" + (typeof b === "object" ? "logit" + b.logit : b)).join(","));
    else if (Array.isArray(v)) r.push(pre + k + "=" + JSON.stringify(v).replace(/ /g, "\\u0020"));
    else if (typeof v === "object") r.push(...flat(v, pre + k + "."));
    else r.push(pre + k + "=" + v);
  }
  return r;
}

const out = [];
out.push(`# node-llama-cpp ${JSON.parse(readFileSync(createRequire(import.meta.url).resolve("node-llama-cpp").replace(/dist\/index\.js$/, "package.json"))).version}` +
  ` (llama.cpp ${llama.llamaCppRelease.release}, gpu ${llama.gpu}, build never), node ${process.version}`);
for (let id = 0; id < cases.length; id++) {
  const c = cases[id];
  // a fresh context per run: nothing carried over
  const context = await model.createContext({ contextSize: 256, sequences: 1, threads: 1 });
  const sequence = context.getSequence();
  const opts = { ...c.opts };
  if (opts.tokenBias) opts.tokenBias = tokenBiasOf(opts.tokenBias);
  const gen = [];
  const s0 = Math.floor(Date.now() / 1000);
  let prompt = c.prompt;
  if (c.api === "evaluate") {
    if (opts.repeatPenalty) opts.repeatPenalty = { ...opts.repeatPenalty, punishTokens: () => gen.slice(-c.punishLast) };
    for await (const t of sequence.evaluate(prompt, { ...opts, yieldEogToken: true })) {
      gen.push(t);
      if (gen.length >= c.steps) break;
    }
  } else {
    const completion = new LlamaCompletion({ contextSequence: sequence });
    await completion.generateCompletion("abc de", { ...opts, maxTokens: c.steps, onToken: (t) => gen.push(...t) });
    // the ids evaluated before the first step: the context less the generated ones (the last is not decoded)
    const ctx = sequence.contextTokens;
    prompt = ctx.slice(0, ctx.length - gen.length + 1);
    if (prompt.length + gen.length - 1 !== ctx.length) throw new Error("completion context mismatch");
    completion.dispose({ disposeSequence: false });
  }
  const s1 = Math.floor(Date.now() / 1000);
  out.push(`run ${id} api=${c.api} steps=${c.steps}`);
  out.push(`opts ${id} ${flat(c.opts).join(" ")}`.trimEnd());
  out.push(`prompt ${id} ${prompt.join(" ")}`);
  out.push(`tokens ${id} ${gen.join(" ")}`);
  if (c.opts.seed === undefined) out.push(`clock ${id} ${s0} ${s1}`);
  await context.dispose();
}
console.log(out.join("\n"));
await model.dispose();
process.exit(0);
