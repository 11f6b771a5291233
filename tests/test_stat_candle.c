/* test_stat_candle.c — statistical checks of the candle emulation: the exact
 * distribution WeightedIndex<f32> realises (all 2^23 uniforms enumerated)
 * against the weights, and 10^6 draws from StdRng against that exact
 * distribution (chi-square, alpha = 1e-3), with the power shown on a
 * deliberately biased sampler. Fixed seeds; the thresholds hold because the
 * p-value of a correct sampler is uniform, so a false alarm has chance 1e-3.
 * Also (exact, not statistical): the block draw sample_many gives the tokens
 * and words of one-at-a-time sampling, for V up to 1,031 under rand 0.8's and
 * 0.9's rules. */
#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "samplab.h"

/* the 8-token weather example of 003_1857ebf1d0eff5ab.txt, in percent */
static const float weather[8] = {51.5f, 25.6f, 17.2f, 3.1f, 1.4f, 0.7f, 0.3f, 0.1f};

/* Exact pmf: each of the 2^23 values of (w >> 9) is equally likely. */
static void exact_pmf(const sl_draw_rand_wi *wi, double *pmf, size_t V)
{
    uint64_t *c = calloc(V, sizeof *c);
    for (uint32_t m = 0; m < (1u << 23); m++) {
        uint32_t bits = m | 0x3f800000u;
        float f;
        memcpy(&f, &bits, sizeof f);
        float chosen = (f - 1.0f) * wi->scale + 0.0f;
        size_t k = 0;
        for (size_t i = 0; i + 1 < V; i++)
            k += wi->cum[i] <= chosen;
        c[k]++;
    }
    for (size_t i = 0; i < V; i++)
        pmf[i] = (double)c[i] / 8388608.0;
    free(c);
}

static double chisq_p(const uint64_t *obs, const double *pmf, size_t V, uint64_t n)
{
    double x2 = 0;
    size_t df = 0;
    for (size_t i = 0; i < V; i++) {
        if (pmf[i] == 0) {
            cr_assert_eq(obs[i], 0, "token %zu has probability 0 but was drawn %llu times", i,
                         (unsigned long long)obs[i]);
            continue;
        }
        double e = pmf[i] * (double)n;
        x2 += ((double)obs[i] - e) * ((double)obs[i] - e) / e;
        df++;
    }
    return gsl_cdf_chisq_Q(x2, (double)(df - 1));
}

Test(stat_candle, exact_pmf_is_the_weights)
{
    sl_draw_rand_wi wi;
    cr_assert_eq(sl_draw_rand_wi_new(&wi, weather, 8, 8, NULL), SL_RAND_OK);
    double pmf[8];
    exact_pmf(&wi, pmf, 8);
    /* every token within 2^-23 (one uniform value) of weight / total plus the f32 sum error */
    for (int i = 0; i < 8; i++) {
        double want = (double)weather[i] / (double)wi.total;
        cr_assert(fabs(pmf[i] - want) < 4e-7, "token %d: exact %.9g, weights %.9g", i, pmf[i], want);
    }
    sl_draw_rand_wi_free(&wi);
}

Test(stat_candle, draws_follow_exact_pmf_and_bias_is_caught)
{
    /* N = 10^6 draws from StdRng seed 20261129; alpha = 1e-3 */
    const uint64_t n = 1000000;
    const double alpha = 1e-3;
    sl_draw_rand_wi wi;
    cr_assert_eq(sl_draw_rand_wi_new(&wi, weather, 8, 8, NULL), SL_RAND_OK);
    double pmf[8];
    exact_pmf(&wi, pmf, 8);
    sl_rng r;
    sl_error err;
    sl_seed seed = {.lo = 20261129};
    cr_assert_eq(sl_rng_init(&r, &sl_rng_rand_stdrng_type, &seed, &err), 0);
    uint64_t obs[8] = {0}, biased[8] = {0};
    size_t *t = malloc(n * sizeof *t);
    sl_draw_rand_wi_sample_many(&wi, &r, n, t);
    for (uint64_t i = 0; i < n; i++)
        obs[t[i]]++;
    cr_assert_eq(r.words, n, "%llu words for %llu draws", (unsigned long long)r.words, (unsigned long long)n);
    double p = chisq_p(obs, pmf, 8, n);
    cr_assert(p > alpha, "chi-square p = %.3g <= %.3g: the draws do not follow the exact pmf", p, alpha);
    /* power: a sampler that moves 0.1 percentage points from token 3 to token 4
     * (3.1% -> 3.0%, 1.4% -> 1.5%) must be rejected at the same N and alpha */
    sl_draw_rand_wi bw;
    float w2[8];
    memcpy(w2, weather, sizeof w2);
    w2[3] = 3.0f;
    w2[4] = 1.5f;
    cr_assert_eq(sl_draw_rand_wi_new(&bw, w2, 8, 8, NULL), SL_RAND_OK);
    sl_draw_rand_wi_sample_many(&bw, &r, n, t);
    for (uint64_t i = 0; i < n; i++)
        biased[t[i]]++;
    double pb = chisq_p(biased, pmf, 8, n);
    cr_assert(pb < alpha, "the biased sampler was not rejected: p = %.3g", pb);
    free(t);
    sl_rng_release(&r);
    sl_draw_rand_wi_free(&wi);
    sl_draw_rand_wi_free(&bw);
}

/* The block path (four searches side by side over the keystream buffer) draws the
 * tokens, and counts the words, that one draw at a time does: tables of 1 to 1031
 * weights (zeros, ties, a spike), runs that cross the buffer's refill, both rand
 * rules. */
Test(stat_candle, many_equals_one_at_a_time)
{
    size_t mism = 0, total = 0;
    uint64_t st = 5;
    for (size_t V = 1; V <= 1031; V = V < 12 ? V + 1 : V * 3 + 1)
        for (int version = 8; version <= 9; version++) {
            float *w = malloc(V * sizeof *w);
            for (size_t i = 0; i < V; i++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                w[i] = (st >> 60) < 3 ? 0.0f : (float)(st >> 40) * (i == V / 2 ? 1e3f : 1.0f);
            }
            w[V - 1] = 1.0f;
            sl_draw_rand_wi wi;
            cr_assert_eq(sl_draw_rand_wi_new(&wi, w, V, version, NULL), SL_RAND_OK);
            for (size_t n = 1; n <= 1000; n = n * 7 + 3) {
                sl_rng a, b;
                sl_error err;
                sl_seed seed = {.lo = 11 + n};
                cr_assert_eq(sl_rng_init(&a, &sl_rng_rand_stdrng_type, &seed, &err), 0);
                cr_assert_eq(sl_rng_init(&b, &sl_rng_rand_stdrng_type, &seed, &err), 0);
                size_t m = 2 * n + 7, *t = malloc(m * sizeof *t);
                sl_draw_rand_wi_sample_many(&wi, &a, 7, t); /* then from mid-buffer */
                sl_draw_rand_wi_sample_many(&wi, &a, m - 7, t + 7);
                for (size_t i = 0; i < m; i++, total++)
                    mism += t[i] != sl_draw_rand_wi_sample(&wi, &b);
                cr_expect_eq(a.words, b.words);
                free(t);
                sl_rng_release(&a);
                sl_rng_release(&b);
            }
            sl_draw_rand_wi_free(&wi);
            free(w);
        }
    cr_log_info("WeightedIndex block draws against one at a time: %zu draws, %zu differing", total, mism);
    cr_expect_eq(mism, 0);
}
