/* ort_env.mjs — imported before transformers.js's own modules: onnxruntime-web's
 * wasm backend takes its WebAssembly from bytes the page holds (env.wasm.wasmBinary,
 * set in entry.mjs before the first session) and runs on one thread, so nothing is
 * fetched: transformers.js's backends/onnx.js points wasmPaths at a CDN only when
 * it is unset, and a wasm-only path with wasmBinary makes ORT use the factory its
 * bundle embeds (onnxruntime-web lib/wasm/wasm-utils-import.ts, importWasmModule). */
import * as ort from 'onnxruntime-web/webgpu';

ort.env.wasm.wasmPaths = {wasm: 'ort-wasm-simd-threaded.wasm'};
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
export default ort;
