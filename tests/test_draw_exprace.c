/* test_draw_exprace.c — the exponential race's fast draw (log skipping, words
 * a block at a time) against the plain loop sl_draw_exprace_reference, and the
 * generators' bulk fill against word-by-word next.
 * Suite replay_draw_exprace: token for token and word count for word count on
 * random vectors (Zipf-like, flat, sparse, ties, one-hot, tiny and huge weights,
 * subnormals), lengths across the block size, 32-bit, 64-bit and 24-bit
 * sources, many seeds; and against the real NumPy's race on the same MT19937
 * uniforms (data/golden/exprace_numpy.txt). Suite replay_rng_fill: every built-in generator and
 * three GSL ones give the same words through sl_rng_fill (bulk or not) as
 * through sl_rng_next, in blocks of uneven sizes, with the same count. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

static void open_rng(sl_rng *r, const sl_rng_type *t, uint64_t seed)
{
    sl_error e;
    sl_seed s;
    memset(&s, 0, sizeof s);
    s.lo = seed;
    cr_assert_eq(sl_rng_init(r, t, &s, &e), 0, "%s: %s", t->name, e.msg);
}

/* A vector of kind k from a small LCG, so the cases do not depend on any generator under test. */
static uint64_t lcg_state;
static double lcg_u(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) * 0x1p-53;
}

static void make_vec(double *p, size_t V, int kind)
{
    for (size_t i = 0; i < V; i++) {
        switch (kind) {
        case 0: /* Zipf-like with noise, ranks shuffled below */
            p[i] = pow((double)(i + 1), -1.1) * exp(0.5 * lcg_u() - 0.25);
            break;
        case 1: /* flat: every token equal */
            p[i] = 1.0 / (double)V;
            break;
        case 2: /* sparse: most zero */
            p[i] = lcg_u() < 0.1 ? lcg_u() : 0.0;
            break;
        case 3: /* few distinct values: many exact ties */
            p[i] = (double)(1 + (int)(lcg_u() * 3)) * 0.25;
            break;
        case 4: /* one-hot */
            p[i] = i == V / 2 ? 1.0 : 0.0;
            break;
        case 5: /* unnormalised, tiny: c = (1 + 2^-20)/b overflows */
            p[i] = lcg_u() * 0x1p-1060;
            break;
        case 6: /* huge dynamic range, down to subnormals */
            p[i] = ldexp(lcg_u(), -(int)(lcg_u() * 1100));
            break;
        default: /* unnormalised, huge */
            p[i] = lcg_u() * 1e300;
            break;
        }
    }
    if (kind == 0)
        for (size_t i = V; i > 1; i--) {
            size_t j = (size_t)(lcg_u() * (double)i);
            double x = p[i - 1];
            p[i - 1] = p[j];
            p[j] = x;
        }
    if (kind == 2) { /* sl_draw_prepare refuses all-zero weights (a short sparse vector can be) */
        int any = 0;
        for (size_t i = 0; i < V; i++)
            any |= p[i] > 0;
        if (!any)
            p[V - 1] = 0.5;
    }
}

Test(replay_draw_exprace, fast_draw_equals_the_plain_race)
{
    static const char *const rngs[] = {"pcg32", "mt19937", "pcg64", "chacha12", "gsl:taus2", "gsl:ranlux", NULL};
    static const size_t lens[] = {1, 2, 7, 511, 512, 513, 1500, 5000};
    const sl_draw_type *m = sl_draw_lookup("exprace");
    cr_assert_not_null(m);
    size_t cases = 0, draws = 0;
    lcg_state = 20261129;
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t V = lens[li];
        double *p = malloc(V * sizeof *p);
        cr_assert_not_null(p);
        for (int kind = 0; kind < 8; kind++) {
            make_vec(p, V, kind);
            void *table;
            sl_error e;
            cr_assert_eq(sl_draw_prepare(m, &table, p, V, &e), 0, "%s", e.msg);
            for (size_t ri = 0; rngs[ri]; ri++) {
                const sl_rng_type *t = sl_rng_lookup(rngs[ri]);
                cr_assert_not_null(t, "%s", rngs[ri]);
                int nseeds = V > 1000 ? 2 : 6;
                for (int si = 0; si < nseeds; si++) {
                    uint64_t seed = 1000003u * (uint64_t)(si + 1) + V * 31u + (uint64_t)kind;
                    sl_rng a, b;
                    open_rng(&a, t, seed);
                    open_rng(&b, t, seed);
                    int ndraws = V > 1000 ? 8 : 40;
                    for (int k = 0; k < ndraws; k++) {
                        size_t fast = m->draw(table, &a);
                        size_t ref = sl_draw_exprace_reference(p, V, &b);
                        cr_assert_eq(fast, ref, "%s seed %llu V %zu kind %d draw %d: fast %zu, reference %zu", rngs[ri],
                                     (unsigned long long)seed, V, kind, k, fast, ref);
                        cr_assert_eq(a.words, b.words, "%s V %zu kind %d draw %d: words %llu vs %llu", rngs[ri], V,
                                     kind, k, (unsigned long long)a.words, (unsigned long long)b.words);
                        draws++;
                    }
                    /* the streams are still in step: the next word agrees */
                    cr_assert_eq(sl_rng_next(&a), sl_rng_next(&b), "%s V %zu kind %d: stream out of step", rngs[ri], V,
                                 kind);
                    sl_rng_release(&a);
                    sl_rng_release(&b);
                    cases++;
                }
            }
            m->free(table);
        }
        free(p);
    }
    cr_assert_gt(cases, 1000u, "cases %zu", cases);
    cr_assert_gt(draws, 20000u, "draws %zu", draws);
}

/* Words per draw stay 2V (32-bit) and V (64-bit), as documented. */
Test(replay_draw_exprace, words_per_draw)
{
    const sl_draw_type *m = sl_draw_lookup("exprace");
    double p[1000];
    lcg_state = 7;
    make_vec(p, 1000, 0);
    void *table;
    sl_error e;
    cr_assert_eq(sl_draw_prepare(m, &table, p, 1000, &e), 0);
    static const char *const rngs[] = {"pcg32", "pcg64", "gsl:ranlux"};
    static const uint64_t per[] = {2000, 1000, 2000};
    for (int i = 0; i < 3; i++) {
        sl_rng r;
        open_rng(&r, sl_rng_lookup(rngs[i]), 5);
        for (int k = 0; k < 3; k++)
            m->draw(table, &r);
        cr_assert_eq(r.words, 3 * per[i], "%s: %llu words for 3 draws, expected %llu", rngs[i],
                     (unsigned long long)r.words, (unsigned long long)(3 * per[i]));
        sl_rng_release(&r);
    }
    m->free(table);
}

static void check_fill(const sl_rng_type *t, int bulk)
{
    static const size_t blocks[] = {1, 3, 700, 1000, 2, 625, 4096, 17};
    sl_rng_type copy = *t;
    if (!bulk)
        copy.fill = NULL;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        sl_rng a, b;
        open_rng(&a, t, seed * 977);
        open_rng(&b, &copy, seed * 977);
        uint64_t buf[4096];
        for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++) {
            sl_rng_fill(&b, buf, blocks[bi]);
            for (size_t j = 0; j < blocks[bi]; j++) {
                uint64_t w = sl_rng_next(&a);
                cr_assert_eq(buf[j], w, "%s (%s) seed %llu block %zu word %zu: fill %llu, next %llu", t->name,
                             bulk ? "bulk" : "word by word", (unsigned long long)seed, bi, j,
                             (unsigned long long)buf[j], (unsigned long long)w);
            }
            cr_assert_eq(a.words, b.words, "%s: words %llu vs %llu", t->name, (unsigned long long)a.words,
                         (unsigned long long)b.words);
        }
        sl_rng_release(&a);
        sl_rng_release(&b);
    }
}

Test(replay_rng_fill, bulk_and_single_words_agree)
{
    size_t with_fill = 0;
    for (size_t i = 0; sl_rng_types[i]; i++) {
        check_fill(sl_rng_types[i], 1);
        check_fill(sl_rng_types[i], 0);
        with_fill += sl_rng_types[i]->fill != NULL;
    }
    static const char *const gsl[] = {"gsl:taus2", "gsl:ranlux", "gsl:mt19937"};
    for (int i = 0; i < 3; i++) {
        const sl_rng_type *t = sl_rng_lookup(gsl[i]);
        cr_assert_not_null(t, "%s", gsl[i]);
        check_fill(t, 1);
        check_fill(t, 0);
    }
    cr_assert_gt(with_fill, 0u, "no generator has a bulk fill");
}

/* data/golden/exprace_numpy.txt (analysis/golden/exprace_numpy.py): the race
 * computed by the real NumPy from the same MT19937 uniforms (legacy
 * random_sample), its log and its argmax. Weights from the script's formulas. */
static void golden_weights(const char *kind, double *w, size_t V)
{
    for (size_t i = 0; i < V; i++) {
        if (!strcmp(kind, "hash")) {
            uint64_t h = ((uint64_t)i * 2654435761u + 12345u) % 4294967296u;
            w[i] = (h & 15u) == 0 ? 0.0 : (double)(h >> 12);
        } else if (!strcmp(kind, "zipf")) {
            w[i] = floor(0x1p40 / ((double)i + 1.0));
        } else {
            w[i] = (double)((uint64_t)i * 7u % 3u + 1u);
        }
    }
}

Test(replay_draw_exprace, numpy_race_golden)
{
    FILE *f = fopen("data/golden/exprace_numpy.txt", "r");
    cr_assert_not_null(f, "cannot open data/golden/exprace_numpy.txt");
    const sl_draw_type *m = sl_draw_lookup("exprace");
    char line[1024];
    size_t rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char kind[16];
        size_t V;
        unsigned long long seed;
        int off = 0;
        cr_assert_eq(sscanf(line, "%15s %zu %llu |%n", kind, &V, &seed, &off), 3, "bad line: %s", line);
        double *w = malloc(V * sizeof *w);
        cr_assert_not_null(w);
        golden_weights(kind, w, V);
        void *table;
        sl_error e;
        cr_assert_eq(sl_draw_prepare(m, &table, w, V, &e), 0, "%s", e.msg);
        sl_rng r;
        open_rng(&r, &sl_rng_mt19937_type, seed);
        const char *q = line + off;
        for (int k = 0; k < 12; k++) {
            char *end;
            long want = strtol(q, &end, 10);
            cr_assert_neq(end, q, "short line: %s", line);
            q = end;
            size_t got = m->draw(table, &r);
            cr_assert_eq(got, (size_t)want, "%s V %zu seed %llu draw %d: samplab %zu, numpy %ld", kind, V, seed, k + 1,
                         got, want);
        }
        cr_assert_eq(r.words, 12u * 2u * V);
        sl_rng_release(&r);
        m->free(table);
        free(w);
        rows++;
    }
    fclose(f);
    cr_assert_eq(rows, 24u, "%zu golden rows", rows);
}
