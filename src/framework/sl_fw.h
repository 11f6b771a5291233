/* sl_fw.h — the framework layer: bit-exact emulations of real libraries, each
 * a fixed choice of pipeline, draw method, generator and seeding. Uses the
 * logits, draw, rng and base layers. Exported names start with sl_fw_. */
#ifndef SL_FW_H
#define SL_FW_H

#include <stddef.h>
#include <stdint.h>

#include "logits/sl_logits.h"

/* ---------------------------------------------------------------- framework emulations */

typedef struct sl_fw_opts {
    const sl_vec *probs;      /* exactly one of probs / logits */
    const sl_vec *logits;
    sl_seed seed;
    int has_seed;             /* 0: the framework's default seed */
    size_t n;                 /* calls */
    size_t k;                 /* samples per call (num-samples) */
    int replacement;          /* SL_FW_REPLACEMENT_*: --replacement, --no-replacement, or the library's default */
    int shuffle_set, shuffle; /* NumPy Generator.choice's shuffle= (--shuffle true|false); default True */
    int dtype_set; sl_dtype dtype;
    const char *variant;      /* e.g. torch "2"; NULL = default */
    const char *variant_opt;  /* the option that gave it, as messages name it (the caller's words), or NULL */
    int torch_mkl;            /* torch: the build's exponential_ is MKL's (pip wheels 2.1-2.6) */
    int simd_sum;
    int has_position; uint64_t position; /* sglang: the first step's position (--position) */
    int sglang_sorted;        /* sglang: a batchmate filters, so the batch takes the sort path */
    int jax_unpartitioned;    /* jax: 1 is jax_threefry_partitionable=False (JAX < 0.5); 0, a zeroed
                               * struct too, is JAX 0.5 and later's default True */
    sl_logits_cfg cfg;        /* the pipeline settings (temperature, filters, penalties, context) */
} sl_fw_opts;

/* sl_fw_opts.replacement: 0 leaves it to the library (sl_fw_type.replacement_default). */
enum { SL_FW_REPLACEMENT_DEFAULT = 0, SL_FW_REPLACEMENT_YES = 1, SL_FW_REPLACEMENT_NO = -1 };

/* What a framework run produced: n calls of k tokens each, row-major. */
typedef struct sl_fw_result {
    size_t n, k;
    long *tokens;             /* n*k entries, malloc'd */
    const char *rng_name;     /* as reported in --json */
    const char *version;      /* the upstream release the run followed */
    const char *cpu;          /* torch's CPU kernel modelled ("avx2", "avx512"), NULL if none */
    unsigned word_bits;
    uint64_t words;           /* words consumed by all calls */
} sl_fw_result;

/* ---------------------------------------------------------------- sampler sessions (framework/session.c)
 *
 * A session is what a framework is at run time: opened from a framework type,
 * settings and a seed; each step turns one vector (probabilities or logits) into
 * the token(s) of one call and reports the words it spent; accept takes a token
 * into the history the sampler keeps (llama.cpp's penalty ring buffer,
 * transformers' growing input_ids, candle's context). One draw, N draws from one
 * vector and a whole generation are the same loop. */

typedef struct sl_fw_type sl_fw_type;
typedef struct sl_fw_batch sl_fw_batch;

/* A release line a framework emulates, chosen by its variant option (--torch). */
typedef struct sl_fw_variant {
    const char *name;         /* as the option takes it: "2", "1.13" */
    const char *version;      /* the upstream release it follows and was checked against */
    int code;                 /* the framework's own number for it (SL_TORCH_2 ...) */
} sl_fw_variant;

typedef struct sl_fw_session {
    uint32_t magic;           /* SL_FW_SESSION_MAGIC while open; close clears it, so a step on a closed
                               * (or never opened) session is SL_EINVAL, not a use after free */
    const sl_fw_type *type;
    const sl_fw_variant *variant; /* the release line (the type's default unless chosen); NULL if none */
    sl_fw_opts o;             /* the settings; o.cfg.context points at hist */
    sl_rng rng;               /* the framework's generator, seeded as it seeds it */
    long *hist;               /* the history: context, then every accepted token, oldest first */
    size_t hist_n, hist_cap;
    long *tokens;             /* the last step's tokens (k entries) */
    size_t k;
    void *state;              /* the framework's own: prepared tables, scratch */
    /* the vector and history length the state was prepared for: a step on the
     * same vector with the same history reuses it (N draws from one vector) */
    const sl_vec *prepared_vec;
    size_t prepared_hist;
    const char *version;      /* set by open when the settings name another build; NULL: the variant's */
    int logits_input;         /* steps read logits (else probabilities): the type's only kind, or,
                               * for a type that takes both, whether the settings give o->logits */
} sl_fw_session;

#define SL_FW_SESSION_MAGIC 0x736c6677u /* "slfw" */

/* What one step gave. */
typedef struct sl_fw_step {
    const long *tokens;       /* k tokens (the session's; valid until the next step) */
    size_t k;
    uint64_t words;           /* words this step consumed */
    size_t kept;              /* tokens the pipeline kept (V when there is no pipeline) */
} sl_fw_step;

/* A framework type is data: it names its pipeline, its draw method, its generator
 * (whose seed function is the framework's seeding) and the upstream version it
 * follows; step composes them. */
struct sl_fw_type {
    const char *name;
    const char *summary;      /* one line for --help */
    const char *version;      /* the upstream release it follows (without variants) */
    unsigned variant_bit;     /* the SL_OPT_* bit of the option that picks a release line (torch's SL_OPT_VARIANT) */
    const sl_fw_variant *variants; /* the lines it emulates, the default first, ended by {NULL} */
    /* beside variants, the type that emulates each line where that line is another program
     * (Ollama v0.32: llama-server's chain, not its Go sampler); NULL, or NULL entries: its own */
    const sl_fw_type *const *variant_runs;
    unsigned accepts;         /* SL_OPT_* bits */
    /* With SL_OPT_REPLACEMENT in accepts: 1 when the library draws with replacement
     * unless told otherwise (NumPy's replace=True), 0 when without (torch.multinomial's
     * replacement=False). Without it: why the library has no such choice (one line). */
    int replacement_default;
    const char *replacement_why;
    const char *input_why;    /* why it takes the kind of vector it takes (SL_OPT_PROBS / SL_OPT_LOGITS in accepts) */
    const sl_logits_pipeline_type *pipeline; /* NULL when there is none */
    const sl_draw_type *draw;               /* the final draw */
    const char *rng;          /* the generator and its seeding, by sl_rng_lookup name */
    const char *rng_label;    /* the generator's name in --json (NULL: the rng's) */
    uint64_t default_seed;    /* used when the settings give none */
    int seed_number;          /* 1: its seed is any JavaScript Number (tf.multinomial's), -1 and 1.5
                               * included (sl_base_seed_parse_js) */
    int accepts_drawn;        /* 1: the sampler accepts what it draws (llama_sampler_sample) */
    int per_request;          /* 1: each request of a batch owns its generator (its seed): rows draw independently */
    int no_global_seed;       /* 1: a request without a seed gets default_seed, not a global generator's draws
                               * (SGLang's sampling_seed 42), so --seed with a --seeds list is refused */
    /* Optional: 1 when settings o make a row's draw depend on its batchmates though it owns
     * its generator (SGLang's sort path, taken when any batchmate filters). */
    int (*batch_coupled)(const sl_fw_opts *o);
    /* Optional: check the settings and make the framework's state. */
    int (*open)(sl_fw_session *s, sl_error *err);
    /* One call on v: fill s->tokens[0..s->k) (s->k set by open, default 1) and *kept. */
    int (*step)(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err);
    void (*close)(sl_fw_session *s);
    /* Optional: a token the session accepted (already in s->hist) into the framework's own state,
     * as llama_sampler_accept feeds llama.cpp's stages. */
    int (*accept)(sl_fw_session *s, long token, sl_error *err);
    /* The distribution the next step on v draws from, given the history: probs
     * (0 where removed), kept, n_kept and the filters that ran. */
    int (*probs)(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err);
    /* Optional: a one-line note the CLI prints on stderr for these settings, or NULL. */
    const char *(*note)(const sl_fw_opts *o);
    /* Optional: the exact audit of this framework's draw (its draw type's, or
     * its own beside it, as gsl's); NULL when there is none. */
    const sl_stat_exact_type *exact;
    /* Optional: the audit for these settings when it depends on them (torch's
     * replacement path is another sampler than its race); NULL: exact. */
    const sl_stat_exact_type *(*exact_for)(const sl_fw_opts *o);
    /* Optional: the generators (--rng names, NULL-terminated) its exact audit
     * models, and what they share ("models a generator whose ..."); NULL: the
     * audit fixes the framework's own source. */
    const char *const *exact_rngs;
    const char *exact_rngs_why;
    /* Optional: how a batch of rows draws (framework/batch.c), with the upstream function,
     * as --help, the docs and --json's "path" say it; NULL: batches are refused (one row at
     * a time). batch_gen: a generation of a batch (replay and check of [T, B, V]) is
     * modelled too; batch_rect: the rows are one input_ids tensor (transformers), every
     * row's prompt as long as the others, left padding included. */
    const char *batch;
    int batch_gen;
    int batch_rect;
    /* Optional, for an engine that serves a batch of requests (SL_OPT_ROW_SEEDS in accepts):
     * one step of every row, in the engine's order, each from its own generator or the
     * batch's global one (sl_fw_batch_step_row); NULL: each row from the generator it
     * draws from (its own when it has one). batch_unseeded, when set, is why a request
     * without a seed is refused (its engine gives it a seed samplab cannot know). */
    int (*batch_step)(sl_fw_batch *b, const sl_vec *rows, sl_error *err);
    const char *batch_unseeded;
    /* Optional: settings its library has that samplab does not model for it, as pairs of the
     * option and the library's name for it ("--frequency-penalty", "TGI's frequency_penalty"),
     * ended by NULL: refused with that name rather than as no option of the framework. */
    const char *const *unmodelled;
    /* Optional: release lines that cannot be reproduced, as pairs of the line ("3", which also
     * names "3.x" and "3.8.1") and why, ended by NULL: refused with that reason (transformers.js
     * before 4.0 drew with Math.random()). */
    const char *const *unreproducible;
    /* Optional: why an option outside accepts is none of the library's (one line: "tf.multinomial(...)
     * has no such setting"); NULL: refused as no option of the framework. */
    const char *absent_why;
};

/* 1 when a call of these settings draws with replacement: o's choice, or t's default. */
int sl_fw_replacement(const sl_fw_type *t, const sl_fw_opts *o);

/* The variant `name` names (NULL: the default) or an error naming the choices, and
 * the option that gave it (opt: "--torch"; NULL: "the release line"). */
int sl_fw_variant_find(const sl_fw_type *t, const char *name, const char *opt, const sl_fw_variant **out,
                       sl_error *err);
/* The release a session follows: its variant's version, or the type's. */
const char *sl_fw_session_version(const sl_fw_session *s);
/* Opens a session; the settings are copied (the context too). Refused: t NULL
 * (sl_fw_lookup of an unknown name), o->probs for a type that takes only logits,
 * o->logits for one that takes only probabilities (as sl_fw_run refuses them). */
int sl_fw_session_open(sl_fw_session *s, const sl_fw_type *t, const sl_fw_opts *o, sl_error *err);
int sl_fw_session_step(sl_fw_session *s, const sl_vec *v, sl_fw_step *out, sl_error *err);
/* The distribution the next step on v draws from (the type's probs hook): what
 * `samplab check` judges an observed token against. Free with sl_logits_result_free. */
int sl_fw_session_probs(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err);
/* The probs hook of frameworks that sample weights as given: w / sum(w) in double
 * over the float64 weights, every id with w > 0 kept. */
int sl_fw_probs_of_weights(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err);
/* The probs hook of the frameworks with a pipeline: the pipeline's result over the history. */
int sl_fw_probs_of_pipeline(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err);
/* Forgets what was prepared for the last vector: call it when a vector's contents
 * change in place between steps (a reused row buffer). */
void sl_fw_session_forget(sl_fw_session *s);
/* Appends a token (>= 0) to the history. Every call on a session refuses one that is
 * NULL, closed or was never opened (SL_EINVAL); close and forget do nothing on it. */
int sl_fw_session_accept(sl_fw_session *s, long token, sl_error *err);
void sl_fw_session_close(sl_fw_session *s);

/* Opens a session whose history is o's context: opened without one, then each
 * id accepted (the prompt is history to every framework, whether or not a
 * penalty reads it; llama.cpp accepts the prompt before its first sample). */
int sl_fw_session_open_prompt(sl_fw_session *s, const sl_fw_type *t, const sl_fw_opts *o, sl_error *err);

/* Fills `row` (allocated for V entries) with step t of a generation; 0 or an SL_ code. */
typedef int (*sl_fw_row_fn)(const void *user, size_t t, sl_vec *row);

/* A whole generation (`samplab replay`): one session opened with the prompt
 * (sl_fw_session_open_prompt) across T steps whose rows `row` gives, every drawn
 * token accepted, so penalties see prompt + generated so far; one generator
 * stream, cost linear in T. Writes tokens, cumulative words and kept counts
 * (T entries each) and the generator's name as --json prints it. With
 * o->dtype_set each row is read in o->dtype. */
int sl_fw_replay(const sl_fw_type *t, const sl_fw_opts *o, size_t T, size_t V, const char *source, sl_fw_row_fn row,
                 const void *user, long *tokens, uint64_t *words, size_t *kept, const char **rng_name, sl_error *err);

/* ---------------------------------------------------------------- batches (framework/batch.c)
 *
 * B rows stepped together, as a batch of prompts or of requests is: each row a
 * session of its own (its settings, its history); a row draws from the batch's
 * global generator (transformers' and torch's torch.multinomial over [B, V]: the
 * default generator, seeded once; a serving engine's global generator) unless it
 * has one of its own (a request's seed; every row of a type whose requests own
 * their generators, per_request). The order of a step's draws is the type's
 * (batch_step), else row order. */
typedef struct sl_fw_batch_row {
    const long *context;      /* the row's prompt (its history to start from) */
    size_t context_n;
    const sl_seed *seed;      /* the row's own generator's seed, or NULL: the batch's generator */
} sl_fw_batch_row;

struct sl_fw_batch {
    const sl_fw_type *type;
    size_t B;
    sl_fw_session *row;       /* B sessions; row b's generator is drawn from only when own[b] */
    unsigned char *own;       /* own[b]: row b draws from its session's generator */
    int coupled;              /* the rows depend on each other whatever their generators (t->batch_coupled) */
    sl_rng global;            /* the batch's generator, seeded as the framework seeds o->seed */
    sl_fw_step *step;         /* B: each row's draw at the last step (its tokens valid until its next) */
    uint64_t *words;          /* B: the running words of the generator row b drew from, after its draw */
};

/* Opens B sessions of t with settings o (o->cfg.context is ignored: each row's
 * prompt is rows[b]'s) and the batch's generator. Refused: a type without a batch
 * mode (t->batch NULL), B = 0, a row's seed where the type keeps one generator for
 * the batch (no SL_OPT_ROW_SEEDS), a row without one where t->batch_unseeded says why. */
int sl_fw_batch_open(sl_fw_batch *b, const sl_fw_type *t, const sl_fw_opts *o, size_t B, const sl_fw_batch_row *rows,
                     sl_error *err);
/* One step of every row on rows[0..B): the type's batch_step, or each row in order
 * from the generator it draws from; b->step and b->words. The tokens join no history
 * (sl_fw_session_accept on b->row[r]: the caller's choice, as a session's is). */
int sl_fw_batch_step(sl_fw_batch *b, const sl_vec *rows, sl_error *err);
/* Row r's step on v from generator g (its own, or &b->global): b->step[r] and g's
 * running words. For the batch_step hooks. */
int sl_fw_batch_step_row(sl_fw_batch *b, size_t r, const sl_vec *v, sl_rng *g, sl_error *err);
/* The generator's name as --json prints it. */
const char *sl_fw_batch_rng_name(const sl_fw_batch *b);
/* Every generator's words: the global one's and the rows' own. */
uint64_t sl_fw_batch_words_all(const sl_fw_batch *b);
void sl_fw_batch_close(sl_fw_batch *b);

/* transformers' end of sequence in a batch (generation/utils.py _sample, 5.12.1):
 * once a row has emitted eos its later tokens are pad, though the batch still
 * draws for it (its words are spent) and its history grows by pad; generate()
 * stops after the step at which every row has finished. eos < 0: none. */
typedef struct sl_fw_eos {
    long eos, pad;
} sl_fw_eos;

/* Fills `row` (allocated for V entries) with row b of step t. */
typedef int (*sl_fw_batch_row_fn)(const void *user, size_t t, size_t b, sl_vec *row);

/* What a batched generation does with row r's draw at step t (sl_fw_batch_generate):
 * tok is the token generate() keeps (pad once the row has finished); *accept (tok
 * on entry) is what joins the row's history, which the visit may set (check: the
 * observed token). Returns 0 to go on, 1 to stop, or -SL_code. */
typedef int (*sl_fw_batch_visit_fn)(void *ctx, sl_fw_batch *b, size_t t, size_t r, const sl_vec *v,
                                    const sl_fw_step *st, long tok, long *accept, sl_error *err);
/* The loop of a batched generation: the batch opened over rows[0..B), then per step
 * each row read, drawn in order and visited, its accepted token (pad once finished)
 * joining its history; a row finishes once the token it accepted is eos->eos, and
 * steps after every row has finished are refused (generate() stops there). */
int sl_fw_batch_generate(const sl_fw_type *t, const sl_fw_opts *o, size_t T, size_t B, size_t V, const char *source,
                         const sl_fw_batch_row *rows, const sl_fw_eos *eos, sl_fw_batch_row_fn row, const void *user,
                         sl_fw_batch_visit_fn visit, void *ctx, const char **rng_name, sl_error *err);
/* A batched generation (`samplab replay` of [T, B, V] rows): the batch opened
 * over rows[0..B), then per step each row drawn in order and its token (pad once
 * finished) accepted into its history. tokens, words and kept hold B·T entries,
 * row b's at b·T + t; words[b·T + t] is the running total of row b's generator
 * after its draw at step t. Refused: rows left after every row has finished. */
int sl_fw_replay_batch(const sl_fw_type *t, const sl_fw_opts *o, size_t T, size_t B, size_t V, const char *source,
                       const sl_fw_batch_row *rows, const sl_fw_eos *eos, sl_fw_batch_row_fn row, const void *user,
                       long *tokens, uint64_t *words, size_t *kept, const char **rng_name, sl_error *err);

/* `samplab draw --framework F --n N`: N steps of one session on o->probs or
 * o->logits, each drawn token accepted when the sampler does so itself. */
int sl_fw_run(const sl_fw_type *t, const sl_fw_opts *o, sl_fw_result *out, sl_error *err);
/* The same, for long runs: prog (may be NULL) is ticked every 256 steps, SL_EINTR
 * when it says stop; *done (may be NULL) counts the steps that ran. With each,
 * step i's k tokens go to each(ctx, tokens, k) as drawn and out->tokens stays
 * NULL: O(1) memory whatever n. */
typedef void (*sl_fw_each_fn)(void *ctx, const long *tokens, size_t k);
int sl_fw_run_each(const sl_fw_type *t, const sl_fw_opts *o, const sl_progress *prog, sl_fw_each_fn each,
                   void *ctx, sl_fw_result *out, size_t *done, sl_error *err);

/* The frameworks that run without naming a release line (`replay --framework
 * all`, the report), NULL-terminated; sl_fw_types_all adds those that run only
 * when named with theirs (ollama --ollama 0.24), for --help and sl_fw_lookup. */
extern const sl_fw_type *const sl_fw_types[];
extern const sl_fw_type *const sl_fw_types_all[];
/* Every exact audit, beside its sampler (draw and framework types), by name
 * (`samplab exact --method`): NULL-terminated, in the order the CLI lists them. */
extern const sl_stat_exact_type *const sl_fw_exact_types[];
const sl_stat_exact_type *sl_fw_exact_lookup(const char *name);
/* gsl_ran_discrete's audit (framework/gsl.c), the "gsl" framework's exact. */
extern const sl_stat_exact_type sl_fw_gsl_exact;
const sl_fw_type *sl_fw_lookup(const char *name);
/* The type that runs framework `name` at release line `variant` (NULL: its default): the
 * variant's own type where it names one (ollama 0.32), else sl_fw_lookup's. */
const sl_fw_type *sl_fw_lookup_as(const char *name, const char *variant);
void sl_fw_result_free(sl_fw_result *r);

/* llama.cpp (framework/llamacpp.c): the chain of logits/llamacpp.c, then
 * llama_sampler_dist_apply with std::mt19937 and libstdc++'s uniform double. */
extern const sl_fw_type sl_fw_llamacpp_type;
/* Ollama v0.32.10+ : llama-server's chain over llama.cpp v0.4.0 (framework/llamacpp.c) */
extern const sl_fw_type sl_fw_ollama_server_type;
/* Ollama v0.30.0 to v0.32.9: llama-server's chain over llama.cpp b9452 to b10353 (framework/llamacpp.c) */
extern const sl_fw_type sl_fw_ollama_server030_type;
/* What --framework ollama says without --ollama (every command that refuses it) */
#define SL_FW_OLLAMA_NEEDS_LINE                                                                              \
    "framework ollama needs its release line: --ollama 0.32 (v0.32.10 to v0.33, llama-server's chain), "       \
    "--ollama 0.30 (v0.30.0 to v0.32.9, llama-server's chain at llama.cpp b9452 to b10353) or --ollama 0.24 " \
    "(its own Go sampler, v0.6.3 to v0.25)"
#define SL_FW_OLLAMA_SERVER030_VERSION                                                                       \
    "Ollama v0.30.0 to v0.32.9 (llama.cpp b9452 to b10353): llama-server's default chain, no uniform for a "  \
    "lone candidate, built with GCC <= 14"
#define SL_FW_OLLAMA_SERVER_VERSION                                                                          \
    "Ollama v0.32.10 to v0.33.0-rc2 (llama.cpp b10380 to b10488): llama-server's default chain, the "         \
    "llama.cpp v0.4.0 line, built with GCC <= 14"
/* node-llama-cpp 3.21.1 over llama.cpp v0.4.0's stages (framework/llamacpp.c) */
extern const sl_fw_type sl_fw_nlc_type;
/* transformers (framework/hf.c): the hf pipeline, then the torch framework's
 * torch.multinomial(probs, 1). */
extern const sl_fw_type sl_fw_hf_type;
/* vLLM (framework/vllm.c): the vllm pipeline, then random_sample's
 * argmax(probs / q) from the request's seeded torch.Generator. */
extern const sl_fw_type sl_fw_vllm_type;
/* TGI 3.3 (framework/tgi.c): the tgi pipeline, then Sampling's argmax(probs / q) from the
 * request's seeded torch.Generator. */
extern const sl_fw_type sl_fw_tgi_type;
/* ---------------------------------------------------------------- torch (framework/torch.c) */

extern const sl_fw_type sl_fw_torch_type;
/* A torch.multinomial draw prepared for one vector: the draw type with its param. */
typedef struct sl_fw_torch_table {
    sl_draw_torch_param param;
    sl_dtype dtype;           /* the dtype the table was prepared in */
    sl_draw_type draw;        /* sl_draw_torch_type with .param = &param */
    void *table;
} sl_fw_torch_table;
int sl_fw_torch_table_prepare(sl_fw_torch_table *t, const sl_draw_dist *p, sl_error *err);
void sl_fw_torch_table_free(sl_fw_torch_table *t);

/* The hooks of the frameworks that end in torch.multinomial(probs, 1) after their
 * pipeline (hf, vllm: framework/after_pipeline.c). */
int sl_fw_after_pipeline_open(sl_fw_session *s, sl_error *err);
int sl_fw_after_pipeline_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err);
void sl_fw_after_pipeline_close(sl_fw_session *s);

/* ---------------------------------------------------------------- NumPy (rng/seedseq.c, rng/pcg64.c,
 * rng/numpy_mt19937.c, framework/numpy.c) and GSL (framework/gsl.c) */

extern const sl_fw_type sl_fw_numpy_type;        /* "numpy" */
extern const sl_fw_type sl_fw_numpy_legacy_type; /* "numpy-legacy" */
extern const sl_fw_type sl_fw_gsl_type;          /* "gsl" */

/* ---------------------------------------------------------------- framework types */

/* "transformers-js": transformers.js 4.3's generate({do_sample: true}) step (framework/transformers_js.c). */
extern const sl_fw_type sl_fw_tjs_type;
/* TensorFlow.js 4.22's tf.multinomial on the CPU backend (framework/tfjs.c). */
extern const sl_fw_type sl_fw_tfjs_type;

/* "jax", "mlx": jax.random.categorical and mlx.core.random.categorical, Gumbel-max over
 * Threefry-2x32 bits (framework/jax.c, framework/mlx.c). */
extern const sl_fw_type sl_fw_jax_type;
extern const sl_fw_type sl_fw_mlx_type;

/* "sglang": SGLang's deterministic sampling for one request (framework/sglang.c). */
extern const sl_fw_type sl_fw_sglang_type;

/* "ollama" --ollama 0.24: Ollama's Go sampler (framework/ollama.c), and its audit beside it. */
extern const sl_fw_type sl_fw_ollama_type;
extern const sl_stat_exact_type sl_fw_ollama_exact;

/* "candle": candle 0.11 LogitsProcessor / rand WeightedIndex<f32> with StdRng. */
extern const sl_fw_type sl_fw_candle_type;
/* "rand": Rust rand's WeightedIndex<f64> (or <f32>) with StdRng over the weights as given (framework/candle.c). */
extern const sl_fw_type sl_fw_rand_type;

/* ---------------------------------------------------------------- shared by the logits frameworks (framework/after_pipeline.c) */


/* ---------------------------------------------------------------- torch's MKL exponential_ (framework/torch_mkl.c) */

/* at::parallel_for's grain in exponential_kernel */
#define SL_FW_TORCH_MKL_GRAIN 800

/* The seed the kernel draws, under the generator's lock, before anything else:
 * float, half, bfloat16: random() (1 word). double: random64() = (w1 << 32) | w2,
 * of which vslNewStream keeps the low 32 bits, w2 (2 words). */
uint32_t sl_fw_torch_mkl_seed_f32(sl_rng *gen);
uint32_t sl_fw_torch_mkl_seed_f64(sl_rng *gen);

/* at::parallel_for(0, n, 800, f) under OpenMP with `threads` threads: the number of
 * chunks, each of *chunk_size elements but the last. threads <= 1, or n <= 800, give
 * one chunk of n. n = 0 gives 0 chunks. */
size_t sl_fw_torch_mkl_chunks(size_t n, unsigned threads, size_t *chunk_size);

/* One value of v?RngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF, displacement a,
 * scale beta) from the raw state x: fma(beta, -ln(u), a), u the MKL uniform of x.
 * The logarithm is glibc's (log, or float(log(double))): MKL's own (vsLn LA,
 * vdLn EP) differs in the last bits, so values are close but not always equal. */
float sl_fw_torch_mkl_expo_f32(uint32_t x, float a, float beta);
double sl_fw_torch_mkl_expo_f64(uint32_t x, double a, double beta);

/* The kernel's fill from a given MKL seed: chunk by chunk, each a new stream from
 * the seed skipped ahead to its begin, displacement FLT_MIN / DBL_MIN, scale
 * 1/lambda (float: (float)(1.0 / lambda)). lambda must be finite and > 0. */
void sl_fw_torch_mkl_fill_f32(uint32_t seed, float *out, size_t n, double lambda, unsigned threads);
void sl_fw_torch_mkl_fill_f64(uint32_t seed, double *out, size_t n, double lambda, unsigned threads);

/* tensor.exponential_(lambda) on a contiguous float32 / float64 tensor of n
 * elements: the seed draw, then the fill. An empty tensor draws nothing (torch
 * returns before the kernel). lambda <= 0 or NaN is refused (torch raises), and so is
 * an infinite lambda (torch then takes the MT19937 path). */
int sl_fw_torch_mkl_exponential_f32(sl_rng *gen, float *out, size_t n, double lambda,
                                    unsigned threads, sl_error *err);
int sl_fw_torch_mkl_exponential_f64(sl_rng *gen, double *out, size_t n, double lambda,
                                    unsigned threads, sl_error *err);

/* torch.multinomial(p, 1) on a 1-D float32 p of V entries (the exponential race of
 * multinomial_out): q = exponential_(1), r = p / q in float32, the first index of
 * the largest r. 1 word of gen per call. p is not validated here. */
int sl_fw_torch_mkl_multinomial1_f32(sl_rng *gen, const float *p, size_t V, unsigned threads,
                                     size_t *token, sl_error *err);

#endif
