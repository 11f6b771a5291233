/* entry.mjs — the real transformers.js and TensorFlow.js samplers in the explorer page,
 * bundled by mk/real.mjs into site/real.js (nothing of theirs is in the tree). It
 * drives their own code as analysis/golden/js/ does under Node:
 *   transformers.js: random.seed, GenerationConfig, PreTrainedModel's
 *     _get_logits_processor, LogitsSampler.getSampler and onnxruntime-web's TopK,
 *     one step per token on the same logits, each token joining the ids (generate());
 *   TensorFlow.js: tf.multinomial(logits, numSamples, seed, normalized) on the CPU backend.
 * window.samplabReal = {ready, versions, transformersjs(...), tfjs(...)}. */
import ort from './ort_env.mjs';
import { random } from 'transformers-src/utils/random.js';
import { Tensor } from 'transformers-src/utils/tensor.js';
import { LogitsSampler } from 'transformers-src/generation/logits_sampler.js';
import { GenerationConfig } from 'transformers-src/generation/configuration_utils.js';
import { PreTrainedModel } from 'transformers-src/models/modeling_utils.js';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';

/* onnxruntime-web's WebAssembly, gzip then base64 in SAMPLAB_ORT_WASM (mk/real.mjs):
 * a page opened from file:// cannot fetch a neighbour file */
async function ortWasm() {
    const s = atob(globalThis.SAMPLAB_ORT_WASM);
    const gz = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++)
        gz[i] = s.charCodeAt(i);
    const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}

const ready = (async () => {
    ort.env.wasm.wasmBinary = await ortWasm();
    await tf.setBackend('cpu');
    await tf.ready();
})();

/* n tokens of generate({do_sample: true, ...settings}) after random.seed(seed), the
 * same logits at every step, as transformers_js.mjs's "draw" cases run it */
async function transformersjs(logits, settings, prompt, seed, n) {
    await ready;
    random.seed(seed);
    const gc = new GenerationConfig({do_sample: true, ...settings});
    const procs = PreTrainedModel.prototype._get_logits_processor.call({}, gc, prompt.length, null);
    const sampler = LogitsSampler.getSampler(gc);
    const ids = [prompt.map(BigInt)];
    const out = [];
    for (let t = 0; t < n; t++) {
        const scores = procs(ids, new Tensor('float32', Float32Array.from(logits), [1, logits.length]));
        const [[tok]] = await sampler(scores[0]);
        ids[0].push(BigInt(tok));
        out.push(Number(tok));
    }
    return out;
}

/* tf.multinomial on the CPU backend: one call, numSamples tokens */
async function tfjs(values, numSamples, seed, normalized) {
    await ready;
    const t = tf.tensor1d(Float32Array.from(values), 'float32');
    const o = tf.multinomial(t, numSamples, seed, normalized);
    const toks = Array.from(o.dataSync());
    t.dispose();
    o.dispose();
    return toks;
}

globalThis.samplabReal = {
    ready,
    versions: SAMPLAB_REAL_VERSIONS, /* from the installed packages' package.json (mk/real.mjs) */
    transformersjs,
    tfjs,
};
