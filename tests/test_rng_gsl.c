/* test_rng_gsl.c — the GSL adapter (rng/gsl.c) against GSL itself (2.7.1 on
 * Debian 12, linked): every generator gsl_rng_types_setup lists resolves as
 * gsl:NAME and gives gsl_rng_get - gsl_rng_min word for word after
 * gsl_rng_set(12345), within its word width; GSL's own seeding rule (seed 0 is
 * 4357 for mt19937, checked against init_genrand); the words counted. */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>

#include "samplab.h"

Test(replay_gsl, mt19937_seed0_is_4357)
{
    /* GSL replaces seed 0 by 4357 in gsl_rng_mt19937 */
    const sl_rng_type *t = sl_rng_lookup("gsl:mt19937");
    cr_assert_not_null(t);
    sl_rng a;
    sl_error e;
    sl_seed s0 = {.lo = 0};
    cr_assert_eq(sl_rng_init(&a, t, &s0, &e), 0);
    sl_rng_mt19937_state m;
    sl_rng_mt19937_init_genrand(&m, 4357);
    for (int i = 0; i < 100; i++) {
        uint64_t w = sl_rng_next(&a);
        uint32_t x = sl_rng_mt19937_next(&m);
        cr_assert_eq(w, x, "word %d: gsl %llu vs init_genrand(4357) %u", i, (unsigned long long)w, x);
    }
    cr_assert_eq(a.words, 100);
    sl_rng_release(&a);
}

Test(replay_gsl, every_gsl_generator_resolves_and_matches_gsl)
{
    const gsl_rng_type **all = gsl_rng_types_setup();
    size_t n = 0;
    for (; all[n]; n++) {
        char name[80];
        snprintf(name, sizeof name, "gsl:%s", all[n]->name);
        const sl_rng_type *t = sl_rng_lookup(name);
        cr_assert_not_null(t, "%s not found", name);
        sl_rng r;
        sl_error e;
        sl_seed s = {.lo = 12345};
        cr_assert_eq(sl_rng_init(&r, t, &s, &e), 0, "%s: %s", name, e.msg);
        gsl_rng *g = gsl_rng_alloc(all[n]);
        gsl_rng_set(g, 12345);
        for (int i = 0; i < 10; i++) {
            uint64_t w = sl_rng_next(&r);
            unsigned long x = gsl_rng_get(g) - gsl_rng_min(g);
            cr_assert_eq(w, x, "%s word %d", name, i);
            cr_assert_leq(w, (t->word_bits >= 64 ? UINT64_MAX : ((1ULL << t->word_bits) << 1) - 1));
        }
        gsl_rng_free(g);
        sl_rng_release(&r);
    }
    cr_assert_gt(n, 50, "GSL lists %zu generators", n);
    cr_assert_null(sl_rng_lookup("gsl:no-such-generator"));
    cr_assert_null(sl_rng_lookup("no-such"));
}
