/* philox.c — Philox-4x32 with 10 rounds (Salmon et al., SC 2011; Random123 1.14
 * philox.h philox4x32: multipliers 0xD2511F53 and 0xCD9E8D57, Weyl key bumps
 * 0x9E3779B9 and 0xBB67AE85), the generator of cuRAND's curandStatePhilox4_32_10_t
 * (torch's CUDA path) and of TensorFlow's stateless random ops.
 * The "philox4x32" source is curand_init(S, Q, 0): key (S & 0xFFFFFFFF, S >> 32),
 * counter (0, 0, Q mod 2^32, Q >> 32) with --stream Q as the subsequence (0 unless
 * given), each block's four words in order, then the 128-bit counter + 1 (low word
 * first). Checked against Random123 itself: data/golden/random123/,
 * tests/test_rng_random123.c. */
#include "rng/sl_rng.h"

void sl_rng_philox4x32(const uint32_t key[2], const uint32_t ctr[4], uint32_t out[4])
{
    uint32_t k0 = key[0], k1 = key[1];
    uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
    for (int r = 0; r < 10; r++) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = (uint64_t)0xD2511F53u * x0, p1 = (uint64_t)0xCD9E8D57u * x2;
        uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0, y1 = (uint32_t)p1;
        uint32_t y2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1, y3 = (uint32_t)p0;
        x0 = y0, x1 = y1, x2 = y2, x3 = y3;
    }
    out[0] = x0, out[1] = x1, out[2] = x2, out[3] = x3;
}

static void refill(sl_rng_philox_state *s)
{
    const uint32_t ctr[4] = {(uint32_t)s->ctr_lo, (uint32_t)(s->ctr_lo >> 32), (uint32_t)s->ctr_hi,
                             (uint32_t)(s->ctr_hi >> 32)};
    sl_rng_philox4x32(s->key, ctr, s->buf);
    s->idx = 0;
}

static int philox_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    sl_rng_philox_state *s = state;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL,
                                 "philox4x32: the seed is curand_init's unsigned long long: give one below 2^64");
    s->key[0] = (uint32_t)seed->lo;
    s->key[1] = (uint32_t)(seed->lo >> 32);
    s->ctr_lo = 0;
    s->ctr_hi = seed->has_stream ? seed->stream : 0;
    refill(s);
    return SL_OK;
}

static void bump(sl_rng_philox_state *s, uint64_t lo, uint64_t hi)
{
    uint64_t o = s->ctr_lo;
    s->ctr_lo += lo;
    s->ctr_hi += hi + (s->ctr_lo < o);
}

static uint64_t philox_next(void *state)
{
    sl_rng_philox_state *s = state;
    if (s->idx == 4) {
        bump(s, 1, 0);
        refill(s);
    }
    return s->buf[s->idx++];
}

static void philox_fill32(void *state, uint32_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)philox_next(state);
}

/* Position = 4 * counter + idx, mod 2^130: the counter moves by delta / 4 (mod 2^128). */
static void philox_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    sl_rng_philox_state *s = state;
    uint64_t w = (uint64_t)s->idx + (delta_lo & 3u);
    bump(s, (delta_lo >> 2) | (delta_hi << 62), delta_hi >> 2);
    bump(s, w >> 2, 0);
    refill(s);
    s->idx = (unsigned)(w & 3u);
}

const sl_rng_type sl_rng_philox4x32_type = {
    .name = "philox4x32",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_philox_state),
    .seed = philox_seed,
    .next = philox_next,
    .advance = philox_advance,
    .fill32 = philox_fill32,
};
