/* sl_rng.h — the random-source layer: generator types, the counting wrapper,
 * uniform conversions, and every generator a framework seeds (one file each
 * in src/rng/). Uses the base layer only. Exported names start with sl_rng_. */
#ifndef SL_RNG_H
#define SL_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "base/sl_base.h"

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
    /* Optional, 32-bit types: the same block as 32-bit words (no widening). NULL if absent. */
    void (*fill32)(void *state, uint32_t *out, size_t n);
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

/* SL_EINVAL for t NULL (sl_rng_lookup of an unknown name); r->state is then NULL. */
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

/* The next n words of a 32-bit source as uint32_t, counted like n sl_rng_next
 * calls: through the type's fill32 where it has one, word by word otherwise. */
static inline void sl_rng_fill32(sl_rng *r, uint32_t *out, size_t n)
{
    r->words += n;
    if (r->type->fill32) {
        r->type->fill32(r->state, out, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)r->type->next(r->state);
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

/* MT19937 primitives (Matsumoto & Nishimura 1998, mt19937ar.c): the one twist
 * and temper every MT19937 type (mt19937, torch-mt19937, numpy-mt19937, the
 * draw kernels) goes through; the types differ only in seeding. */
typedef sl_base_mt19937 sl_rng_mt19937_state; /* base/mt19937.c has the twist and temper */
void sl_rng_mt19937_init_genrand(sl_rng_mt19937_state *s, uint32_t seed);
void sl_rng_mt19937_init_by_array(sl_rng_mt19937_state *s, const uint32_t *key, size_t n);
uint32_t sl_rng_mt19937_next(sl_rng_mt19937_state *s);
/* One twist of the whole state at the given SIMD level (the same state at every level). */
void sl_rng_mt19937_twist(sl_rng_mt19937_state *s, int level);
/* The next n words, the same as n sl_rng_mt19937_next calls: block twist, SIMD tempering. */
void sl_rng_mt19937_fill32(sl_rng_mt19937_state *s, uint32_t *out, size_t n);
void sl_rng_mt19937_fill64(sl_rng_mt19937_state *s, uint64_t *out, size_t n);
/* The next / fill / fill32 entries of every MT19937 type table (state: sl_rng_mt19937_state). */
uint64_t sl_rng_mt19937_type_next(void *state);
void sl_rng_mt19937_type_fill(void *state, uint64_t *out, size_t n);
void sl_rng_mt19937_type_fill32(void *state, uint32_t *out, size_t n);

/* ---------------------------------------------------------------- uniform conversions */
/* Each is named by what it does; the comment in rng/uniform.c says which library uses it. */

float sl_rng_uniform_f32_low24(sl_rng *r);      /* (w & 0xFFFFFF) * 2^-24, 1 word: torch float32 */
float sl_rng_uniform_f32_high24(sl_rng *r);     /* (w >> 8) * 2^-24, 1 word */
float sl_rng_uniform_f32_mant23(sl_rng *r);
float sl_rng_uniform_f32_hi32_low24(sl_rng *r); /* ((w >> 32) & 0xFFFFFF) * 2^-24, 1 word: Go math/rand/v2 Float32 */     /* asfloat((w>>9)|0x3f800000) - 1, 1 word: Rust rand f32 */
double sl_rng_uniform_f64_2x32_hifirst_low53(sl_rng *r); /* ((w1<<32|w2) & (2^53-1)) * 2^-53: torch float64 */
double sl_rng_uniform_f64_2x32_numpy(sl_rng *r);/* ((w1>>5)*2^26 + (w2>>6)) * 2^-53: NumPy legacy, MT 2002 genrand_res53 */
double sl_rng_uniform_f64_64_high53(uint64_t w);/* (w >> 11) * 2^-53: NumPy PCG64 next_double */
double sl_rng_uniform_f64_w32(sl_rng *r);     /* w * 2^-32, 1 word: seedrandom's alea() */
/* What libstdc++'s generate_canonical does with a result that rounds to 1: the
 * compiler a library was built with decides (the template is instantiated in
 * the caller), not the library. GCC 7 to 14 (bits/random.tcc) return
 * nextafter(1, 0) from the same words; GCC 15 and later (P0952R2) draw all the
 * words again. tests/oracle/stdcxx_uniform.cpp prints what this machine's
 * libstdc++ does, data/golden/current/stdcxx_uniform.txt what Debian sid's does. */
typedef enum sl_rng_stdcxx {
    SL_STDCXX_REDRAW = 0,     /* GCC >= 15: libllama 0.7.0 of Debian sid */
    SL_STDCXX_CLAMP = 1       /* GCC <= 14: node-llama-cpp's prebuilt llama.cpp (GCC 11.4), Debian 12 builds */
} sl_rng_stdcxx;
/* std::uniform_real_distribution<double>(0, 1) over a 32-bit engine as libstdc++
 * computes it: generate_canonical<double, 53>, two words, (w1 + w2 * 2^32) / 2^64
 * rounded to double; a 1 as `rule` says. */
double sl_rng_uniform_f64_stdcxx(sl_rng *r, sl_rng_stdcxx rule);
/* The same for float: generate_canonical<float, 24>, one word, float(w) / 2^32
 * (a 1 for w >= 0xFFFFFF80); llama_sampler_init_xtc draws it. */
float sl_rng_uniform_f32_stdcxx(sl_rng *r, sl_rng_stdcxx rule);
/* The generic 53-bit double the portable draw methods use: one 64-bit word
 * (high 53 bits), or two 32-bit words as genrand_res53 takes them. */
double sl_rng_uniform_f64(sl_rng *r);
/* Words sl_rng_uniform_f64 takes from a generator of this word width. */
unsigned sl_rng_uniform_f64_words(const sl_rng_type *t);

/* ---------------------------------------------------------------- torch's CPU generator (rng/torch_mt19937.c) */

/* torch's CPU generator: MT19937, init_genrand(seed & 0xFFFFFFFF), seeds up to 2^64-1. */
extern const sl_rng_type sl_rng_torch_mt19937_type;
int sl_rng_torch_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed, sl_error *err);

/* ---------------------------------------------------------------- NumPy (rng/seedseq.c, rng/pcg64.c, rng/numpy_mt19937.c) */

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
/* One step of the 128-bit LCG, state = state * 0x2360ed051fc65da4_4385df649fccf645 + inc
 * (pcg-c's PCG_DEFAULT_MULTIPLIER_128; Go's math/rand/v2 PCG uses the same). */
void sl_rng_pcg64_step(sl_rng_pcg64_state *s);
/* PCG64.advance(delta), delta mod 2^128 (Brown 1994, O(log delta)). */
void sl_rng_pcg64_advance(sl_rng_pcg64_state *s, uint64_t delta_lo, uint64_t delta_hi);

/* "pcg64": seed S as default_rng(S) (SeedSequence(S)); a stream q gives
 * SeedSequence(S, spawn_key=(q,)). 64-bit words. */
extern const sl_rng_type sl_rng_pcg64_type;
/* "numpy-mt19937": np.random.seed(S) (RandomState legacy seeding): S in
 * [0, 2^32) -> init_genrand(S). 32-bit words. */
extern const sl_rng_type sl_rng_numpy_mt19937_type;

/* ---------------------------------------------------------------- Python's random (rng/python_mt19937.c) */

/* "python-mt19937": CPython's random.seed(S) for an integer S (and transformers.js 4.x's
 * random.seed): init_by_array over S's base-2^32 digits, lowest first ([0] for 0). */
extern const sl_rng_type sl_rng_python_mt19937_type;
void sl_rng_python_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed);

/* ---------------------------------------------------------------- seedrandom's Alea (rng/alea.c) */

/* Alea (Baagøe 2010) as seedrandom 3.0.5 lib/alea.js has it: the three lags as
 * 32-bit words (s times 2^32) and the carry c. */
typedef struct sl_rng_alea_state {
    uint32_t s0, s1, s2, c;
} sl_rng_alea_state;
/* alea(seed) for a string of len bytes (each byte one UTF-16 code unit: exact for ASCII). */
void sl_rng_alea_seed_string(sl_rng_alea_state *s, const char *seed, size_t len);
/* The next output as a word: alea() is it times 2^-32. */
uint32_t sl_rng_alea_next(sl_rng_alea_state *s);
/* The JavaScript number a seed's decimal integer reads as (nearest, ties to even). */
double sl_rng_alea_seed_number(const sl_seed *seed);
/* "seedrandom-alea": alea(String(S)) for --seed S read as a JavaScript number. 32-bit words. */
extern const sl_rng_type sl_rng_alea_type;

/* ---------------------------------------------------------------- Go's math/rand/v2 PCG (rng/go_pcg.c) */

/* Go's rand.PCG (src/math/rand/v2/pcg.go, unchanged from Go 1.22 to 1.27): the
 * 128-bit LCG of pcg64 with Go's fixed increment 0x5851f42d4c957f2d_14057b7ef767814f,
 * stepped first, then DXSM of the new state. NewPCG(seed1, seed2) sets the state
 * to seed1:seed2 (high:low) as given, with no scrambling. */
void sl_rng_go_pcg_seed(sl_rng_pcg64_state *s, uint64_t seed1, uint64_t seed2);
uint64_t sl_rng_go_pcg_next(sl_rng_pcg64_state *s);
/* "go-pcg": Ollama's sample.NewSampler seeding (v0.6 to v0.25):
 * rand.NewPCG(S, S ^ 0x9E3779B9) for a seed S < 2^64; --stream Q gives
 * NewPCG(S, Q) instead. 64-bit words. */
extern const sl_rng_type sl_rng_go_pcg_type;

/* ---------------------------------------------------------------- SGLang's hash (rng/murmur3.c) */

/* MurmurHash3_x86_32, seed 0, of the blocks (seed mod 2^32, seed >> 32,
 * position mod 2^32, column): SGLang's murmur_hash32 for one (row, column). */
uint32_t sl_rng_murmur3_sglang(uint64_t seed, uint64_t position, uint32_t column);
typedef struct sl_rng_murmur3_state {
    uint64_t seed, position;
    uint32_t column;          /* the next word's column */
} sl_rng_murmur3_state;
/* "sglang-murmur3": --seed S is the request's sampling_seed (mod 2^64), --stream P
 * the position; word j is column j's hash. 32-bit words, one per column. */
extern const sl_rng_type sl_rng_murmur3_type;
/* Moves an sglang-murmur3 instance to `position`, column 0 (the next step's row). */
void sl_rng_murmur3_at(sl_rng *r, uint64_t position);

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

/* ---------------------------------------------------------------- Intel MKL's MCG31m1 (rng/mcg31m1.c) */

#define SL_RNG_MCG31M1_M 2147483647u /* modulus 2^31 - 1 */
#define SL_RNG_MCG31M1_A 1132489760u /* multiplier */

/* x is the next output: MKL returns the seeded state itself first. */
typedef struct sl_rng_mcg31m1_state {
    uint32_t x; /* in [1, 2^31 - 2] */
} sl_rng_mcg31m1_state;

/* vslNewStream(VSL_BRNG_MCG31, seed): x = seed mod (2^31 - 1), then 0 becomes 1.
 * The seed is MKL_UINT, 32 bits in the LP64 interface; callers holding 64 bits cut
 * them first (torch's int64_t seed converts to unsigned int at the call). */
void sl_rng_mcg31m1_seed(sl_rng_mcg31m1_state *s, uint32_t seed);
/* One raw output (viRngUniformBits), in [1, 2^31 - 2]; then x <- a·x mod m. */
uint32_t sl_rng_mcg31m1_next(sl_rng_mcg31m1_state *s);
/* vslSkipAheadStream(n): x <- a^n·x mod m, O(log n). The period is 2^31 - 2. */
void sl_rng_mcg31m1_skip(sl_rng_mcg31m1_state *s, uint64_t n);
/* a^n mod m */
uint32_t sl_rng_mcg31m1_pow(uint64_t n);
/* vdRngUniform(0, 1): x · (1.0 / m) in double (one rounding of the product). */
double sl_rng_mcg31m1_u01_f64(uint32_t x);
/* vsRngUniform(0, 1) on MKL's AVX2 and AVX-512 branches: (float)x · (float)(1/m),
 * and (float)(1/m) is 2^-31, so this is (float)x · 2^-31; it reaches 1.0f for the
 * 63 states x >= 2^31 - 64. (The SSE4.2 branch rounds differently: x / m in double,
 * then to float; sl_rng_mcg31m1_u01_f32_sse42.) */
float sl_rng_mcg31m1_u01_f32(uint32_t x);
float sl_rng_mcg31m1_u01_f32_sse42(uint32_t x);

/* Type "mcg31m1": 31-bit words (the raw outputs), seed below 2^64 taken mod 2^32
 * as the LP64 call does; advance is the skip-ahead. */
extern const sl_rng_type sl_rng_mcg31m1_type;

/* ---------------------------------------------------------------- counter-based generators (rng/threefry.c, rng/philox.c) */

/* Threefry-2x32-20 of one counter block (Random123 threefry2x32; JAX's threefry2x32_p). */
void sl_rng_threefry2x32(const uint32_t key[2], const uint32_t ctr[2], uint32_t out[2]);
typedef struct sl_rng_threefry_state {
    uint32_t key[2];
    uint64_t block;          /* the block in buf: counter (block mod 2^32, block >> 32) */
    uint32_t buf[2];
    unsigned idx;            /* next word of buf; 2 = spent */
} sl_rng_threefry_state;
/* "threefry2x32": key (S >> 32, S & 0xFFFFFFFF) as JAX's PRNGKey(S) of a 64-bit S, counter
 * 0, 1, 2, ..., each block's two words in order. 32-bit words. */
extern const sl_rng_type sl_rng_threefry2x32_type;

/* Philox-4x32-10 of one counter block (Random123 philox4x32; cuRAND's Philox4_32_10). */
void sl_rng_philox4x32(const uint32_t key[2], const uint32_t ctr[4], uint32_t out[4]);
typedef struct sl_rng_philox_state {
    uint32_t key[2];
    uint64_t ctr_lo, ctr_hi; /* the block in buf: words (lo, lo >> 32, hi, hi >> 32) */
    uint32_t buf[4];
    unsigned idx;            /* next word of buf; 4 = spent */
} sl_rng_philox_state;
/* "philox4x32": curand_init(S, Q, 0): key (S & 0xFFFFFFFF, S >> 32), counter (0, 0, Q),
 * --stream Q the subsequence; each block's four words in order. 32-bit words. */
extern const sl_rng_type sl_rng_philox4x32_type;

/* ---------------------------------------------------------------- JAX's and MLX's keys (rng/jax_prng.c, rng/mlx_random.c) */

/* jax.random.PRNGKey(S) in JAX's default 32-bit mode: (0, S mod 2^32). */
void sl_rng_jax_key(uint64_t seed, uint32_t key[2]);
/* random_bits(key, 32, (n,)): partitionable (jax_threefry_partitionable, JAX >= 0.5) or
 * the original halves layout; SL_EINVAL where the original needs more than one block. */
int sl_rng_jax_bits32(const uint32_t key[2], size_t n, int partitionable, uint32_t *out, sl_error *err);
/* split(key, n) into out[0..n). */
void sl_rng_jax_split(const uint32_t key[2], size_t n, int partitionable, uint32_t (*out)[2]);
void sl_rng_jax_fold_in(const uint32_t key[2], uint32_t data, uint32_t out[2]);
/* uniform(..., float32, minval, maxval) of one 32-bit word. */
float sl_rng_jax_uniform_f32(uint32_t w, float minval, float maxval);
/* mlx.core.random.key(S): (S >> 32, S & 0xFFFFFFFF). */
void sl_rng_mlx_key(uint64_t seed, uint32_t key[2]);
/* KeySequence::next(): split(key); key becomes the first half, used the second. */
void sl_rng_mlx_next_key(uint32_t key[2], uint32_t used[2]);
/* uniform(shape, float32) of one word: min(float(w) / 2^32, nextafter(1, 0)). */
float sl_rng_mlx_uniform_f32(uint32_t w);

#endif
