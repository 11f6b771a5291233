/* rand_stdrng.c — Rust rand's StdRng::seed_from_u64 as a random source.
 * rand 0.8.5 (rngs/std.rs: StdRng = ChaCha12Rng from rand_chacha 0.3.1) and
 * rand 0.9 (rand_chacha 0.9, same layout): rand_core 0.6.3 seed_from_u64
 * expands the u64 with PCG32 into the 32-byte key, nonce/stream 0, counter 0.
 * Words are next_u32; rand's next_u64 is two consecutive words, low first,
 * also across the 64-word buffer boundary (sl_rng_next_u64_lohi).
 * Known divergences: none; seeds must be below 2^64 and there is no stream. */
#include "rng/sl_rng.h"

static int stdrng_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "rand-stdrng takes a seed below 2^64 (seed_from_u64)");
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL,
                            "rand-stdrng has no stream (StdRng::seed_from_u64); use --rng chacha12 for set_stream");
    uint32_t key[8];
    sl_rng_rand_seed_from_u64(seed->lo, key);
    sl_rng_chacha_init(state, key, 0, 6);
    return SL_OK;
}

static uint64_t stdrng_next(void *state)
{
    return sl_rng_chacha_next(state);
}

static void stdrng_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_chacha_state *s = state;
    for (size_t i = 0; i < n; i++)
        out[i] = sl_rng_chacha_next(s);
}

static void stdrng_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    sl_rng_chacha12_type.advance(state, delta_lo, delta_hi);
}

const sl_rng_type sl_rng_rand_stdrng_type = {
    .name = "rand-stdrng",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_chacha_state),
    .seed = stdrng_seed,
    .next = stdrng_next,
    .fill = stdrng_fill,
    .advance = stdrng_advance,
    .release = NULL,
    .param = NULL,
};
