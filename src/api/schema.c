/* schema.c — the settings schema: every option samplab has, once (its key,
 * option text, kind, group, metavar, help, the SL_OPT_* bit frameworks accept
 * it by, where its value lands in sl_api_settings), each command's own help
 * lines, and the settings of the real libraries that samplab does not model.
 * The command line (cli/options.c) walks argv through it, --help and the man
 * pages print it, sl_api_refused, the sweep spec and the Python package
 * (sl_api_settings_set, sl_api_schema_json) read it. The value parser below is
 * the command line's: its messages are the ones every caller gets. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

#define AT(f) ((unsigned short)(offsetof(sl_api_settings, f) + 1))
#define NOWHERE {0, 0, 0}
#define TXT(f) {0, AT(f), 0}
#define FLG(f) {AT(f), 0, 0}
#define NUM(has, f) {AT(has), AT(f), 0}
#define NUM_AS_TYPED(has, f, text) {AT(has), AT(f), AT(text)}
#define OPT(id, nm, key, at, k, g, b, a, h) [id] = {nm, key, k, g, b, a, h, at, NULL, NULL, NULL}
/* with the setting's name in transformers (GenerationConfig), vLLM and llama.cpp (common/arg.cpp) */
#define OPTU(hf, vllm, llamacpp, id, nm, key, at, k, g, b, a, h) [id] = {nm, key, k, g, b, a, h, at, hf, vllm, llamacpp}
#define NM(nm, key, hf, vllm, llamacpp) \
    {nm, key, SL_API_UNMODELLED, SL_API_G_SAMPLING, 0, NULL, NULL, NOWHERE, hf, vllm, llamacpp}
#define HF(nm, key, hf) NM(nm, key, hf, NULL, NULL)             /* transformers only */
#define VL(nm, key, vllm) NM(nm, key, NULL, vllm, NULL)         /* vLLM only */
#define LL(nm, key, llamacpp) NM(nm, key, NULL, NULL, llamacpp) /* llama.cpp only */
/* Table order is the order of the "not an option of framework" checks and of
 * `draw --help`'s per-framework lists (the SL_OPT_* options first). */
const sl_api_option sl_api_options[] = {
    OPT(SL_API_OPT_PROBS, "--probs", "probs", NOWHERE, SL_API_STRING, SL_API_G_SOURCE, SL_OPT_PROBS, "SRC",
        "weights (finite, >= 0, not all zero; divided by their sum):\n"
        "inline 3,2,2,1, a text file, .npy or .safetensors"),
    OPT(SL_API_OPT_LOGITS, "--logits", "logits", NOWHERE, SL_API_STRING, SL_API_G_SOURCE, SL_OPT_LOGITS, "SRC",
        "logits: inline \"3,2,2,1\", a text file, .npy, or .safetensors"),
    OPTU("temperature", "SamplingParams.temperature", "--temp",
         SL_API_OPT_TEMPERATURE, "--temperature", "temperature", NUM(cfg.has_temperature, cfg.temperature),
        SL_API_DOUBLE, SL_API_G_SAMPLING, SL_OPT_TEMPERATURE, "T",
        "hf: T must be > 0 (0 is transformers' ValueError); vllm: T < 1e-5 is greedy;\n"
        "llamacpp: T <= 0 keeps the first maximum; tutorial: T must be > 0"),
    OPTU("top_k", "SamplingParams.top_k", "--top-k",
         SL_API_OPT_TOP_K, "--top-k", "top_k", NUM(cfg.has_top_k, cfg.top_k),
        SL_API_LONG, SL_API_G_SAMPLING, SL_OPT_TOP_K, "K",
        "hf, vllm: ties with the k-th value survive; llamacpp, tutorial: exactly K"),
    OPTU("top_p", "SamplingParams.top_p", "--top-p",
         SL_API_OPT_TOP_P, "--top-p", "top_p", NUM(cfg.has_top_p, cfg.top_p),
        SL_API_DOUBLE, SL_API_G_SAMPLING, SL_OPT_TOP_P, "P",
        "nucleus; hf/vllm remove ascending cumsum <= 1-P; llamacpp/tutorial keep\n"
        "through the token where the descending sum reaches P"),
    OPTU("min_p", "SamplingParams.min_p", "--min-p",
         SL_API_OPT_MIN_P, "--min-p", "min_p", NUM(cfg.has_min_p, cfg.min_p),
        SL_API_DOUBLE, SL_API_G_SAMPLING, SL_OPT_MIN_P, "M",
        "hf/vllm/tutorial in probability space after temperature;\n"
        "llamacpp in logit space (l >= max + ln M), before temperature"),
    OPT(SL_API_OPT_FRAMEWORK, "--framework", "framework", TXT(framework),
        SL_API_STRING, SL_API_G_FRAMEWORK, 0, "F", "the framework to emulate"),
    OPT(SL_API_OPT_NUM_SAMPLES, "--num-samples", "num_samples", NUM(has_num_samples, num_samples),
        SL_API_SIZE, SL_API_G_FRAMEWORK, SL_OPT_NUM_SAMPLES, "K",
        "torch.multinomial(p, K) or NumPy's size=K (K tokens per output line)"),
    OPT(SL_API_OPT_REPLACEMENT, "--replacement", "replacement", FLG(replacement),
        SL_API_FLAG, SL_API_G_FRAMEWORK, SL_OPT_REPLACEMENT, NULL,
        "draw with replacement (torch's replacement=True; NumPy's default, replace=True)"),
    OPT(SL_API_OPT_NO_REPLACEMENT, "--no-replacement", "no_replacement", FLG(no_replacement),
        SL_API_FLAG, SL_API_G_FRAMEWORK, SL_OPT_REPLACEMENT, NULL,
        "draw without replacement (torch's default, replacement=False; NumPy's replace=False)"),
    OPT(SL_API_OPT_SHUFFLE, "--shuffle", "shuffle", TXT(shuffle),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_SHUFFLE, "true|false",
        "numpy: Generator.choice's shuffle= (default true; with p, NumPy does not read it)"),
    OPT(SL_API_OPT_DTYPE, "--dtype", "dtype", TXT(dtype),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_DTYPE, "float32|float64",
        "the tensor / array dtype (default: a .npy keeps its own, text is float32 for\n"
        "torch, float64 for NumPy and rand)"),
    OPT(SL_API_OPT_TORCH, "--torch", "torch", TXT(torch), SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_VARIANT, "2|1.13",
        "torch's release line: 2 (default: 2.x, checked on 2.14.1 and 2.6.0) or 1.13"),
    OPT(SL_API_OPT_TORCH_BUILD, "--torch-build", "torch_build", TXT(torch_build),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_TORCH_BUILD, "default|mkl",
        "torch: mkl is a build whose exponential_ is MKL's MCG31m1 (pip wheels 2.1 to 2.6;\n"
        "its stream exact, MKL's log not: docs/torch-builds.md)"),
    OPT(SL_API_OPT_LLAMACPP, "--llamacpp", "llamacpp", TXT(llamacpp),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_LLAMA_VERSION, "0.7.0|0.4.0|pr15704",
        "llama.cpp's release line: 0.7.0 (default; a lone candidate still draws, greedy at\n"
        "T <= 0), 0.4.0 (v0.4.0 as node-llama-cpp 3.21.1 ships it: 0.7.0's chain, built\n"
        "with GCC 11, whose uniform of 1 is kept below 1, not drawn again) or pr15704\n"
        "(the 2025-08 commit: no draw for one candidate)"),
    OPT(SL_API_OPT_RAND, "--rand", "rand", TXT(rand),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_RAND_VERSION, "0.8|0.9|0.10",
        "candle, rand: Rust rand's release line (they differ for subnormal totals)"),
    OPT(SL_API_OPT_OLLAMA, "--ollama", "ollama", TXT(ollama),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_OLLAMA_VERSION, "0.24|0.30|0.32",
        "ollama: its release line, which it needs: 0.24 is Ollama's own Go sampler (v0.6.3 to\n"
        "v0.25), 0.30 and 0.32 llama-server's chain (v0.30.0 to v0.32.9, v0.32.10 to v0.33)"),
    OPT(SL_API_OPT_CPU, "--cpu", "cpu", TXT(cpu), SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_CPU, "avx2|avx512",
        "hf, vllm: torch's CPU kernel, which orders softmax's sum (default: the one torch 2.x\n"
        "picks on this CPU, as ATEN_CPU_CAPABILITY would; torch 1.13: avx2)"),
    OPT(SL_API_OPT_SIMD_SUM, "--simd-sum", "simd_sum", FLG(simd_sum),
        SL_API_FLAG, SL_API_G_FRAMEWORK, SL_OPT_SIMD_SUM, NULL,
        "candle: the float32 total as the SIMD build adds it"),
    OPTU("typical_p", NULL, "--typical",
         SL_API_OPT_TYPICAL, "--typical", "typical", NUM(cfg.has_typical, cfg.typical),
        SL_API_DOUBLE, SL_API_G_SAMPLING, SL_OPT_TYPICAL, "M",
        "locally typical sampling (hf, llamacpp)"),
    OPTU("repetition_penalty", "SamplingParams.repetition_penalty", "--repeat-penalty",
         SL_API_OPT_REPETITION_PENALTY, "--repetition-penalty", "repetition_penalty", NUM(cfg.has_penalty, cfg.penalty),
        SL_API_DOUBLE, SL_API_G_SAMPLING, SL_OPT_PENALTY, "R",
        "penalise the ids in --context: hf every id, vllm every id,\n"
        "llamacpp the last --penalty-last-n (default 64)"),
    OPT(SL_API_OPT_CONTEXT, "--context", "context", TXT(context),
        SL_API_STRING, SL_API_G_SAMPLING, SL_OPT_PENALTY, "IDS",
        "the token ids a penalty applies to (inline list or file)"),
    OPTU("min_tokens_to_keep", NULL, "min_keep",
         SL_API_OPT_MIN_KEEP, "--min-keep", "min_keep", NUM(cfg.has_min_keep, cfg.min_keep),
        SL_API_LONG, SL_API_G_SAMPLING, SL_OPT_MIN_KEEP, "N",
        "hf min_tokens_to_keep (default 1); llamacpp min_keep (default 0)"),
    OPTU(NULL, NULL, "--repeat-last-n",
         SL_API_OPT_PENALTY_LAST_N, "--penalty-last-n", "penalty_last_n", NUM(cfg.has_last_n, cfg.last_n),
        SL_API_LONG, SL_API_G_LLAMA_PENALTY, SL_OPT_LAST_N, "N",
        "llamacpp: how many of the last --context ids are penalised (default 64)"),
    OPTU(NULL, "SamplingParams.frequency_penalty", "--frequency-penalty",
         SL_API_OPT_FREQUENCY_PENALTY, "--frequency-penalty", "frequency_penalty", NUM(cfg.has_freq, cfg.freq),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY,
        SL_OPT_FREQ_PRESENCE, "F", "llamacpp only (needs --context)"),
    OPTU(NULL, "SamplingParams.presence_penalty", "--presence-penalty",
         SL_API_OPT_PRESENCE_PENALTY, "--presence-penalty", "presence_penalty", NUM(cfg.has_presence, cfg.presence),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY,
        SL_OPT_FREQ_PRESENCE, "P", "llamacpp only (needs --context)"),
    OPTU(NULL, NULL, "--xtc-probability",
         SL_API_OPT_XTC_PROBABILITY, "--xtc-probability", "xtc_probability", NUM(cfg.has_xtc_p, cfg.xtc_p),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "P",
        "llamacpp: XTC's chance to remove the top choices (default 0: off)"),
    OPTU(NULL, NULL, "--xtc-threshold",
         SL_API_OPT_XTC_THRESHOLD, "--xtc-threshold", "xtc_threshold", NUM(cfg.has_xtc_t, cfg.xtc_t),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "T",
        "llamacpp: XTC's threshold (default 0.1; > 0.5: off)"),
    OPTU(NULL, NULL, "--top-nsigma",
         SL_API_OPT_TOP_NSIGMA, "--top-nsigma", "top_nsigma", NUM(cfg.has_nsigma, cfg.nsigma),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "N",
        "llamacpp: keep logits >= max - N std (default -1: off)"),
    OPTU(NULL, NULL, "--dynatemp-range",
         SL_API_OPT_DYNATEMP_RANGE, "--dynatemp-range", "dynatemp_range", NUM(cfg.has_dyn_range, cfg.dyn_range),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "R",
        "llamacpp: dynamic temperature in [T-R, T+R] (default 0: plain T)"),
    OPTU(NULL, NULL, "--dynatemp-exp",
         SL_API_OPT_DYNATEMP_EXP, "--dynatemp-exp", "dynatemp_exp", NUM(cfg.has_dyn_exp, cfg.dyn_exp),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "E",
        "llamacpp: dynamic temperature's exponent (default 1)"),
    OPTU(NULL, NULL, "--dry-multiplier",
         SL_API_OPT_DRY_MULTIPLIER, "--dry-multiplier", "dry_multiplier", NUM(cfg.has_dry_mult, cfg.dry_mult),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "M",
        "llamacpp: DRY's penalty multiplier (default 0: off; on, DRY needs --vocab)"),
    OPTU(NULL, NULL, "--dry-base",
         SL_API_OPT_DRY_BASE, "--dry-base", "dry_base", NUM(cfg.has_dry_base, cfg.dry_base),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "B",
        "llamacpp: DRY's base, M * B^(repeat - allowed length) (default 1.75; >= 1)"),
    OPTU(NULL, NULL, "--dry-allowed-length",
         SL_API_OPT_DRY_ALLOWED_LENGTH, "--dry-allowed-length", "dry_allowed_length",
         NUM(cfg.has_dry_allowed, cfg.dry_allowed), SL_API_LONG, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "N",
        "llamacpp: DRY leaves repeats up to N tokens alone (default 2)"),
    OPTU(NULL, NULL, "--dry-penalty-last-n",
         SL_API_OPT_DRY_PENALTY_LAST_N, "--dry-penalty-last-n", "dry_penalty_last_n",
         NUM(cfg.has_dry_last_n, cfg.dry_last_n), SL_API_LONG, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "N",
        "llamacpp: how many of the last tokens DRY scans (default 64; 0: off)"),
    OPTU(NULL, NULL, "--dry-sequence-breaker",
         SL_API_OPT_DRY_SEQUENCE_BREAKER, "--dry-sequence-breaker", "dry_sequence_breaker",
         NUM(has_dry_sequence_breaker, dry_sequence_breaker), SL_API_LIST, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER,
        "S", "llamacpp: a DRY breaker, repeatable; the first replaces the defaults \\n : \" *,\n"
        "none clears them; \\n \\t \\xHH ... as llama.cpp reads escapes"),
    OPTU(NULL, NULL, NULL,
         SL_API_OPT_VOCAB, "--vocab", "vocab", TXT(vocab), SL_API_STRING, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER,
         "FILE", "llamacpp: the GGUF (or token list: one token's text a line, escaped as\n"
         "--dry-sequence-breaker is) whose token texts DRY's breakers are matched against"),
    OPTU(NULL, "SamplingParams.logit_bias", "--logit-bias",
         SL_API_OPT_LOGIT_BIAS, "--logit-bias", "logit_bias", NUM(has_logit_bias, logit_bias), SL_API_LIST,
         SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "TOKEN(+/-)BIAS",
        "llamacpp: add BIAS to TOKEN's logit before every stage, repeatable\n"
        "(15043+1, 15043-inf: never drawn), as llama.cpp's -l reads it"),
    OPTU(NULL, NULL, "--mirostat",
         SL_API_OPT_MIROSTAT, "--mirostat", "mirostat", NUM(cfg.has_mirostat, cfg.mirostat),
        SL_API_LONG, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "N",
        "llamacpp: 1 mirostat, 2 mirostat v2 (the chain becomes temperature then it;\n"
        "the other stages' options are refused: llama.cpp ignores them); default 0"),
    OPTU(NULL, NULL, "--mirostat-lr",
         SL_API_OPT_MIROSTAT_LR, "--mirostat-lr", "mirostat_lr", NUM(cfg.has_mirostat_eta, cfg.mirostat_eta),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "ETA",
        "llamacpp: mirostat's learning rate eta (default 0.1)"),
    OPTU(NULL, NULL, "--mirostat-ent",
         SL_API_OPT_MIROSTAT_ENT, "--mirostat-ent", "mirostat_ent", NUM(cfg.has_mirostat_tau, cfg.mirostat_tau),
        SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "TAU",
        "llamacpp: mirostat's target surprise tau (default 5; mu starts at 2 tau)"),
    OPTU(NULL, NULL, "--adaptive-target",
         SL_API_OPT_ADAPTIVE_TARGET, "--adaptive-target", "adaptive_target",
         NUM(cfg.has_adaptive_target, cfg.adaptive_target), SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "P",
        "llamacpp: adaptive_p's target probability (default -1: a plain draw;\n"
        "needs adaptive_p in the stage order, which llama.cpp then puts last)"),
    OPTU(NULL, NULL, "--adaptive-decay",
         SL_API_OPT_ADAPTIVE_DECAY, "--adaptive-decay", "adaptive_decay",
         NUM(cfg.has_adaptive_decay, cfg.adaptive_decay), SL_API_DOUBLE, SL_API_G_LLAMA_PENALTY, SL_OPT_ORDER, "D",
        "llamacpp: adaptive_p's moving-average decay (default 0.9, clamped to [0, 0.99])"),
    OPT(SL_API_OPT_SGLANG, "--sglang", "sglang", TXT(sglang),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_SGLANG_VERSION, "0.5.23|0.5.12",
        "sglang: the release whose hash and clamp are followed: 0.5.23 (default; Gumbel\n"
        "noise clamped at both ends, PR #33423) or 0.5.12 (0.5.9 to 0.5.12: the low end\n"
        "only, so a hash of 2^32 - 1 wins its row)"),
    OPT(SL_API_OPT_VLLM, "--vllm", "vllm", TXT(vllm),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_VLLM_VERSION, "0.11|0.9|0.8|main",
        "vllm: the release line whose CPU sampler is followed: 0.11 (default; 0.11 to\n"
        "0.26, forward_cpu: every request seeded, or all greedy), 0.9 (0.9 to 0.10,\n"
        "forward_native's random_sample: any mix of seeds); 0.8 (torch 2.6's MKL\n"
        "exponential_) and main (fused_gumbel_argmax) are refused (docs/serving.md)"),
    OPT(SL_API_OPT_POSITION, "--position", "position", TXT(position),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_POSITION, "P",
        "sglang: the first step's position, as SGLang hashes it (the index of the\n"
        "sequence's last token; default: --context's length - 1), one more per token"),
    OPT(SL_API_OPT_SGLANG_SORTED, "--sglang-sorted", "sglang_sorted", FLG(sglang_sorted),
        SL_API_FLAG, SL_API_G_FRAMEWORK, SL_OPT_POSITION, NULL,
        "sglang: a request of the batch filters (top-k, top-p, temperature 0), so\n"
        "SGLang takes the sort path for every row: the hash's column is the rank"),
    OPT(SL_API_OPT_TRANSFORMERSJS, "--transformersjs", "transformersjs", TXT(transformersjs),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_TJS_VERSION, "4.3",
        "transformers-js: the release line, 4.3 (default: @huggingface/transformers 4.3.1;\n"
        "2.x and 3.x drew with Math.random() and cannot be reproduced)"),
    OPT(SL_API_OPT_JAX_PARTITIONABLE, "--jax-threefry-partitionable", "jax_threefry_partitionable",
        TXT(jax_partitionable), SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_JAX, "true|false",
        "jax: the jax_threefry_partitionable flag, the layout of random_bits and split\n"
        "(default true, as in JAX 0.5 and later; false: JAX before 0.5)"),
    OPTU("no_repeat_ngram_size (NoRepeatNGramLogitsProcessor)", NULL, NULL,
         SL_API_OPT_NO_REPEAT_NGRAM, "--no-repeat-ngram-size", "no_repeat_ngram_size", NUM(cfg.has_ngram, cfg.ngram),
         SL_API_LONG, SL_API_G_SAMPLING, SL_OPT_TJS_VERSION, "N",
         "transformers-js: ban every token that would repeat an n-gram of the history\n"
         "(default 0: off)"),
    OPT(SL_API_OPT_TFJS, "--tfjs", "tfjs", TXT(tfjs),
        SL_API_STRING, SL_API_G_FRAMEWORK, SL_OPT_TFJS_VERSION, "4.22",
        "tfjs: the release line, 4.22 (default: @tensorflow/tfjs-core and\n"
        "tfjs-backend-cpu 4.22.0, the CPU backend)"),
    OPTU(NULL, NULL, "--samplers",
         SL_API_OPT_SAMPLERS, "--samplers", "samplers", TXT(samplers),
        SL_API_STRING, 0, SL_OPT_ORDER, "NAMES",
        "llamacpp: the stages in order, llama.cpp's names separated by ';' (its default:\n"
        "penalties;top_k;typ_p;top_p;min_p;temperature; docs/pipelines.md)"),
    OPTU(NULL, NULL, "--sampling-seq",
         SL_API_OPT_SAMPLING_SEQ, "--sampling-seq", "sampling_seq", TXT(sampling_seq),
        SL_API_STRING, 0, SL_OPT_ORDER, "LETTERS",
        "llamacpp: the stages in order as llama.cpp's letters (e k y p m t; default ekypmt)"),
    OPT(SL_API_OPT_TENSOR, "--tensor", "tensor", NOWHERE, SL_API_STRING, SL_API_G_SOURCE, 0, "NAME",
        "which tensor of a .safetensors file (needed when it holds several)"),
    OPT(SL_API_OPT_ROW, "--row", "row", NOWHERE,
        SL_API_INDEX, SL_API_G_SOURCE, 0, "I", "row I (from 0) of a 2-D or larger tensor"),
    OPT(SL_API_OPT_METHOD, "--method", "method", TXT(method),
        SL_API_STRING, 0, 0, "M", "draw method: exprace, cdf, linear, alias, greedy"),
    OPT(SL_API_OPT_RNG, "--rng", "rng", TXT(rng),
        SL_API_STRING, SL_API_G_RNG, 0, "R", "random source (default pcg32)"),
    OPT(SL_API_OPT_SEED, "--seed", "seed", TXT(seed), SL_API_STRING, SL_API_G_RNG, 0, "S",
        "seed: decimal or 0x hex (default 42)"),
    OPT(SL_API_OPT_STREAM, "--stream", "stream", TXT(stream),
        SL_API_STRING, SL_API_G_RNG, 0, "Q", "stream of the source, where it has streams"),
    OPT(SL_API_OPT_N, "--n", "n", NUM(has_n, n), SL_API_SIZE, 0, 0, "N", "how many"),
    OPT(SL_API_OPT_COUNTS, "--counts", "counts", FLG(counts),
        SL_API_FLAG, 0, 0, NULL, "one line per token id: id<TAB>count"),
    OPT(SL_API_OPT_JSON, "--json", "json", NOWHERE, SL_API_FLAG, 0, 0, NULL, "machine-readable output"),
    OPT(SL_API_OPT_BINARY, "--binary", "binary", NOWHERE, SL_API_FLAG, 0, 0, NULL,
        "little-endian bytes (4 per word, 8 for 64-bit sources); endless when N is 0"),
    OPT(SL_API_OPT_DRAWS, "--draws", "draws", TXT(draws_file), SL_API_STRING, 0, 0, "FILE",
        "token ids separated by whitespace or newlines ('-' = stdin);\n"
        "read as a stream: memory O(V) whatever the number of draws"),
    OPT(SL_API_OPT_COUNTS_FILE, "--counts", "counts_file", TXT(counts_file), SL_API_STRING, 0, 0, "FILE",
        "id<TAB>count lines for every id, the output of `samplab draw --counts`\n"
        "as is ('-' = stdin; a one-column file is draws: --draws)"),
    OPT(SL_API_OPT_ALPHA, "--alpha", "alpha", NUM_AS_TYPED(has_alpha, alpha, alpha_text),
        SL_API_DOUBLE, 0, 0, "A", "test level (default 0.01)"),
    OPT(SL_API_OPT_NULL_REPS, "--null-reps", "null_reps", NUM(has_null_reps, null_reps), SL_API_SIZE, 0, 0, "R",
        "TV null samples for its 99th percentile (default: 200 to 2000, about\n"
        "0.15 s of simulation; 0 skips the simulation)"),
    OPT(SL_API_OPT_TRIALS, "--trials", "trials", NUM(has_trials, trials),
        SL_API_SIZE, 0, 0, "K", "simulated samples per fault size (default 200)"),
    OPT(SL_API_OPT_TARGET, "--target", "target", NUM_AS_TYPED(has_target, target, target_text), SL_API_DOUBLE, 0, 0, "P", "target power (default 0.9)"),
    OPT(SL_API_OPT_FAULT, "--fault", "fault", TXT(fault), SL_API_STRING, 0, 0, "F",
        "one fault family only (shift, leak, topk, temper), or mkl-seed-collision:\n"
        "the repeat test against torch's MKL exponential_ (no --probs or --logits)"),
    OPT(SL_API_OPT_SEEDS, "--seeds", "seeds", NUM(has_seeds, seeds), SL_API_SIZE, 0, 0, "K", "how many seeds"),
    OPTU(NULL, "SamplingParams.seed", NULL,
         SL_API_OPT_ROW_SEEDS, "--seeds", "row_seeds", TXT(row_seeds), SL_API_STRING, 0, SL_OPT_ROW_SEEDS, "LIST",
         "one per row (request): a seed, or none for a request without one, which\n"
         "draws from the global generator --seed seeds (vllm: 7,none,9)"),
    OPT(SL_API_OPT_FIRST_SEED, "--first-seed", "first_seed", TXT(first_seed),
        SL_API_STRING, 0, 0, "S", "the first seed (default 0)"),
    OPT(SL_API_OPT_FRAMEWORKS, "--frameworks", "frameworks", TXT(frameworks), SL_API_STRING, 0, 0, "a,b,...",
        "the frameworks to compare (default: all that have every option given)"),
    OPT(SL_API_OPT_TOP, "--top", "top", NUM(has_top, top),
        SL_API_SIZE, 0, 0, "N", "top N tokens per framework (default 5, at most 100)"),
    OPT(SL_API_OPT_TOKENS, "--tokens", "token_lines", NOWHERE, SL_API_FLAG, 0, 0, NULL, "one line per token"),
    OPT(SL_API_OPT_REPORT_DATA, "--report-data", "report_data", NOWHERE,
        SL_API_STRING, 0, 0, "DIR", "write the report's tables and figure data"),
    OPT(SL_API_OPT_OUT, "--out", "out", TXT(out), SL_API_STRING, 0, 0, "DIR", "output directory (default reports)"),
    OPT(SL_API_OPT_ONLY, "--only", "only", NOWHERE, SL_API_STRING, 0, 0, "IDS", "comma-separated sections"),
    OPT(SL_API_OPT_JOBS, "--jobs", "jobs", NOWHERE,
        SL_API_SIZE, 0, 0, "J", "threads (default: all cores, at most 256); results do not depend on it"),
    OPT(SL_API_OPT_GEN_TOKENS, "--tokens", "tokens", TXT(tokens), SL_API_STRING, 0, 0, "FILE", "observed token ids"),
    OPT(SL_API_OPT_NO_PLOT, "--no-plot", "no_plot", NOWHERE,
        SL_API_FLAG, 0, 0, NULL, "write the .dat and .gp files but do not run gnuplot"),
    OPT(SL_API_OPT_SPEC, "--spec", "spec", NOWHERE,
        SL_API_STRING, 0, 0, "FILE", "the study: a JSON spec (docs/sweep.md)"),
    OPT(SL_API_OPT_RESUME, "--resume", "resume", NOWHERE, SL_API_FLAG, 0, 0, NULL,
        "skip the points DIR/checkpoint holds (the same spec), run the rest"),
    OPT(SL_API_OPT_CONTEXT_FILE, "--context-file", "context_file", TXT(context_file), SL_API_STRING, 0, SL_OPT_PROMPT_ROWS,
        "FILE", "a batch's prompts: one row of comma-separated ids a line (generate()'s input_ids rows)"),
    OPTU("num_return_sequences", NULL, NULL, SL_API_OPT_NUM_RETURN_SEQUENCES, "--num-return-sequences",
         "num_return_sequences", NUM(has_num_return_sequences, num_return_sequences), SL_API_SIZE, 0,
         SL_OPT_GEN_BATCH, "N", "each prompt row N times, as generate() repeat_interleaves input_ids (default 1)"),
    OPTU("eos_token_id", NULL, NULL, SL_API_OPT_EOS_TOKEN_ID, "--eos-token-id", "eos_token_id",
         NUM(has_eos_token_id, eos_token_id), SL_API_INDEX, 0, SL_OPT_GEN_BATCH, "ID",
         "a row that emits ID has finished: its later tokens are the pad id, its draws still\n"
         "spent; generate() stops when every row has finished"),
    OPTU("pad_token_id", NULL, NULL, SL_API_OPT_PAD_TOKEN_ID, "--pad-token-id", "pad_token_id",
         NUM(has_pad_token_id, pad_token_id), SL_API_INDEX, 0, SL_OPT_GEN_BATCH, "ID",
         "the token of a finished row (default: the EOS id, as generate() sets it)"),
    OPT(SL_API_OPT_SERVER, "--server", "server", TXT(server), SL_API_STRING, 0, 0, "URL",
        "the engine's base URL (http://127.0.0.1:8080)"),
    OPT(SL_API_OPT_API, "--api", "api", TXT(api), SL_API_STRING, 0, 0, "llama-server|openai|ollama",
        "llama-server's /completion (default), the OpenAI-compatible /v1/completions, or\n"
        "Ollama's /api/generate (its version names the --ollama line)"),
    OPT(SL_API_OPT_MODEL, "--model", "model", TXT(model), SL_API_STRING, 0, 0, "M",
        "the model name an OpenAI-compatible server or Ollama asks for"),
    OPT(SL_API_OPT_PROMPT, "--prompt", "prompt", TXT(prompt), SL_API_STRING, 0, 0, "TEXT", "the prompt, as text"),
    OPT(SL_API_OPT_PROMPT_IDS, "--prompt-ids", "prompt_ids", TXT(prompt_ids), SL_API_STRING, 0, 0, "IDS",
        "the prompt as token ids (inline list or file), sent as they are"),
    OPTU(NULL, "SamplingParams.max_tokens", "--n-predict", SL_API_OPT_N_PREDICT, "--n-predict", "n_predict",
         NUM(has_n_predict, n_predict), SL_API_SIZE, 0, 0, "T", "tokens generated per request"),
    OPT(SL_API_OPT_REQUESTS, "--requests", "requests", NUM(has_requests, requests), SL_API_SIZE, 0, 0, "N",
        "seeded requests, seeds S .. S+N-1, each also repeated (default 8)"),
    OPT(SL_API_OPT_SEND, "--send", "send", TXT(send), SL_API_STRING, 0, 0, "all|seed|none",
        "what of the claim the requests carry (default all; seed: the server's own defaults\n"
        "must be the claim)"),
    OPT(SL_API_OPT_LOG, "--log", "log", TXT(log), SL_API_STRING, 0, 0, "FILE",
        "judge a recorded log instead: samplab audit's audit.jsonl, or a response body a line"),
    OPTU(NULL, "SamplingParams.logprobs", "--n-probs", SL_API_OPT_N_PROBS, "--n-probs", "n_probs",
         NUM(has_n_probs, n_probs), SL_API_SIZE, 0, 0, "K",
         "entries asked for per token (default: the claimed top-k, else 100; Ollama: 20, its\n"
         "most; at least the kept set, or the whole vocabulary, for the exact verdicts)"),
    OPT(SL_API_OPT_CONCURRENT, "--concurrent", "concurrent", NUM(has_concurrent, concurrent), SL_API_SIZE, 0, 0,
        "C", "the first C requests again, two at a time (default 2; 0: none)"),
    OPT(SL_API_OPT_TIMEOUT, "--timeout", "timeout", NUM(has_timeout, timeout), SL_API_DOUBLE, 0, 0, "S",
        "seconds a request may take (default 120)"),
    /* Settings the real libraries have and samplab does not model: each name
     * is taken only to be refused (sl_api_option_refusal). transformers
     * 5.12.1's GenerationConfig fields and the logits processors
     * generate() builds from them (generation/utils.py
     * _get_logits_processor); vLLM's SamplingParams (0.8-0.11); llama.cpp's
     * common/arg.cpp sampling options and the llama_sampler_init_* they
     * reach (libllama 0.7.0). */
    /* samplab 0.1's switch to the library defaults, which now always apply */
    {"--defaults", "defaults", SL_API_GONE, SL_API_G_SAMPLING, 0, NULL,
     "refused: each framework's own defaults now always apply to the settings left unset (hf "
     "top_k 50; llamacpp top-k 40, top-p 0.95, min-p 0.05, T 0.8); give a setting's neutral value to turn its "
     "default off (--top-k 0)",
     NOWHERE, NULL, NULL, NULL},
    HF("--epsilon-cutoff", "epsilon_cutoff", "EpsilonLogitsWarper"),
    HF("--eta-cutoff", "eta_cutoff", "EtaLogitsWarper"),
    HF("--top-h", "top_h", "TopHLogitsWarper"),
    HF("--encoder-no-repeat-ngram-size", "encoder_no_repeat_ngram_size", "EncoderNoRepeatNGramLogitsProcessor"),
    HF("--encoder-repetition-penalty", "encoder_repetition_penalty", "EncoderRepetitionPenaltyLogitsProcessor"),
    HF("--bad-words-ids", "bad_words_ids", "NoBadWordsLogitsProcessor"),
    HF("--suppress-tokens", "suppress_tokens", "SuppressTokensLogitsProcessor"),
    HF("--begin-suppress-tokens", "begin_suppress_tokens", "SuppressTokensAtBeginLogitsProcessor"),
    HF("--sequence-bias", "sequence_bias", "SequenceBiasLogitsProcessor"),
    HF("--guidance-scale", "guidance_scale", "ClassifierFreeGuidanceLogitsProcessor"),
    HF("--renormalize-logits", "renormalize_logits", "LogitNormalization"),
    HF("--remove-invalid-values", "remove_invalid_values", "InfNanRemoveLogitsProcessor"),
    HF("--forced-bos-token-id", "forced_bos_token_id", "ForcedBOSTokenLogitsProcessor"),
    HF("--forced-eos-token-id", "forced_eos_token_id", "ForcedEOSTokenLogitsProcessor"),
    HF("--exponential-decay-length-penalty", "exponential_decay_length_penalty", "ExponentialDecayLengthPenalty"),
    HF("--min-new-tokens", "min_new_tokens", "MinNewTokensLengthLogitsProcessor"),
    HF("--min-length", "min_length", "MinLengthLogitsProcessor"),
    HF("--watermarking-config", "watermarking_config", "WatermarkLogitsProcessor"),
    /* samplab's hf is generate() with do_sample=True: greedy and beam search decode otherwise */
    HF("--do-sample", "do_sample", "do_sample=False (greedy search)"),
    HF("--num-beams", "num_beams", "beam search (num_beams)"),
    HF("--penalty-alpha", "penalty_alpha", "contrastive search (penalty_alpha)"),
    VL("--allowed-token-ids", "allowed_token_ids", "SamplingParams.allowed_token_ids"),
    VL("--bad-words", "bad_words", "SamplingParams.bad_words"),
    VL("--min-tokens", "min_tokens", "SamplingParams.min_tokens"),
    {NULL, NULL, SL_API_FLAG, 0, 0, NULL, NULL, {0, 0, 0}, NULL, NULL, NULL},
};
#undef OPT
#undef OPTU
#undef NM
#undef HF
#undef VL
#undef LL

const char sl_api_help_option[] = "--help", sl_api_version_option[] = "--version";

/* The commands' own help lines for an option (a list of commands, space separated). */
static const struct {
    const char *cmds;
    sl_api_opt opt;
    const char *help;
} own_help[] = {
    {"draw", SL_API_OPT_TEMPERATURE,
     "softmax temperature of --logits (default 1; T <= 0 is an error: use --method\n"
     "greedy); with --framework, the framework's temperature"},
    {"draw", SL_API_OPT_SEED,
     "seed: decimal or 0x hex (default 42; --framework gsl: 0,\n"
     "GSL's gsl_rng_default_seed, which it turns into 4357)"},
    {"draw", SL_API_OPT_N,
     "how many draws (default 1)"},
    {"draw", SL_API_OPT_JSON,
     "one object: {\"tokens\": [...], \"rng\": {\"name\", \"word_bits\", \"words\"}}"},
    {"draw", SL_API_OPT_REPETITION_PENALTY,
     "penalise the ids in --context: hf every id, vllm every id,\n"
     "llamacpp the last 64"},
    {"pipeline compare", SL_API_OPT_LOGITS,
     "logits: inline \"3,2,2,1\", a text file, .npy, or .safetensors"},
    {"pipeline", SL_API_OPT_FRAMEWORK,
     "the pipeline: hf, llamacpp, vllm, tutorial, candle, ollama, node-llama-cpp"},
    {"pipeline", SL_API_OPT_SEED,
     "llamacpp, node-llama-cpp: the chain's seed, which XTC draws its first\n"
     "step with (no default; needed with XTC on)"},
    {"rng", SL_API_OPT_RNG,
     "random source (required)"},
    {"rng", SL_API_OPT_N,
     "how many words (default 10)"},
    {"gof", SL_API_OPT_TEMPERATURE,
     "softmax temperature of --logits (default 1)"},
    {"gof", SL_API_OPT_METHOD,
     "draw N tokens here with method M (exprace, cdf, linear, alias, greedy)\n"
     "over --rng R (default pcg32) seeded with --seed S (default 42)"},
    {"gof", SL_API_OPT_N,
     "draws with --method"},
    {"gof", SL_API_OPT_ALPHA,
     "level of the chi-square test (default 0.01)"},
    {"gof", SL_API_OPT_JSON,
     "one JSON object instead of text"},
    {"power", SL_API_OPT_TEMPERATURE,
     "softmax temperature of --logits (default 1)"},
    {"power", SL_API_OPT_N,
     "draws (required, 1 <= N < 2^32)"},
    {"power", SL_API_OPT_ALPHA,
     "level of the tests (default 0.01)"},
    {"calibrate", SL_API_OPT_TEMPERATURE,
     "softmax temperature of --logits (default 1)"},
    {"calibrate", SL_API_OPT_N,
     "draws per seed"},
    {"exact", SL_API_OPT_FRAMEWORK,
     "candle, numpy, numpy-legacy, torch, llamacpp, gsl, ollama"},
    {"exact", SL_API_OPT_METHOD,
     "cdf, alias, linear"},
    {"exact", SL_API_OPT_RNG,
     "for a method: any 32- or 64-bit source (default pcg32); for gsl: gsl:mt19937 ..."},
    {"exact", SL_API_OPT_TEMPERATURE,
     "softmax temperature of --logits (default 1; must be > 0)"},
    {"exact", SL_API_OPT_REPLACEMENT,
     "torch: multinomial(p, K, replacement=True)"},
    {"exact", SL_API_OPT_NUM_SAMPLES,
     "torch --replacement: K samples a call (default 1; 2.x races for K = 1)"},
    {"exact", SL_API_OPT_TORCH,
     "torch's release line: 2 (default, 2.x: -log1p) or 1.13 (-log(1 - u))"},
    {"exact", SL_API_OPT_DTYPE,
     "the precision torch and numpy receive"},
    {"compare", SL_API_OPT_OLLAMA,
     "include ollama: 0.24, its Go sampler (with Ollama's defaults for what is left out)"},
    {"exact", SL_API_OPT_OLLAMA,
     "ollama: 0.24 (its Go sampler over all tokens at --temperature)"},
    {"exact", SL_API_OPT_RAND,
     "candle: the rand release counted (0.9 default, 0.10: the same; 0.8 shrinks\n"
     "the uniform's scale for subnormal totals)"},
    {"exact", SL_API_OPT_TOKENS,
     "one line per token: ideal, induced, count/2^bits, relative error"},
    {"exact", SL_API_OPT_JSON,
     "one object, induced probabilities as exact rationals \"numerator/2^bits\""},
    {"bench", SL_API_OPT_LOGITS,
     "the large vocabulary (default data/synthetic_49152.txt); with --framework, per-step\n"
     "logits: a [T, V] .npy, .safetensors tensor or text, one step per line"},
    {"bench", SL_API_OPT_FRAMEWORK,
     "time this framework in process over the rows of --logits: replay per step, and its\n"
     "pipeline alone per call"},
    {"bench", SL_API_OPT_REPETITION_PENALTY,
     "penalise the ids of the history (prompt + tokens so far)"},
    {"bench", SL_API_OPT_N,
     "with --framework: timing repetitions, the best kept (default 5)"},
    {"bench", SL_API_OPT_JSON,
     "with --framework: one object with the times and the replayed tokens"},
    {"draw", SL_API_OPT_NUM_RETURN_SEQUENCES,
     "a generation's setting (replay, check): refused, draw makes one step"},
    {"draw", SL_API_OPT_EOS_TOKEN_ID,
     "a generation's setting (replay, check): refused, draw makes one step"},
    {"draw", SL_API_OPT_PAD_TOKEN_ID,
     "a generation's setting (replay, check): refused, draw makes one step"},
    {"draw", SL_API_OPT_CONTEXT_FILE,
     "a [B, V] batch's prompts, one row of ids a line (hf; --context rows with ';' too)"},
    {"replay check", SL_API_OPT_FRAMEWORK,
     "the framework (replay: or all)"},
    {"replay check", SL_API_OPT_LOGITS,
     "per-step logits: a [T, V] .safetensors tensor, a 2-D .npy, or text, one step per line;\n"
     "a batch: a [T, B, V] tensor (.npy or .safetensors; hf, torch)"},
    {"replay check", SL_API_OPT_PROBS,
     "per-step weights (torch, numpy): the same forms"},
    {"replay check", SL_API_OPT_TENSOR,
     "which tensor of a .safetensors file (needed when it holds several)"},
    {"replay check", SL_API_OPT_CONTEXT,
     "the prompt's token ids (inline list or file): the history penalties start from;\n"
     "a batch's rows separated by ';' (\"1,2,3;0,4,5\"), left padding included"},
    {"replay check", SL_API_OPT_SEED,
     "the framework's seed (replay: default the framework's own)"},
    {"check", SL_API_OPT_GEN_TOKENS,
     "the observed tokens: one id per line, or an inline list (T of them)"},
    {"check", SL_API_OPT_ALPHA,
     "level of the test (default 0.01)"},
    {"check", SL_API_OPT_TRIALS,
     "simulated logs per fault size for the power (default 200; 0 skips it)"},
    {"audit", SL_API_OPT_OUT,
     "write DIR/audit.jsonl: a header, then each request's body, answer and times"},
    {"audit", SL_API_OPT_SEED,
     "the first request's seed (S, S+1, ... for the others)"},
    {"audit", SL_API_OPT_ALPHA,
     "level of the tests (default 0.01)"},
    {"audit", SL_API_OPT_TRIALS,
     "simulated logs per fault size for the power (default 200; 0 skips it)"},
    {"audit", SL_API_OPT_JSON,
     "print the result as JSON"},
    {"sweep", SL_API_OPT_OUT,
     "the output folder: <job>.jsonl, summary.md, checkpoint/ (made if absent)"},
};

const char *sl_api_option_help(const sl_api_option *o, const char *cmd)
{
    size_t n = cmd ? strlen(cmd) : 0;
    for (size_t i = 0; cmd && i < sizeof own_help / sizeof *own_help; i++) {
        if (&sl_api_options[own_help[i].opt] != o)
            continue;
        for (const char *c = own_help[i].cmds; (c = strstr(c, cmd)); c += n)
            if ((c == own_help[i].cmds || c[-1] == ' ') && (c[n] == ' ' || c[n] == '\0'))
                return own_help[i].help;
    }
    return o->help;
}

/* Other libraries' spellings of settings samplab names otherwise (llama.cpp's common/arg.cpp,
 * node-llama-cpp's option names): taken beside samplab's, for the same setting. */
const sl_api_alias sl_api_aliases[] = {
    {"--temp", "temp", SL_API_OPT_TEMPERATURE},
    {"--repeat-penalty", "repeat_penalty", SL_API_OPT_REPETITION_PENALTY},
    {"--repeat-last-n", "repeat_last_n", SL_API_OPT_PENALTY_LAST_N},
    /* node-llama-cpp 3.21.1's: its options (LLamaContextSequence.evaluate) and, for the nested
     * xtc and repeatPenalty ones, the flat names its addon reads (AddonSampler::ApplyConfig) */
    {"--topK", "topK", SL_API_OPT_TOP_K},
    {"--topP", "topP", SL_API_OPT_TOP_P},
    {"--minP", "minP", SL_API_OPT_MIN_P},
    {"--xtcProbability", "xtcProbability", SL_API_OPT_XTC_PROBABILITY},
    {"--xtcThreshold", "xtcThreshold", SL_API_OPT_XTC_THRESHOLD},
    {"--repeatPenalty", "repeatPenalty", SL_API_OPT_REPETITION_PENALTY},
    {"--repeatPenaltyMaxTokens", "repeatPenaltyMaxTokens", SL_API_OPT_PENALTY_LAST_N},
    {"--repeatPenaltyFrequencyPenalty", "repeatPenaltyFrequencyPenalty", SL_API_OPT_FREQUENCY_PENALTY},
    {"--repeatPenaltyPresencePenalty", "repeatPenaltyPresencePenalty", SL_API_OPT_PRESENCE_PENALTY},
    {"--dryRepeatPenaltyStrength", "dryRepeatPenaltyStrength", SL_API_OPT_DRY_MULTIPLIER},
    {"--dryRepeatPenaltyBase", "dryRepeatPenaltyBase", SL_API_OPT_DRY_BASE},
    {"--dryRepeatPenaltyAllowedLength", "dryRepeatPenaltyAllowedLength", SL_API_OPT_DRY_ALLOWED_LENGTH},
    {"--dryRepeatPenaltyLastTokens", "dryRepeatPenaltyLastTokens", SL_API_OPT_DRY_PENALTY_LAST_N},
    {"--dryRepeatPenaltySequenceBreakers", "dryRepeatPenaltySequenceBreakers", SL_API_OPT_DRY_SEQUENCE_BREAKER},
    {NULL, NULL, SL_API_OPT_NONE},
};

sl_api_opt sl_api_alias_of(const char *name, const char *key)
{
    for (const sl_api_alias *a = sl_api_aliases; a->name; a++)
        if ((name && !strcmp(a->name, name)) || (key && !strcmp(a->key, key)))
            return a->opt;
    return SL_API_OPT_NONE;
}

const sl_api_option *sl_api_option_named(const char *name)
{
    for (const sl_api_option *o = sl_api_options + 1; o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    sl_api_opt a = sl_api_alias_of(name, NULL);
    return a ? &sl_api_options[a] : NULL;
}

const sl_api_option *sl_api_option_keyed(const char *key)
{
    for (const sl_api_option *o = sl_api_options + 1; o->name; o++)
        if (!strcmp(o->key, key))
            return o;
    sl_api_opt a = sl_api_alias_of(NULL, key);
    return a ? &sl_api_options[a] : NULL;
}

const char *sl_api_option_refusal(const sl_api_option *o, char *buf, size_t n)
{
    if (o->kind == SL_API_GONE) {
        snprintf(buf, n, "%s: %s", o->name, o->help);
        return buf;
    }
    if (o->kind != SL_API_UNMODELLED)
        return NULL;
    const char *lib[3] = {o->hf, o->vllm, o->llamacpp}, *who[3] = {"transformers'", "vLLM's", "llama.cpp's"};
    size_t k = (size_t)snprintf(buf, n, "%s:", o->name);
    int m = 0;
    for (int i = 0; i < 3; i++)
        if (lib[i] && k < n)
            k += (size_t)snprintf(buf + k, n - k, "%s %s %s", m++ ? " and" : "", who[i], lib[i]);
    if (k < n)
        snprintf(buf + k, n - k, " %s not modelled by samplab", m > 1 ? "are" : "is");
    return buf;
}

/* The numbers: the value is the whole word, in range. */
static int bad_value(char *why, size_t n, const char *opt, const char *what, const char *text)
{
    char e[1024];
    snprintf(why, n, "%s takes %s, not '%s'", opt, what, sl_base_esc_str(text, e, sizeof e));
    return 2;
}

/* --logit-bias TOKEN(+/-)BIAS as common/arg.cpp reads -l (v0.4.0 to 0.7.0): an integer, a sign, then
 * std::stof of the rest, ERANGE refused; stricter where llama.cpp is lax, so nothing is read as
 * something else: the rest must be the whole number, the token an id of the logits (checked
 * against V where they are read), and NaN refused. */
static int read_bias(const sl_api_option *o, const char *text, sl_api_value *a, char *why, size_t n)
{
    static const char what[] = "TOKEN+BIAS or TOKEN-BIAS (15043+1, 15043-inf)";
    char *end;
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if ((*p < '0' || *p > '9') && (*p != '-' || p[1] < '0' || p[1] > '9'))
        return bad_value(why, n, o->name, what, text);
    errno = 0;
    long tok = strtol(p, &end, 10); /* a negative id is read, then refused as no id of the logits */
    if (errno == ERANGE || tok > INT32_MAX || tok < INT32_MIN) /* llama_token is int32_t */
        return bad_value(why, n, o->name, what, text);
    for (p = end; *p == ' ' || *p == '\t'; p++)
        ;
    if (*p != '+' && *p != '-')
        return bad_value(why, n, o->name, what, text);
    int neg = *p++ == '-';
    errno = 0;
    float b = strtof(p, &end);
    while (end != p && (*end == ' ' || *end == '\t' || *end == '\n'))
        end++;
    if (end == p || *end || errno == ERANGE || isnan(b) || *p == '+' || *p == '-')
        return bad_value(why, n, o->name, what, text);
    a->l = tok;
    a->d = neg ? -(double)b : (double)b;
    return 0;
}

int sl_api_option_read(const sl_api_option *o, const char *text, sl_api_value *a, char *why, size_t n)
{
    if (o == &sl_api_options[SL_API_OPT_LOGIT_BIAS]) {
        memset(a, 0, sizeof *a);
        return read_bias(o, text, a, why, n);
    }
    char *end;
    memset(a, 0, sizeof *a);
    errno = 0;
    switch (o->kind) {
    case SL_API_SIZE: {
        if (!*text || *text == '-' || *text == '+')
            return bad_value(why, n, o->name, "a non-negative integer", text);
        unsigned long long v = strtoull(text, &end, 10);
        if (*end)
            return bad_value(why, n, o->name, "a non-negative integer", text);
        /* one stated cap for every count: 10^12 draws are hours of work; more is a typo or
         * 2^64 - 1 (which would run for ever), never a plan */
        if (errno == ERANGE || v > SL_API_MAX_N || v > SIZE_MAX)
            return bad_value(why, n, o->name, "at most 1000000000000 (10^12)", text);
        a->size = (size_t)v;
        return 0;
    }
    case SL_API_LONG:
    case SL_API_INDEX: {
        /* an index (a token id, a row) as a draws file has ids (io/draws.c): no +1, 0x1 or blanks */
        if (o->kind == SL_API_INDEX && *text != '-' && sl_io_token_id_hint(text, strlen(text)))
            return bad_value(why, n, o->name, "a non-negative decimal integer", text);
        long v = strtol(text, &end, 10);
        if (!*text || *end || errno == ERANGE)
            return bad_value(why, n, o->name, "an integer", text);
        if (o->kind == SL_API_INDEX && v < 0) {
            snprintf(why, n, "%s takes a non-negative integer", o->name);
            return 2;
        }
        a->l = v;
        return 0;
    }
    case SL_API_DOUBLE: {
        double v = strtod(text, &end);
        if (!*text || *end || isnan(v))
            return bad_value(why, n, o->name, "a number", text);
        if (isinf(v)) /* "inf" or past DBL_MAX: no setting takes an infinity */
            return bad_value(why, n, o->name, "a finite number", text);
        a->d = v;
        return 0;
    }
    default:
        return 0;
    }
}

/* The schema's JSON entry of option o. */
static json_t *schema_entry(const sl_api_option *o)
{
    static const char *const kinds[] = {"flag",         "string",  "size", "long", "index",
                                        "double",       "not_modelled", "refused", "list"};
    static const struct {
        unsigned g;
        const char *name;
    } groups[] = {{SL_API_G_SOURCE, "source"},
                  {SL_API_G_RNG, "rng"},
                  {SL_API_G_SAMPLING, "sampling"},
                  {SL_API_G_LLAMA_PENALTY, "llama_penalty"},
                  {SL_API_G_FRAMEWORK, "framework"}};
    char line[1024];
    json_t *e = json_object();
    const char *group = NULL;
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        if (o->group == groups[g].g)
            group = groups[g].name;
    json_object_set_new(e, "option", json_string(o->name));
    json_object_set_new(e, "kind", json_string(kinds[o->kind]));
    json_object_set_new(e, "group", group ? json_string(group) : json_null());
    json_object_set_new(e, "settings", (o->at.has || o->at.val) ? json_true() : json_false());
    if (o->arg)
        json_object_set_new(e, "metavar", json_string(o->arg));
    if (o->help)
        json_object_set_new(e, "help", json_string(o->help));
    if (o->hf || o->vllm || o->llamacpp) {
        json_t *up = json_object();
        if (o->hf)
            json_object_set_new(up, "transformers", json_string(o->hf));
        if (o->vllm)
            json_object_set_new(up, "vllm", json_string(o->vllm));
        if (o->llamacpp)
            json_object_set_new(up, "llamacpp", json_string(o->llamacpp));
        json_object_set_new(e, "upstream", up);
    }
    if (o->kind == SL_API_UNMODELLED)
        json_object_set_new(e, "not_modelled", json_string(sl_api_option_refusal(o, line, sizeof line)));
    if (o->kind == SL_API_GONE)
        json_object_set_new(e, "refused", json_string(sl_api_option_refusal(o, line, sizeof line)));
    return e;
}

char *sl_api_schema_json(void)
{
    json_t *root = json_object();
    /* a name two entries share (--counts, --tokens): the key tells them apart */
    for (const sl_api_option *o = sl_api_options + 1; root && o->name; o++)
        json_object_set_new(root, o->key, schema_entry(o));
    /* another library's spelling: the entry of the setting it names, with its own option text */
    for (const sl_api_alias *a = sl_api_aliases; root && a->name; a++) {
        json_t *e = schema_entry(&sl_api_options[a->opt]);
        json_object_set_new(e, "option", json_string(a->name));
        json_object_set_new(e, "alias_of", json_string(sl_api_options[a->opt].key));
        json_object_set_new(root, a->key, e);
    }
    char *s = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    return s;
}
