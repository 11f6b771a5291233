/* test_draw_methods.c — every draw method against its distribution.
 * Suite stat_draw: 100,000 draws per (method, source, distribution) at fixed
 * seeds, Pearson chi-square through GSL's chi-square distribution, alpha =
 * 0.001 per check (the smallest expected count is 100, so the chi-square
 * approximation holds without pooling). Seeds are fixed, so the outcome is
 * reproducible; at alpha = 0.001 the chance that any of the 24 correct checks
 * had failed by bad luck when the seeds were chosen is below 2.4%.
 * Power: an off-by-one binary search is rejected. Suite replay_draw: exact
 * facts (zero-probability entries never drawn, words per draw, greedy). */
#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "helpers.h"

static const double weather_logits[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
static const double tie_logits[4] = {3, 2, 2, 1};

#define N_DRAWS 100000

static double draw_and_test(const sl_draw_type *dt, const char *rng_name, uint64_t seed, const double *p, size_t V,
                            uint64_t *words)
{
    sl_rng r;
    sl_error e;
    sl_seed s = {.lo = seed};
    cr_assert_eq(sl_rng_init(&r, sl_rng_lookup(rng_name), &s, &e), 0, "%s", e.msg);
    void *table;
    cr_assert_eq(sl_draw_prepare(dt, &table, p, V, &e), 0, "%s", e.msg);
    uint64_t counts[64] = {0};
    for (size_t i = 0; i < N_DRAWS; i++) {
        size_t t = dt->draw(table, &r);
        cr_assert_lt(t, V);
        counts[t]++;
    }
    *words = r.words;
    dt->free(table);
    sl_rng_release(&r);
    return sl_test_chi2_p(counts, p, V, N_DRAWS);
}

Test(stat_draw, methods_agree_with_distribution)
{
    double weather[8], tie[4];
    sl_error e;
    cr_assert_eq(sl_logits_softmax(weather_logits, 8, 1.0, weather, &e), 0);
    cr_assert_eq(sl_logits_softmax(tie_logits, 4, 1.0, tie, &e), 0);
    /* the tutorial's percentages, as printed there to one decimal */
    static const double pct[8] = {51.5, 25.6, 17.2, 3.1, 1.4, 0.7, 0.3, 0.1};
    for (int i = 0; i < 8; i++)
        cr_assert(fabs(100 * weather[i] - pct[i]) < 0.051, "weather %d: %.3f%% vs %.1f%%", i, 100 * weather[i], pct[i]);
    const sl_draw_type *methods[] = {&sl_draw_exprace_type, &sl_draw_cdf_type, &sl_draw_linear_type,
                                     &sl_draw_alias_type};
    const char *rngs[] = {"pcg32", "mt19937", "gsl:taus2"};
    for (size_t m = 0; m < 4; m++)
        for (size_t g = 0; g < 3; g++) {
            uint64_t w;
            double pw = draw_and_test(methods[m], rngs[g], 1000 + m * 10 + g, weather, 8, &w);
            double pt = draw_and_test(methods[m], rngs[g], 2000 + m * 10 + g, tie, 4, &w);
            cr_log_info("%s/%s: weather p = %.4f, tie p = %.4f", methods[m]->name, rngs[g], pw, pt);
            cr_expect_gt(pw, 0.001, "%s/%s on weather: chi-square p = %.3g (alpha 0.001)", methods[m]->name, rngs[g], pw);
            cr_expect_gt(pt, 0.001, "%s/%s on [3,2,2,1]: chi-square p = %.3g (alpha 0.001)", methods[m]->name, rngs[g], pt);
        }
}

/* A deliberately broken cdf: the binary search reads the table one entry
 * ahead, so token i is returned where i+1 should be (an off-by-one). */
typedef struct broken_table {
    size_t V;
    double total;
    double cum[8];
} broken_table;
static int broken_prepare(void **table, const sl_draw_dist *d, const void *param, sl_error *e)
{
    (void)e;
    (void)param;
    const double *p = d->d;
    size_t V = d->V;
    broken_table *t = calloc(1, sizeof *t);
    double s = 0;
    for (size_t i = 0; i < V; i++)
        t->cum[i] = s += p[i];
    t->V = V;
    t->total = s;
    *table = t;
    return 0;
}
static size_t broken_draw(const void *table, sl_rng *r)
{
    const broken_table *t = table;
    double target = sl_rng_uniform_f64(r) * t->total;
    size_t i = sl_draw_search_gt_f64(t->cum + 1, t->V - 1, target); /* off by one */
    return i < t->V ? i : t->V - 1;
}
static void broken_free(void *t)
{
    free(t);
}
static const sl_draw_type broken_type = {.name = "broken-cdf", .prepare = broken_prepare, .draw = broken_draw,
                                         .free = broken_free};

Test(stat_draw, off_by_one_search_is_rejected)
{
    double weather[8], tie[4];
    sl_error e;
    sl_logits_softmax(weather_logits, 8, 1.0, weather, &e);
    sl_logits_softmax(tie_logits, 4, 1.0, tie, &e);
    uint64_t w;
    double pw = draw_and_test(&broken_type, "pcg32", 7, weather, 8, &w);
    double pt = draw_and_test(&broken_type, "mt19937", 7, tie, 4, &w);
    cr_assert_lt(pw, 1e-6, "off-by-one on weather not rejected: p = %.3g", pw);
    cr_assert_lt(pt, 1e-6, "off-by-one on [3,2,2,1] not rejected: p = %.3g", pt);
}

Test(replay_draw, zero_probability_never_drawn)
{
    static const double p[7] = {0, 0.25, 0, 0.5, 0, 0.25, 0};
    const sl_draw_type *methods[] = {&sl_draw_exprace_type, &sl_draw_cdf_type, &sl_draw_alias_type};
    for (size_t m = 0; m < 3; m++) {
        sl_rng r;
        sl_error e;
        sl_seed s = {.lo = 99};
        sl_rng_init(&r, &sl_rng_pcg32_type, &s, &e);
        void *t;
        sl_draw_prepare(methods[m], &t, p, 7, &e);
        uint64_t c[7] = {0};
        for (int i = 0; i < N_DRAWS; i++)
            c[methods[m]->draw(t, &r)]++;
        for (int i = 0; i < 7; i += 2)
            cr_assert_eq(c[i], 0, "%s drew zero-probability token %d %llu times", methods[m]->name, i,
                         (unsigned long long)c[i]);
        methods[m]->free(t);
        sl_rng_release(&r);
    }
}

Test(replay_draw, words_per_draw_as_documented)
{
    double weather[8];
    sl_error e;
    sl_logits_softmax(weather_logits, 8, 1.0, weather, &e);
    const sl_draw_type *methods[] = {&sl_draw_exprace_type, &sl_draw_cdf_type, &sl_draw_linear_type,
                                     &sl_draw_alias_type, &sl_draw_greedy_type};
    const uint64_t per_draw[] = {16, 2, 2, 2, 0}; /* 2V, then one 53-bit uniform from 2 words, then none */
    for (size_t m = 0; m < 5; m++) {
        sl_rng r;
        sl_seed s = {.lo = 5};
        sl_rng_init(&r, &sl_rng_mt19937_type, &s, &e);
        void *t;
        sl_draw_prepare(methods[m], &t, weather, 8, &e);
        for (int i = 0; i < 1000; i++)
            methods[m]->draw(t, &r);
        cr_assert_eq(r.words, 1000 * per_draw[m], "%s: %llu words for 1000 draws, expected %llu", methods[m]->name,
                     (unsigned long long)r.words, (unsigned long long)(1000 * per_draw[m]));
        methods[m]->free(t);
        sl_rng_release(&r);
    }
}

Test(replay_draw, greedy_first_index_on_ties)
{
    static const double p[4] = {0.2, 0.4, 0.4, 0.0};
    sl_error e;
    void *t;
    sl_draw_prepare(&sl_draw_greedy_type, &t, p, 4, &e);
    cr_assert_eq(sl_draw_greedy_type.draw(t, NULL), 1);
    sl_draw_greedy_type.free(t);
}

/* A source that always returns all-ones words: the largest uniform, 1 - 2^-53. */
static uint64_t ones_next(void *s)
{
    (void)s;
    return 0xFFFFFFFFu;
}
static const sl_rng_type ones32 = {.name = "ones", .word_bits = 32, .state_size = 1, .next = ones_next};

Test(replay_draw, linear_fallback_hands_a_filtered_token_the_leftover)
{
    /* Seven weights 0.3 and a filtered (zero) last token. Normalised by their
     * plain sum, the running sum ends at 1 - 2^-52 < 1 - 2^-53, so the
     * largest uniform falls through the scan and the tutorial's fallback
     * returns the last index: a token with probability 0. */
    double p[8];
    for (int i = 0; i < 7; i++)
        p[i] = 0.3;
    p[7] = 0.0;
    double s = 0, cum = 0;
    for (int i = 0; i < 8; i++)
        s += p[i];
    for (int i = 0; i < 8; i++)
        cum += p[i] / s;
    cr_assert_lt(cum, 1.0 - 0x1p-53, "precondition: the running sum ends below the largest uniform (%a)", cum);
    char st;
    sl_rng r = {.type = &ones32, .state = &st};
    sl_error e;
    void *t;
    sl_draw_prepare(&sl_draw_linear_type, &t, p, 8, &e);
    cr_assert_eq(sl_draw_linear_type.draw(t, &r), 7, "the fallback should return the zero-probability last token");
    sl_draw_linear_type.free(t);
    /* the cdf method, given the same uniform, stays in the support */
    sl_draw_prepare(&sl_draw_cdf_type, &t, p, 8, &e);
    size_t c = sl_draw_cdf_type.draw(t, &r);
    cr_assert_lt(c, 7, "cdf returned %zu", c);
    sl_draw_cdf_type.free(t);
}

/* The one cdf search: on sorted tables with plateaus, gt counts the entries <= x
 * and ge those < x, for every x at, between and beyond the entries. */
Test(replay_draw, search_rules_on_sorted_tables_with_plateaus)
{
    const double d[] = {0.0, 0.0, 0.25, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0};
    float f[9];
    for (size_t n = 0; n <= 9; n++) {
        for (size_t i = 0; i < n; i++)
            f[i] = (float)d[i];
        for (int q = -1; q <= 9; q++) {
            double x = q * 0.125;
            size_t le = 0, lt = 0;
            for (size_t i = 0; i < n; i++) {
                le += d[i] <= x;
                lt += d[i] < x;
            }
            cr_assert_eq(sl_draw_search_gt_f64(d, n, x), le, "gt_d n=%zu x=%g", n, x);
            cr_assert_eq(sl_draw_search_gt_f32(f, n, (float)x), le, "gt_f n=%zu x=%g", n, x);
            cr_assert_eq(sl_draw_search_ge_f64(d, n, x), lt, "ge_d n=%zu x=%g", n, x);
            cr_assert_eq(sl_draw_search_ge_f32(f, n, x), lt, "ge_f n=%zu x=%g", n, x);
        }
    }
    /* torch's overflowed cdf: 0 before the overflow, NaN after; ge treats NaN as
     * "not less", so the bisection lands on the first NaN or earlier */
    const double t[] = {0.0, 0.0, NAN, NAN};
    cr_assert_eq(sl_draw_search_ge_f64(t, 4, 0.5), 2);
}
