/* test_rng_pcg32.c — PCG32 against the published demo values (pcg32-demo,
 * seed 42, stream 54) and against pcg-cpp itself (tests/oracle/pcg32_oracle.cpp,
 * Debian 12 libpcg-cpp-dev 0.98.1): 1,968 values of next, bounded and advance
 * over 6 seeds x 4 streams. Also: advance by n equals n steps and advance by -n
 * steps back; the counting wrapper counts one word per 32-bit draw and two per
 * double. */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "helpers.h"
#include "samplab.h"

Test(replay_pcg32, demo_seed42_stream54)
{
    /* pcg-c's pcg32-demo with seed 42, stream 54 (check-pcg32.out) */
    static const uint32_t want[6] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
    sl_rng_pcg32_state s;
    sl_rng_pcg32_seed(&s, 42, 54);
    for (int i = 0; i < 6; i++) {
        uint32_t w = sl_rng_pcg32_next(&s);
        cr_assert_eq(w, want[i], "word %d: observed 0x%08x, expected 0x%08x", i, w, want[i]);
    }
}

Test(replay_pcg32, against_pcg_cpp)
{
    char *t = sl_test_oracle("pcg32_oracle");
    cr_assert_not_null(t, "no pcg-cpp transcript: run through make test");
    size_t checked = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char kind[16];
        uint64_t seed, stream;
        int off;
        cr_assert_eq(sscanf(line, "%15s %" SCNu64 " %" SCNu64 "%n", kind, &seed, &stream, &off), 3);
        char *rest = line + off;
        sl_rng_pcg32_state s;
        sl_rng_pcg32_seed(&s, seed, stream);
        if (!strcmp(kind, "next")) {
            for (int i = 0; i < 8; i++) {
                unsigned long long w = strtoull(rest, &rest, 10);
                uint32_t got = sl_rng_pcg32_next(&s);
                cr_assert_eq(got, w, "%s: word %d observed %u expected %llu", line, i, got, w);
                checked++;
            }
        } else if (!strcmp(kind, "bounded")) {
            uint32_t bound = (uint32_t)strtoul(rest, &rest, 10);
            for (int i = 0; i < 6; i++) {
                unsigned long long w = strtoull(rest, &rest, 10);
                uint32_t got = sl_rng_pcg32_bounded(&s, bound);
                cr_assert_eq(got, w, "%s: draw %d observed %u expected %llu", line, i, got, w);
                checked++;
            }
        } else {
            uint64_t delta = strtoull(rest, &rest, 10);
            unsigned long long w = strtoull(rest, &rest, 10);
            sl_rng_pcg32_advance(&s, delta);
            uint32_t got = sl_rng_pcg32_next(&s);
            cr_assert_eq(got, w, "%s: observed %u", line, got);
            checked++;
        }
    }
    free(t);
    cr_assert_eq(checked, 1968, "only %zu values checked", checked);
}

Test(replay_pcg32, advance_equals_stepping_and_back)
{
    sl_rng_pcg32_state a, b;
    sl_rng_pcg32_seed(&a, 7, 11);
    b = a;
    for (int i = 0; i < 1000; i++)
        sl_rng_pcg32_next(&a);
    sl_rng_pcg32_advance(&b, 1000);
    cr_assert_eq(a.state, b.state, "advance(1000) differs from 1000 steps");
    sl_rng_pcg32_advance(&b, (uint64_t)-1000);
    sl_rng_pcg32_state c;
    sl_rng_pcg32_seed(&c, 7, 11);
    cr_assert_eq(b.state, c.state, "advance(-1000) does not step back");
}

Test(replay_pcg32, counting_wrapper_and_stream_option)
{
    sl_rng r;
    sl_error e;
    sl_seed seed = {.lo = 42, .stream = 54, .has_stream = 1};
    cr_assert_eq(sl_rng_init(&r, sl_rng_lookup("pcg32"), &seed, &e), 0);
    cr_assert_eq(sl_rng_next(&r), 0xa15c02b7u);
    (void)sl_rng_uniform_f64(&r);
    cr_assert_eq(r.words, 3, "words counted: %llu, expected 3", (unsigned long long)r.words);
    sl_rng_release(&r);
}
