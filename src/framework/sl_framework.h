/* sl_framework.h — framework emulations: generators and helpers of the bit-exact emulations.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_FRAMEWORK_H
#define SL_FRAMEWORK_H

#include <stddef.h>
#include <stdint.h>

/* llama.cpp (framework/llamacpp.c): the chain of logits/llamacpp.c, then
 * llama_sampler_dist_apply with std::mt19937 and libstdc++'s uniform double. */
extern const sl_framework_type sl_framework_llamacpp_type;
/* transformers (framework/hf.c): the hf pipeline, then the torch framework's
 * torch.multinomial(probs, 1). */
extern const sl_framework_type sl_framework_hf_type;
/* vLLM (framework/vllm.c): the vllm pipeline, then random_sample's
 * argmax(probs / q) from the request's seeded torch.Generator. */
extern const sl_framework_type sl_framework_vllm_type;
/* std::uniform_real_distribution<double>(0, 1) over std::mt19937 as
 * libstdc++ computes it: generate_canonical<double, 53>, two 32-bit words. */
double sl_fw_llamacpp_uniform(sl_rng *r);
/* ---------------------------------------------------------------- torch (framework/torch.c) */

/* torch's CPU generator: MT19937, init_genrand(seed & 0xFFFFFFFF), seeds up to 2^64-1. */
extern const sl_rng_type sl_rng_torch_mt19937_type;
int sl_rng_torch_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed, sl_error *err);
/* Writes the next n words (the same as n sl_rng_mt19937_next calls), a block at a time. */
void sl_rng_torch_mt19937_fill(sl_rng_mt19937_state *s, uint32_t *out, size_t n);
void sl_rng_torch_mt19937_twist(sl_rng_mt19937_state *s);
/* Vector width of the twist and of the race's pre-test. AUTO picks AVX2 when the CPU
 * has it, else SSE2 (x86-64), else scalar; tests force each level (same output). */
enum { SL_SIMD_AUTO = 0, SL_SIMD_SCALAR = 1, SL_SIMD_SSE2 = 2, SL_SIMD_AVX2 = 3 };
int sl_rng_torch_simd_level(int wanted);   /* the level that will run for `wanted` */
void sl_rng_torch_mt19937_twist_simd(sl_rng_mt19937_state *s, int level);

extern const sl_framework_type sl_framework_torch_type;

enum { SL_TORCH_1_13 = 1, SL_TORCH_2 = 2 };   /* emulated release line (2: checked on 2.6.0) */
enum { SL_TORCH_FAST = 0, SL_TORCH_NAIVE = 1 };/* one-sample race: log-skipping or every log */

/* One probability row as torch holds it, prepared once for many calls. */
typedef struct sl_fw_torch_dist {
    size_t V;
    sl_dtype dtype;        /* SL_F32: pf is read; SL_F64: pd */
    const float *pf;
    const double *pd;
    int version;           /* SL_TORCH_1_13 or SL_TORCH_2 */
    float *bound;          /* float upper bounds of p (the fast race's pre-test) */
    void *cdf;             /* replacement path: normalised cumulative sums (float or double) */
    /* input checks, done once: index of the first entry each path rejects (SIZE_MAX: none) */
    size_t bad_race;       /* NaN, +-inf or < 0 (race path message) */
    size_t bad_cdf;        /* first entry failing `val >= 0 && isfinite(val)` */
    int bad_cdf_neg;       /* 1: that entry fails `val >= 0` (also NaN), 0: it is infinite */
    int all_zero;          /* race: sum == 0 */
    int cdf_sum_ok;        /* replacement: sequential dtype sum > 0 */
    const char *source;    /* name for messages */
    int simd;              /* SL_SIMD_* level of the fast race (prepare: the best available) */
} sl_fw_torch_dist;

/* Prepares p (not copied: pf/pd must outlive dist). Only allocation fails here;
 * invalid entries are reported by the call that meets them, as torch does. */
int sl_fw_torch_prepare(sl_fw_torch_dist *d, const float *pf, const double *pd, size_t V, sl_dtype dtype,
                        int version, const char *source, sl_error *err);
void sl_fw_torch_free(sl_fw_torch_dist *d);

/* One torch.multinomial(p, k, replacement) call: writes k tokens to out and adds the
 * 32-bit words drawn to *words. Errors (torch's message quoted) draw nothing. mode:
 * SL_TORCH_FAST or SL_TORCH_NAIVE (the reference the fast path is tested against). */
int sl_fw_torch_multinomial(const sl_fw_torch_dist *d, sl_rng_mt19937_state *mt, size_t k, int replacement,
                            int mode, long *out, uint64_t *words, sl_error *err);

/* torch.empty(n, dtype).exponential_() (lambda = 1), widened to double; adds 2·n to *words. */
void sl_fw_torch_exponential(sl_rng_mt19937_state *mt, sl_dtype dtype, int version, double *out, size_t n,
                             uint64_t *words);

/* torch.topk(v, k) indices (largest, sorted) with libstdc++'s order among equal values;
 * the tests compare it with the real std::partial_sort / nth_element / sort. */
int sl_fw_torch_topk(const double *v, size_t V, size_t k, long *out, sl_error *err);

/* ---------------------------------------------------------------- NumPy (rng/seedseq.c, rng/pcg64.c,
 * rng/numpy_mt19937.c, framework/numpy.c) and GSL (framework/gsl.c) */

/* NumPy's SeedSequence (numpy/random/bit_generator.pyx, v1.24): a 4-word pool
 * hashed from the entropy words (lowest base-2^32 digit first) and an optional
 * spawn key; generate_state hashes the pool out again. */
typedef struct sl_rng_seedseq {
    uint32_t pool[4];
} sl_rng_seedseq;
/* entropy: n words (n >= 1); spawn: nspawn words appended after the entropy,
 * which is first zero-padded to 4 words when a spawn key is present. */
void sl_rng_seedseq_init(sl_rng_seedseq *ss, const uint32_t *entropy, size_t n,
                         const uint32_t *spawn, size_t nspawn);
void sl_rng_seedseq_generate32(const sl_rng_seedseq *ss, uint32_t *out, size_t n);
/* generate_state(n, np.uint64): word i = w[2i] | w[2i+1] << 32. */
void sl_rng_seedseq_generate64(const sl_rng_seedseq *ss, uint64_t *out, size_t n);
/* An integer as NumPy coerces it: base-2^32 digits, lowest first, 0 -> [0].
 * Returns the count (1..4). */
size_t sl_rng_seedseq_int_words(uint64_t lo, uint64_t hi, uint32_t out[4]);

/* PCG64 as NumPy 1.24 uses it: pcg-c's setseq XSL-RR 128/64 (step first,
 * then output from the new state). 128-bit values as hi/lo halves. */
typedef struct sl_rng_pcg64_state {
    uint64_t state_hi, state_lo, inc_hi, inc_lo;
} sl_rng_pcg64_state;
void sl_rng_pcg64_srandom(sl_rng_pcg64_state *s, uint64_t initstate_hi, uint64_t initstate_lo,
                          uint64_t initseq_hi, uint64_t initseq_lo);
/* default_rng / PCG64(seed) with a SeedSequence: generate_state(4, uint64). */
void sl_rng_pcg64_seed_seedseq(sl_rng_pcg64_state *s, const sl_rng_seedseq *ss);
uint64_t sl_rng_pcg64_next(sl_rng_pcg64_state *s);
/* PCG64.advance(delta), delta mod 2^128 (Brown 1994, O(log delta)). */
void sl_rng_pcg64_advance(sl_rng_pcg64_state *s, uint64_t delta_lo, uint64_t delta_hi);

/* "pcg64": seed S as default_rng(S) (SeedSequence(S)); a stream q gives
 * SeedSequence(S, spawn_key=(q,)). 64-bit words. */
extern const sl_rng_type sl_rng_pcg64_type;
/* "numpy-mt19937": np.random.seed(S) (RandomState legacy seeding): S in
 * [0, 2^32) -> init_genrand(S). 32-bit words. */
extern const sl_rng_type sl_rng_numpy_mt19937_type;

/* NumPy's choice(V, p=p) with replacement (Generator and RandomState, v1.24):
 * validation, then cdf = cumsum(p) left to right, cdf /= cdf[-1], and
 * searchsorted(cdf, u, side='right'). */
typedef struct sl_fw_numpy_check {
    int code;            /* 0 ok, else the NumPy ValueError below */
    const char *numpy_message; /* NumPy's own text, e.g. "probabilities do not sum to 1" */
    double kahan_sum;    /* NumPy's kahan_sum(p) */
    double atol;         /* sqrt(eps) of float64, or of float32 for a float32 array */
    size_t entry;        /* the first offending entry (NaN / negative) */
} sl_fw_numpy_check;
/* p in float64 (a float32 array widened exactly); is_f32: p came as a float32
 * ndarray, which widens NumPy's tolerance to sqrt(FLT_EPSILON). */
void sl_fw_numpy_validate(const double *p, size_t V, int is_f32, sl_fw_numpy_check *out);
/* NumPy's kahan_sum from numpy/random/_common.pyx (V >= 1). */
double sl_fw_numpy_kahan_sum(const double *p, size_t V);
/* cdf[i] = p[0] + ... + p[i] left to right, then each divided by cdf[V-1]. */
void sl_fw_numpy_cdf_build(const double *p, size_t V, double *cdf);
/* #{i : cdf[i] <= u} = searchsorted(cdf, u, side='right'). */
size_t sl_fw_numpy_cdf_search(const double *cdf, size_t V, double u);

extern const sl_framework_type sl_framework_numpy_type;        /* "numpy" */
extern const sl_framework_type sl_framework_numpy_legacy_type; /* "numpy-legacy" */
extern const sl_framework_type sl_framework_gsl_type;          /* "gsl" */

/* ---------------------------------------------------------------- ChaCha (rng/chacha12.c) */

/* A ChaCha keystream as rand_chacha 0.3.1 lays it out: words 0-3 the
 * constants, 4-11 the key, 12/13 a 64-bit block counter (low, high), 14/15 a
 * 64-bit stream id. rand_core's BlockRng reads it through a 4-block buffer;
 * the stream is contiguous, so the buffer size never shows in the output and
 * ours holds 8 blocks (one AVX2 refill). */
#define SL_CHACHA_BUF_BLOCKS 8
#define SL_CHACHA_BUF_WORDS (16 * SL_CHACHA_BUF_BLOCKS)
typedef struct sl_rng_chacha_state {
    uint32_t key[8];
    uint64_t counter;        /* block counter of the next refill */
    uint64_t stream;
    unsigned double_rounds;  /* 6 = ChaCha12, 10 = ChaCha20 */
    unsigned idx;            /* next word in buf; SL_CHACHA_BUF_WORDS = empty */
    uint32_t buf[SL_CHACHA_BUF_WORDS];
} sl_rng_chacha_state;

/* One ChaCha block: `double_rounds` column+diagonal double rounds over the
 * 16-word input, then the input added (RFC 7539 section 2.3). */
void sl_rng_chacha_block(const uint32_t in[16], unsigned double_rounds, uint32_t out[16]);
void sl_rng_chacha_init(sl_rng_chacha_state *s, const uint32_t key[8], uint64_t stream, unsigned double_rounds);
void sl_rng_chacha_refill(sl_rng_chacha_state *s);
/* rand's next_u32: the next keystream word. */
static inline uint32_t sl_rng_chacha_next(sl_rng_chacha_state *s)
{
    if (s->idx >= SL_CHACHA_BUF_WORDS)
        sl_rng_chacha_refill(s);
    return s->buf[s->idx++];
}
/* rand's next_u64: two consecutive words, the first in the low half (also
 * across a buffer refill, as BlockRng does). */
uint64_t sl_rng_chacha_next_u64(sl_rng_chacha_state *s);
/* ChaCha12Rng::set_word_pos / get_word_pos: a 68-bit word position, given
 * and returned as block (word / 16, mod 2^64) and word within the block. */
void sl_rng_chacha_set_pos(sl_rng_chacha_state *s, uint64_t block, unsigned word);
void sl_rng_chacha_get_pos(const sl_rng_chacha_state *s, uint64_t *block, unsigned *word);

/* rand_core 0.6 SeedableRng::seed_from_u64 for a 32-byte seed: PCG32
 * (multiplier 6364136223846793005, increment 11634580027462260723), state
 * advanced before each output, 8 outputs = the 8 key words. */
void sl_rng_rand_seed_from_u64(uint64_t seed, uint32_t key[8]);

/* "chacha12": ChaCha12 with key = the 128-bit --seed little-endian (low 64
 * bits first) followed by 16 zero bytes, stream = --stream: that is
 * ChaCha12Rng::from_seed(key) + set_stream(stream). 32-bit words. */
extern const sl_rng_type sl_rng_chacha12_type;
/* "rand-stdrng": rand 0.8/0.9 StdRng::seed_from_u64(--seed) = ChaCha12 keyed
 * by the PCG32 expansion, stream 0. 32-bit words = next_u32; rand's next_u64
 * is two words, low first (sl_rng_next_u64_lohi). Seeds below 2^64, no stream. */
extern const sl_rng_type sl_rng_rand_stdrng_type;

/* rand's next_u64 over any 32-bit source: low word first. Counts 2 words. */
static inline uint64_t sl_rng_next_u64_lohi(sl_rng *r)
{
    uint64_t lo = (uint32_t)sl_rng_next(r);
    uint64_t hi = (uint32_t)sl_rng_next(r);
    return lo | (hi << 32);
}

/* ---------------------------------------------------------------- rand 0.8.5 WeightedIndex<f32> (framework/rand_wi.c) */

/* What WeightedIndex::new reports. The panics are rand's `assert!`s in
 * UniformFloat::new (release build), reported here as errors. */
typedef enum sl_fw_rand_status {
    SL_RAND_OK = 0,
    SL_RAND_NO_ITEM,           /* WeightedError::NoItem: empty input */
    SL_RAND_INVALID_WEIGHT,    /* WeightedError::InvalidWeight: < 0, NaN, -inf */
    SL_RAND_ALL_WEIGHTS_ZERO,  /* WeightedError::AllWeightsZero: total == 0 (also -0.0) */
    SL_RAND_PANIC_RANGE,       /* panic "Uniform::new: range overflow": the f32 total is +inf */
    SL_RAND_NOMEM              /* ours: out of memory for the table */
} sl_fw_rand_status;

const char *sl_fw_rand_status_name(sl_fw_rand_status s);

/* UniformFloat<f32>::new(low, high) of rand 0.8.5: scale = high - low, then
 * shrunk one ulp at a time while scale * (1 - 2^-23) + low >= high. Returns
 * SL_RAND_PANIC_RANGE when rand panics (low >= high, or a non-finite scale). */
sl_fw_rand_status sl_fw_rand_uniform_f32_new(float low, float high, float *scale);
/* One sample: value1_2 = bits (w >> 9) | 0x3f800000, minus 1, times scale, plus low. One word. */
float sl_fw_rand_uniform_f32_sample(float low, float scale, sl_rng *rng);

typedef struct sl_fw_rand_wi {
    float *cum;      /* the n-1 running f32 sums rand stores (cum[i] = w[0] + ... + w[i]) */
    size_t n;        /* number of weights */
    float total;     /* f32 sum of all weights, left to right */
    float scale;     /* UniformFloat<f32>::new(0, total).scale */
} sl_fw_rand_wi;

/* WeightedIndex::<f32>::new(w[0..n]), checks in rand's order (first entry,
 * then each later one, then the total, then the uniform). On an error `*bad`
 * (if not NULL) is the offending entry for SL_RAND_INVALID_WEIGHT, else n,
 * and nothing stays allocated. Never touches a generator. */
sl_fw_rand_status sl_fw_rand_wi_new(sl_fw_rand_wi *wi, const float *w, size_t n, size_t *bad);
/* Distribution::sample: one u32, one uniform f32 in [0, total), then the
 * number of stored sums <= it (binary_search_by ... unwrap_err). */
size_t sl_fw_rand_wi_sample(const sl_fw_rand_wi *wi, sl_rng *rng);
/* n samples into out[0..n): the same draws as n calls, in one loop. */
void sl_fw_rand_wi_sample_many(const sl_fw_rand_wi *wi, sl_rng *rng, size_t n, size_t *out);
void sl_fw_rand_wi_free(sl_fw_rand_wi *wi);

/* ---------------------------------------------------------------- framework types */

/* "candle": candle 0.11 LogitsProcessor / rand WeightedIndex<f32> with StdRng. */
extern const sl_framework_type sl_framework_candle_type;

/* ---------------------------------------------------------------- shared by the logits frameworks (framework/after_pipeline.c) */

/* The draw options as pipeline settings (every field copied). */
void sl_fw_logits_cfg_from_opts(const sl_fw_opts *o, sl_logits_cfg *c);
/* Runs pipeline t on o->logits, then torch.multinomial(probs, 1) per call
 * (argmax without a word when the settings are greedy). */
int sl_fw_torch_after_pipeline(const sl_pipeline_type *t, const sl_fw_opts *o, sl_fw_result *out, sl_error *err);

#endif
