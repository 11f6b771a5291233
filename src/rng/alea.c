/* alea.c — the "seedrandom-alea" random source: Johannes Baagøe's Alea (2010) as
 * seedrandom 3.0.5 writes it (lib/alea.js), which TensorFlow.js's CPU kernels seed
 * with seedrandom.alea(seed.toString()) (tfjs-backend-cpu 4.22.0 Multinomial.js).
 * The generator: t = 2091639 s0 + c 2^-32; s0 = s1; s1 = s2; c = floor(t);
 * s2 = t - c. Every s is a multiple of 2^-32 in [0, 1) and t < 2^53, so JavaScript's
 * doubles hold it exactly: here s0..s2 are 32-bit words (s times 2^32) and t a
 * 64-bit integer, and each output is the new s2's word (alea() = word * 2^-32,
 * sl_rng_uniform_f64_w32). Seeding: Mash, a hash over the string's UTF-16 code
 * units whose state n is a double (its float arithmetic is kept as written),
 * mash(' ') three times, then each s -= mash(seed) (plus 1 when negative: the
 * words' difference mod 2^32). --seed S is the JavaScript number nearest S (as a
 * number literal reads) through String(S) (sl_base_js_number_string); any string
 * through sl_rng_alea_seed_string. Checked: data/golden/js/tfjs_multinomial.txt. */
#include <math.h>
#include <string.h>

#include "rng/sl_rng.h"

/* Mash's state and its one step per code unit (alea.js Mash) */
static double mash(double *n, const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        *n += (double)(unsigned char)data[i];
        double h = 0.02519603282416938 * *n;
        *n = (double)(uint32_t)h; /* h >>> 0: h is >= 0 and below 2^32 here */
        h -= *n;
        h *= *n;
        *n = (double)(uint32_t)h;
        h -= *n;
        *n += h * 4294967296.0;
    }
    return (double)(uint32_t)(uint64_t)*n; /* (n >>> 0), before the 2^-32 */
}

void sl_rng_alea_seed_string(sl_rng_alea_state *s, const char *seed, size_t len)
{
    double n = 4022871197.0; /* 0xefc8249d */
    uint32_t sp[3];
    for (int i = 0; i < 3; i++)
        sp[i] = (uint32_t)mash(&n, " ", 1);
    s->c = 1;
    s->s0 = sp[0] - (uint32_t)mash(&n, seed, len); /* s0 -= mash(seed); s0 += 1 if negative */
    s->s1 = sp[1] - (uint32_t)mash(&n, seed, len);
    s->s2 = sp[2] - (uint32_t)mash(&n, seed, len);
}

uint32_t sl_rng_alea_next(sl_rng_alea_state *s)
{
    uint64_t t = 2091639u * (uint64_t)s->s0 + s->c; /* t * 2^32, below 2^53 */
    s->s0 = s->s1;
    s->s1 = s->s2;
    s->c = (uint32_t)(t >> 32);
    s->s2 = (uint32_t)t;
    return s->s2;
}

double sl_rng_alea_seed_number(const sl_seed *seed)
{
    if (seed->has_number) /* -1, 1.5, Infinity: the Number itself */
        return seed->number;
    if (!seed->hi)
        return (double)seed->lo; /* correctly rounded to nearest, as a literal reads */
    /* hi:lo to 64 significant bits and a sticky bit for what is left below, which
     * rounds once and the same (the sticky bit lies below the double's last place) */
    int sh = 0;
    uint64_t hi = seed->hi, lo = seed->lo;
    while (!(hi >> 63)) {
        hi = hi << 1 | lo >> 63;
        lo <<= 1;
        sh++;
    }
    return ldexp((double)(hi | (lo != 0)), 64 - sh);
}

static int alea_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL, "seedrandom-alea has no streams (alea takes one seed string)");
    char buf[32];
    size_t n = sl_base_js_number_string(sl_rng_alea_seed_number(seed), buf, sizeof buf);
    sl_rng_alea_seed_string(state, buf, n);
    return SL_OK;
}

static uint64_t alea_next(void *state)
{
    return sl_rng_alea_next(state);
}

const sl_rng_type sl_rng_alea_type = {
    .name = "seedrandom-alea",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_alea_state),
    .seed = alea_seed,
    .next = alea_next,
};
