/* mt19937.c — MT19937 (Matsumoto & Nishimura 1998), as the reference
 * mt19937ar.c (2002) writes init_genrand, init_by_array and genrand_int32.
 * Type "mt19937": init_genrand(seed mod 2^32), the same words as C++'s
 * std::mt19937(seed); torch, NumPy legacy and GSL differ only in seeding and
 * in how they turn words into floats, and get their own types. */
#include "rng/sl_rng.h"

#define MT_N 624
#define MT_M 397

void sl_rng_mt19937_init_genrand(sl_rng_mt19937_state *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->mti = MT_N; /* the first draw twists */
}

void sl_rng_mt19937_init_by_array(sl_rng_mt19937_state *s, const uint32_t *key, size_t n)
{
    sl_rng_mt19937_init_genrand(s, 19650218u);
    size_t i = 1, j = 0;
    for (size_t k = (MT_N > n ? MT_N : n); k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
        if (j >= n)
            j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
    }
    s->mt[0] = 0x80000000u; /* MSB is 1, assuring a non-zero initial array */
}

static void mt_twist(sl_rng_mt19937_state *s)
{
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    int k;
    for (k = 0; k < MT_N - MT_M; k++) {
        uint32_t y = (s->mt[k] & 0x80000000u) | (s->mt[k + 1] & 0x7fffffffu);
        s->mt[k] = s->mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
    }
    for (; k < MT_N - 1; k++) {
        uint32_t y = (s->mt[k] & 0x80000000u) | (s->mt[k + 1] & 0x7fffffffu);
        s->mt[k] = s->mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
    }
    uint32_t y = (s->mt[MT_N - 1] & 0x80000000u) | (s->mt[0] & 0x7fffffffu);
    s->mt[MT_N - 1] = s->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
    s->mti = 0;
}

uint32_t sl_rng_mt19937_next(sl_rng_mt19937_state *s)
{
    if (s->mti >= MT_N)
        mt_twist(s);
    uint32_t y = s->mt[s->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static int mt19937_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    /* std::mt19937(s) takes s mod 2^32 of an unsigned long: seeds up to 2^64-1 */
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "mt19937 takes a seed below 2^64");
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL, "mt19937 has no streams (--stream selects a PCG or ChaCha stream)");
    sl_rng_mt19937_init_genrand(state, (uint32_t)seed->lo);
    return SL_OK;
}

static uint64_t mt19937_next(void *state)
{
    return sl_rng_mt19937_next(state);
}

static void mt19937_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_mt19937_fill64(state, out, n);
}

const sl_rng_type sl_rng_mt19937_type = {
    .name = "mt19937",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_mt19937_state),
    .seed = mt19937_seed,
    .next = mt19937_next,
    .fill = mt19937_fill,
};
