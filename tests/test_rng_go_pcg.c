/* test_rng_go_pcg.c — Go's math/rand/v2 PCG (rng/go_pcg.c) against Go itself:
 * data/golden/current/ollama_pcg.tsv, printed by Go 1.27.3 in Debian sid
 * (analysis/golden/current/ollama_golden.sh): the first 8 Uint64 of
 * rand.NewPCG(seed1, seed2) and the first 8 Float32 of rand.New over it, for
 * NewPCG(1, 2) (Go's own pcg_test.go pair) and Ollama's (S, S ^ 0x9E3779B9). */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "samplab.h"

typedef struct pcg_row {
    uint64_t s1, s2, u[8];
    uint32_t f[8];
} pcg_row;

static size_t read_rows(pcg_row *rows, size_t max)
{
    FILE *f = fopen("data/golden/current/ollama_pcg.tsv", "r");
    cr_assert(f, "data/golden/current/ollama_pcg.tsv");
    char line[1024];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        cr_assert(n < max);
        pcg_row *r = &rows[n++];
        char *p = line, *e;
        r->s1 = strtoull(p, &e, 10);
        r->s2 = strtoull(e + 1, &e, 10);
        for (int k = 0; k < 8; k++)
            r->u[k] = strtoull(e + 1, &e, 16);
        for (int k = 0; k < 8; k++)
            r->f[k] = (uint32_t)strtoul(e + 1, &e, 16);
    }
    fclose(f);
    return n;
}

Test(rng_go_pcg, raw_words_and_float32_as_go_prints_them)
{
    pcg_row rows[32];
    size_t n = read_rows(rows, 32), bad = 0;
    cr_assert_geq(n, 8, "rows: %zu", n);
    for (size_t i = 0; i < n; i++) {
        sl_rng_pcg64_state s;
        sl_rng_go_pcg_seed(&s, rows[i].s1, rows[i].s2);
        for (int k = 0; k < 8; k++) {
            uint64_t w = sl_rng_go_pcg_next(&s);
            if (w != rows[i].u[k])
                bad++, cr_log_error("NewPCG(%" PRIu64 ", %" PRIu64 ") word %d: %016" PRIx64 ", Go %016" PRIx64,
                                    rows[i].s1, rows[i].s2, k, w, rows[i].u[k]);
        }
        /* the "go-pcg" type: Ollama's seeding when seed2 is S ^ 0x9E3779B9, a stream otherwise */
        sl_seed seed = {.lo = rows[i].s1};
        if (rows[i].s2 != (rows[i].s1 ^ 0x9E3779B9u))
            seed.stream = rows[i].s2, seed.has_stream = 1;
        sl_rng r;
        sl_error err;
        cr_assert_eq(sl_rng_init(&r, sl_rng_lookup("go-pcg"), &seed, &err), 0, "%s", err.msg);
        for (int k = 0; k < 8; k++) {
            float x = sl_rng_uniform_f32_hi32_low24(&r);
            uint32_t b;
            memcpy(&b, &x, sizeof b);
            if (b != rows[i].f[k])
                bad++, cr_log_error("seed %" PRIu64 " Float32 %d: %08x, Go %08x", rows[i].s1, k, b, rows[i].f[k]);
        }
        cr_expect_eq(r.words, 8, "Float32 spends one word each: %" PRIu64, r.words);
        sl_rng_release(&r);
    }
    cr_log_info("go-pcg: %zu seeds x 16 values, %zu differences from Go", n, bad);
    cr_assert_eq(bad, 0);
}

Test(rng_go_pcg, advance_steps_back_and_forth)
{
    sl_rng_pcg64_state a, b;
    sl_rng_go_pcg_seed(&a, 42, 42 ^ 0x9E3779B9u);
    b = a;
    uint64_t w[5];
    for (int k = 0; k < 5; k++)
        w[k] = sl_rng_go_pcg_next(&a);
    sl_rng_pcg64_advance(&a, (uint64_t)-5, UINT64_MAX); /* -5 mod 2^128 */
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "advance(-5) returns to the seed state");
    sl_rng_pcg64_advance(&b, 3, 0);
    cr_assert_eq(sl_rng_go_pcg_next(&b), w[3]);
}

Test(rng_go_pcg, refuses_a_seed_past_2_64)
{
    sl_seed seed = {.lo = 1, .hi = 1};
    sl_rng r;
    sl_error err;
    cr_assert_neq(sl_rng_init(&r, sl_rng_lookup("go-pcg"), &seed, &err), 0);
    cr_assert(strstr(err.msg, "below 2^64"), "%s", err.msg);
}
