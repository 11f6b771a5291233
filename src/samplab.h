/* samplab.h — the public API of samplab, one header.
 *
 * Layers (see README.md): random sources (rng/) feed draw methods (draw/) over a
 * probability vector that the logits pipelines (logits/) make; framework
 * emulations (framework/) fix one choice along that path; statistics (stats/)
 * judge counts against a reference; io/ reads vectors and writes reports.
 *
 * Conventions: library code returns a status (0 = ok) and fills an sl_error,
 * it never prints or exits; state is always passed in (no globals, after
 * pcg-c's _r functions); V = vocabulary size throughout.
 */
#ifndef SAMPLAB_H
#define SAMPLAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SL_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

enum { SL_OK = 0, SL_EINVAL = 2, SL_ENOMEM = 3, SL_EIO = 4 };

typedef struct sl_error {
    char msg[512]; /* one line, "source: what is wrong at which position" */
} sl_error;

/* Formats err->msg (printf style) and returns code, so callers can write
 * `return sl_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", src, i);`. */
int sl_error_set(sl_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---------------------------------------------------------------- seeds */

/* A seed as the user typed it, widened to 128 bits (NumPy takes up to 2^128-1,
 * torch and rand up to 2^64-1), plus an optional stream (PCG32's sequence). */
typedef struct sl_seed {
    uint64_t lo, hi;     /* value = hi * 2^64 + lo */
    uint64_t stream;     /* PCG stream selector; 0 unless given */
    int has_stream;
} sl_seed;

/* Parses a decimal or 0x-hex integer in [0, 2^128). */
int sl_seed_parse(const char *text, sl_seed *out, sl_error *err);
int sl_seed_parse_stream(const char *text, uint64_t *stream, sl_error *err); /* [0, 2^64) */

/* ---------------------------------------------------------------- random sources */

/* A generator type, after GSL's gsl_rng_type: a constant table over a
 * caller-owned state. `next` returns one native word (word_bits wide). */
typedef struct sl_rng_type {
    const char *name;
    unsigned word_bits;  /* 32 or 64 */
    size_t state_size;   /* bytes of state the caller allocates */
    int (*seed)(void *state, const sl_seed *seed, const void *param, sl_error *err);
    uint64_t (*next)(void *state);
    /* Optional: jump `delta` words (two's complement, so negative steps back). NULL if absent. */
    void (*advance)(void *state, uint64_t delta_lo, uint64_t delta_hi);
    /* Optional: releases resources inside the state (the GSL adapter). */
    void (*release)(void *state);
    const void *param;   /* adapter data (the GSL adapter keeps its gsl_rng_type here) */
    /* Optional: the next n words into out, exactly the words n calls of `next` would
     * return (one indirect call for a whole block). NULL if absent. */
    void (*fill)(void *state, uint64_t *out, size_t n);
} sl_rng_type;

/* A generator instance: type, state and the counting wrapper. Every word
 * drawn through sl_rng_next is tallied in `words`, so draw methods report
 * their consumption without knowing about counting. */
typedef struct sl_rng {
    const sl_rng_type *type;
    void *state;
    uint64_t words;
} sl_rng;

/* Looks up a generator by name: "pcg32", "mt19937", "gsl:NAME", and whatever
 * the framework layers register (sl_rng_types). NULL if unknown. */
const sl_rng_type *sl_rng_lookup(const char *name);
/* NULL-terminated list of the built-in types (gsl:* not listed). */
extern const sl_rng_type *const sl_rng_types[];

int sl_rng_init(sl_rng *r, const sl_rng_type *t, const sl_seed *seed, sl_error *err);
void sl_rng_release(sl_rng *r);

static inline uint64_t sl_rng_next(sl_rng *r)
{
    r->words++;
    return r->type->next(r->state);
}

/* The next n words, counted like n sl_rng_next calls: through the type's bulk
 * `fill` where it has one, word by word otherwise. */
static inline void sl_rng_fill(sl_rng *r, uint64_t *out, size_t n)
{
    r->words += n;
    if (r->type->fill) {
        r->type->fill(r->state, out, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = r->type->next(r->state);
}

/* The generator types of rng/. */
extern const sl_rng_type sl_rng_pcg32_type;   /* PCG XSH-RR 64/32, pcg-c pcg32_srandom_r */
extern const sl_rng_type sl_rng_mt19937_type; /* MT19937, init_genrand(seed mod 2^32) */

/* PCG32 primitives, exposed for tests and for rand's seed_from_u64. */
typedef struct sl_rng_pcg32_state {
    uint64_t state, inc;
} sl_rng_pcg32_state;
void sl_rng_pcg32_seed(sl_rng_pcg32_state *s, uint64_t initstate, uint64_t initseq);
uint32_t sl_rng_pcg32_next(sl_rng_pcg32_state *s);
/* Unbiased draw in [0, bound) by rejection (pcg-c pcg32_boundedrand_r); bound > 0. */
uint32_t sl_rng_pcg32_bounded(sl_rng_pcg32_state *s, uint32_t bound);
/* Jumps delta steps (mod 2^64, so -k steps back k), O(log delta): Brown 1994. */
void sl_rng_pcg32_advance(sl_rng_pcg32_state *s, uint64_t delta);

/* MT19937 primitives (Matsumoto & Nishimura 1998, mt19937ar.c). */
typedef struct sl_rng_mt19937_state {
    uint32_t mt[624];
    int mti;
} sl_rng_mt19937_state;
void sl_rng_mt19937_init_genrand(sl_rng_mt19937_state *s, uint32_t seed);
/* n words at once, the same as n sl_rng_mt19937_next calls (block twist, SIMD tempering). */
void sl_rng_mt19937_fill64(sl_rng_mt19937_state *s, uint64_t *out, size_t n);
void sl_rng_mt19937_init_by_array(sl_rng_mt19937_state *s, const uint32_t *key, size_t n);
uint32_t sl_rng_mt19937_next(sl_rng_mt19937_state *s);

/* ---------------------------------------------------------------- uniform conversions */
/* Each is named by what it does; the comment in rng/uniform.c says which library uses it. */

float sl_uniform_f32_low24(sl_rng *r);      /* (w & 0xFFFFFF) * 2^-24, 1 word: torch float32 */
float sl_uniform_f32_high24(sl_rng *r);     /* (w >> 8) * 2^-24, 1 word */
float sl_uniform_f32_mant23(sl_rng *r);     /* asfloat((w>>9)|0x3f800000) - 1, 1 word: Rust rand f32 */
double sl_uniform_f64_2x32_hifirst_low53(sl_rng *r); /* ((w1<<32|w2) & (2^53-1)) * 2^-53: torch float64 */
double sl_uniform_f64_2x32_numpy(sl_rng *r);/* ((w1>>5)*2^26 + (w2>>6)) * 2^-53: NumPy legacy, MT 2002 genrand_res53 */
double sl_uniform_f64_64_high53(uint64_t w);/* (w >> 11) * 2^-53: NumPy PCG64 next_double */
/* The generic 53-bit double the portable draw methods use: one 64-bit word
 * (high 53 bits), or two 32-bit words as genrand_res53 takes them. */
double sl_uniform_f64(sl_rng *r);
/* Words sl_uniform_f64 takes from a generator of this word width. */
unsigned sl_uniform_f64_words(const sl_rng_type *t);

/* ---------------------------------------------------------------- vectors */

typedef enum sl_dtype { SL_F64 = 0, SL_F32 = 1 } sl_dtype;

/* A 1-D vector of weights or logits as read. Both precisions are kept from
 * the source itself: text parsed by strtod into d and by strtof (correctly
 * rounded) into f, so a float32 consumer never sees a double rounding. */
typedef struct sl_vec {
    size_t n;
    double *d;
    float *f;
    sl_dtype dtype;      /* the source's own type (.npy), SL_F64 for text */
    char source[256];    /* name for messages: a file name or "inline" */
} sl_vec;

/* Reads "3,2,2,1" (inline), a text file, a .npy or (io/safetensors) a
 * .safetensors file. tensor/row select within a safetensors file (NULL/-1 if unused). */
int sl_io_vec_read(const char *spec, const char *tensor, long row, sl_vec *out, sl_error *err);
int sl_io_vec_read_text(const char *name, const char *text, size_t len, sl_vec *out, sl_error *err);
int sl_io_vec_read_npy(const char *name, const unsigned char *buf, size_t len, sl_vec *out, sl_error *err);
int sl_vec_alloc(sl_vec *v, size_t n, const char *source);
void sl_vec_free(sl_vec *v);
/* Reads a whole file into memory (caller frees). */
int sl_io_file_slurp(const char *path, unsigned char **buf, size_t *len, sl_error *err);

/* Checks weights: finite, >= 0, not all zero, not empty. Messages name the
 * source and the entry ("probs.txt: entry 17 is NaN"). Uses v->d. */
int sl_vec_check_weights(const sl_vec *v, sl_error *err);

/* ---------------------------------------------------------------- logits */

/* Numerically stable softmax of x/T in double: max subtracted first. T <= 0
 * is an error pointing to greedy. */
int sl_logits_softmax(const double *x, size_t n, double temperature, double *out, sl_error *err);

/* ---------------------------------------------------------------- draw methods */

/* A draw method, after GSL's gsl_ran_discrete: prepare once per distribution
 * (per-distribution cost), draw per token (per-draw cost), free. */
typedef struct sl_draw_type {
    const char *name;
    const char *cost;   /* one line: per-distribution work, per-draw work, words per draw */
    int (*prepare)(void **table, const double *p, size_t V, sl_error *err);
    size_t (*draw)(const void *table, sl_rng *rng);
    void (*free)(void *table);
} sl_draw_type;

extern const sl_draw_type sl_draw_exprace_type;
/* The exponential race without shortcuts, one sl_uniform_f64 and one log per token:
 * what exprace's draw must equal, token and words (kept for the tests). */
size_t sl_draw_exprace_reference(const double *p, size_t V, sl_rng *rng);
extern const sl_draw_type sl_draw_cdf_type;
extern const sl_draw_type sl_draw_linear_type;
extern const sl_draw_type sl_draw_alias_type;
extern const sl_draw_type sl_draw_greedy_type;
extern const sl_draw_type *const sl_draw_types[]; /* NULL-terminated */
const sl_draw_type *sl_draw_lookup(const char *name);
/* First i with cum[i] > target, or V if none (the cdf method's search). */
size_t sl_draw_cdf_search(const double *cum, size_t V, double target);

/* ---------------------------------------------------------------- framework emulations */

/* The options `samplab draw --framework F` passes; a framework declares in
 * `accepts` which it understands, and the CLI rejects the others by name. */
enum {
    SL_OPT_PROBS = 1u << 0, SL_OPT_LOGITS = 1u << 1, SL_OPT_TEMPERATURE = 1u << 2,
    SL_OPT_TOP_K = 1u << 3, SL_OPT_TOP_P = 1u << 4, SL_OPT_MIN_P = 1u << 5,
    SL_OPT_NUM_SAMPLES = 1u << 6, SL_OPT_REPLACEMENT = 1u << 7, SL_OPT_DTYPE = 1u << 8,
    SL_OPT_VARIANT = 1u << 9, SL_OPT_SIMD_SUM = 1u << 10, SL_OPT_TYPICAL = 1u << 11,
    SL_OPT_PENALTY = 1u << 12, SL_OPT_MIN_KEEP = 1u << 13, SL_OPT_DEFAULTS = 1u << 14
};

typedef struct sl_fw_opts {
    const sl_vec *probs;      /* exactly one of probs / logits */
    const sl_vec *logits;
    sl_seed seed;
    int has_seed;             /* 0: the framework's default seed */
    size_t n;                 /* calls */
    size_t k;                 /* samples per call (num-samples) */
    int replacement;
    int dtype_set; sl_dtype dtype;
    const char *variant;      /* e.g. torch "2"; NULL = default */
    int simd_sum;
    int has_temperature; double temperature;
    int has_top_k; long top_k;
    int has_top_p; double top_p;
    int has_min_p; double min_p;
    int has_typical; double typical;
    int has_penalty; double penalty; const long *context; size_t context_n;
    int has_min_keep; long min_keep;
    int defaults;
} sl_fw_opts;

/* What a framework run produced: n calls of k tokens each, row-major. */
typedef struct sl_fw_result {
    size_t n, k;
    long *tokens;             /* n*k entries, malloc'd */
    const char *rng_name;     /* as reported in --json */
    unsigned word_bits;
    uint64_t words;           /* words consumed by all calls */
} sl_fw_result;

typedef struct sl_framework_type {
    const char *name;
    const char *summary;      /* one line for --help */
    unsigned accepts;         /* SL_OPT_* bits */
    int (*run)(const sl_fw_opts *o, sl_fw_result *out, sl_error *err);
} sl_framework_type;

extern const sl_framework_type *const sl_framework_types[]; /* NULL-terminated */
const sl_framework_type *sl_framework_lookup(const char *name);
void sl_fw_result_free(sl_fw_result *r);

/* ---------------------------------------------------------------- per-area declarations */
/* Each later layer keeps its declarations in its own folder's header, so the
 * public API stays one include while the layers stay apart. */
#include "logits/sl_logits.h"
#include "framework/sl_framework.h"
#include "stats/sl_stats.h"
#include "io/sl_io.h"

#endif
