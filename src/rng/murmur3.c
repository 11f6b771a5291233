/* murmur3.c — the "sglang-murmur3" random source: the counter-based hash that
 * SGLang's deterministic sampling draws its uniforms from (--enable-deterministic-
 * inference; sglang/kernels/ops/sampling/murmur_hash.py murmur_hash32, the Triton
 * kernel and its CPU torch twin _murmur_hash32_torch, read after PR #33423 and
 * unchanged since v0.5.9). Word j of the stream at position P for seed S is
 * MurmurHash3_x86_32 (Appleby) with seed 0 over four 32-bit blocks: S mod 2^32,
 * S >> 32, P mod 2^32, j; length 16. SGLang hashes one word per column of the
 * vocabulary (or of the sorted vocabulary) each step. Reference values:
 * SGLang's test_murmur_hash32_cpu_known_values, replayed in tests/test_sglang.c. */
#include "rng/sl_rng.h"

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
    return (x << r) | (x >> (32 - r));
}

static inline uint32_t mix(uint32_t h, uint32_t k)
{
    k *= 0xCC9E2D51u;
    k = rotl32(k, 15);
    k *= 0x1B873593u;
    h ^= k;
    h = rotl32(h, 13);
    return h * 5u + 0xE6546B64u;
}

uint32_t sl_rng_murmur3_sglang(uint64_t seed, uint64_t position, uint32_t column)
{
    uint32_t h = mix(0, (uint32_t)seed);
    h = mix(h, (uint32_t)(seed >> 32));
    h = mix(h, (uint32_t)position); /* SGLang's .to(tl.uint32): the position mod 2^32 */
    h = mix(h, column);
    h ^= 16u; /* the key's length in bytes */
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    return h ^ (h >> 16);
}

static int murmur3_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    sl_rng_murmur3_state *s = state;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL,
                                 "sglang-murmur3: the seed is SGLang's int64 sampling_seed as uint64 (S mod 2^64; "
                                 "a negative seed -s is 2^64 - s): give one below 2^64");
    s->seed = seed->lo;
    s->position = seed->has_stream ? seed->stream : 0;
    s->column = 0;
    return SL_OK;
}

static uint64_t murmur3_next(void *state)
{
    sl_rng_murmur3_state *s = state;
    return sl_rng_murmur3_sglang(s->seed, s->position, s->column++);
}

static void murmur3_fill32(void *state, uint32_t *out, size_t n)
{
    sl_rng_murmur3_state *s = state;
    for (size_t i = 0; i < n; i++)
        out[i] = sl_rng_murmur3_sglang(s->seed, s->position, s->column++);
}

static void murmur3_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_murmur3_state *s = state;
    for (size_t i = 0; i < n; i++)
        out[i] = sl_rng_murmur3_sglang(s->seed, s->position, s->column++);
}

static void murmur3_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    (void)delta_hi; /* the column is 32 bits: a jump wraps mod 2^32 */
    sl_rng_murmur3_state *s = state;
    s->column += (uint32_t)delta_lo;
}

void sl_rng_murmur3_at(sl_rng *r, uint64_t position)
{
    sl_rng_murmur3_state *s = r->state;
    s->position = position;
    s->column = 0;
}

const sl_rng_type sl_rng_murmur3_type = {
    .name = "sglang-murmur3",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_murmur3_state),
    .seed = murmur3_seed,
    .next = murmur3_next,
    .advance = murmur3_advance,
    .fill = murmur3_fill,
    .fill32 = murmur3_fill32,
};
