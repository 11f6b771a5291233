/* test_rng_pcg64.c — replay of NumPy 1.24's SeedSequence and PCG64 (rng/seedseq.c,
 * rng/pcg64.c) against data/golden/numpy_seedseq.txt and numpy_pcg64.txt:
 * generate_state words, state and increment after seeding, raw words, the
 * state after them, next_double, and advance up to 2^128 - 1; and, an oracle
 * independent of NumPy, pcg-cpp's pcg64 (tests/oracle/pcg64_oracle.cpp, Debian 12
 * libpcg-cpp-dev 0.98.1): srandom and advance, word for word. */
#include "numpy_golden.h"

static void seedseq_of(const char *seed_hex, const char *key_hex, sl_rng_seedseq *ss)
{
    uint32_t ent[16], key[16];
    size_t n = ng_words(seed_hex, ent, 16);
    size_t nk = key_hex ? ng_words(key_hex, key, 16) : 0;
    sl_rng_seedseq_init(ss, ent, n, key, nk);
}

Test(replay_numpy_pcg64, seedseq_generate_state)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_seedseq.txt");
    size_t cases = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        int spawn = !strcmp(L->f[0], "ssk");
        size_t w0 = spawn ? 3 : 2;
        cr_assert_eq(L->n, w0 + 8);
        sl_rng_seedseq ss;
        seedseq_of(L->f[1], spawn ? L->f[2] : NULL, &ss);
        uint32_t out[8];
        sl_rng_seedseq_generate32(&ss, out, 8);
        for (size_t j = 0; j < 8; j++)
            cr_assert_eq(out[j], (uint32_t)ng_u64(L->f[w0 + j]),
                         "SeedSequence(0x%s%s%s) word %zu: observed %08x expected %s",
                         L->f[1], spawn ? ", spawn_key=0x" : "", spawn ? L->f[2] : "", j,
                         out[j], L->f[w0 + j]);
        /* The uint64 view is the little-endian pairing of the same words. */
        uint64_t o64[4];
        sl_rng_seedseq_generate64(&ss, o64, 4);
        for (size_t j = 0; j < 4; j++)
            cr_assert_eq(o64[j], (uint64_t)out[2 * j] | (uint64_t)out[2 * j + 1] << 32);
        cases++;
    }
    cr_log_info("seedseq: %zu cases == %s", cases, g.header);
    ng_free(&g);
}

static void assert_state(const sl_rng_pcg64_state *s, const char *hex, const char *what)
{
    uint64_t hi, lo;
    ng_u128(hex, &hi, &lo);
    cr_assert(s->state_hi == hi && s->state_lo == lo,
              "%s: observed state %016llx%016llx expected %s", what,
              (unsigned long long)s->state_hi, (unsigned long long)s->state_lo, hex);
}

Test(replay_numpy_pcg64, seeding_raw_words_and_states)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_pcg64.txt");
    size_t pcg = 0, dbl = 0, adv = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        sl_rng_seedseq ss;
        sl_rng_pcg64_state s;
        seedseq_of(L->f[1], NULL, &ss);
        sl_rng_pcg64_seed_seedseq(&s, &ss);
        if (!strcmp(L->f[0], "pcg")) {
            cr_assert_eq(L->n, 21);
            assert_state(&s, L->f[2], "after seeding");
            uint64_t ihi, ilo;
            ng_u128(L->f[3], &ihi, &ilo);
            cr_assert(s.inc_hi == ihi && s.inc_lo == ilo, "seed 0x%s: increment %016llx%016llx expected %s",
                      L->f[1], (unsigned long long)s.inc_hi, (unsigned long long)s.inc_lo, L->f[3]);
            for (size_t j = 0; j < 16; j++) {
                uint64_t w = sl_rng_pcg64_next(&s);
                cr_assert_eq(w, ng_u64(L->f[4 + j]), "seed 0x%s raw %zu: observed %016llx expected %s",
                             L->f[1], j, (unsigned long long)w, L->f[4 + j]);
            }
            assert_state(&s, L->f[20], "after 16 words");
            pcg++;
        } else if (!strcmp(L->f[0], "dbl")) {
            for (size_t j = 0; j < 8; j++) {
                double u = (double)(sl_rng_pcg64_next(&s) >> 11) * 0x1.0p-53;
                double e = ng_f64(L->f[2 + j]);
                cr_assert(u == e, "seed 0x%s random() %zu: observed %a expected %a", L->f[1], j, u, e);
            }
            dbl++;
        } else if (!strcmp(L->f[0], "adv")) {
            uint64_t dhi, dlo;
            ng_u128(L->f[2], &dhi, &dlo);
            sl_rng_pcg64_advance(&s, dlo, dhi);
            char what[128];
            snprintf(what, sizeof what, "seed 0x%s advance(0x%s)", L->f[1], L->f[2]);
            assert_state(&s, L->f[3], what);
            for (size_t j = 0; j < 2; j++)
                cr_assert_eq(sl_rng_pcg64_next(&s), ng_u64(L->f[4 + j]), "%s raw %zu", what, j);
            adv++;
        }
    }
    cr_assert(pcg >= 20 && dbl >= 10 && adv >= 40, "too few cases: %zu %zu %zu", pcg, dbl, adv);
    cr_log_info("pcg64: %zu seeds, %zu double runs, %zu advances == %s", pcg, dbl, adv, g.header);
    ng_free(&g);
}

Test(replay_numpy_pcg64, advance_equals_stepping_and_steps_back)
{
    sl_rng_seedseq ss;
    uint32_t e[1] = { 99 };
    sl_rng_seedseq_init(&ss, e, 1, NULL, 0);
    sl_rng_pcg64_state a, b, c;
    sl_rng_pcg64_seed_seedseq(&a, &ss);
    b = a;
    c = a;
    for (int k = 1; k <= 300; k++) {
        sl_rng_pcg64_next(&a);
        sl_rng_pcg64_advance(&b, 1, 0);
        cr_assert(a.state_hi == b.state_hi && a.state_lo == b.state_lo, "advance(1) x %d", k);
    }
    /* advance(-300) = advance(2^128 - 300) returns to the start. */
    sl_rng_pcg64_advance(&b, (uint64_t)-300, UINT64_MAX);
    cr_assert(b.state_hi == c.state_hi && b.state_lo == c.state_lo, "advance(-300) does not step back");
}

Test(replay_numpy_pcg64, type_table_counts_words_and_takes_streams)
{
    const sl_rng_type *t = sl_rng_lookup("pcg64");
    cr_assert(t != NULL, "pcg64 not registered");
    cr_assert_eq(t->word_bits, 64);
    cr_assert(t->advance != NULL);
    sl_rng r;
    sl_error err;
    sl_seed seed = { .lo = 1, .hi = 0 };
    cr_assert_eq(sl_rng_init(&r, t, &seed, &err), 0);
    /* Golden: PCG64(1) raw words (numpy_pcg64.txt, "pcg 1"). */
    ng_file g;
    ng_load(&g, "data/golden/numpy_pcg64.txt");
    ng_line *L = NULL;
    for (size_t i = 0; i < g.n && !L; i++)
        if (!strcmp(g.lines[i].f[0], "pcg") && !strcmp(g.lines[i].f[1], "1"))
            L = &g.lines[i];
    cr_assert(L != NULL);
    for (size_t j = 0; j < 4; j++)
        cr_assert_eq(sl_rng_next(&r), ng_u64(L->f[4 + j]));
    t->advance(r.state, 10, 0);
    cr_assert_eq(sl_rng_next(&r), ng_u64(L->f[4 + 14]), "advance(10) through the type table");
    cr_assert_eq(r.words, 5);
    sl_rng_release(&r);
    /* A stream q is SeedSequence(S, spawn_key=(q,)): compare with the ssk golden words. */
    ng_file s;
    ng_load(&s, "data/golden/numpy_seedseq.txt");
    size_t checked = 0;
    for (size_t i = 0; i < s.n; i++) {
        ng_line *K = &s.lines[i];
        if (strcmp(K->f[0], "ssk") || strlen(K->f[1]) > 32)
            continue;
        sl_seed sk = { 0 };
        ng_u128(K->f[1], &sk.hi, &sk.lo);
        sk.stream = ng_u64(K->f[2]);
        sk.has_stream = 1;
        cr_assert_eq(sl_rng_init(&r, t, &sk, &err), 0);
        sl_rng_seedseq ss;
        uint32_t e[4], k[4];
        size_t ne = sl_rng_seedseq_int_words(sk.lo, sk.hi, e);
        size_t nk = sl_rng_seedseq_int_words(sk.stream, 0, k);
        sl_rng_seedseq_init(&ss, e, ne, k, nk);
        sl_rng_pcg64_state ref;
        sl_rng_pcg64_seed_seedseq(&ref, &ss);
        uint32_t w[8];
        sl_rng_seedseq_generate32(&ss, w, 8);
        for (size_t j = 0; j < 8; j++)
            cr_assert_eq(w[j], (uint32_t)ng_u64(K->f[3 + j]));
        cr_assert_eq(sl_rng_next(&r), sl_rng_pcg64_next(&ref));
        sl_rng_release(&r);
        checked++;
    }
    cr_assert(checked >= 12, "only %zu spawn-key cases", checked);
    ng_free(&s);
    ng_free(&g);
}

#include "helpers.h"

Test(replay_numpy_pcg64, srandom_and_advance_equal_pcg_cpp)
{
    /* pcg-cpp's pcg64(initstate, initseq): an oracle independent of NumPy. */
    char *text = sl_test_oracle("pcg64_oracle");
    cr_assert(text != NULL, "oracle output missing (run through make test)");
    size_t lines = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        uint64_t v[18];
        char *p = line;
        for (int i = 0; i < 18; i++)
            v[i] = strtoull(p, &p, 16);
        sl_rng_pcg64_state s;
        sl_rng_pcg64_srandom(&s, v[0], v[1], v[2], v[3]);
        for (int i = 0; i < 8; i++)
            cr_assert_eq(sl_rng_pcg64_next(&s), v[4 + i], "pcg64(%s) word %d", line, i);
        const uint64_t dl[3] = { 3, 12345, (uint64_t)-5 }, dh[3] = { 1, 0x8000000000000000ull, UINT64_MAX };
        for (int j = 0; j < 3; j++) {
            sl_rng_pcg64_advance(&s, dl[j], dh[j]);
            cr_assert_eq(sl_rng_pcg64_next(&s), v[12 + 2 * j], "advance %d, first word", j);
            cr_assert_eq(sl_rng_pcg64_next(&s), v[13 + 2 * j], "advance %d, second word", j);
        }
        lines++;
    }
    cr_assert_eq(lines, 5);
    free(text);
}
