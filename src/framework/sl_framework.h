/* sl_framework.h — framework emulations: generators and helpers of the bit-exact emulations.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_FRAMEWORK_H
#define SL_FRAMEWORK_H

#include <stddef.h>
#include <stdint.h>

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

#endif
