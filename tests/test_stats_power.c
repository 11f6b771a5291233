/* test_stats_power.c — size and power of `samplab gof`'s rules (suite stat_stats).
 *
 * Size: correct samplers over many fixed seeds are rejected at about rate
 * alpha. Power: at N = 100,000 four known faults are rejected. Every sample
 * is drawn here through the core's draw methods over PCG32 with fixed seeds,
 * so the tests are deterministic; the bounds below say why they hold for any
 * seed with overwhelming probability.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "samplab.h"

/* The tutorial's weather example (003_1857ebf1d0eff5ab.txt), softmax of these
 * logits at T = 1: 51.5 %, 25.6 %, 17.2 %, 3.1 %, 1.4 %, 0.7 %, 0.3 %, 0.1 %. */
static const double weather_logits[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};

static void weather(double *p)
{
    sl_error err;
    cr_assert_eq(sl_logits_softmax(weather_logits, 8, 1.0, p, &err), 0, "%s", err.msg);
}

static void seed_of(sl_seed *s, uint64_t v)
{
    memset(s, 0, sizeof *s);
    s->lo = v;
}

/* N draws of method dt over PCG32 seeded `seed` into counts[V]. */
static void draw_counts(const sl_draw_type *dt, const double *p, size_t V, uint64_t seed, uint64_t n,
                        uint64_t *counts)
{
    sl_rng rng;
    sl_seed s;
    sl_error err;
    void *table;
    seed_of(&s, seed);
    cr_assert_eq(sl_rng_init(&rng, &sl_rng_pcg32_type, &s, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_draw_prepare(dt, &table, p, V, &err), 0, "%s", err.msg);
    memset(counts, 0, V * sizeof *counts);
    for (uint64_t i = 0; i < n; i++)
        counts[dt->draw(table, &rng)]++;
    dt->free(table);
    sl_rng_release(&rng);
}

static int gof_rejects(const double *p, const uint64_t *c, size_t V, double alpha, sl_stat_gof *g)
{
    sl_error err;
    cr_assert_eq(sl_stat_gof_compute(p, c, V, g, &err), 0, "%s", err.msg);
    return g->outside > 0 || (g->df >= 1 && g->chi2_p < alpha);
}

/* Size, dense: weather p, N = 10,000, alpha = 0.01, 1000 seeds, cdf method.
 * Rejections ~ Binomial(1000, 0.01): mean 10, sd 3.1; the window [1, 25]
 * fails with probability P(0) + P(>= 26) < 1e-4 for a correct test. */
Test(stat_stats, size_dense_weather)
{
    double p[8];
    weather(p);
    uint64_t c[8];
    int rej = 0, rej_g = 0;
    for (uint64_t s = 0; s < 1000; s++) {
        sl_stat_gof g;
        draw_counts(&sl_draw_cdf_type, p, 8, 1000 + s, 10000, c);
        rej += gof_rejects(p, c, 8, 0.01, &g);
        rej_g += g.g_p < 0.01;
    }
    cr_log_info("size_dense_weather: chi2 rejected %d of 1000 (expected 10), G %d\n", rej, rej_g);
    cr_assert(rej >= 1 && rej <= 25, "chi-square rejected %d of 1000 correct samples at alpha 0.01 (expected 10)",
              rej);
    cr_assert(rej_g >= 1 && rej_g <= 25, "G rejected %d of 1000 (expected 10)", rej_g);
}

/* Size, sparse with pooling: Zipf p over V = 2000 (p_i ∝ 1/(i+1)), N = 2000, so
 * most tokens have expected count < 5 and are pooled; alias method, alpha = 0.05,
 * 400 seeds. Rejections ~ Binomial(400, 0.05): mean 20, sd 4.4; window [5, 40]
 * fails with probability < 1e-4 for a correct test. */
Test(stat_stats, size_sparse_pooled)
{
    enum { V = 2000 };
    static double p[V];
    static uint64_t c[V];
    double s = 0;
    for (int i = 0; i < V; i++)
        s += p[i] = 1.0 / (i + 1);
    for (int i = 0; i < V; i++)
        p[i] /= s;
    int rej = 0;
    size_t cells = 0;
    for (uint64_t k = 0; k < 400; k++) {
        sl_stat_gof g;
        draw_counts(&sl_draw_alias_type, p, V, 5000 + k, 2000, c);
        rej += gof_rejects(p, c, V, 0.05, &g);
        cells = g.ncells;
    }
    cr_log_info("size_sparse_pooled: %zu cells; rejected %d of 400 (expected 20)\n", cells, rej);
    cr_assert(cells < V / 4, "expected heavy pooling, got %zu cells", cells);
    cr_assert(rej >= 5 && rej <= 40, "rejected %d of 400 correct samples at alpha 0.05 (expected 20)", rej);
}

/* Power 1: the tutorial's linear inverse CDF (scan, fallback to the last
 * index) fed a top-5-filtered weather distribution whose probabilities were
 * zeroed after the softmax and not renormalised. The reference is the correct
 * filter (top 5 renormalised), in which tokens 5..7 have p = 0. The lost
 * mass 0.7 + 0.3 + 0.1 % falls through the scan to the fallback, token 7,
 * which the filter removed: about 1100 draws land on a p = 0 token. The
 * scan is written out here exactly as the tutorial's Sample does it. */
Test(stat_stats, power_linear_cdf_fallback_on_filtered_token)
{
    double p[8], ref[8], kept = 0;
    weather(p);
    for (int i = 0; i < 8; i++) {
        ref[i] = i < 5 ? p[i] : 0;
        kept += ref[i];
    }
    for (int i = 0; i < 5; i++)
        ref[i] /= kept;
    double unnorm[8];
    for (int i = 0; i < 8; i++)
        unnorm[i] = i < 5 ? p[i] : 0; /* the bug: no renormalisation */
    sl_rng rng;
    sl_seed s;
    sl_error err;
    seed_of(&s, 42);
    cr_assert_eq(sl_rng_init(&rng, &sl_rng_pcg32_type, &s, &err), 0);
    uint64_t c[8] = {0};
    for (int n = 0; n < 100000; n++) {
        double r = sl_rng_uniform_f64(&rng), cum = 0;
        int tok = 7; /* fallback: the last index */
        for (int i = 0; i < 8; i++) {
            cum += unnorm[i];
            if (r < cum) {
                tok = i;
                break;
            }
        }
        c[tok]++;
    }
    sl_rng_release(&rng);
    sl_stat_gof g;
    int rej = gof_rejects(ref, c, 8, 0.01, &g);
    cr_assert(rej, "not rejected");
    cr_assert(g.outside > 900 && g.outside < 1300, "draws on the filtered last token: %llu, expected ~1100",
              (unsigned long long)g.outside);
    cr_assert_eq(g.outside_first, 7);
}

/* Power 2: candle's top-k + top-p without renormalisation, judged against
 * transformers' renormalised top-k then top-p (000_35ecf9df7ca706aa.txt: k = 40,
 * p = 0.9, the top 40 held 0.9208 of the mass; transformers kept 14 tokens,
 * candle 31, TV 0.0745). The logits pipelines land separately, so the two
 * distributions are built here from a p with the same structure (V = 128,
 * sorted descending): 13 tokens geometric (ratio 0.8) summing to 0.8285, one of
 * 0.0045 (top 14: 0.8330), 17 of 0.0675/17 (top 31: 0.9005), 9 of 0.0203/9
 * (top 40: 0.9208), 88 of 0.0009. Transformers renormalises the top 40 and
 * keeps a token while the mass above it is < 0.9 * 0.9208 (14 tokens); candle
 * keeps it while the raw mass above it is < 0.9 (31 tokens). TV between the
 * two = (0.9005 - 0.8330) / 0.9005 = 0.0750. Draws: cdf method (a cumulative
 * table and a search, as rand's WeightedIndex) over candle's 31 weights. */
Test(stat_stats, power_candle_topk_topp_without_renormalisation)
{
    enum { V = 128 };
    double p[V];
    double g13 = 0;
    for (int i = 0; i < 13; i++)
        g13 += pow(0.8, i);
    for (int i = 0; i < 13; i++)
        p[i] = 0.8285 * pow(0.8, i) / g13;
    p[13] = 0.0045;
    for (int i = 14; i < 31; i++)
        p[i] = 0.0675 / 17;
    for (int i = 31; i < 40; i++)
        p[i] = 0.0203 / 9;
    for (int i = 40; i < V; i++)
        p[i] = 0.0009;
    double top40 = 0;
    for (int i = 0; i < 40; i++)
        top40 += p[i];
    cr_assert(fabs(top40 - 0.9208) < 1e-12, "top-40 mass %.17g", top40);
    /* transformers: renormalise the top 40, keep while the mass above < 0.9 */
    int hf = 0;
    double above = 0;
    while (hf < 40 && above / top40 < 0.9)
        above += p[hf++];
    /* candle: raw mass, keep while the mass above < 0.9 */
    int cd = 0;
    above = 0;
    while (cd < 40 && above < 0.9)
        above += p[cd++];
    cr_assert_eq(hf, 14, "transformers keeps %d, expected 14", hf);
    cr_assert_eq(cd, 31, "candle keeps %d, expected 31", cd);
    double p_hf[V] = {0}, p_cd[V] = {0}, s_hf = 0, s_cd = 0;
    for (int i = 0; i < hf; i++)
        s_hf += p[i];
    for (int i = 0; i < cd; i++)
        s_cd += p[i];
    for (int i = 0; i < hf; i++)
        p_hf[i] = p[i] / s_hf;
    for (int i = 0; i < cd; i++)
        p_cd[i] = p[i] / s_cd;
    double tv = sl_stat_tv_dist(p_hf, p_cd, V);
    cr_assert(fabs(tv - 0.0745) < 0.001, "TV %.6g, the study measured 0.0745", tv);
    uint64_t c[V];
    draw_counts(&sl_draw_cdf_type, p_cd, V, 42, 100000, c);
    sl_stat_gof g;
    cr_assert(gof_rejects(p_hf, c, V, 0.01, &g), "candle's draws not rejected against transformers' p");
    /* ~7500 draws (TV 0.075 of 100,000) land on tokens transformers removed */
    cr_assert(g.outside > 7000 && g.outside < 8000, "outside %llu", (unsigned long long)g.outside);
    /* and the same draws pass against candle's own distribution */
    cr_assert(!gof_rejects(p_cd, c, V, 0.01, &g), "correct reference rejected: chi2 p %.3g", g.chi2_p);
}

/* Power 3: an off-by-one binary search. The search for the first i with
 * cdf[i] > u starts with hi = V - 2 instead of V - 1, so the last token is
 * never returned and its mass (0.1 % in the weather example) goes to token 6.
 * At N = 100,000 about 100 draws are missing from token 7: chi-square gets
 * ~100 from that cell alone (p ~ 1e-18 at df 7). */
Test(stat_stats, power_off_by_one_binary_search)
{
    double p[8], cdf[8], s = 0;
    weather(p);
    for (int i = 0; i < 8; i++)
        cdf[i] = s += p[i];
    sl_rng rng;
    sl_seed sd;
    sl_error err;
    seed_of(&sd, 7);
    cr_assert_eq(sl_rng_init(&rng, &sl_rng_pcg32_type, &sd, &err), 0);
    uint64_t c[8] = {0};
    for (int n = 0; n < 100000; n++) {
        double u = sl_rng_uniform_f64(&rng) * cdf[7];
        size_t lo = 0, hi = 8 - 2; /* the bug: should be 8 - 1 */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cdf[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        c[lo]++;
    }
    sl_rng_release(&rng);
    cr_assert_eq(c[7], 0, "the buggy search returned the last token");
    sl_stat_gof g;
    cr_assert(gof_rejects(p, c, 8, 0.01, &g), "off-by-one not rejected: chi2 p %.3g", g.chi2_p);
    cr_assert(g.chi2_p < 1e-10, "chi2 p %.3g, expected tiny", g.chi2_p);
    cr_assert_eq(g.resid_token[0], 7, "largest residual at token %zu, expected 7", g.resid_token[0]);
    /* the correct search (hi = V - 1) on the same stream passes */
    seed_of(&sd, 7);
    cr_assert_eq(sl_rng_init(&rng, &sl_rng_pcg32_type, &sd, &err), 0);
    memset(c, 0, sizeof c);
    for (int n = 0; n < 100000; n++) {
        double u = sl_rng_uniform_f64(&rng) * cdf[7];
        size_t lo = 0, hi = 8 - 1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cdf[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        c[lo]++;
    }
    sl_rng_release(&rng);
    cr_assert(!gof_rejects(p, c, 8, 0.01, &g), "correct search rejected: chi2 p %.3g", g.chi2_p);
}

/* Power 4: a single draw on a zero-probability token fails outright, even
 * when chi-square alone would pass. 99,999 correct draws plus one on token 8. */
Test(stat_stats, power_single_zero_probability_draw)
{
    double p[9];
    weather(p);
    p[8] = 0;
    uint64_t c[9];
    draw_counts(&sl_draw_alias_type, p, 9, 11, 99999, c);
    sl_stat_gof g;
    cr_assert(!gof_rejects(p, c, 9, 0.01, &g), "correct draws rejected: chi2 p %.3g", g.chi2_p);
    c[8] = 1;
    cr_assert(gof_rejects(p, c, 9, 0.01, &g), "a draw on a p = 0 token was not rejected");
    cr_assert_eq(g.outside, 1);
    cr_assert(g.chi2_p >= 0.01, "chi-square alone rejected (p %.3g): the zero rule is what decides", g.chi2_p);
}

/* The power study itself: with q = p its rejection rate is the size (500
 * trials, alpha 0.01: mean 5, P(> 15) < 1e-4); a 5 % temperature error on the
 * weather example (TV 0.014) is detected at N = 100,000 with power >= 0.9; and
 * the bisection finds a shift fault that is detected while a 4x smaller one is not. */
Test(stat_stats, power_study)
{
    double p[9], q[9], pw[SL_TEST_COUNT];
    weather(p);
    p[8] = 0;
    sl_stat_power s;
    sl_error err;
    cr_assert_eq(sl_stat_power_init(&s, p, 9, 100000, 0.01, 500, SL_STAT_SIM_SEED, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_stat_power_eval(&s, p, pw, &err), 0);
    cr_log_info("power_study: size chi2 %.3f G %.3f TV %.3f zero %.3f\n", pw[SL_TEST_CHI2], pw[SL_TEST_G],
                pw[SL_TEST_TV], pw[SL_TEST_ZERO]);
    cr_assert(pw[SL_TEST_CHI2] <= 0.03 && pw[SL_TEST_G] <= 0.03 && pw[SL_TEST_TV] <= 0.03, "size too large");
    cr_assert_eq(pw[SL_TEST_ZERO], 0.0);
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_TEMPER, p, 9, 0.05, q, &err), 0);
    cr_assert_eq(sl_stat_power_eval(&s, q, pw, &err), 0);
    cr_assert(pw[SL_TEST_GOF] >= 0.9, "T off by 5%%: power %.3f", pw[SL_TEST_GOF]);
    sl_stat_detect d;
    cr_assert_eq(sl_stat_power_detect(&s, SL_FAULT_SHIFT, SL_TEST_CHI2, 0.9, &d, &err), 0, "%s", err.msg);
    cr_assert(d.found && d.power >= 0.9, "shift not detected");
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_SHIFT, p, 9, d.theta / 4, q, &err), 0);
    cr_assert_eq(sl_stat_power_eval(&s, q, pw, &err), 0);
    cr_assert(pw[SL_TEST_CHI2] < 0.9, "a 4x smaller shift still has power %.3f", pw[SL_TEST_CHI2]);
    sl_stat_power_free(&s);
}
