/* threefry.c — Threefry-2x32 with 20 rounds (Salmon, Moraes, Dror, Shaw, "Parallel
 * random numbers: as easy as 1, 2, 3", SC 2011; Random123 1.14 threefry.h,
 * threefry2x32 with R_32x2 rotations 13 15 26 6 17 29 16 24 and the key schedule
 * parity 0x1BD11BDA, a key injection after every 4 rounds). JAX's
 * threefry2x32_p (jax/_src/prng.py _threefry2x32_lowering) is the same function,
 * x = (x1, x2) and key = (key1, key2) in Random123's word order.
 * The "threefry2x32" source: --seed S is the key (S >> 32, S & 0xFFFFFFFF), as
 * JAX's threefry_seed makes it from a 64-bit seed; block i hashes the counter
 * (i mod 2^32, i >> 32) (Random123's ctr.v[0] first, as its incr() counts) and
 * yields its two words in order. Checked against Random123 itself:
 * data/golden/random123/, tests/test_rng_random123.c. */
#include "rng/sl_rng.h"

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
    return (x << r) | (x >> (32 - r));
}

void sl_rng_threefry2x32(const uint32_t key[2], const uint32_t ctr[2], uint32_t out[2])
{
    static const unsigned rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
    const uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
    uint32_t x0 = ctr[0] + ks[0], x1 = ctr[1] + ks[1];
    for (unsigned inj = 1; inj <= 5; inj++) {
        for (unsigned r = 0; r < 4; r++) {
            x0 += x1;
            x1 = rotl32(x1, rot[((inj - 1) & 1) * 4 + r]);
            x1 ^= x0;
        }
        x0 += ks[inj % 3];
        x1 += ks[(inj + 1) % 3] + inj;
    }
    out[0] = x0;
    out[1] = x1;
}

static void refill(sl_rng_threefry_state *s)
{
    const uint32_t ctr[2] = {(uint32_t)s->block, (uint32_t)(s->block >> 32)};
    sl_rng_threefry2x32(s->key, ctr, s->buf);
    s->idx = 0;
}

static int threefry_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    sl_rng_threefry_state *s = state;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL,
                                 "threefry2x32: the seed is a 64-bit key (S >> 32, S & 0xFFFFFFFF): give one below 2^64");
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL,
                                 "threefry2x32: --stream is not modelled by samplab (the counter starts at 0; "
                                 "JAX derives new streams by split or fold_in, not a stream id)");
    s->key[0] = (uint32_t)(seed->lo >> 32);
    s->key[1] = (uint32_t)seed->lo;
    s->block = 0;
    refill(s);
    return SL_OK;
}

static uint64_t threefry_next(void *state)
{
    sl_rng_threefry_state *s = state;
    if (s->idx == 2) {
        s->block++;
        refill(s);
    }
    return s->buf[s->idx++];
}

static void threefry_fill32(void *state, uint32_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)threefry_next(state);
}

/* Position = 2 * block + idx, mod 2^65 (the 64-bit counter of two-word blocks). */
static void threefry_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    sl_rng_threefry_state *s = state;
    uint64_t w = (uint64_t)s->idx + (delta_lo & 1u);
    s->block += (delta_lo >> 1) | (delta_hi << 63);
    s->block += w >> 1;
    refill(s);
    s->idx = (unsigned)(w & 1u);
}

const sl_rng_type sl_rng_threefry2x32_type = {
    .name = "threefry2x32",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_threefry_state),
    .seed = threefry_seed,
    .next = threefry_next,
    .advance = threefry_advance,
    .fill32 = threefry_fill32,
};
