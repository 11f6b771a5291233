/* mt19937.c — MT19937 (Matsumoto & Nishimura 1998), as the reference
 * mt19937ar.c (2002) writes init_genrand, init_by_array and genrand_int32,
 * and the one twist and temper every MT19937 type shares.
 * Type "mt19937": init_genrand(seed mod 2^32), the same words as C++'s
 * std::mt19937(seed); torch, NumPy legacy and GSL differ only in seeding and
 * in how they turn words into floats, and get their own types.
 * The twist and tempering (block, SIMD) and init_genrand live in
 * base/mt19937.c, shared with the statistics' simulations. */
#include "rng/sl_rng.h"

#define MT_N 624

/* The twist, the tempering and init_genrand are base's (base/mt19937.c). */
void sl_rng_mt19937_init_genrand(sl_rng_mt19937_state *s, uint32_t seed)
{
    sl_base_mt19937_init_genrand(s, seed);
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

void sl_rng_mt19937_twist(sl_rng_mt19937_state *s, int level)
{
    sl_base_mt19937_twist(s, level);
}

uint32_t sl_rng_mt19937_next(sl_rng_mt19937_state *s)
{
    return sl_base_mt19937_next(s);
}

void sl_rng_mt19937_fill32(sl_rng_mt19937_state *s, uint32_t *out, size_t n)
{
    sl_base_mt19937_fill32(s, out, n);
}

void sl_rng_mt19937_fill64(sl_rng_mt19937_state *s, uint64_t *out, size_t n)
{
    uint32_t buf[MT_N];
    while (n) {
        size_t m = n < MT_N ? n : MT_N;
        sl_rng_mt19937_fill32(s, buf, m);
        for (size_t i = 0; i < m; i++)
            out[i] = buf[i];
        out += m;
        n -= m;
    }
}

uint64_t sl_rng_mt19937_type_next(void *state)
{
    return sl_rng_mt19937_next(state);
}

void sl_rng_mt19937_type_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_mt19937_fill64(state, out, n);
}

void sl_rng_mt19937_type_fill32(void *state, uint32_t *out, size_t n)
{
    sl_rng_mt19937_fill32(state, out, n);
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

const sl_rng_type sl_rng_mt19937_type = {
    .name = "mt19937",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_mt19937_state),
    .seed = mt19937_seed,
    .next = sl_rng_mt19937_type_next,
    .fill = sl_rng_mt19937_type_fill,
    .fill32 = sl_rng_mt19937_type_fill32,
};
