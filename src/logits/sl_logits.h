/* sl_logits.h — logits pipelines per framework (temperature, top-k, top-p, min-p, typical, penalties).
 * Uses the draw, rng and base layers. Exported names start with sl_logits_.
 *
 * A pipeline is data plus a function: a const sl_logits_pipeline_type names the
 * framework, says which settings it has (SL_OPT_* bits) and runs that
 * framework's ordered filters with its exact comparison rules and precision
 * over one logits vector (V = vocabulary size). The result is the final
 * distribution over all V ids (0 for removed tokens), the kept mask, and —
 * for llama.cpp, whose draw depends on it — the candidate array order. */
#ifndef SL_LOGITS_H
#define SL_LOGITS_H

#include <stddef.h>
#include <stdint.h>

#include "draw/sl_draw.h"

/* ---------------------------------------------------------------- logits */

/* Numerically stable softmax of x/T in double: max subtracted first. T <= 0
 * is an error pointing to greedy. */
int sl_logits_softmax(const double *x, size_t n, double temperature, double *out, sl_error *err);


/* ---------------------------------------------------------------- candle 0.11 (logits/candle.c) */

/* candle-transformers generation::Sampling. */
typedef enum sl_logits_candle_sampling {
    SL_CANDLE_ARGMAX = 0,       /* Sampling::ArgMax */
    SL_CANDLE_ALL,              /* Sampling::All { temperature } */
    SL_CANDLE_TOPK,             /* Sampling::TopK { k, temperature } */
    SL_CANDLE_TOPP,             /* Sampling::TopP { p, temperature } */
    SL_CANDLE_TOPK_TOPP         /* Sampling::TopKThenTopP { k, p, temperature } */
} sl_logits_candle_sampling;

typedef struct sl_logits_candle_cfg {
    sl_logits_candle_sampling sampling;
    double temperature;  /* f64, as Sampling holds it; unused for ArgMax */
    size_t k;            /* TopK, TopKThenTopP */
    double p;            /* TopP, TopKThenTopP: f64, compared as candle does (f64 or f32) */
    int simd_sum;        /* softmax sum in the 4x8-lane AVX order (candle-core built with avx) */
} sl_logits_candle_cfg;

/* The Sampling that LogitsProcessor::new(seed, T, p) would build, extended
 * with k: ArgMax when T is absent or < 1e-7; else TopKThenTopP (k and p),
 * TopK (k), TopP (p) or All. k < 0 is an error; NaN T or p go on as in candle. */
int sl_logits_candle_cfg_make(int has_t, double t, int has_k, long k, int has_p, double p, int simd_sum,
                              sl_logits_candle_cfg *cfg, sl_error *err);

/* candle's `&logits / T` (= affine(1/T, 0): x * (float)(1.0 / T) + 0.0f)
 * then candle-nn softmax_last_dim on the CPU: max by an f32::max fold,
 * expf(x - max) (the platform libm, glibc here), an f32 sum (sequential, or
 * the AVX order when simd_sum), then a division. out may equal logits. */
void sl_logits_candle_softmax(const float *logits, size_t V, double temperature, int simd_sum, float *out);
/* The float32 logits an exact audit of candle refuses before its softmax: a NaN
 * or +inf entry ("logit I is NaN" / "+infinite"), or all -inf. candle itself
 * would go on (f32::max skips NaN) and WeightedIndex would reject the NaN
 * weights; the audit names the logit instead. */
int sl_logits_candle_check(const float *logits, size_t V, sl_error *err);
/* candle-core cpu::vec_sum with AVX: 4 accumulators of 8 lanes over
 * 32-element steps, reduced (a0+a1)+(a2+a3), then high+low 128-bit halves,
 * two horizontal adds, then the tail added one by one. */
float sl_logits_candle_sum_simd(const float *x, size_t n);

/* Rust std's slice::select_nth_unstable_by(k, |&i, &j| prs[j].total_cmp(&prs[i]))
 * on idx[0..V] (token ids), the introselect of rustc 1.95 (core/src/slice/
 * sort/select.rs with shared/pivot.rs choose_pivot, shared/smallsort.rs
 * insertion sort and unstable/quicksort.rs branchless cyclic Lomuto
 * partition): the order of idx afterwards is the real std's. k < V (else
 * nothing moves). Returns 0, or SL_ENOMEM with err filled (idx untouched). */
int sl_logits_candle_select_nth(size_t *idx, size_t V, size_t k, const float *prs, sl_error *err);

/* sample_topp's clamp: stable sort by descending total_cmp, f32 running
 * sum; a probability is zeroed once the sum of the ones kept before it
 * reaches p. Returns 0 or SL_ENOMEM with err filled (prs untouched). */
int sl_logits_candle_topp_zero(float *prs, size_t n, float p, sl_error *err);

/* candle-transformers utils::apply_repeat_penalty(logits, penalty, context):
 * every distinct id of the context that is < V, once: logit >= 0 (also -0.0)
 * is divided by the penalty, otherwise multiplied. Ids >= V or < 0 are
 * skipped, as candle's get_mut does. Stores the number of logits changed in
 * *n_changed (may be NULL); returns 0, or SL_ENOMEM with err filled. */
int sl_logits_candle_repeat_penalty(float *logits, size_t V, float penalty, const long *context, size_t n,
                                    long *n_changed, sl_error *err);

/* The distribution LogitsProcessor::sample draws from, for one step over
 * logits[0..V] (float32; candle converts to f32 first):
 *   weights[0..*m]  the f32 weights handed to WeightedIndex, in the order it
 *                   draws over them (not normalised; removed tokens are 0),
 *   order[0..*m]    the token id of each weight.
 * All/TopP: *m = V, order = identity. TopK/TopKThenTopP with k < V: *m = k,
 * order = the partition order std's select_nth_unstable_by leaves.
 * ArgMax: *m = 1, weights[0] = 1, order[0] = the first maximal logit (a NaN
 * at index 0 wins, later NaNs are ignored, as candle's CPU argmax); no draw.
 * weights and order need room for V entries.
 * Returns 0, or SL_ENOMEM. It does not validate the weights: feed them to
 * sl_draw_rand_wi_new, which reports what rand would (e.g. NaN logits give
 * InvalidWeight, k = 0 gives NoItem, TopKThenTopP with k >= V and p <= 0
 * gives AllWeightsZero). */
int sl_logits_candle_process(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, float *weights,
                             size_t *order, size_t *m, sl_error *err);

/* candle's final distribution in token order, for printing: p[t] = weight of
 * token t / the f32 total WeightedIndex divides by (0 for removed tokens;
 * ArgMax: one-hot). p has V entries. When rand would refuse the weights
 * (NaN, all zero, no token, +inf total) returns SL_EINVAL with rand's
 * error name in err. The exact chance of a token differs from p[t] by less
 * than 2^-23 (the uniform has 23 random bits). */
int sl_logits_candle_probs(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, double *p, sl_error *err);

/* The options `samplab draw --framework F` passes; a framework declares in
 * `accepts` which it understands, and the CLI rejects the others by name. */
enum {
    SL_OPT_PROBS = 1u << 0, SL_OPT_LOGITS = 1u << 1, SL_OPT_TEMPERATURE = 1u << 2,
    SL_OPT_TOP_K = 1u << 3, SL_OPT_TOP_P = 1u << 4, SL_OPT_MIN_P = 1u << 5,
    SL_OPT_NUM_SAMPLES = 1u << 6, SL_OPT_REPLACEMENT = 1u << 7, SL_OPT_DTYPE = 1u << 8,
    SL_OPT_VARIANT = 1u << 9, SL_OPT_SIMD_SUM = 1u << 10, SL_OPT_TYPICAL = 1u << 11,
    SL_OPT_PENALTY = 1u << 12, SL_OPT_MIN_KEEP = 1u << 13, SL_OPT_CPU = 1u << 15,
    SL_OPT_LLAMA_VERSION = 1u << 16, SL_OPT_RAND_VERSION = 1u << 17,
    SL_OPT_TORCH_BUILD = 1u << 18, SL_OPT_SHUFFLE = 1u << 19
};

/* Pipeline-only option bits, above samplab.h's SL_OPT_* range. */
enum {
    SL_OPT_LAST_N = 1u << 20,        /* --penalty-last-n (llama.cpp) */
    SL_OPT_FREQ_PRESENCE = 1u << 21, /* --frequency-penalty, --presence-penalty (llama.cpp) */
    SL_OPT_ORDER = 1u << 22,         /* --samplers, --sampling-seq (llama.cpp's stage order) */
    SL_OPT_OLLAMA_VERSION = 1u << 23, /* --ollama (Ollama's release line) */
    SL_OPT_ROW_SEEDS = 1u << 24,      /* --seeds LIST: a generator per row (request), as serving engines keep */
    SL_OPT_GEN_BATCH = 1u << 25,      /* --num-return-sequences, --eos-token-id, --pad-token-id (generate()'s) */
    SL_OPT_PROMPT_ROWS = 1u << 26,    /* --context-file (a batch's prompts: taken where a batch is read) */
    SL_OPT_VLLM_VERSION = 1u << 14,   /* --vllm (vLLM's release line) */
    SL_OPT_TJS_VERSION = 1u << 27,    /* --transformersjs, --no-repeat-ngram-size (transformers.js's) */
    SL_OPT_TFJS_VERSION = 1u << 28,   /* --tfjs (TensorFlow.js's release line) */
    SL_OPT_SGLANG_VERSION = 1u << 29, /* --sglang (SGLang's release line) */
    SL_OPT_POSITION = 1u << 30        /* --position, --sglang-sorted (SGLang's hash key and batch path) */
};
/* --jax-threefry-partitionable (JAX's random_bits and split layout): bit 31 is past
 * what an enumerator may hold in C11 (an int), so a macro. */
#define SL_OPT_JAX (1u << 31)

/* The most stages a user-given llama.cpp chain may hold (llama.cpp has no limit). */
#define SL_LOGITS_ORDER_MAX 32
typedef struct sl_logits_stage_type sl_logits_stage_type;

/* Scratch a caller keeps across pipeline runs (a session's steps), so a run
 * allocates nothing of size V once the buffers have grown; never shared by two
 * threads. NULL in sl_logits_cfg.work: each run allocates its own. */
typedef struct sl_logits_work sl_logits_work;
sl_logits_work *sl_logits_work_new(void);  /* NULL when out of memory */
void sl_logits_work_free(sl_logits_work *w);
/* Buffer `slot` (0..9; 8 and 9 hold a result's probs and kept) of at least `bytes` bytes, its contents undefined; NULL
 * when out of memory (w keeps its other buffers). */
void *sl_logits_work_buf(sl_logits_work *w, int slot, size_t bytes);

/* Settings as the user gave them; has_* = 0 means "not given": the pipeline
 * runs with its framework's default for it, as the library applies it
 * (sl_logits_cfg_resolve, below). */
typedef struct sl_logits_cfg {
    int has_temperature; double temperature;
    int has_top_k; long top_k;
    int has_top_p; double top_p;
    int has_min_p; double min_p;
    int has_typical; double typical;
    int has_penalty; double penalty;          /* repetition penalty */
    int has_freq; double freq;                /* frequency penalty (llama.cpp, vLLM) */
    int has_presence; double presence;        /* presence penalty (llama.cpp, vLLM) */
    const long *context; size_t context_n;    /* token ids, oldest first */
    int has_last_n; long last_n;              /* llama.cpp penalty_last_n */
    int has_min_keep; long min_keep;
    int cpu;                                  /* torch's CPU kernel (SL_CPU_*): hf, vllm */
    int transformers;                         /* hf: transformers' major version, 4 or 5 (0: 5) */
    int top_p_f32_opposite;                   /* hf's top-p: remove cum <= 1 - float32(p) in float32 (TGI's
                                               * top_p_opposite tensor), not float32(1 - p) */
    sl_logits_work *work;                     /* scratch reused across runs, or NULL */
    /* llama.cpp: the stages in the user's order (--samplers, --sampling-seq; sl_logits_llama_order_parse);
     * has_order 0: common_sampler's default order */
    int has_order; size_t n_order;
    const sl_logits_stage_type *order[SL_LOGITS_ORDER_MAX];
    /* llama.cpp 0.7.0's other stages (common_params_sampling; has_* 0: its default) */
    int has_xtc_p; double xtc_p;              /* --xtc-probability (0: off) */
    int has_xtc_t; double xtc_t;              /* --xtc-threshold (0.1; > 0.5: off) */
    int has_nsigma; double nsigma;            /* --top-nsigma (-1: off) */
    int has_dyn_range; double dyn_range;      /* --dynatemp-range (0: plain temperature) */
    int has_dyn_exp; double dyn_exp;          /* --dynatemp-exp (1) */
    size_t n_bias;                            /* --logit-bias TOKEN(+/-)BIAS, in the order given */
    const long *bias_token; const float *bias;
    int has_seed; uint32_t seed;              /* the chain's seed (XTC's mt19937); set by the framework */
    /* llama.cpp's DRY (logits/stage_dry.c) */
    int has_dry_mult; double dry_mult;        /* --dry-multiplier (0: off) */
    int has_dry_base; double dry_base;        /* --dry-base (1.75) */
    int has_dry_allowed; long dry_allowed;    /* --dry-allowed-length (2) */
    int has_dry_last_n; long dry_last_n;      /* --dry-penalty-last-n (64; 0: off) */
    /* The sequence breakers resolved against a vocabulary (sl_logits_dry_restarts): dry_breaker[t] holds
     * token t's SL_LOGITS_DRY_* flags (dry_breaker NULL: none). has_dry_breakers 0: none was
     * resolved, so DRY on refuses to run (it needs --vocab, or --dry-sequence-breaker none). */
    int has_dry_breakers; const unsigned char *dry_breaker; size_t dry_breaker_n;
    /* Its restart sequences of several tokens (sl_logits_dry_restarts; inside dry_breaker's block,
     * freed with it), NULL when none. */
    const struct sl_logits_dry_tails *dry_tails;
    sl_rng_stdcxx stdcxx;                     /* libllama's libstdc++ rule for a uniform of 1 (its compiler's;
                                               * 0: GCC >= 15, Debian sid's 0.7.0); set by the framework */
    /* llama.cpp --mirostat 0|1|2 (1, 2: the chain is temperature then mirostat), --mirostat-ent
     * (tau), --mirostat-lr (eta); --adaptive-target, --adaptive-decay (adaptive_p); has_* 0:
     * common_params_sampling's defaults */
    int has_mirostat; long mirostat;
    int has_mirostat_tau; double mirostat_tau;
    int has_mirostat_eta; double mirostat_eta;
    int has_adaptive_target; double adaptive_target;
    int has_adaptive_decay; double adaptive_decay;
    int has_ngram; long ngram;                /* transformers.js no_repeat_ngram_size (0: off) */
} sl_logits_cfg;

/* One llama.cpp candidate (llama_token_data): id, logit, p; base's type, so its typed sort applies. */
typedef sl_base_cand sl_logits_cand;

typedef struct sl_logits_result {
    size_t V;
    double *probs;          /* V entries: the final distribution, 0 where removed */
    unsigned char *kept;    /* V entries: 1 if no filter removed the id */
    size_t n_kept;
    unsigned precision;     /* 32 or 64: the precision the framework computes in */
    int greedy;             /* 1 if the settings select argmax instead of sampling */
    size_t greedy_id;
    /* llama.cpp only: the candidate array after the chain, in array order
     * (the order its dist sampler walks); NULL for the others. */
    sl_logits_cand *cand;
    size_t n_cand;
    int cand_sorted;
    const char *steps[16];  /* the filters that ran, in order (static strings) */
    size_t n_steps;
    int nan_free;           /* 1: the pipeline has found no NaN in probs (no second look) */
    int borrowed;           /* 1: probs and kept belong to the run's sl_logits_work */
} sl_logits_result;

/* The sampling settings by name, as --json echoes them ("top_k"): the fields of
 * sl_logits_cfg with a has_ flag. */
typedef enum sl_logits_key {
    SL_KEY_TEMPERATURE, SL_KEY_TOP_K, SL_KEY_TOP_P, SL_KEY_MIN_P, SL_KEY_TYPICAL, SL_KEY_PENALTY,
    SL_KEY_FREQ, SL_KEY_PRESENCE, SL_KEY_LAST_N, SL_KEY_MIN_KEEP,
    SL_KEY_XTC_P, SL_KEY_XTC_T, SL_KEY_NSIGMA, SL_KEY_DYN_RANGE, SL_KEY_DYN_EXP,
    SL_KEY_DRY_MULT, SL_KEY_DRY_BASE, SL_KEY_DRY_ALLOWED, SL_KEY_DRY_LAST_N,
    SL_KEY_MIROSTAT, SL_KEY_MIROSTAT_ENT, SL_KEY_MIROSTAT_LR, SL_KEY_ADAPTIVE_TARGET, SL_KEY_ADAPTIVE_DECAY,
    SL_KEY_NGRAM,
    SL_KEY_COUNT
} sl_logits_key;

/* One default of a framework: what its library does with the setting when the
 * caller leaves it unset. none = 1: the library's default is "unset" (Python's
 * None, Rust's None): no value, the stage it would configure is not built. */
typedef struct sl_logits_default {
    sl_logits_key key;        /* SL_KEY_COUNT ends a table */
    int none;
    double value;             /* unused when stage is set */
    const char *upstream;     /* the library's name for it and where the default is written */
    /* llama.cpp: the stage parameter that holds the default (stage->params[param].def), so the
     * value is written once, with the stage; NULL: value holds it */
    const sl_logits_stage_type *stage;
    size_t param;
} sl_logits_default;

/* What a pipeline's order implies for settings translated between frameworks
 * (api/compare.c asks these instead of naming frameworks). */
enum {
    /* no temperature given is the argmax, whatever top-k and top-p say
     * (candle 0.11's LogitsProcessor::new(seed, None, ..)) */
    SL_LOGITS_TRAIT_ARGMAX_UNSET_T = 1u << 0,
    /* min-p filters the logits before the temperature (llama.cpp's chain), so a
     * min-p m there is m^(1/T) after it */
    SL_LOGITS_TRAIT_MIN_P_BEFORE_T = 1u << 1,
    /* temperature, then top-k, then top-p over the renormalised top k
     * (transformers' warpers, vLLM V1, the tutorial) */
    SL_LOGITS_TRAIT_TOP_P_RENORMED = 1u << 2,
    /* top-p over the raw top-k mass, not renormalised (candle's TopKThenTopP) */
    SL_LOGITS_TRAIT_TOP_P_RAW_MASS = 1u << 3,
    /* no settings of its own reproduce another framework's result: it has
     * no way to turn its defaults off (Ollama's DefaultOptions, top_k 40) */
    SL_LOGITS_TRAIT_OWN_DEFAULTS = 1u << 4,
    /* compared only when its release option is given (--ollama 0.24: the one line modelled) */
    SL_LOGITS_TRAIT_NEEDS_VARIANT = 1u << 5,
    /* run only when named (--frameworks, --framework): not in compare's default set, the ties or
     * compare sections of the report (node-llama-cpp: a wrapper of llamacpp's stages) */
    SL_LOGITS_TRAIT_NAMED_ONLY = 1u << 6,
};

typedef struct sl_logits_pipeline_type {
    const char *name;
    const char *summary;    /* one line: the order and where it comes from */
    unsigned accepts;       /* SL_OPT_* bits of samplab.h */
    /* Runs on resolved settings (sl_logits_pipeline_run resolves them first). */
    int (*run)(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg,
               sl_logits_result *out, sl_error *err);
    unsigned traits;        /* SL_LOGITS_TRAIT_* */
    const sl_logits_default *defaults; /* every setting it accepts, as the library defaults it */
    /* A remark on settings c for `samplab pipeline` (static text), or NULL. */
    const char *(*note)(const sl_logits_cfg *c);
    /* Remarks for `samplab compare` on the settings c it ran with, at most max lines into out; returns how many. */
    size_t (*compare_notes)(const sl_logits_cfg *c, char (*out)[512], size_t max);
    /* Settings (1u << key) the library takes and applies nowhere (transformers.js's top_p): --json
     * lists them as "ignored" */
    unsigned ignored;
} sl_logits_pipeline_type;

/* "temperature", "top_k", ... (the option's name with '_'); NULL outside the keys. */
const char *sl_logits_key_name(sl_logits_key k);
/* The SL_OPT_* bit of the option that sets k. */
unsigned sl_logits_key_opt(sl_logits_key k);
/* 1 when k holds an integer (a long field: top_k, mirostat ...). */
int sl_logits_key_is_int(sl_logits_key k);
/* 1 and the value in *v when c sets k, else 0. */
int sl_logits_cfg_get(const sl_logits_cfg *c, sl_logits_key k, double *v);
/* Sets k to v (has_ flag and value; a long key takes (long)v). */
void sl_logits_cfg_set(sl_logits_cfg *c, sl_logits_key k, double v);
/* t's default for k, or NULL when t has none. */
const sl_logits_default *sl_logits_default_of(const sl_logits_pipeline_type *t, sl_logits_key k);
/* d's value (its stage parameter's default, or d->value); meaningless when d->none. */
double sl_logits_default_value(const sl_logits_default *d);
/* The settings in force, in place: every setting of t's defaults that c leaves
 * unset takes the default (a `none` default stays unset). *defaulted (may be
 * NULL) gets bit 1u << key for each setting the defaults decided. The one place
 * defaults are applied: the entries of a pipeline call it (sl_logits_pipeline_run,
 * sl_logits_llama_chain) and so does sl_fw_session_open; applying it twice
 * changes nothing. */
void sl_logits_cfg_resolve(const sl_logits_pipeline_type *t, sl_logits_cfg *c, unsigned *defaulted);
/* What a caller filling the struct itself can get wrong and the option parsers
 * never let through: a setting given as NaN or an infinity (top_p = NaN would
 * keep or drop every token silently), an array NULL with a non-zero length
 * (context, logit biases, DRY breakers), more stages than an order holds.
 * SL_EINVAL, err "CALL: top_p is NaN ...". c NULL is refused too. */
int sl_logits_cfg_check(const sl_logits_cfg *c, const char *call, sl_error *err);

extern const sl_logits_pipeline_type sl_logits_pipeline_hf_type;
extern const sl_logits_pipeline_type sl_logits_pipeline_llamacpp_type;
extern const sl_logits_pipeline_type sl_logits_pipeline_vllm_type;
extern const sl_logits_pipeline_type sl_logits_pipeline_tutorial_type;
extern const sl_logits_pipeline_type sl_logits_pipeline_candle_type;
/* Ollama 0.24's Go sampler (logits/ollama.c), run with --ollama 0.24 only. */
extern const sl_logits_pipeline_type sl_logits_pipeline_ollama_type;
/* node-llama-cpp 3.21.1's chain over llama.cpp v0.4.0's stages (logits/node_llama_cpp.c), and the
 * options it takes (the pipeline's and the framework's; SL_OPT_ORDER for XTC's). */
extern const sl_logits_pipeline_type sl_logits_pipeline_nlc_type;
/* tf.softmax as TensorFlow.js 4.22's CPU backend computes it (logits/tfjs_softmax.c):
 * max, float32 x - max, V8's Math.exp to float32, a double sum stored to float32,
 * float32 quotients. out[0..V) may not alias x. */
void sl_logits_tfjs_softmax(const float *x, size_t V, float *out);

/* transformers.js 4.3's processors, TopK and softmax (logits/transformers_js.c); out->cand is the
 * top k in TopK order, each with its float32 probability, the order its draw walks */
extern const sl_logits_pipeline_type sl_logits_pipeline_tjs_type;
/* Its note: top_p given and not 1, which transformers.js ignores (static text), or NULL. */
const char *sl_logits_tjs_note(const sl_logits_cfg *c);
/* TGI 3.3's HeterogeneousNextTokenChooser warpers (logits/tgi.c) */
extern const sl_logits_pipeline_type sl_logits_pipeline_tgi_type;
#define SL_LOGITS_NLC_ACCEPTS                                                                              \
    (SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY |        \
     SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE | SL_OPT_ORDER)
/* The llama.cpp settings that run node-llama-cpp's chain for its settings in (its
 * defaults for those unset): the stage order it builds, the values as its addon
 * passes them; *greedy 1 at temperature <= 0, where the chain ends in greedy.
 * Refuses, by name, the settings node-llama-cpp has no option for. */
int sl_logits_nlc_cfg(const sl_logits_cfg *in, sl_logits_cfg *out, int *greedy, sl_error *err);
/* Ollama v0.32.10 to v0.33.0-rc2 (logits/ollama_server.c): llama-server's default chain over the
 * fields Ollama sends, with its defaults; reached through --ollama 0.32, not by name. */
extern const sl_logits_pipeline_type sl_logits_pipeline_ollama_server_type;
/* Ollama v0.30.0 to v0.32.9: the same fields, repeat_penalty 1.1 by default (--ollama 0.30) */
extern const sl_logits_pipeline_type sl_logits_pipeline_ollama_server_030_type;
#define SL_LOGITS_OLLAMA_SERVER_ACCEPTS                                                                      \
    (SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |        \
     SL_OPT_PENALTY | SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE | SL_OPT_OLLAMA_VERSION)
/* The llama.cpp settings llama-server builds its chain from for the options Ollama sends (their
 * defaults for those unset, llama-server's clamps) on line t (one of the two above); refuses what
 * llama-server refuses, and on 0.30 what its builds treat in more than one way. */
int sl_logits_ollama_server_cfg(const sl_logits_pipeline_type *t, const sl_logits_cfg *in, sl_logits_cfg *out,
                                sl_error *err);
extern const sl_logits_pipeline_type *const sl_logits_pipeline_types[]; /* NULL-terminated */
const sl_logits_pipeline_type *sl_logits_pipeline_lookup(const char *name);

/* Runs pipeline t over a vector as read (float32 pipelines use v->f,
 * float64 ones v->d). Checks that context ids are inside [0, V). */
int sl_logits_pipeline_run(const sl_logits_pipeline_type *t, const sl_vec *v, const sl_logits_cfg *cfg,
                    sl_logits_result *out, sl_error *err);
void sl_logits_result_free(sl_logits_result *r);
/* Allocates probs/kept for V entries, zeroed. */
int sl_logits_result_alloc(sl_logits_result *r, size_t V, sl_error *err);
/* The same, not zeroed: for a pipeline that writes every entry. With w, probs
 * and kept are w's buffers 8 and 9 (r->borrowed), valid until w's next run. */
int sl_logits_result_alloc_raw(sl_logits_result *r, size_t V, sl_logits_work *w, sl_error *err);

/* ---- Ollama's Go sampler, v0.6.3 to v0.25.0-rc0 (logits/ollama.c) */

/* Go's sample.token: the id and a float32 value (a logit, then a probability). */
typedef struct sl_logits_go_tok {
    float value;
    int32_t id;
} sl_logits_go_tok;

/* Go's math.Exp on amd64 (src/math/exp_amd64.s), bit for bit: fma_path 1 is
 * its AVX+FMA path (cpu.X86.HasAVX && HasFMA), 0 its SSE2 path. */
double sl_logits_go_exp(double x, int fma_path);
/* slices.SortFunc(t, descending value) as Go's pdqsortCmpFunc orders it, ties included. */
void sl_logits_go_sort_desc(sl_logits_go_tok *t, size_t n);
/* Ollama's topK: k <= 0 or k >= n sorts all of ts (returns n); otherwise the
 * container/heap min-heap of k (heap: k entries of scratch) leaves the k kept
 * tokens in ts[0..k) in descending order, its ties in the heap's order. */
size_t sl_logits_ollama_topk(sl_logits_go_tok *ts, size_t n, long k, sl_logits_go_tok *heap);

/* NewSampler's settings after its clamps (float32 as Ollama's Options hold them). */
typedef struct sl_logits_ollama_cfg {
    float temperature, top_p, min_p;
    long top_k;
    int fma;                  /* math.Exp's amd64 path: 1 AVX+FMA, 0 SSE2 */
} sl_logits_ollama_cfg;
/* Ollama's defaults for options not given (DefaultOptions: temperature 0.8,
 * top_k 40, top_p 0.9, min_p 0), then NewSampler's clamps (T < 0 is 0; top_p
 * and min_p into [0, 1]; top_k as given, <= 0 meaning all). Penalties are not
 * read: the Go sampler has none. */
void sl_logits_ollama_cfg_make(const sl_logits_cfg *c, int fma_path, sl_logits_ollama_cfg *o);

/* What Sampler.sample leaves before its draw. */
typedef struct sl_logits_ollama_out {
    int greedy;               /* temperature 0: greedy_id, no draw */
    long greedy_id;
    sl_logits_go_tok *tok;    /* the tokens the draw walks, n of them, probabilities in order */
    size_t n;
    float total;              /* their float32 running sum */
    int nan_sum;              /* total is NaN: Sample's "logits sum to NaN" (after its draw) */
} sl_logits_ollama_out;
/* Sampler.sample up to the draw over logits[0..V): ts and heap are V entries
 * of scratch (out->tok points into ts). SL_EINVAL for V = 0 (Sample's "no logits"). */
int sl_logits_ollama_apply(const float *logits, size_t V, const sl_logits_ollama_cfg *cfg, sl_logits_go_tok *ts,
                           sl_logits_go_tok *heap, sl_logits_ollama_out *out);

/* ---- SGLang (logits/sglang.c) */

extern const sl_logits_pipeline_type sl_logits_pipeline_sglang_type;
/* What SGLang's sampler hands its seeded draw for one row: the column weights
 * (float32 probabilities, 0 where removed) in vocabulary order, or, on the sort path
 * (rank), in descending order with tok[j] the token of column j; greedy: the batch
 * is all greedy and the token is greedy_id (no draw). */
typedef struct sl_logits_sglang_out {
    int greedy;
    size_t greedy_id;
    int rank;
    size_t V, n_kept;
    long top_k;               /* as resolved: 1 for greedy, 2^30 for all */
    float *w;
    size_t *tok;
} sl_logits_sglang_out;
/* The row's settings in c (unset: SGLang's defaults); rank: a batchmate (or this row)
 * filters, so the batch takes the sort path. SL_EINVAL with SGLang's message for
 * settings it refuses, samplab's for what is not modelled. */
int sl_logits_sglang_apply(const float *logits, size_t V, const sl_logits_cfg *c, int rank, sl_logits_sglang_out *o,
                           sl_error *err);
void sl_logits_sglang_out_free(sl_logits_sglang_out *o);
/* The path these settings take (rank as above): the vocabulary path, the sort path, or
 * an all-greedy batch (top_k <= 1 after SamplingParams' rules, and no batchmate filters). */
enum { SL_SGLANG_VOCAB = 0, SL_SGLANG_RANK = 1, SL_SGLANG_GREEDY = 2 };
int sl_logits_sglang_path(const sl_logits_cfg *c, int rank);

/* ---- shared float32 kernels (logits/f32.c), as torch's CPU ops compute them */

/* torch's CPU kernels (its vectorised code, aten/src/ATen/cpu/vec): which one runs
 * decides the last bits of every reduction. SL_CPU_AUTO resolves to what torch 2.x
 * picks on this machine (ATEN_CPU_CAPABILITY overrides it in torch). */
enum { SL_CPU_AUTO = 0, SL_CPU_AVX2 = 1, SL_CPU_AVX512 = 2 };
int sl_logits_cpu_resolve(int cpu);
const char *sl_logits_cpu_name(int cpu);   /* "avx2", "avx512" */
/* torch.softmax over x[0..n) in float32 as torch's CPU kernel computes it
 * (SoftMaxKernel.cpp _vec_softmax_lastdim): max subtracted, SLEEF expf, the
 * reduce_all sum of that kernel's width, times 1/sum. cpu: SL_CPU_AVX2 or AVX512. */
void sl_logits_softmax_f32(const float *x, size_t n, float *out, int cpu);
/* SLEEF's expf_u10 (FMA build), torch's vectorised float exp, bit for bit (both kernels). */
float sl_logits_expf_sleef(float d);
/* at::vec::reduce_all's float sum: 8 lanes (AVX2) or 16 (AVX-512), shuffle-tree finish. */
float sl_logits_sum_reduce_all(const float *x, size_t n, int cpu);
/* SLEEF's logf_u10 (FMA build), torch's vectorised float log. */
float sl_logits_logf_sleef(float d);
/* log_softmax in float32: (x - max) - SLEEF log(sum of SLEEF exp(x - max)). */
void sl_logits_log_softmax_f32(const float *x, size_t n, float *out, int cpu);
/* The two above at a forced SIMD level (SL_SIMD_SCALAR, or AUTO: the 8-lane
 * AVX2+FMA kernels where the CPU has them): the same bits at every level. */
void sl_logits_softmax_f32_at(const float *x, size_t n, float *out, int cpu, int simd);
void sl_logits_log_softmax_f32_at(const float *x, size_t n, float *out, int cpu, int simd);
/* out[i] = x[i] / t in float32 (torch's scores / temperature); out may be x. */
void sl_logits_div_f32(const float *x, float *out, size_t n, float t);
/* torch.sum (ignore_nan = 0) or torch.nansum (1) of a contiguous float32 row
 * on CPU with one thread: ATen's cascade sum, bit for bit. */
float sl_logits_sum_torch_f32(const float *x, size_t n, int ignore_nan);
/* torch.cumsum on CPU for float32: accumulated in double, each prefix rounded to float. */
void sl_logits_cumsum_f32(const float *x, size_t n, float *out);
/* Index sort of x (ascending or descending) into idx[0..n) as torch.sort/
 * argsort on CPU order it, ties included (libstdc++ std::sort over (value,
 * index) pairs). Returns SL_OK, or SL_ENOMEM with err filled: no other sort
 * gives torch's tie order, so there is no fallback. */
int sl_logits_argsort_f32(const float *x, size_t n, int descending, size_t *idx, sl_error *err);
/* The same with caller scratch for the n (value, index) pairs (NULL: allocated). */
int sl_logits_argsort_f32_with(const float *x, size_t n, int descending, size_t *idx, sl_base_f32i *pairs,
                               sl_error *err);
/* x[i] < thr -> -inf (TopKLogitsWarper's masked_fill); returns how many entries
 * are not -inf afterwards. */
size_t sl_logits_mask_below_f32(float *x, size_t n, float thr);
/* The result of a float32 pipeline: kept[i] = s[i] != -inf, probs[i] = p[i]
 * widened; returns the number kept; *nan = whether some p[i] is NaN. */
size_t sl_logits_export_f32(const float *s, const float *p, size_t n, double *probs, unsigned char *kept, int *nan);
/* 1 when no d[i] is NaN or +inf, no f[i] (f may be NULL) is +inf, and some d[i]
 * is above -inf: the row needs none of sl_logits_pipeline_run's messages. */
int sl_logits_row_clean(const double *d, const float *f, size_t n);
/* The (value, index) of every entry above -inf (or NaN), in index order, into
 * out[0..max); returns how many, or SIZE_MAX when more than max (or n >= 2^32). */
size_t sl_logits_gather_live_f32(const float *x, size_t n, sl_base_f32i *out, size_t max);
/* RepetitionPenaltyLogitsProcessor on raw logits x: out[id] = x < 0 ? x * pen :
 * x / pen for every id of ctx[0..n) (ids < the row's length), then / t when div
 * (the temperature warper that follows). Repeated ids write one value. */
void sl_logits_penalty_f32(const float *x, const long *ctx, size_t n, float pen, int div, float t, float *out);
/* (x[i], i) in ascending order of x into out[0..n), ties in no particular order
 * (a radix sort; n < 2^32; tmp: n pairs of scratch): for callers whose result
 * does not depend on the order of ties. */
void sl_logits_sort_any_f32(const float *x, size_t n, sl_base_f32i *out, sl_base_f32i *tmp);
/* The first i with x[i] NaN, or n. */
size_t sl_logits_first_nan_f64(const double *x, size_t n);
/* The k-th largest value (1-based k <= n) counting duplicates, as
 * torch.topk(x, k)[0][-1], into *kth; idx: n entries of scratch. */
int sl_logits_kth_largest_f32(const float *x, size_t n, size_t k, size_t *idx, float *kth, sl_error *err);

/* Formats x as Python's repr(float) does ("0.0", "0.7", "1e-05"), so error
 * messages read exactly like the framework's own. */
void sl_logits_pyrepr(double x, char *buf, size_t len);
/* Appends a step name to r->steps (static string). */
void sl_logits_step(sl_logits_result *r, const char *name);

/* ---- llama.cpp sampler primitives (logits/llamacpp.c), for the tests and the draw */

typedef struct sl_logits_llama_array {
    sl_logits_cand *data;
    size_t size;
    int sorted;
} sl_logits_llama_array;

/* The filters that sort (softmax with do_sort, top-k, typical, top-p, min-p)
 * need scratch memory beyond 128 candidates; they return SL_OK, or SL_ENOMEM
 * with err filled (then the array is unusable: a different sort would order
 * tied logits differently, so there is no fallback). */
int sl_logits_llama_softmax(sl_logits_llama_array *a, int do_sort, sl_error *err);
/* Its arithmetic without the sort over n logits at l into p (strides in bytes: a candidate
 * array's fields, or plain float arrays); sorted: l[0] is taken as the maximum, as there. */
void sl_logits_llama_softmax_f32(const float *l, size_t ls, float *p, size_t ps, size_t n, int sorted);
/* sl_logits_llama_softmax(a, 1) for a caller that reads only the top of the sorted array
 * (mirostat's cut): need(p, size, ctx) sees the probabilities in sorted order and returns
 * how many leading candidates it keeps; a then holds exactly those (clamped to 1 .. size),
 * id, logit and p as the full sort leaves them, libstdc++'s tie order included, but only
 * the 128-logit buckets that hold them are sorted (the sum over all takes the sorted
 * values from a radix sort: equal logits add equal terms, whatever their order). */
int sl_logits_llama_softmax_top(sl_logits_llama_array *a, size_t (*need)(const float *p, size_t n, void *ctx),
                                void *ctx, sl_error *err);
void sl_logits_llama_penalties(sl_logits_llama_array *a, const long *ctx, size_t ctx_n, long last_n,
                               float repeat, float freq, float present);
int sl_logits_llama_top_k(sl_logits_llama_array *a, long k, sl_error *err);
int sl_logits_llama_typical(sl_logits_llama_array *a, float p, size_t min_keep, sl_error *err);
int sl_logits_llama_top_p(sl_logits_llama_array *a, float p, size_t min_keep, sl_error *err);
int sl_logits_llama_min_p(sl_logits_llama_array *a, float p, size_t min_keep, sl_error *err);
void sl_logits_llama_temp(sl_logits_llama_array *a, float temp);
/* llama_sampler_dist_apply with a given uniform u in [0,1): normalises p in
 * place and returns the selected array index. n == 1 selects 0 (no draw). */
size_t sl_logits_llama_dist(sl_logits_llama_array *a, double u);
/* Runs the chain cfg names (cfg->order, or the default penalties → top-k →
 * typical → top-p → min-p → temp) with cfg's settings in force (unset:
 * common_params_sampling's defaults), its penalties fed cfg->context, over the V
 * logits into a fresh candidate array (caller frees a->data on success; on an
 * error a->data is not left allocated). */
int sl_logits_llama_chain(const float *lf, size_t V, const sl_logits_cfg *cfg,
                          sl_logits_llama_array *a, sl_logits_result *trace, sl_error *err);

/* ---- sampler stages (logits/stage_*.c), as llama.cpp's llama_sampler_i
 *
 * A stage is a const type: its llama.cpp names, its --sampling-seq letter, the
 * upstream function it reproduces, its parameters as data, and apply / accept /
 * reset / clone / free over a state of `size` bytes that init fills from the
 * settings. A chain (logits/chain.c) is an ordered list of stage instances. */

typedef enum sl_logits_param_kind { SL_LOGITS_PARAM_INT, SL_LOGITS_PARAM_FLOAT } sl_logits_param_kind;
typedef struct sl_logits_param {
    const char *name;          /* common_params_sampling's field (common/common.h): "top_k" */
    sl_logits_param_kind kind; /* int32_t or float there */
    double def;                /* its default there (0.7.0) */
    double lo, hi;             /* the values llama.cpp takes (-HUGE_VAL / HUGE_VAL: no bound) */
    const char *key;           /* samplab's settings key: "top_k" (its option text, and llama.cpp's own
                                * option in common/arg.cpp, are the api schema's entry of that key) */
    const char *help;          /* one line */
} sl_logits_param;

struct sl_logits_stage_type {
    const char *name;          /* common_sampler_type_to_str: "top_k" (what --samplers takes) */
    const char *label;         /* llama_sampler_name: "top-k" (what llama.cpp prints in its chain) */
    char letter;               /* common_sampler_type_to_chr: 'k' (what --sampling-seq takes) */
    const char *upstream;      /* the llama.cpp functions it reproduces */
    const sl_logits_param *params;
    size_t n_params;
    size_t size;               /* bytes of state */
    /* Fills the state from cfg, the settings in force (sl_logits_chain_new_llama resolves them);
     * SL_EINVAL for a value it refuses. */
    int (*init)(void *st, const sl_logits_cfg *cfg, sl_error *err);
    /* 1 when apply changes something with these settings and this history (llama.cpp's "?name" is 0) */
    int (*active)(const void *st);
    /* The name sl_logits_result.steps records for it (static). */
    const char *(*step)(const void *st);
    int (*apply)(void *st, sl_logits_llama_array *a, sl_error *err);
    /* A drawn (or prompt) token into the state; NULL: it keeps none. */
    int (*accept)(void *st, long token, sl_error *err);
    /* 1 when apply reads the accepted tokens with these settings; NULL: never. */
    int (*uses_history)(const void *st);
    void (*reset)(void *st);                                 /* NULL: nothing to forget */
    int (*clone)(void *dst, const void *src, sl_error *err); /* NULL: a byte copy is a clone */
    void (*free)(void *st);                                  /* NULL: it owns no memory */
    /* 1 when llama.cpp 0.7.0's common_sampler ends a chain whose last stage this is in greedy
     * instead of dist (the temperature at temp <= 0); NULL: never. */
    int (*ends_greedy)(const void *st);
    /* Words its own generator has spent since init or reset (XTC's mt19937); NULL: it draws none. */
    uint64_t (*words)(const void *st);
    /* A selecting stage (mirostat, mirostat v2, adaptive_p: llama.cpp's samplers that set
     * cur_p->selected, in place of dist): filters a and draws the array index into *idx with
     * the chain's generator, as its apply does; it is the chain's last. NULL: a filter. */
    int (*select)(void *st, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err); /* rng NULL: no draw */
};

/* The last N accepted tokens, oldest first: buf[start .. start + n) (logits/window.c). Zeroed: empty. */
typedef struct sl_logits_window {
    long *buf;
    size_t cap, start, n;
} sl_logits_window;
/* The token in as the newest; the oldest leaves when n reaches limit (limit 0: nothing is kept). */
int sl_logits_window_push(sl_logits_window *w, size_t limit, long token, sl_error *err);
int sl_logits_window_clone(sl_logits_window *dst, const sl_logits_window *src, sl_error *err);
void sl_logits_window_free(sl_logits_window *w);

extern const sl_logits_stage_type sl_logits_stage_penalties;   /* logits/stage_penalties.c */
extern const sl_logits_stage_type sl_logits_stage_top_k;       /* logits/stage_filters.c */
extern const sl_logits_stage_type sl_logits_stage_typical;
extern const sl_logits_stage_type sl_logits_stage_top_p;
extern const sl_logits_stage_type sl_logits_stage_min_p;
extern const sl_logits_stage_type sl_logits_stage_temperature; /* logits/stage_temperature.c */
extern const sl_logits_stage_type sl_logits_stage_xtc;         /* logits/stage_xtc.c */
extern const sl_logits_stage_type sl_logits_stage_top_n_sigma; /* logits/stage_top_n_sigma.c */
extern const sl_logits_stage_type sl_logits_stage_logit_bias;  /* logits/stage_logit_bias.c */
extern const sl_logits_stage_type sl_logits_stage_dry;         /* logits/stage_dry.c */
extern const sl_logits_stage_type sl_logits_stage_temp_plain;  /* llama_sampler_init_temp (mirostat's chain) */
extern const sl_logits_stage_type sl_logits_stage_mirostat;    /* logits/stage_mirostat.c */
extern const sl_logits_stage_type sl_logits_stage_mirostat_v2;
extern const sl_logits_stage_type sl_logits_stage_adaptive_p;  /* logits/stage_adaptive_p.c */

/* llama.cpp's default DRY sequence breakers (common_params_sampling: "\n", ":", "\"", "*"), NULL-terminated. */
extern const char *const sl_logits_dry_default_breakers[];
/* DRY's restart sequences of several tokens (llama_sampler_dry's dry_processed_breakers with a non-empty
 * tail): pair i is the head token head[i] and its tail tok[off[i] .. off[i + 1]) (at most 20 tokens,
 * MAX_SEQ_LEN), the tokens that must follow the head for the sequence to restart DRY's count. Sorted by
 * head, a head's tails in the order llama.cpp found them. */
typedef struct sl_logits_dry_tails {
    size_t n;
    const int32_t *head;
    const size_t *off;
    const int32_t *tok;
} sl_logits_dry_tails;
/* A token's breaker flags: a breaker alone (an empty tail), the head of pairs in the tails. */
enum { SL_LOGITS_DRY_SINGLE = 1, SL_LOGITS_DRY_HEAD = 2 };

/* llama.cpp's tokenizer (logits/llama_tokenize.c) over a GGUF vocabulary's tokenizer section: model, pre,
 * add_space_prefix (-1: absent), the n token texts, types and scores (NULL: 0 each) and the merges (BPE).
 * The arrays are borrowed: they must outlive the tokenizer. A model or pre-tokenizer it does not model
 * is SL_EINVAL saying so. */
typedef struct sl_logits_llama_tok sl_logits_llama_tok;
int sl_logits_llama_tok_new(const char *model, const char *pre, int add_space_prefix, size_t n,
                            const char *const *text, const size_t *len, const int *type, const float *score,
                            size_t n_merge, const char *const *merge, const size_t *merge_len,
                            sl_logits_llama_tok **out, sl_error *err);
/* llama_tokenize(text, add_special 0, parse_special 0) of llama.cpp v0.4.0 into out[0..cap), *n_out
 * tokens. Text it does not model (see the file) is SL_EINVAL naming it. */
int sl_logits_llama_tokenize(const sl_logits_llama_tok *tk, const char *text, size_t len, int32_t *out, size_t cap,
                             size_t *n_out, sl_error *err);
void sl_logits_llama_tok_free(sl_logits_llama_tok *tk);

/* get_overlapping_token_sequences of llama.cpp (0.7.0, as v0.4.0's source reads) for breakers[0..nb) over
 * the n token pieces (piece[t] of plen[t] bytes, as llama_vocab::detokenize({t}, true) gives them:
 * sl_logits_llama_piece), into one malloc'd block *block: n flag bytes (SL_LOGITS_DRY_SINGLE when the
 * piece contains a breaker, SL_LOGITS_DRY_HEAD when it ends in a proper prefix of one), then the tails,
 * *tails pointing into the block (NULL when no pair); free(*block) frees both. A head's tail is the
 * breaker's rest through tk (duplicates of a head dropped, cut at 20 tokens, an empty one a breaker
 * alone). An empty breaker is skipped and one past 40 bytes is cut there, as llama_sampler_init_dry does.
 * tk NULL (a token list: no tokenizer) makes a needed tail SL_EINVAL naming the breaker and the token. */
int sl_logits_dry_restarts(const char *const *piece, const size_t *plen, size_t n, const char *const *breakers,
                           size_t nb, const sl_logits_llama_tok *tk, unsigned char **block,
                           const sl_logits_dry_tails **tails, sl_error *err);
/* The same with no tokenizer, the flags alone into flag[0..n) (1: a breaker alone). */
int sl_logits_dry_breakers(const char *const *piece, const size_t *plen, size_t n, const char *const *breakers,
                           size_t nb, unsigned char *flag, sl_error *err);
/* llama_vocab::detokenize({t}, true) of 0.7.0 for one token: token_to_piece with special = 1 of text (tlen
 * bytes) of GGUF type `type` in a vocabulary of tokenizer model `model` ("llama" = SPM, "gpt2" = BPE) and
 * pre-tokenizer `pre` (it decides clean_spaces); add_space_prefix (-1: the file has no such key, then 1 for
 * SPM) drops one leading space. Writes at most cap bytes to out and returns the piece's length, or SIZE_MAX
 * for a token or model whose piece is not modelled (cap >= 2 * tlen + 8 holds every piece). */
size_t sl_logits_llama_piece(const char *model, const char *pre, int add_space_prefix, const char *text,
                             size_t tlen, int type, char *out, size_t cap);
/* common_sampler_init's default order (common/common.h's samplers list: penalties, dry, top_n_sigma,
 * top_k, typ_p, top_p, min_p, xtc, temperature), NULL-terminated. */
extern const sl_logits_stage_type *const sl_logits_llama_default_order[];

/* llama.cpp's --samplers (letters 0: names separated by ';', as
 * common_sampler_types_from_names of 0.7.0 reads them: ASCII case ignored, its
 * alternative spellings) or --sampling-seq (letters 1: common_sampler_types_
 * from_chars) into cfg->order. What llama.cpp would drop with a warning (an
 * unknown or empty name, an unknown letter) and the stages samplab does not
 * model are refused (SL_EINVAL, err names it and says which; the caller names the
 * option that gave the text). */
int sl_logits_llama_order_parse(const char *text, int letters, sl_logits_cfg *cfg, sl_error *err);

/* The order in force for cfg as --samplers would name it ("penalties;top_k;..."; the default
 * order when cfg->has_order is 0; adaptive_p last; "temperature;mirostat" or
 * "temperature;mirostat_v2" under --mirostat 1|2) into buf[0..len); returns buf. */
const char *sl_logits_llama_order_text(const sl_logits_cfg *cfg, char *buf, size_t len);
#define SL_LOGITS_ORDER_TEXT (SL_LOGITS_ORDER_MAX * 12 + 1) /* room for the longest such text */

/* A chain: stage instances in order. */
typedef struct sl_logits_chain sl_logits_chain;
/* llama.cpp's chain for cfg (cfg->order or the default), each stage initialised
 * from cfg; the history is empty (accept cfg->context yourself). */
int sl_logits_chain_new_llama(const sl_logits_cfg *cfg, sl_logits_chain **out, sl_error *err);
/* The candidates {id i, logit lf[i], 0} through every active stage in order
 * (trace: the steps recorded, may be NULL). a->data is fresh (caller frees it);
 * on an error it is not left allocated. */
int sl_logits_chain_run(sl_logits_chain *c, const float *lf, size_t V, sl_logits_llama_array *a,
                        sl_logits_result *trace, sl_error *err);
/* llama_sampler_accept on the chain: the token into every stage that keeps a history. */
int sl_logits_chain_accept(sl_logits_chain *c, long token, sl_error *err);
void sl_logits_chain_reset(sl_logits_chain *c);
int sl_logits_chain_clone(const sl_logits_chain *c, sl_logits_chain **out, sl_error *err);
void sl_logits_chain_free(sl_logits_chain *c);
size_t sl_logits_chain_n(const sl_logits_chain *c);
const sl_logits_stage_type *sl_logits_chain_stage(const sl_logits_chain *c, size_t i);
/* 1 when the last stage's ends_greedy says so (common_sampler 0.7.0 then ends the chain in greedy). */
int sl_logits_chain_ends_greedy(const sl_logits_chain *c);
/* 1 when the chain ends in a selecting stage (mirostat, adaptive_p): sl_logits_chain_select draws. */
int sl_logits_chain_selects(const sl_logits_chain *c);
/* That stage's draw over the candidates sl_logits_chain_run left (its own filtering, its
 * words from rng, its state updated as llama.cpp's apply updates it): the array index.
 * rng NULL: its filtering only, a's p the distribution it would draw from (no word, *idx 0;
 * run it on a clone: the state may be touched). */
int sl_logits_chain_select(sl_logits_chain *c, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err);
/* 1 when some stage's apply reads the history with these settings (a new token changes the result). */
int sl_logits_chain_stateful(const sl_logits_chain *c);
/* Words the chain's own stages have drawn so far (XTC's generator; the dist draw is not in the chain). */
uint64_t sl_logits_chain_words(const sl_logits_chain *c);
/* 1 when an active stage draws (every run then spends words: a step never reuses the last run). */
int sl_logits_chain_random(const sl_logits_chain *c);

#endif
