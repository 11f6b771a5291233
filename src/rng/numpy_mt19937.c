/* numpy_mt19937.c — the "numpy-mt19937" random source: the MT19937 behind
 * NumPy 1.24's legacy RandomState after np.random.seed(S) with an integer S
 * (numpy/random/_mt19937.pyx _legacy_seeding -> mt19937_seed): S must lie in
 * [0, 2^32) and goes through init_genrand (the 1812433253 recurrence of
 * Matsumoto & Nishimura's mt19937ar.c, 2002), NOT init_by_array; the first
 * word comes after a twist. Raw words therefore equal core "mt19937" for the
 * same seed; the difference is that NumPy refuses seeds >= 2^32 where the core
 * type reduces mod 2^32, and the legacy double takes two words
 * (sl_rng_uniform_f64_2x32_numpy).
 * Divergences: list / array seeds (init_by_array) are not reachable from an
 * integer seed and are not offered here.
 */
#include "rng/sl_rng.h"

static int numpy_mt_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->hi != 0 || seed->lo > 0xffffffffull)
        return sl_base_error_set(err, SL_EINVAL,
                            "numpy-mt19937: np.random.seed takes integers below 2^32 "
                            "(NumPy: Seed must be between 0 and 2**32 - 1)");
    if (seed->has_stream)
        return sl_base_error_set(err, SL_EINVAL,
                            "numpy-mt19937: np.random.seed takes no stream");
    sl_rng_mt19937_init_genrand(state, (uint32_t)seed->lo);
    return SL_OK;
}

const sl_rng_type sl_rng_numpy_mt19937_type = {
    .name = "numpy-mt19937",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_mt19937_state),
    .seed = numpy_mt_seed,
    .next = sl_rng_mt19937_type_next,
    .fill = sl_rng_mt19937_type_fill,
    .fill32 = sl_rng_mt19937_type_fill32,
    .advance = NULL,
    .release = NULL,
    .param = NULL,
};
