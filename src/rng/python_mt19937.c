/* python_mt19937.c — the "python-mt19937" random source: the MT19937 of CPython's
 * random.Random after random.seed(n) with an integer n (Modules/_randommodule.c
 * random_seed -> init_by_array): the key is |n| cut into 32-bit words, least
 * significant first, [0] for n = 0, and goes through mt19937ar.c's init_by_array
 * (rng/mt19937.c); random() is genrand_res53, two words a double
 * (sl_rng_uniform_f64_2x32_numpy). transformers.js 4.x seeds its Random the same
 * way (src/utils/random.js Random.seed, checked: data/golden/js/transformers_js.txt).
 * Seeds: samplab's [0, 2^128), up to four key words. */
#include "rng/sl_rng.h"

void sl_rng_python_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed)
{
    uint32_t key[4]; /* the base-2^32 digits as NumPy takes them too: 0 is one zero word */
    size_t n = sl_rng_seedseq_int_words(seed->lo, seed->hi, key);
    sl_rng_mt19937_init_by_array(s, key, n);
}

static int python_mt_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL, "python-mt19937 has no streams (random.seed takes one integer)");
    sl_rng_python_mt19937_seed(state, seed);
    return SL_OK;
}

const sl_rng_type sl_rng_python_mt19937_type = {
    .name = "python-mt19937",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_mt19937_state),
    .seed = python_mt_seed,
    .next = sl_rng_mt19937_type_next,
    .fill = sl_rng_mt19937_type_fill,
    .fill32 = sl_rng_mt19937_type_fill32,
};
