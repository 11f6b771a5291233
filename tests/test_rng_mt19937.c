/* test_rng_mt19937.c — MT19937 (rng/mt19937.c) against the reference known
 * answers (C++11 [rand.predef]: the 10,000th word of seed 5489; mt19937ar.out's
 * init_by_array words) and against libstdc++'s std::mt19937 (Debian 12 g++ 12,
 * tests/oracle/mt19937_oracle.cpp): 2,000 words for each of 7 seeds, counted. */
#include <criterion/criterion.h>

#include "helpers.h"
#include "samplab.h"

Test(replay_mt19937, ten_thousandth_of_5489)
{
    /* C++11 [rand.predef]: the 10000th consecutive invocation of a default mt19937 is 4123659995 */
    sl_rng_mt19937_state s;
    sl_rng_mt19937_init_genrand(&s, 5489);
    uint32_t w = 0;
    for (int i = 0; i < 10000; i++)
        w = sl_rng_mt19937_next(&s);
    cr_assert_eq(w, 4123659995u, "observed %u, expected 4123659995", w);
}

Test(replay_mt19937, init_by_array_reference)
{
    /* mt19937ar.out: init_by_array({0x123, 0x234, 0x345, 0x456}) */
    static const uint32_t key[4] = {0x123, 0x234, 0x345, 0x456};
    static const uint32_t want[5] = {1067595299u, 955945823u, 477289528u, 4107218783u, 4228976476u};
    sl_rng_mt19937_state s;
    sl_rng_mt19937_init_by_array(&s, key, 4);
    for (int i = 0; i < 5; i++) {
        uint32_t w = sl_rng_mt19937_next(&s);
        cr_assert_eq(w, want[i], "word %d observed %u expected %u", i, w, want[i]);
    }
}

Test(replay_mt19937, against_std_mt19937)
{
    char *t = sl_test_oracle("mt19937_oracle");
    cr_assert_not_null(t, "no std::mt19937 transcript: run through make test");
    size_t lines = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p = line;
        uint32_t seed = (uint32_t)strtoul(p, &p, 10);
        sl_rng r;
        sl_error e;
        sl_seed sd = {.lo = seed};
        cr_assert_eq(sl_rng_init(&r, &sl_rng_mt19937_type, &sd, &e), 0);
        for (int i = 0; i < 2000; i++) {
            unsigned long w = strtoul(p, &p, 10);
            uint64_t got = sl_rng_next(&r);
            cr_assert_eq(got, w, "seed %u word %d: observed %llu expected %lu", seed, i, (unsigned long long)got, w);
        }
        cr_assert_eq(r.words, 2000);
        sl_rng_release(&r);
        lines++;
    }
    free(t);
    cr_assert_eq(lines, 7, "oracle lines: %zu", lines);
}
