/* sl_api.h — the api layer: what each samplab command computes, as calls a
 * program makes from its own tests, and the --json object each prints. Uses
 * the framework and io layers (and those below them); never prints or exits.
 * The CLI calls these and prints what they return, so the JSON a program gets
 * from a call is the JSON the command prints. Exported names start with sl_api_. */
#ifndef SL_API_H
#define SL_API_H

#include <stddef.h>
#include <stdint.h>

#include "framework/sl_fw.h"
#include "io/sl_io.h"

/* ---------------------------------------------------------------- generations (api/generation.c) */

/* Opens a session whose history is o's context: opened without one, then each
 * id accepted (the prompt is history to every framework, whether or not a
 * penalty reads it). */
int sl_api_gen_open(sl_fw_session *s, const sl_fw_type *ft, const sl_fw_opts *o, sl_error *err);
/* One session across the m->t rows of m (o->logits or o->probs says which kind
 * the rows are; their values come from m), each drawn token accepted: tokens,
 * cumulative words and kept counts (m->t entries each), and the generator's
 * name as --json reports it (rng_name may be NULL).
 *
 *     sl_io_steps m;   // sl_io_steps_read("gen.safetensors", "logits", &m, &err)
 *     sl_vec kind = {0};
 *     sl_fw_opts o = {0};
 *     o.logits = &kind; o.n = o.k = 1; o.cfg.temperature = 1; o.seed.lo = 42; o.has_seed = 1;
 *     sl_api_gen_replay(sl_fw_lookup("hf"), &o, &m, tokens, words, kept, &rng_name, &err);
 */
int sl_api_gen_replay(const sl_fw_type *ft, const sl_fw_opts *o, const sl_io_steps *m, long *tokens,
                      uint64_t *words, size_t *kept, const char **rng_name, sl_error *err);
/* The sl_fw_batch_row_fn of a [T, B, V] source (user: the sl_io_steps). */
int sl_api_gen_batch_row(const void *user, size_t t, size_t b, sl_vec *row);

/* ---------------------------------------------------------------- batches (api/batch.c) */

struct sl_api_settings;
/* A batch of rows: the prompts given (--context rows, --context-file), each
 * repeated --num-return-sequences N times into the B rows the framework steps
 * (rows[r].context is prompt r / N, or none), and transformers' EOS and pad ids
 * (eos.eos -1: none). rows[r].seed is the row's own seed, NULL for the batch's
 * generator (the frameworks with a generator per request set it). */
/* Rows of token ids (a batch's prompts, or its observed tokens): n rows, row i
 * of len[i] ids. */
typedef struct sl_api_id_rows {
    size_t n;
    long **ids;
    size_t *len;
} sl_api_id_rows;
/* Rows from src: inline, rows separated by ';' ("1,2,3;4,5,6"), or (is_file) a
 * file of one row of comma-separated ids a line (blank lines and '#' comments
 * skipped); each id in 0..V-1. Messages name "OPT row i" or "FILE line n". */
int sl_api_id_rows_read(const char *cmd, const char *opt, const char *src, int is_file, size_t V, sl_api_id_rows *o,
                        sl_error *err);
void sl_api_id_rows_free(sl_api_id_rows *o);

typedef struct sl_api_batch {
    size_t B, nrs;
    sl_api_id_rows prompt;    /* the prompts given (prompt.n = 0: none) */
    sl_fw_batch_row *rows;    /* B */
    sl_seed *seed;            /* per-row seeds the rows point at, or NULL */
    sl_fw_eos eos;
} sl_api_batch;
/* Whether s asks for a batch: rows in --context (';'), --context-file,
 * --num-return-sequences, --eos-token-id or --pad-token-id. */
int sl_api_batch_asked(const struct sl_api_settings *s);
/* The batch of s over rows_in rows a step of V ids for framework ft (NULL: not
 * checked against one). Refused, one line each: a framework without batches,
 * prompts whose count times N is not rows_in, a prompt row that is empty or holds
 * an id >= V, for transformers rows of different lengths, an EOS or pad id >= V. */
int sl_api_batch_load(const char *cmd, const struct sl_api_settings *s, const sl_fw_type *ft, size_t rows_in, size_t V,
                      sl_api_batch *b, sl_error *err);
void sl_api_batch_free(sl_api_batch *b);
struct sl_api_row_seeds;
/* The rows' own seeds (--seeds, one entry per row; none given: every row the batch's
 * generator): rows[r].seed points at entry r where it is a seed. Refused: another count than B. */
int sl_api_batch_seeds(const char *cmd, sl_api_batch *b, const struct sl_api_row_seeds *rs, sl_error *err);

/* ---------------------------------------------------------------- inputs (api/src.c) */

/* A vector, or a [T, V] generation, as a command reads it: a SRC as the
 * command line takes it (a path, or an inline list "3,2,2,1"), with the
 * tensor and row of a .safetensors file; or bytes in memory, a .npy image
 * (they start with "\x93NUMPY") or text numbers (one step per line for a
 * generation), through the same readers as files. */
typedef struct sl_api_src {
    const char *spec;         /* SRC, or NULL for data */
    const char *tensor;       /* .safetensors tensor, or NULL */
    long row;                 /* .safetensors row, -1 for none */
    const void *data;         /* in memory (spec NULL): .npy bytes or text */
    size_t len;
    const char *name;         /* the name messages give data ("<memory>" if NULL), or an
                               * inline list SRC (its option, "--probs"; "inline" if NULL) */
    const char *const *rows;  /* a batch given one SRC per row (--logits once per row): rows[0..n_rows), each a
                               * [T, V] read as spec is (spec is rows[0]); NULL: none */
    size_t n_rows;
} sl_api_src;

int sl_api_vec_read(const sl_api_src *s, sl_vec *out, sl_error *err);
int sl_api_steps_read(const sl_api_src *s, sl_io_steps *out, sl_error *err);
/* The same, also taking a 3-D [T, B, V] batch (sl_io_batch_read_as). */
int sl_api_batch_read(const sl_api_src *s, sl_io_steps *out, sl_error *err);

/* The reference distribution of gof / power / calibrate (api/ref.c). */
typedef struct sl_api_ref_opts {
    const char *probs, *logits, *tensor;
    long row;                 /* -1 unless --row */
    int has_temperature;
    double temperature;
} sl_api_ref_opts;

typedef struct sl_api_ref {
    double *p;                /* V probabilities summing to 1 */
    size_t v, support;
    double weight_sum;        /* --probs: the sum the weights were divided by */
    double temperature;       /* --logits */
    int from_logits;
    char source[256];
} sl_api_ref;

int sl_api_ref_load(const sl_api_ref_opts *o, sl_api_ref *ref, sl_error *err);
/* The same from a vector already read (o->probs or o->logits says which; their
 * text is not read again): takes vec over and frees it. */
int sl_api_ref_of_vec(sl_vec *vec, const sl_api_ref_opts *o, sl_api_ref *ref, sl_error *err);
void sl_api_ref_free(sl_api_ref *ref);
/* The reference of a command's source (src->spec NULL without data: no --probs
 * or --logits, or both, which sl_api_ref_load refuses), with s->cfg's
 * --temperature; *ro is what it was read from. Messages as "samplab: ...". */
int sl_api_ref_from_src(const sl_api_src *src, int is_logits, const struct sl_api_settings *s, sl_api_ref_opts *ro,
                        sl_api_ref *ref, sl_error *err);
/* Draws n tokens from p with method dt over generator rt, into counts[V] (zeroed first);
 * prog (may be NULL) is ticked every 2^20 draws: SL_EINTR when it says stop. */
int sl_api_draw_counts(const double *p, size_t V, const sl_draw_type *dt, const sl_rng_type *rt,
                       const sl_seed *seed, uint64_t n, uint64_t *counts, const sl_progress *prog, sl_error *err);

/* The most draws a call makes or reads (the command line's cap on --n and every count option). */
#define SL_API_MAX_N 1000000000000ull

/* ---------------------------------------------------------------- the settings schema (api/schema.c)
 *
 * Every option samplab has, once: its key ("top_k": Python's keyword; a sweep
 * spec's key is the option text with '_' for '-'), its option text ("--top-k"), kind, group, metavar, help,
 * the SL_OPT_* bit a framework accepts it by, and where its value lands in
 * sl_api_settings. The command line parses argv through it, --help and the
 * man pages print it, sl_api_refused and the sweep spec read it, and the
 * Python package sets its keywords through sl_api_settings_set. Settings the
 * real libraries have and samplab does not model are entries too (kind
 * SL_API_UNMODELLED, with the upstream name per library): the parser takes
 * their names only to refuse them with that line. Option ids start at 1 so
 * that 0 means none. */
typedef enum sl_api_opt {
    SL_API_OPT_NONE,
    SL_API_OPT_PROBS, SL_API_OPT_LOGITS, SL_API_OPT_TEMPERATURE, SL_API_OPT_TOP_K, SL_API_OPT_TOP_P, SL_API_OPT_MIN_P,
    SL_API_OPT_FRAMEWORK, SL_API_OPT_NUM_SAMPLES, SL_API_OPT_REPLACEMENT, SL_API_OPT_NO_REPLACEMENT,
    SL_API_OPT_SHUFFLE, SL_API_OPT_DTYPE, SL_API_OPT_TORCH,
    SL_API_OPT_TORCH_BUILD, SL_API_OPT_LLAMACPP, SL_API_OPT_RAND, SL_API_OPT_OLLAMA, SL_API_OPT_CPU, SL_API_OPT_SIMD_SUM,
    SL_API_OPT_TYPICAL, SL_API_OPT_REPETITION_PENALTY, SL_API_OPT_CONTEXT, SL_API_OPT_MIN_KEEP,
    SL_API_OPT_PENALTY_LAST_N, SL_API_OPT_FREQUENCY_PENALTY, SL_API_OPT_PRESENCE_PENALTY,
    SL_API_OPT_XTC_PROBABILITY, SL_API_OPT_XTC_THRESHOLD, SL_API_OPT_TOP_NSIGMA, SL_API_OPT_DYNATEMP_RANGE,
    SL_API_OPT_DYNATEMP_EXP,
    SL_API_OPT_DRY_MULTIPLIER, SL_API_OPT_DRY_BASE, SL_API_OPT_DRY_ALLOWED_LENGTH, SL_API_OPT_DRY_PENALTY_LAST_N,
    SL_API_OPT_DRY_SEQUENCE_BREAKER, SL_API_OPT_VOCAB,
    SL_API_OPT_LOGIT_BIAS,
    SL_API_OPT_MIROSTAT, SL_API_OPT_MIROSTAT_LR, SL_API_OPT_MIROSTAT_ENT, SL_API_OPT_ADAPTIVE_TARGET,
    SL_API_OPT_ADAPTIVE_DECAY,
    SL_API_OPT_SGLANG, SL_API_OPT_POSITION, SL_API_OPT_SGLANG_SORTED, SL_API_OPT_VLLM,
    SL_API_OPT_TRANSFORMERSJS, SL_API_OPT_NO_REPEAT_NGRAM, SL_API_OPT_TFJS,
    SL_API_OPT_JAX_PARTITIONABLE,
    SL_API_OPT_SAMPLERS,
    SL_API_OPT_SAMPLING_SEQ,
    SL_API_OPT_TENSOR, SL_API_OPT_ROW, SL_API_OPT_METHOD, SL_API_OPT_RNG, SL_API_OPT_SEED, SL_API_OPT_STREAM,
    SL_API_OPT_N, SL_API_OPT_COUNTS, SL_API_OPT_JSON, SL_API_OPT_BINARY, SL_API_OPT_DRAWS, SL_API_OPT_COUNTS_FILE,
    SL_API_OPT_ALPHA, SL_API_OPT_NULL_REPS, SL_API_OPT_TRIALS, SL_API_OPT_TARGET, SL_API_OPT_FAULT, SL_API_OPT_SEEDS,
    SL_API_OPT_ROW_SEEDS,
    SL_API_OPT_FIRST_SEED, SL_API_OPT_FRAMEWORKS, SL_API_OPT_TOP, SL_API_OPT_TOKENS, SL_API_OPT_REPORT_DATA,
    SL_API_OPT_OUT, SL_API_OPT_ONLY, SL_API_OPT_JOBS, SL_API_OPT_GEN_TOKENS, SL_API_OPT_NO_PLOT, SL_API_OPT_SPEC,
    SL_API_OPT_RESUME, SL_API_OPT_CONTEXT_FILE, SL_API_OPT_NUM_RETURN_SEQUENCES, SL_API_OPT_EOS_TOKEN_ID,
    SL_API_OPT_PAD_TOKEN_ID,
    SL_API_OPT_SERVER, SL_API_OPT_API, SL_API_OPT_MODEL, SL_API_OPT_PROMPT, SL_API_OPT_PROMPT_IDS,
    SL_API_OPT_N_PREDICT, SL_API_OPT_REQUESTS, SL_API_OPT_SEND, SL_API_OPT_LOG, SL_API_OPT_N_PROBS,
    SL_API_OPT_CONCURRENT, SL_API_OPT_TIMEOUT,
    SL_API_OPT_COUNT          /* the options samplab models; the refused entries follow in the table */
} sl_api_opt;

typedef enum sl_api_kind {
    SL_API_FLAG,    /* no value */
    SL_API_STRING,  /* a name, a path, a seed or a list, read by the subcommand */
    SL_API_SIZE,    /* a non-negative integer (size_t), at most SL_API_MAX_N */
    SL_API_LONG,    /* an integer */
    SL_API_INDEX,   /* a non-negative integer (long) */
    SL_API_DOUBLE,  /* a finite number */
    SL_API_UNMODELLED, /* a setting of a real library that samplab refuses by name */
    SL_API_GONE,      /* an option samplab had: refused with its help line, which says why */
    SL_API_LIST       /* a text that may be given again: each use appends to an sl_api_list */
} sl_api_kind;

/* The texts of a repeatable option, in the order given (llama.cpp's --dry-sequence-breaker). */
#define SL_API_LIST_MAX 32
typedef struct sl_api_list {
    size_t n;
    const char *v[SL_API_LIST_MAX];
} sl_api_list;

/* Groups a subcommand takes whole. */
enum {
    SL_API_G_SOURCE = 1u << 0,        /* --probs --logits --tensor --row */
    SL_API_G_RNG = 1u << 1,           /* --rng --seed --stream */
    SL_API_G_SAMPLING = 1u << 2,      /* --temperature --top-k ..., and the not-modelled settings */
    SL_API_G_LLAMA_PENALTY = 1u << 3, /* --penalty-last-n --frequency-penalty --presence-penalty */
    SL_API_G_FRAMEWORK = 1u << 4      /* --framework --num-samples --replacement --dtype --torch --simd-sum */
};

/* Where an option's value lands in sl_api_settings: byte offsets plus one (0: nowhere). */
typedef struct sl_api_landing {
    unsigned short has;       /* int set to 1 when given (a flag's own field) */
    unsigned short val;       /* the number (size_t, long or double by kind) or the text (const char *) */
    unsigned short text;      /* a number's text as typed (const char *), or 0 */
} sl_api_landing;

typedef struct sl_api_option {
    const char *name;         /* "--probs" */
    const char *key;          /* "probs": Python's keyword (sl_api_settings_set's key) */
    sl_api_kind kind;
    unsigned group;           /* one SL_API_G_* bit, or 0 for a subcommand's own option */
    unsigned bit;             /* the SL_OPT_* bit a framework or pipeline lists in `accepts`, or 0 */
    const char *arg;          /* the value in help ("SRC"); NULL for a flag */
    const char *help;         /* one line; '\n' continues it under itself */
    sl_api_landing at;
    /* the setting in each library that has it (NULL: not that library's, or not useful to
     * name): transformers' GenerationConfig field or logits processor, vLLM's SamplingParams
     * field, llama.cpp's option or llama_sampler_init_* (for SL_API_UNMODELLED, what the refusal names) */
    const char *hf, *vllm, *llamacpp;
} sl_api_option;
/* The table: ids 1 .. SL_API_OPT_COUNT - 1, then the refused entries (not modelled, gone),
 * then an entry with name NULL. */
extern const sl_api_option sl_api_options[];
/* The entry named "--name" (the first, where two share a name: draw's --counts
 * flag before gof's --counts FILE), its key, or NULL. */
const sl_api_option *sl_api_option_named(const char *name);
const sl_api_option *sl_api_option_keyed(const char *key);
/* Other spellings of a setting, as a real library's options name it (llama.cpp's
 * --repeat-penalty for --repetition-penalty): the name, its key, the option. */
typedef struct sl_api_alias {
    const char *name, *key;
    sl_api_opt opt;
} sl_api_alias;
extern const sl_api_alias sl_api_aliases[]; /* ends with name NULL */
/* The option an alias names (by its option text, or by its key), or SL_API_OPT_NONE. */
sl_api_opt sl_api_alias_of(const char *name, const char *key);
/* What every command takes besides its options ("--help", also "-h") and what
 * `samplab` alone takes ("--version"). */
extern const char sl_api_help_option[], sl_api_version_option[];
/* The option text of SL_API_OPT_<o> ("--context" for CONTEXT), for a message or a refusal. */
#define SL_API_NAME(o) (sl_api_options[SL_API_OPT_##o].name)
/* The help line of option o in command cmd (its own, where it has one). */
const char *sl_api_option_help(const sl_api_option *o, const char *cmd);

/* An option's value as the command line reads its word: the whole word a
 * number in range for the numeric kinds. */
typedef struct sl_api_value {
    size_t size;              /* SL_API_SIZE */
    long l;                   /* SL_API_LONG, SL_API_INDEX */
    double d;                 /* SL_API_DOUBLE; --logit-bias: the bias (l its token) */
} sl_api_value;
/* 0 with *v read from text, or 2 with why[0..n) the command line's words
 * ("--n takes a non-negative integer, not 'abc'"). Strings and flags read as 0. */
int sl_api_option_read(const sl_api_option *o, const char *text, sl_api_value *v, char *why, size_t n);
/* Why o is refused, into buf ("--epsilon-cutoff: transformers' EpsilonLogitsWarper is not
 * modelled by samplab"; for SL_API_GONE its name and help line), or NULL when o is taken. */
const char *sl_api_option_refusal(const sl_api_option *o, char *buf, size_t n);

/* ---------------------------------------------------------------- settings (api/settings.c)
 *
 * The options of the commands, one field each, named after the option
 * (--top-k is cfg.top_k with cfg.has_top_k). A field left 0 / NULL is an
 * option not given. Start from sl_api_settings_init. */
typedef struct sl_api_settings {
    const char *framework, *method, *rng, *seed, *stream;
    int has_n; size_t n;
    int has_num_samples; size_t num_samples;
    int replacement, no_replacement, simd_sum, counts;
    const char *shuffle;      /* --shuffle true|false (NumPy Generator.choice's shuffle=) */
    const char *dtype, *torch, *torch_build, *llamacpp, *rand, *cpu, *ollama;
    const char *context;      /* token ids: a SRC (inline list or file); a batch's rows separated by ';' */
    const char *context_file; /* a batch's prompts: one row of comma-separated ids a line */
    int has_num_return_sequences; size_t num_return_sequences;
    int has_eos_token_id; long eos_token_id;
    int has_pad_token_id; long pad_token_id;
    const char *sglang, *position; /* --sglang VERSION, --position P (SGLang's hash key) */
    int sglang_sorted;        /* --sglang-sorted: a batchmate filters (SGLang's sort path) */
    const char *vllm;         /* --vllm VERSION (vLLM's release line) */
    const char *transformersjs; /* --transformersjs VERSION (transformers.js's release line) */
    const char *jax_partitionable; /* --jax-threefry-partitionable true|false (JAX's jax_threefry_partitionable) */
    const char *tfjs;         /* --tfjs VERSION (TensorFlow.js's release line) */
    sl_logits_cfg cfg;        /* --temperature ... --min-keep; its context and cpu are set from the fields above */
    int has_alpha; double alpha;
    int has_null_reps; size_t null_reps;
    int has_trials; size_t trials;
    const char *tokens;       /* check: the observed ids (a SRC) */
    const char *draws_file, *counts_file; /* gof: --draws FILE, --counts FILE */
    const char *alpha_text;   /* --alpha as typed, quoted by gof's refusal (NULL: the number, %g) */
    const char *samplers, *sampling_seq; /* llama.cpp's stage order: --samplers NAMES, --sampling-seq LETTERS */
    const char *vocab;        /* --vocab FILE (a GGUF or a token list): the token texts DRY's breakers are matched against */
    int has_dry_sequence_breaker; sl_api_list dry_sequence_breaker; /* as given ("none" included) */
    /* --logit-bias TOKEN(+/-)BIAS as given, and read (sl_api_settings_land); cfg.bias_token and
     * cfg.bias point at the arrays, so the settings must outlive any cfg copied from them */
    int has_logit_bias; sl_api_list logit_bias;
    long logit_bias_token[SL_API_LIST_MAX];
    float logit_bias_value[SL_API_LIST_MAX];
    int has_target; double target; /* power --target P */
    const char *target_text;  /* --target as typed, quoted by power's refusal (NULL: the number, %g) */
    const char *fault;        /* power --fault F */
    int has_seeds; size_t seeds; /* calibrate --seeds K */
    const char *row_seeds;    /* draw, replay, check --seeds LIST: one per row (request), a seed or none */
    const char *first_seed;   /* calibrate --first-seed S */
    const char *frameworks;   /* compare --frameworks a,b,... */
    int has_top; size_t top;  /* compare --top N */
    /* audit (api/audit.c): the server, its API, the requests, or a recorded log; --out DIR */
    const char *server, *api, *model, *prompt, *prompt_ids, *send, *log, *out;
    int has_n_predict; size_t n_predict;
    int has_requests; size_t requests;
    int has_n_probs; size_t n_probs;
    int has_concurrent; size_t concurrent;
    int has_timeout; double timeout;
    const char *cmd;          /* sl_api_settings_new's command: what sl_api_settings_set's messages name */
    struct sl_api_text *owned; /* the texts sl_api_settings_set copied (freed by sl_api_settings_free) */
} sl_api_settings;

/* What a command takes (api/commands.c): a whole group of the schema (opt 0),
 * or one option (its help the command's own where the schema has one:
 * sl_api_option_help). Lists end with {0, 0}. */
typedef struct sl_api_take {
    unsigned group;
    sl_api_opt opt;
} sl_api_take;

typedef struct sl_api_cmd {
    const char *name;          /* "draw" */
    const sl_api_take *takes;
    const sl_api_take *shared; /* a list two commands share (pipeline, compare), or NULL */
} sl_api_cmd;
extern const sl_api_cmd sl_api_cmds[]; /* ends with name NULL */
const sl_api_cmd *sl_api_cmd_lookup(const char *cmd); /* NULL for a name no command has */
/* Whether command s takes option o, alone or through its group. */
int sl_api_cmd_takes(const sl_api_cmd *s, sl_api_opt o);
/* The first take of group g in s's lists (what --help lists the group under), NULL if none. */
const sl_api_take *sl_api_cmd_group(const sl_api_cmd *s, unsigned g);
/* The number of entries in sl_api_options: the modelled ones, then the refused. */
int sl_api_option_count(void);

/* Every setting unset (all zero): each command then takes the real library's defaults. */
void sl_api_settings_init(sl_api_settings *s);
/* What every call does first: NULL settings are the defaults, a NULL source
 * (src may be NULL when the call has none) is none given, so the call answers
 * with the command's own message. */
void sl_api_or_defaults(const sl_api_settings **s, const sl_api_src **src);
/* What every call checks next, of settings a caller filled as a struct: each
 * setting finite (cfg's, --alpha, --target; top_p = NaN is refused by name, as the
 * option parser refuses "nan"), no array NULL with a length (sl_logits_cfg_check).
 * SL_EINVAL with err "CALL: top_p is NaN ...". */
int sl_api_settings_check(const sl_api_settings *s, const char *call, sl_error *err);
/* A binding's handle: settings for command cmd ("draw"; it names the command in
 * sl_api_settings_set's messages), set by key, freed with the texts it holds. */
sl_api_settings *sl_api_settings_new(const char *cmd);
void sl_api_settings_free(sl_api_settings *s);
/* The option keyed `key` ("top_k") set from text as the command line reads
 * its word (text NULL or "" for a flag): SL_EINVAL with err the command's
 * line ("samplab draw: --top-k takes an integer, not 'abc'"; a setting samplab
 * does not model, or one the calls do not take, refused by name). The text is
 * copied. */
int sl_api_settings_set(sl_api_settings *s, const char *key, const char *text, sl_error *err);
/* Whether text is a value the option keyed `key` takes (its message named by cmd). */
int sl_api_option_check(const char *cmd, const char *key, const char *text, sl_error *err);
/* The option o's value (v read by sl_api_option_read, text as given) into the
 * field of s it lands in (none: nothing). */
void sl_api_settings_land(sl_api_settings *s, const sl_api_option *o, const char *text, const sl_api_value *v);
/* Whether option o is set in s (the source options: is_logits says which is given). */
int sl_api_settings_given(const sl_api_settings *s, const sl_api_option *o, int is_logits);
/* The schema as JSON (malloc'd; sl_api_free): one object per key, in table
 * order: {"key": {"option": "--top-k", "kind": "long", "group": "sampling",
 * "settings": true, "metavar": "K", "help": "...", "not_modelled": "..."}}. */
char *sl_api_schema_json(void);
/* The first option given in s (in the schema's order) whose SL_OPT_* bit is
 * not in accepts, as its option text ("--top-k"), or NULL. is_logits: the
 * source is --logits (else --probs). */
const char *sl_api_refused(const sl_api_settings *s, int is_logits, unsigned accepts);
/* Why framework refuses option opt (the name sl_api_refused returned), into buf: "OPT is not an
 * option of framework F", or, where F's library has the setting, its name there ("--logit-bias:
 * vLLM's SamplingParams.logit_bias is not modelled by samplab for framework vllm"); for
 * --replacement / --no-replacement where F's library has no such setting, its reason. */
const char *sl_api_not_taken(const char *opt, const char *framework, char *buf, size_t n);
/* The same, with the refused option's SL_OPT_* bit into *bit (may be NULL). */
const char *sl_api_refused_bit(const sl_api_settings *s, int is_logits, unsigned accepts, unsigned *bit);
/* Every option name carrying `bit`, joined by '/' ("--repetition-penalty/--context"), into buf. */
const char *sl_api_bit_names(unsigned bit, char *buf, size_t n);

/* What the calls below share. A library error as the command line prints it:
 * "samplab: MSG" (and "samplab: SOURCE: MSG"); returns rc (SL_EINVAL if 0). */
int sl_api_lib_error(sl_error *err, int rc);
int sl_api_lib_error_in(sl_error *err, const char *source, int rc);
/* --seed (default 42) and, with_stream, --stream. */
int sl_api_seed(const sl_api_settings *s, int with_stream, sl_seed *out, sl_error *err);
/* The llama.cpp stage order in force ("penalties;top_k;..." as --samplers names it) into buf for a
 * framework or pipeline that takes one (accepts has SL_OPT_ORDER); NULL for the others. What
 * --json prints as "samplers". Pipeline t: node-llama-cpp's is the chain it builds, then dist or greedy. */
const char *sl_api_samplers(const sl_logits_pipeline_type *t, unsigned accepts, const sl_logits_cfg *cfg, char *buf,
                            size_t len);
/* The framework settings of s (no vector, no context) for command cmd; on success free them with
 * sl_api_fw_opts_free (the DRY breakers, sl_api_dry_breakers). */
/* The release line the settings name (--torch, --llamacpp, --rand, --ollama, --sglang or --vllm), or NULL; and the
 * framework type that runs s->framework at it (sl_fw_lookup_as: ollama 0.32 is llama-server's). */
const char *sl_api_variant(const sl_api_settings *s);
const sl_fw_type *sl_api_fw_type(const sl_api_settings *s);
/* Pipeline t on the release line s names where t needs one (--ollama 0.32: llama-server's chain, not
 * the Go sampler's); t otherwise. */
const sl_logits_pipeline_type *sl_api_pipeline_on_line(const sl_logits_pipeline_type *t, const sl_api_settings *s);
int sl_api_fw_opts(const char *cmd, const sl_api_settings *s, sl_fw_opts *fo, sl_error *err);
void sl_api_fw_opts_free(sl_fw_opts *fo);
/* llama.cpp's DRY sequence breakers for s (api/vocab.c): the ones given (--dry-sequence-breaker, with
 * common/arg.cpp's rules: the first use replaces the defaults, "none" clears the list so far, then
 * string_process_escapes) or the defaults, matched against --vocab's token pieces into cfg's
 * dry_breaker flags (malloc'd: the caller frees (void *)cfg->dry_breaker). No breakers: has_dry_breakers
 * with no flags; breakers and no vocabulary: has_dry_breakers 0 (DRY on then refuses to run). */
int sl_api_dry_breakers(const char *cmd, const sl_api_settings *s, sl_logits_cfg *cfg, sl_error *err);
/* SL_EINVAL when a --logit-bias token is not an id of the logits' V, or cfg's vocabulary (--vocab)
 * has another number of tokens than V. */
int sl_api_vocab_fits(const char *cmd, const sl_api_settings *s, const sl_logits_cfg *cfg, size_t V, sl_error *err);
/* Token ids from SRC, each in 0..V-1 (`what` names them: "context", "token"); an
 * inline list's messages name it by `opt`, the option that gave it ("--context"). */
int sl_api_ids(const char *cmd, const char *opt, const char *src, const char *what, size_t V, long **ids, size_t *n,
               sl_error *err);

/* Per-request seeds (api/seeds.c): --seeds 7,none,9, one entry per row of a batch, as a
 * serving engine gets them (vLLM's SamplingParams.seed, TGI's and SGLang's per-request
 * seed); "none" is a request that gave no seed. Each seed reads as --seed does. */
typedef struct sl_api_row_seed {
    int given;                /* 0: the request gave no seed ("none") */
    sl_seed seed;
} sl_api_row_seed;
typedef struct sl_api_row_seeds {
    size_t n;                 /* rows (entries of the list); 0 when --seeds is not given */
    sl_api_row_seed *row;     /* n entries, malloc'd (sl_api_row_seeds_free) */
} sl_api_row_seeds;
#define SL_API_ROW_SEEDS_MAX 4096 /* the most rows a list names */
/* text ("7,none,9") into *out: SL_EINVAL with err "samplab CMD: --seeds: entry 2 ('x') ..." for an
 * empty list or entry, or an entry that is neither "none" nor a seed. */
int sl_api_row_seeds_parse(const char *cmd, const char *text, sl_api_row_seeds *out, sl_error *err);
/* s's --seeds for framework ft over a batch of `rows` rows (0: not known yet): none given is
 * out->n 0; refused (SL_EINVAL, one line) for a framework with one generator per batch (ft's
 * accepts lacks SL_OPT_ROW_SEEDS: "a seed for a row of a framework that has one generator per
 * batch"), for a "none" where the framework cannot know the seed its engine gives such a
 * request (ft->batch_unseeded: TGI), and for a list of another length than rows. */
int sl_api_row_seeds_for(const char *cmd, const sl_api_settings *s, const sl_fw_type *ft, size_t rows,
                         sl_api_row_seeds *out, sl_error *err);
void sl_api_row_seeds_free(sl_api_row_seeds *r);
/* Row `row`'s generator seed into fo: its own seed (a per-request generator), or, for "none" and
 * when --seeds is not given, fo's --seed as it is (the global generator). */
void sl_api_row_seed_apply(const sl_api_row_seeds *r, size_t row, sl_fw_opts *fo);

/* ---------------------------------------------------------------- commands as calls
 *
 * Each takes what the command takes and writes, into *json (malloc'd; free it
 * with sl_api_free), the object `samplab CMD ... --json` prints for the same
 * inputs. On bad input it returns 2 (SL_EINVAL, or the reader's status) with
 * err->msg the one line the command prints on stderr ("samplab draw: ..." or
 * "samplab: FILE: ..."); the gof and check verdicts are fields of the JSON,
 * never a status. */

/* `samplab draw` as a struct: the tokens (or their counts) and the generator. */
typedef struct sl_api_draw_result {
    int framework;            /* drawn by a framework's session (else by a method) */
    size_t V, n, k;           /* n calls of k tokens over V ids */
    int nested;               /* a framework that takes --num-samples: one array per call in JSON */
    long *tokens;             /* n*k, or NULL when counted (s->counts) or handed to each */
    uint64_t *counts;         /* s->counts: V counts, else NULL */
    const char *rng_name;
    unsigned word_bits;
    uint64_t words;
    const char *version, *cpu; /* a framework's release and CPU kernel (NULL for a method) */
    const char *note;         /* a framework's remark on the settings, set before it runs, or NULL */
    const sl_logits_pipeline_type *pipeline; /* the framework's pipeline when it ran (logits), else NULL */
    sl_logits_cfg given;      /* the settings given (no context): --json echoes them in force */
    const char *samplers;     /* llama.cpp's stage order in force (in samplers_buf), or NULL */
    char samplers_buf[SL_LOGITS_ORDER_TEXT];
    uint64_t done;            /* stopped by prog (SL_EINTR): the draws (a framework: the calls) made */
    /* A batch ([B, V] rows, or --seeds with several entries): B rows of n calls of k tokens,
     * tokens[(b·n + i)·k + j]; 0: one row */
    size_t B;
    uint64_t *row_words;      /* B·n: the running words of the generator row b drew from after its call i */
    unsigned char *row_own;   /* B: 1 when row b drew from its own generator (a seeded request) */
    int coupled;              /* the rows depend on each other whatever their generators (SGLang's sort path) */
    uint64_t global_words;    /* the words of the batch's global generator (words: of all of them) */
    const char *path;         /* how the framework draws a batch (sl_fw_type.batch) */
} sl_api_draw_result;
/* The settings checked as the command checks them, the source read, the
 * tokens drawn (one path for the command and the call). The draws tick prog
 * (may be NULL; a method every 2^20 draws, a framework every 256 calls),
 * SL_EINTR when it says stop; with each (and no s->counts) each token goes to
 * each(ctx, token) as drawn instead of n of them being kept (a framework's
 * --num-samples K > 1 keeps them, for its K-a-line output). */
int sl_api_draw_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                    void (*each)(void *ctx, size_t token), void *ctx, sl_api_draw_result *r, sl_error *err);
void sl_api_draw_result_free(sl_api_draw_result *r);
/* draw --json of r (NULL when out of memory). */
char *sl_api_draw_result_json(const sl_api_draw_result *r);
/* --dtype float32|float64 into fo (dtype NULL: unset). */
int sl_api_fw_dtype(const char *cmd, const char *dtype, sl_fw_opts *fo, sl_error *err);
/* `samplab draw`: src is --probs or --logits (is_logits). */
int sl_api_draw(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err);
/* `samplab gof` as a struct: the reference, the counts and the tests. */
typedef struct sl_api_gof_result {
    sl_api_ref ref;
    sl_api_ref_opts ro;
    uint64_t *counts;         /* V counts */
    uint64_t n;               /* draws counted (when interrupted: so far) */
    const char *draws_name;   /* where the draws came from; NULL for a method's own */
    const sl_draw_type *dt;   /* --method, or NULL */
    const sl_rng_type *rt;
    char replay[1024];        /* --method: the command that replays its draws */
    sl_stat_gof_test t;       /* the statistics, the TV null, alpha, the verdict and its rule */
} sl_api_gof_result;
/* The settings checked as the command checks them, the reference read, the
 * draws read or made, the tests run (one path for the command and the call).
 * prog (may be NULL) is ticked while draws are read or made: SL_EINTR when it
 * says stop (r->n the draws read so far; a method's err->msg says how far). */
int sl_api_gof_run(const sl_api_src *ref, int is_logits, const uint64_t *counts, size_t n_counts, const long *ids,
                   size_t n_ids, const sl_api_settings *s, const sl_progress *prog, sl_api_gof_result *r,
                   sl_error *err);
/* The same with the reference already made (ref is taken over, freed with r;
 * ro says what it was made from) and V counts: a sweep's gof of a framework's
 * draws against the framework's own distribution. */
int sl_api_gof_run_ref(sl_api_ref *ref, const sl_api_ref_opts *ro, const uint64_t *counts, size_t n_counts,
                       const sl_api_settings *s, const sl_progress *prog, sl_api_gof_result *r, sl_error *err);
void sl_api_gof_result_free(sl_api_gof_result *r);
/* `samplab gof`: ref is --probs or --logits; the draws are given as counts
 * (V entries) or as ids (n entries, each in 0..V-1), or drawn with s->method. */
int sl_api_gof(const sl_api_src *ref, int is_logits, const uint64_t *counts, size_t n_counts, const long *ids,
               size_t n_ids, const sl_api_settings *s, char **json, sl_error *err);
/* What a logits command (pipeline, compare) reads: --cpu, a penalty with its
 * --context, the vector (src->spec NULL without data: "--logits SRC is
 * required") and the context ids. *cfg is s->cfg with its cpu, context and DRY
 * breakers set; free vec, cfg->context and cfg->dry_breaker. */
int sl_api_logits_input(const char *cmd, const sl_api_src *src, const sl_api_settings *s, sl_vec *vec,
                        sl_logits_cfg *cfg, sl_error *err);
/* `samplab pipeline` as a struct: the pipeline t run on the logits read. */
typedef struct sl_api_pipeline_result {
    const sl_logits_pipeline_type *t;
    sl_logits_result res;
    int cpu;                  /* the --cpu setting, SL_CPU_* */
    sl_logits_cfg given;      /* the settings given (no context): --json echoes them in force */
    const char *note;         /* a remark on the settings (static; the command prints it as a note), or NULL */
    const char *samplers;     /* llama.cpp's stage order in force (in samplers_buf), or NULL */
    char samplers_buf[SL_LOGITS_ORDER_TEXT];
} sl_api_pipeline_result;
/* The settings checked as the command checks them, the source read, the
 * pipeline run (one path for the command and the call). */
int sl_api_pipeline_run(const sl_api_src *logits, const sl_api_settings *s, sl_api_pipeline_result *r, sl_error *err);
void sl_api_pipeline_result_free(sl_api_pipeline_result *r);
/* `samplab pipeline --framework F --logits SRC`. */
int sl_api_pipeline(const sl_api_src *logits, const sl_api_settings *s, char **json, sl_error *err);
/* `samplab compare` as a struct: each framework's pipeline on the same logits
 * and settings, each pair's distance and the translations that make them agree. */
#define SL_API_COMPARE_MAX 8
typedef struct sl_api_compare_tr {
    const sl_logits_pipeline_type *target, *source; /* target, with args, reproduces source's result */
    char args[256];           /* the settings, each with a leading space */
    char *command;            /* the whole `samplab pipeline ...` command (malloc'd) */
    double tv;
    char scope[128];          /* which rule, or "on these logits only" */
} sl_api_compare_tr;
typedef struct sl_api_compare_fw {
    const sl_logits_pipeline_type *t;
    sl_logits_cfg cfg;        /* the settings it ran with */
    int ok;                   /* else error */
    char error[512];
    sl_logits_result r;
    double entropy;           /* nats */
    size_t top[100], ntop;    /* the most probable kept ids, in decreasing probability */
} sl_api_compare_fw;
typedef struct sl_api_compare_pair {
    size_t a, b;              /* indices into fw */
    double tv;
    int agree;                /* the same kept set and TV < 1e-6: no translation sought */
    size_t ntr;
    sl_api_compare_tr tr[2];  /* b's settings for a's result, a's for b's (those found) */
} sl_api_compare_pair;
typedef struct sl_api_compare_skip {
    const sl_logits_pipeline_type *t;
    char lacks[64];           /* the setting it lacks, named as a whole ("--repetition-penalty/--context") */
    size_t ntr;
    sl_api_compare_tr tr[SL_API_COMPARE_MAX]; /* its own settings that reproduce a framework that ran */
} sl_api_compare_skip;
typedef struct sl_api_compare_result {
    sl_vec vec;
    sl_logits_cfg cfg;        /* the settings given, with the context read */
    char args[256];           /* as the command prints them, each with a leading space */
    size_t ntop;
    size_t nfw, nskip, npairs, nnotes;
    sl_api_compare_fw fw[SL_API_COMPARE_MAX];
    sl_api_compare_skip skip[SL_API_COMPARE_MAX];
    sl_api_compare_pair pair[SL_API_COMPARE_MAX * (SL_API_COMPARE_MAX - 1) / 2];
    char notes[4][512];
    int loaded;
} sl_api_compare_result;
/* The settings checked as the command checks them, the logits read, every
 * pipeline and translation run (one path for the command and the call). */
int sl_api_compare_run(const sl_api_src *logits, const sl_api_settings *s, sl_api_compare_result *r, sl_error *err);
void sl_api_compare_result_free(sl_api_compare_result *r);
char *sl_api_compare_result_json(const sl_api_compare_result *r);
/* `samplab compare --logits SRC [--frameworks a,b,...]`. */
int sl_api_compare(const sl_api_src *logits, const sl_api_settings *s, char **json, sl_error *err);
/* `samplab replay` over the rows of steps (s->framework may be "all"). */
int sl_api_replay(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                  const sl_api_settings *s, char **json, sl_error *err);
/* `samplab check`: the observed tokens (one per step) against s->framework: with
 * s->seed the first divergence, without one the test of the whole log. */
int sl_api_check(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                 const long *tokens, size_t n_tokens, const sl_api_settings *s, char **json, sl_error *err);
/* What `samplab exact` counts, as a struct: the audit t run on the vector read. */
typedef struct sl_api_exact_audit {
    sl_stat_exact_result res;
    const sl_stat_exact_type *t;
    sl_vec vec;
    int from_logits;
    sl_logits_cfg given;      /* --temperature as given: the softmax exact takes of --logits */
} sl_api_exact_audit;
/* The settings checked as the command checks them, the source read, the audit
 * run (one path for the command and the call); free with sl_api_exact_audit_free. */
int sl_api_exact_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, sl_api_exact_audit *a,
                     sl_error *err);
void sl_api_exact_audit_free(sl_api_exact_audit *a);
/* `samplab exact`: the distribution s->framework or s->method induces on src. */
int sl_api_exact(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err);

/* `samplab power` as a struct: the fault families' smallest detected faults
 * (or, with --fault mkl-seed-collision, the repeat test's closed form). */
#define SL_API_MKL_FAULT "mkl-seed-collision"
#define SL_API_MKL_FAULT_SUMMARY                                                                    \
    "torch 2.0-2.6 pip wheels' MKL exponential_ (PyTorch issue #132395): every call opens an MKL " \
    "MCG31m1 stream at one MT19937 word mod (2^31 - 1), so torch.multinomial(ones(26), 26) "       \
    "reaches at most 2^31 - 2 permutations"
typedef struct sl_api_power_family {
    int run;                  /* asked for (all, or --fault F) */
    int applies;              /* else why */
    char why[512];
    sl_stat_detect detect[SL_TEST_COUNT];
    double at_t[2], at_tv[2], at_power[2][SL_TEST_COUNT]; /* temper: the power at T = 1.05 and 0.95 */
} sl_api_power_family;
typedef struct sl_api_power_result {
    double alpha, target;
    int repeats;              /* --fault mkl-seed-collision */
    double orderings, m_null, m_fault;
    sl_stat_repeats_power needed, at;
    int has_at;               /* --n given: the power at N */
    sl_api_ref ref;           /* the simulation's reference, its state and each family */
    size_t n, trials;
    int only;                 /* --fault F: that family, else -1 */
    sl_stat_power s;
    sl_api_power_family fam[SL_FAULT_COUNT];
    uint64_t simulated;       /* samples simulated (when interrupted: so far) */
    int loaded, inited;
} sl_api_power_result;
/* The settings checked as the command checks them, the reference read, the
 * simulations run (one path for the command and the call). prog (may be NULL)
 * is ticked as samples are simulated: SL_EINTR when it says stop. */
int sl_api_power_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                     sl_api_power_result *r, sl_error *err);
void sl_api_power_result_free(sl_api_power_result *r);
char *sl_api_power_result_json(const sl_api_power_result *r);
/* The name of fault family f's parameter ("fraction", "mass", "k", "T-1"). */
const char *sl_api_power_theta_name(int fault);
/* `samplab power`: src is --probs or --logits (none with s->fault mkl-seed-collision). */
int sl_api_power(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err);

/* `samplab calibrate` as a struct: K seeds' chi-square p-values and their KS test. */
#define SL_API_CAL_BINS 10
typedef struct sl_api_calibrate_result {
    sl_api_ref ref;
    const sl_draw_type *dt;
    const sl_rng_type *rt;
    size_t n, K;
    sl_seed first;
    sl_stat_cells cells;
    double df;
    double *pv;               /* K p-values */
    uint64_t outside_total;
    size_t lo_tail, hi_tail, hist[SL_API_CAL_BINS];
    double D, ksp;
    int suspect;              /* KS p < 0.001 or > 0.999: the command's exit 1 */
    size_t done;              /* seeds done (when interrupted: so far) */
    int loaded;
} sl_api_calibrate_result;
/* The settings checked as the command checks them, the reference read, the
 * K samples drawn and tested. prog (may be NULL) is ticked with the seeds
 * done, also within a seed's draws: SL_EINTR when it says stop. */
int sl_api_calibrate_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                         sl_api_calibrate_result *r, sl_error *err);
void sl_api_calibrate_result_free(sl_api_calibrate_result *r);
char *sl_api_calibrate_result_json(const sl_api_calibrate_result *r);
/* `samplab calibrate`: src is --probs or --logits. */
int sl_api_calibrate(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err);

/* Frees what a call returned (a JSON text), with the library's allocator. */
void sl_api_free(void *p);
/* SL_VERSION of the library loaded. */
const char *sl_api_version(void);

/* ---------------------------------------------------------------- the JSON the commands print (api/json.c, api/gof.c, ...) */

/* gof: the command that replays a method's draws (`samplab draw ... --counts`). */
void sl_api_gof_replay(char *replay, size_t size, const sl_api_ref *ref, const sl_api_ref_opts *ro,
                       const sl_draw_type *dt, const sl_rng_type *rt, const sl_seed *seed, size_t n_opt);
/* gof --json: draws_name NULL for a method's own draws (then replay is its command). */
char *sl_api_gof_json(const sl_api_ref *ref, const char *draws_name, const sl_stat_gof_test *t, const char *replay);

/* draw --json: n calls of k tokens (nested: one array per call), or with
 * counts the V counts of the tokens; then the generator and its words, and
 * (when not NULL) the release, the CPU kernel and llama.cpp's stage order. */
char *sl_api_draw_json(const long *tokens, size_t n, size_t k, int nested, size_t V, int counts,
                       const char *rng_name, unsigned word_bits, uint64_t words, const char *version,
                       const char *cpu, const char *samplers, const sl_logits_pipeline_type *t,
                       const sl_logits_cfg *given);
/* draw --json of a batch (r->B rows): "rows", then "tokens" and "words" one list per row
 * (row b's calls as one row's tokens print, tokens[b][t]; words[b][t] the running words of
 * the generator row b drew from after its call t), "generator" per row ("own" or "global"),
 * "depends_on_batch" per row (a row drawn from the global generator reads the words its
 * batchmates spent), "rng" {name, word_bits, words: all generators', global_words},
 * "version", "cpu", "path" (how the framework draws a batch), the settings in force. */
char *sl_api_draw_batch_json(const sl_api_draw_result *r);
/* draw --counts --json from V counts (a method's draws, counted as made). */
char *sl_api_counts_json(const uint64_t *c, size_t V, const char *rng_name, unsigned word_bits, uint64_t words);
/* The same with a framework's release and CPU kernel (each NULL: left out), as
 * draw --framework F --counts --json prints them; with t (draw json too) the
 * settings in force of pipeline t for those given (sl_api_settings_echo). */
char *sl_api_fw_counts_json(const uint64_t *c, size_t V, const char *rng_name, unsigned word_bits, uint64_t words,
                            const char *version, const char *cpu, const char *samplers,
                            const sl_logits_pipeline_type *t, const sl_logits_cfg *given);

/* pipeline --json: r->res of pipeline r->t run with the settings r->given (what
 * they leave unset: t's defaults, echoed) and, for llama.cpp, its stage order. */
char *sl_api_pipeline_json(const sl_api_pipeline_result *r);

/* ---------------------------------------------------------------- the settings in force (api/echo.c) */

struct json_t;
/* Sets "settings" (each setting of pipeline t: the value in force, null where
 * the library's default is unset) and "defaulted" (the names the defaults
 * decided) on the object o, for the settings given. */
void sl_api_settings_echo(struct json_t *o, const sl_logits_pipeline_type *t, const sl_logits_cfg *given);
/* json_dumps(root, flags), but each real of a "settings" object printed with the
 * fewest digits that read back as it (Python repr's: 0.8, 1.0), whatever the
 * precision flags give the object's other reals. NULL when out of memory. */
char *sl_api_json_dumps(struct json_t *root, size_t flags);

/* ---------------------------------------------------------------- exact (api/exact.c) */

/* 1 - (1 - p)^(10^9): a failure path's chance in 10^9 calls. */
double sl_api_per_billion(double p);
/* exact --json for the audit a; from --logits, the --temperature of exact's own
 * softmax is echoed in force ("settings", "defaulted"). */
char *sl_api_exact_json(const sl_api_exact_audit *a);

/* ---------------------------------------------------------------- replay (api/replay.c) */

/* One framework's replay: tokens, cumulative words and kept counts per step. */
typedef struct sl_api_run {
    const sl_fw_type *ft;
    long *tokens;
    uint64_t *words;
    size_t *kept;
    const char *rng_name;
    const sl_logits_pipeline_type *pipeline; /* ft's pipeline when it ran on logits, else NULL */
    sl_logits_cfg given;      /* the settings given (no context): --json echoes them in force */
    const char *samplers;     /* llama.cpp's stage order in force (in samplers_buf), or NULL */
    char samplers_buf[SL_LOGITS_ORDER_TEXT];
} sl_api_run;
/* replay --json: one run (all 0), or nr runs with the step each departs from runs[0] (T: never);
 * B > 0: one batched run whose tokens, words and kept are B lists of T. */
char *sl_api_replay_json(const sl_api_run *runs, size_t nr, const size_t *depart, size_t T, size_t B, int all);

/* `samplab replay` as a struct: one run, or with --framework all every
 * session framework on logits that takes the options given, with the step each
 * departs from runs[0] (T: never). */
#define SL_API_REPLAY_MAX 32
typedef struct sl_api_replay_result {
    sl_api_run runs[SL_API_REPLAY_MAX];
    size_t nr, T;
    size_t B;                 /* a batch: rows (runs[0] holds B·T entries, row b's at b·T + t); 0: none */
    size_t depart[SL_API_REPLAY_MAX];
    int all;
} sl_api_replay_result;
/* The settings checked as the command checks them, the rows read, the
 * session(s) run (one path for the command and the call). */
int sl_api_replay_run(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                      const sl_api_settings *s, sl_api_replay_result *r, sl_error *err);
void sl_api_replay_result_free(sl_api_replay_result *r);
char *sl_api_replay_result_json(const sl_api_replay_result *r);

/* A generation's settings, rows and prompt, as replay, check and bench load them. */
typedef struct sl_api_gen {
    const sl_fw_type *ft;     /* NULL with --framework all */
    int all;
    sl_fw_opts fo;            /* settings; fo.cfg.context = the prompt */
    sl_io_steps steps;        /* [T, V] */
    long *context;
    size_t context_n;
    int logits_input;
    sl_vec marker;            /* what fo.logits or fo.probs points at: the kind of rows */
    int is_batch;             /* a [T, B, V] source or a batch's options: batch holds the rows */
    sl_api_batch batch;
    sl_api_row_seeds seeds;   /* --seeds (a batch's rows point at them) */
} sl_api_gen;
/* The prompt is s->context (a SRC) or context[0..context_n); steps with no
 * spec and no data is the command line's neither (or both) of --logits and --probs. */
int sl_api_gen_load(const char *cmd, const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                    const sl_api_settings *s, int allow_all, sl_api_gen *g, sl_error *err);
void sl_api_gen_free(sl_api_gen *g);

/* `samplab bench --framework F --logits ROWS` as a struct: the generation's
 * replay and F's pipeline timed in this thread's CPU time (api/bench.c). */
typedef struct sl_api_bench_result {
    sl_api_gen g;             /* the framework, the rows, the settings */
    size_t reps;              /* --n R repetitions (default 5), the best kept */
    double replay;            /* seconds per step of the replay loop */
    double pipe, pipe_s;      /* seconds per pipeline call: fresh buffers, a session's scratch; -1: none */
    const char *cpu;          /* the CPU kernel it ran, for a framework that takes --cpu (else NULL) */
    long *tokens;             /* the T tokens replayed */
    int loaded;
} sl_api_bench_result;
int sl_api_bench_run(const sl_api_src *steps, int is_logits, const sl_api_settings *s, sl_api_bench_result *r,
                     sl_error *err);
void sl_api_bench_result_free(sl_api_bench_result *r);
char *sl_api_bench_result_json(const sl_api_bench_result *r);
int sl_api_bench(const sl_api_src *steps, int is_logits, const sl_api_settings *s, char **json, sl_error *err);

/* ---------------------------------------------------------------- check (api/check.c) */

/* Where a seeded sampler, replayed over the observed history, first draws
 * another token than the observed one: step (m->t if never), the token it
 * draws there and both probabilities under that step's distribution. */
typedef struct sl_api_divergence {
    size_t step;
    size_t row;               /* a batch: the row (rows draw in order within a step) */
    long predicted;
    double p_observed, p_predicted;
} sl_api_divergence;
int sl_api_check_seeded(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m, const long *obs,
                        sl_api_divergence *out, sl_error *err);
/* The same for a batch: its rows in the batch's draw order, observed tokens row
 * after row (row b's step t at b·T + t); out->row names the row. */
int sl_api_check_batch_seeded(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m,
                              const sl_api_batch *bt, const long *obs, sl_api_divergence *out, sl_error *err);
/* samplers: llama.cpp's stage order in force (sl_api_samplers), or NULL; given (NULL: no
 * pipeline ran): the settings given, echoed in force (sl_api_settings_echo). */
char *sl_api_check_seeded_json(const sl_fw_type *ft, size_t T, const long *obs, const sl_api_divergence *d,
                               const char *samplers, const sl_logits_cfg *given);

#define SL_API_CHECK_MAX_TRIALS 100000 /* simulated logs per fault size: each is a whole generation */
/* Without a seed: the observed log (obs, one id per step of m) against the
 * claim's distribution at each step given the observed history (the prompt
 * context[0..context_n), then obs), and the power of that verdict against
 * temperature and top-p faults over `trials` simulated logs (0: none). */
typedef struct sl_api_check_log_result {
    size_t T, V;
    double alpha;
    size_t n_out;             /* steps whose observed token is outside the kept set */
    size_t *out_steps;        /* n_out steps */
    const char **out_why;     /* the filter that removed each (static strings) */
    sl_stat_gen_result res;   /* the tests and the verdict */
    size_t n_pit;
    size_t trials;            /* 0 when no power was simulated */
    int no_pipeline_note;     /* trials were asked for, but the framework has no pipeline to re-run */
    size_t n_alt;
    int alt_kind[16];         /* 0 temperature, 1 top-p */
    double alt_value[16], power[16];
    double det[2];            /* the smallest fault of each kind detected with 90 % power; NaN: none */
    double claimed_t, claimed_p;
    int has_topp;
} sl_api_check_log_result;
int sl_api_check_log(const sl_fw_type *ft, const sl_fw_opts *fo, int logits_input, const sl_io_steps *m,
                     const long *context, size_t context_n, const long *obs, double alpha, size_t trials,
                     sl_api_check_log_result *r, sl_error *err);
void sl_api_check_log_free(sl_api_check_log_result *r);
char *sl_api_check_log_json(const sl_fw_type *ft, const long *obs, const sl_api_check_log_result *r,
                            const char *samplers, const sl_logits_cfg *given);

/* `samplab check` as a struct: the generation, the observed ids and, with a
 * seed, the first divergence, else the test of the whole log. */
typedef struct sl_api_check_result {
    sl_api_gen g;             /* g.ft, g.steps (T, V), the prompt */
    long *obs;                /* T observed ids */
    double alpha;
    int seeded;               /* 1: d, else log */
    sl_api_divergence d;
    sl_api_check_log_result log;
    int loaded, has_log;
} sl_api_check_result;
/* The settings checked as the command checks them, the rows and tokens read,
 * the claim tested (one path for the command and the call). */
int sl_api_check_run(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                     const long *tokens, size_t n_tokens, const sl_api_settings *s, sl_api_check_result *r,
                     sl_error *err);
void sl_api_check_result_free(sl_api_check_result *r);
char *sl_api_check_result_json(const sl_api_check_result *r);

/* ---------------------------------------------------------------- audit (api/audit_log.c, api/audit.c)
 *
 * `samplab audit`: a serving engine judged through what its HTTP API answers,
 * per generated token, the token drawn and the top-N probabilities. */

/* One generated token: the one drawn and the listed entries, log-probabilities
 * of the raw softmax (post 0) or probabilities after the chain (post 1). Ids are
 * the engine's; where a log names tokens only by text, the index of the text in
 * the log's own table (sl_api_audit_log.text). */
typedef struct sl_api_audit_step {
    long chosen;
    double chosen_v;          /* NaN when the engine did not report it */
    size_t n;
    long *id;                 /* n entries, as listed (by decreasing value) */
    double *v;
} sl_api_audit_step;
enum { SL_API_AUDIT_SAMPLE, SL_API_AUDIT_REPEAT, SL_API_AUDIT_CONCURRENT };
typedef struct sl_api_audit_req {
    size_t line;              /* the line of the log it came from (1-based) */
    int purpose;              /* SL_API_AUDIT_*: a sample, or a repeat of request same_as alone or beside another */
    long same_as;             /* -1: none */
    int has_seed; uint64_t seed;
    int post;                 /* the values are post-sampling probabilities */
    size_t n_probs;           /* entries asked for per token (0: not known) */
    double started_ms, time_ms;
    size_t T;
    sl_api_audit_step *step;
} sl_api_audit_req;
typedef struct sl_api_audit_log {
    char api[16];             /* "llama-server", "openai" or "ollama" ("" when the log does not say) */
    int has_header;
    long *prompt; size_t prompt_n; /* the prompt's ids as the server evaluates them (NULL: not known) */
    struct json_t *claim;     /* the header's claim (llama-server's names), or NULL */
    char build[64];           /* the server's /props build_info, or Ollama's /api/version ("" when not said) */
    size_t n; sl_api_audit_req *r;
    size_t n_text; char **text; /* token texts standing for ids (a log without ids) */
    int by_text;              /* 1: ids are indices into text */
} sl_api_audit_log;
/* Reads a log: samplab audit's own (a header line, then a line per request) or one
 * response body per line (llama-server's /completion, or an OpenAI-compatible
 * completion or chat completion with logprobs). Malformed input is SL_EINVAL
 * naming name, the line and what is wrong there. */
int sl_api_audit_log_parse(const char *name, const char *text, size_t len, sl_api_audit_log *out, sl_error *err);
/* One response body (parsed JSON) as request r: its tokens and values. */
int sl_api_audit_response(const char *name, size_t line, struct json_t *resp, int post, sl_api_audit_log *lg,
                          sl_api_audit_req *r, sl_error *err);
void sl_api_audit_log_free(sl_api_audit_log *lg);
/* `samplab audit` as a struct: the claim, the requests made or read, the verdicts. */
typedef struct sl_api_audit_result {
    struct json_t *json;      /* the whole result as --json prints it */
    int rejected;             /* 1: some verdict is false */
} sl_api_audit_result;
/* Drives s->server (or reads s->log), records into s->out, judges. A server that
 * does not answer is SL_EIO, bad input SL_EINVAL; a verdict is not an error. */
int sl_api_audit_run(const sl_api_settings *s, sl_api_audit_result *r, sl_error *err);
void sl_api_audit_result_free(sl_api_audit_result *r);
int sl_api_audit(const sl_api_settings *s, char **json, sl_error *err);

#endif
