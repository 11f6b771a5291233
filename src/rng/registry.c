/* registry.c — the random sources by name, and the instance helpers.
 * "gsl:NAME" is resolved by the GSL adapter (rng/gsl.c); the rest are listed here. */
#include <stdlib.h>
#include <string.h>

#include "rng/sl_rng.h"

const sl_rng_type *const sl_rng_types[] = {
    &sl_rng_pcg32_type,
    &sl_rng_mt19937_type,
    &sl_rng_torch_mt19937_type,
    &sl_rng_pcg64_type,
    &sl_rng_numpy_mt19937_type,
    &sl_rng_python_mt19937_type,
    &sl_rng_chacha12_type,
    &sl_rng_rand_stdrng_type,
    &sl_rng_go_pcg_type,
    &sl_rng_murmur3_type,
    &sl_rng_threefry2x32_type,
    &sl_rng_philox4x32_type,
    &sl_rng_alea_type,
    /* one line per further generator */
    NULL
};

/* Weak so that a build without GSL (the WebAssembly page) still links: there
 * "gsl:NAME" is an unknown source. */
const sl_rng_type *sl_rng_gsl_lookup(const char *gsl_name) __attribute__((weak));

const sl_rng_type *sl_rng_lookup(const char *name)
{
    if (!name)
        return NULL;
    if (!strncmp(name, "gsl:", 4))
        return sl_rng_gsl_lookup ? sl_rng_gsl_lookup(name + 4) : NULL;
    for (size_t i = 0; sl_rng_types[i]; i++)
        if (!strcmp(sl_rng_types[i]->name, name))
            return sl_rng_types[i];
    return NULL;
}

int sl_rng_init(sl_rng *r, const sl_rng_type *t, const sl_seed *seed, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_rng_init", r);
    r->type = t;
    r->words = 0;
    r->state = NULL;
    SL_BASE_NONNULL(err, "sl_rng_init", seed);
    /* sl_rng_init(&r, sl_rng_lookup("typo"), ...): an error, not a crash in the caller's test */
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "no such random source (sl_rng_lookup gave NULL)");
    /* a seed only JavaScript's Number holds (-1, 1.5) seeds only a generator that takes the number's string */
    if (seed && seed->has_number && t != &sl_rng_alea_type)
        return sl_base_error_set(err, SL_EINVAL, "%s takes an integer seed in [0, 2^128), not %.17g", t->name,
                                 seed->number);
    r->state = calloc(1, t->state_size);
    if (!r->state)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for the generator state", t->name);
    int rc = t->seed(r->state, seed, t->param, err);
    if (rc) {
        free(r->state);
        r->state = NULL;
    }
    return rc;
}

void sl_rng_release(sl_rng *r)
{
    if (r->state && r->type->release)
        r->type->release(r->state);
    free(r->state);
    r->state = NULL;
}
