/* test_stats_gof.c — exact values of the statistics layer on small cases
 * checked by hand (suite replay_stats): pooled chi-square and G, TV and its
 * exact null mean, residuals, the zero-probability rule, the Kolmogorov
 * distribution.
 *
 * Reference values were computed with plain Python floats and fractions (no
 * statistics library): chi-square with df = 2 has the closed-form survival
 * exp(-x/2); the TV null mean by enumerating every multinomial outcome for
 * N = 10; K(n, d) for d > 1/2 from the Birnbaum–Tingey one-sided formula in
 * exact rationals, doubled (the two tails are disjoint there); for
 * 1/(2n) <= d <= 1/n from n! (2d - 1/n)^n; for d >= 1 - 1/n from 1 - 2(1-d)^n. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "samplab.h"

#define NEAR(obs, exp, rel)                                                                        \
    cr_assert(fabs((obs) - (exp)) <= (rel) * fabs(exp) + 1e-300, "%s: observed %.17g expected %.17g", \
              #obs, (double)(obs), (double)(exp))

Test(replay_stats, chi2_and_g_without_pooling)
{
    /* p = (.5,.3,.2), counts (50,35,15), N = 100: E = (50,30,20).
     * chi2 = 25/30 + 25/20 = 2.0833..., G = 2(35 ln(35/30) + 15 ln(15/20)). */
    const double p[] = {0.5, 0.3, 0.2};
    const uint64_t c[] = {50, 35, 15};
    sl_stat_gof g;
    sl_error err;
    cr_assert_eq(sl_stat_gof_compute(p, c, 3, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g.n, 100);
    cr_assert_eq(g.ncells, 3);
    cr_assert_eq(g.df, 2);
    cr_assert_eq(g.pooled_tokens, 0);
    NEAR(g.chi2, 2.0833333333333335, 1e-14);
    NEAR(g.chi2_p, 0.3528660814588489, 1e-12);
    NEAR(g.g, 2.1600854143546577, 1e-13);
    NEAR(g.g_p, 0.33958102278829561, 1e-12);
    NEAR(g.tv, 0.05, 1e-14);
    /* |f-p| = 0.04999999999999999 at token 1, 0.05000000000000002 at token 2 in doubles */
    cr_assert_eq(g.max_diff_token, 2, "max |f-p| token %zu, expected 2", g.max_diff_token);
    cr_assert_eq(g.outside, 0);
    /* residuals (O-E)/sqrt(E): token 1: 5/sqrt(30) = 0.9129, token 2: -5/sqrt(20) = -1.1180, token 0: 0 */
    cr_assert_eq(g.nresid, 3);
    cr_assert_eq(g.resid_token[0], 2);
    cr_assert_eq(g.resid_token[1], 1);
    cr_assert_eq(g.resid_token[2], 0);
    NEAR(g.resid[0], -5 / sqrt(20.0), 1e-14);
    NEAR(g.resid[1], 5 / sqrt(30.0), 1e-14);
}

Test(replay_stats, pooling_rule)
{
    /* N = 100, p = (.6,.3,.04,.03,.02,.01): E = 60, 30 stay cells; the small
     * ones in increasing order 1 (t5), 2 (t4), 3 (t3) close a group at 6 >= 5;
     * 4 (t2) is a short last group and joins it: cells (60, 30, 10). Observed
     * (55, 33, 3+2+4+3 = 12): chi2 = 25/60 + 9/30 + 4/10 = 1.11666... */
    const double p[] = {0.6, 0.3, 0.04, 0.03, 0.02, 0.01};
    const uint64_t c[] = {55, 33, 3, 2, 4, 3};
    sl_stat_cells cells;
    sl_error err;
    cr_assert_eq(sl_stat_cells_build(&cells, p, 6, 100, 5.0, &err), 0, "%s", err.msg);
    cr_assert_eq(cells.ncells, 3, "cells %zu, expected 3", cells.ncells);
    cr_assert_eq(cells.pooled_tokens, 4);
    cr_assert_eq(cells.pooled_cells, 1);
    for (size_t i = 2; i < 6; i++)
        cr_assert_eq(cells.cell_of[i], cells.cell_of[2], "token %zu not in the pooled cell", i);
    NEAR(cells.expected[cells.cell_of[2]], 10.0, 1e-14);
    sl_stat_cells_free(&cells);
    sl_stat_gof g;
    cr_assert_eq(sl_stat_gof_compute(p, c, 6, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g.df, 2);
    NEAR(g.chi2, 1.1166666666666667, 1e-14);
    NEAR(g.chi2_p, 0.57216187274208297, 1e-12);
    NEAR(g.g, 1.0949377612810771, 1e-13);
    NEAR(g.g_p, 0.57841198890853962, 1e-12);
}

Test(replay_stats, pooling_short_group_without_partner)
{
    /* N = 100, p = (.97, .03): the only small cell (E = 3) has no group to
     * join and goes into the smallest big cell: one cell, df 0, p = 1. */
    const double p[] = {0.97, 0.03};
    const uint64_t c[] = {90, 10};
    sl_stat_gof g;
    sl_error err;
    cr_assert_eq(sl_stat_gof_compute(p, c, 2, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g.ncells, 1);
    cr_assert_eq(g.df, 0);
    cr_assert_eq(g.chi2_p, 1.0);
}

Test(replay_stats, zero_probability_draw_is_counted)
{
    const double p[] = {0.5, 0.5, 0.0, 0.0};
    const uint64_t c[] = {500, 499, 0, 1};
    sl_stat_gof g;
    sl_error err;
    cr_assert_eq(sl_stat_gof_compute(p, c, 4, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g.outside, 1);
    cr_assert_eq(g.outside_tokens, 1);
    cr_assert_eq(g.outside_first, 3);
    cr_assert_eq(g.support, 2);
    /* the deficit of one draw shows in chi2: E = 500, 500; O = 500, 499 -> 1/500 */
    NEAR(g.chi2, 1.0 / 500, 1e-12);
    cr_assert(g.g >= 0, "G %.17g must stay >= 0 with a deficit", g.g);
}

Test(replay_stats, bad_inputs)
{
    sl_stat_gof g;
    sl_error err;
    const double p[] = {0.5, 0.5};
    const uint64_t zero[] = {0, 0};
    cr_assert_eq(sl_stat_gof_compute(p, zero, 2, &g, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "no draws"), "%s", err.msg);
    const double bad[] = {0.5, 0.6};
    const uint64_t c[] = {1, 1};
    cr_assert_eq(sl_stat_gof_compute(bad, c, 2, &g, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "sum to"), "%s", err.msg);
    const double neg[] = {1.5, -0.5};
    cr_assert_eq(sl_stat_gof_compute(neg, c, 2, &g, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "entry 1 is negative"), "%s", err.msg);
}

Test(replay_stats, tv_null_mean_exact)
{
    /* Enumeration of all 66 outcomes of multinomial(10; .5,.3,.2). */
    const double p[] = {0.5, 0.3, 0.2};
    NEAR(sl_stat_tv_null_mean(p, 3, 10), 0.16587568529999999, 1e-12);
    /* One token of probability 1: TV is always 0. */
    const double one[] = {0, 1, 0};
    cr_assert_eq(sl_stat_tv_null_mean(one, 3, 1000), 0.0);
}

Test(replay_stats, tv_null_simulation_agrees_with_exact_mean)
{
    /* 4000 samples of N = 1000 over 20 tokens: the simulated mean must be
     * within 4 standard errors of de Moivre's exact mean. */
    double p[20], s = 0;
    for (int i = 0; i < 20; i++)
        s += p[i] = 1.0 / (i + 1);
    for (int i = 0; i < 20; i++)
        p[i] /= s;
    double tv[4000];
    sl_error err;
    cr_assert_eq(sl_stat_tv_null_sim(p, 20, 1000, 4000, SL_STAT_SIM_SEED, tv, NULL, &err), 0, "%s", err.msg);
    double m = 0, v = 0;
    for (int i = 0; i < 4000; i++)
        m += tv[i];
    m /= 4000;
    for (int i = 0; i < 4000; i++)
        v += (tv[i] - m) * (tv[i] - m);
    double se = sqrt(v / 3999 / 4000), exact = sl_stat_tv_null_mean(p, 20, 1000);
    cr_assert(fabs(m - exact) < 4 * se, "simulated mean %.9g, exact %.9g, se %.3g", m, exact, se);
    for (int i = 1; i < 4000; i++)
        cr_assert(tv[i - 1] <= tv[i], "not sorted at %d", i);
    cr_assert_eq(sl_stat_quantile_sorted(tv, 4000, 0.99), tv[3959]);
}

/* The TV null as tvnull.c's comment defines it, written the slow way: GSL's
 * mt19937 seeded with gsl_rng_set, n calls of gsl_ran_discrete over the support
 * per replicate, TV summed in token order, sorted. */
static int dbl_less(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void tv_null_gsl(const double *p, size_t V, uint64_t n, size_t reps, unsigned long seed, double *tv)
{
    double *ps = malloc(V * sizeof *ps);
    unsigned int *cnt = malloc(V * sizeof *cnt);
    size_t K = 0;
    for (size_t i = 0; i < V; i++)
        if (p[i] > 0)
            ps[K++] = p[i];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    gsl_ran_discrete_t *g = gsl_ran_discrete_preproc(K, ps);
    cr_assert(ps && cnt && r && g);
    for (size_t t = 0; t < reps; t++) {
        memset(cnt, 0, K * sizeof *cnt);
        for (uint64_t j = 0; j < n; j++)
            cnt[gsl_ran_discrete(r, g)]++;
        double s = 0;
        for (size_t j = 0; j < K; j++)
            s += fabs((double)cnt[j] / (double)n - ps[j]);
        tv[t] = 0.5 * s;
    }
    qsort(tv, reps, sizeof *tv, dbl_less);
    gsl_ran_discrete_free(g);
    gsl_rng_free(r);
    free(ps);
    free(cnt);
}

Test(replay_stats, tv_null_simulation_is_gsl_ran_discrete_bit_for_bit)
{
    /* The fast path (one MT19937 word decides a draw through an integer bound,
     * blocks of words, the TV summed a replicate late) against N calls of
     * gsl_ran_discrete: the same doubles. Zipf-like p with zeros between, N
     * below and across 624-word blocks, seed 0 (GSL's 4357), a support past
     * 2^21 (u K in doubles, as GSL computes it) and the multinomial path. */
    static const struct { size_t V; uint64_t n; size_t reps; unsigned long seed; } cases[] = {
        {3001, 2000, 30, SL_STAT_SIM_SEED}, {3001, 100, 40, 0}, {577, 1249, 25, 7},
        {((size_t)1 << 21) + 5, 700, 2, SL_STAT_SIM_SEED}, {50, 100000, 5, 3}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        size_t V = cases[k].V, reps = cases[k].reps;
        uint64_t n = cases[k].n;
        double *p = malloc(V * sizeof *p), s = 0;
        double *a = malloc(reps * sizeof *a), *b = malloc(reps * sizeof *b);
        cr_assert(p && a && b);
        for (size_t i = 0; i < V; i++)
            s += p[i] = i % 7 == 3 ? 0 : 1.0 / (double)(i + 1);
        for (size_t i = 0; i < V; i++)
            p[i] /= s;
        size_t K = 0;
        for (size_t i = 0; i < V; i++)
            K += p[i] > 0;
        sl_error err;
        cr_assert_eq(sl_stat_tv_null_sim(p, V, n, reps, cases[k].seed, a, NULL, &err), 0, "%s", err.msg);
        const char *how = sl_stat_tv_null_sampler(K, n);
        if (strstr(how, "gsl_ran_discrete")) {
            tv_null_gsl(p, V, n, reps, cases[k].seed, b);
            for (size_t t = 0; t < reps; t++)
                cr_assert(a[t] == b[t], "V = %zu, N = %llu, seed %lu: TV[%zu] %.17g, gsl_ran_discrete's %.17g", V,
                          (unsigned long long)n, cases[k].seed, t, a[t], b[t]);
        } else {
            /* N = 10^5 over 43 tokens: the conditional binomials, which stay GSL's own calls */
            cr_assert(strstr(how, "gsl_ran_multinomial"), "%s", how);
            cr_assert(a[0] > 0 && a[reps - 1] < 0.05, "TV %.17g .. %.17g", a[0], a[reps - 1]);
        }
        free(p);
        free(a);
        free(b);
    }
}

Test(replay_stats, gof_weights_take_a_float32_pipelines_probabilities)
{
    /* transformers' top-4 at T = 0.8 over the weather logits, as float32 (`samplab pipeline
     * --framework hf` prints them): their sum is 1 - 3.7e-9, which the probabilities call
     * refuses and the weights call divides out, as `gof --probs` does (api/ref.c). */
    sl_vec v;
    sl_error err;
    cr_assert_eq(sl_io_vec_read("5,4.3,3.9,2.2,1.4,0.7,-0.1,-1.2", NULL, -1, &v, &err), 0, "%s", err.msg);
    sl_logits_cfg cfg = {0};
    cfg.has_temperature = 1, cfg.temperature = 0.8;
    cfg.has_top_k = 1, cfg.top_k = 4;
    sl_logits_result res;
    cr_assert_eq(sl_logits_pipeline_run(sl_logits_pipeline_lookup("hf"), &v, &cfg, &res, &err), 0, "%s", err.msg);
    cr_assert_eq(res.precision, 32);
    double sum = 0;
    for (size_t i = 0; i < 8; i++)
        sum += res.probs[i];
    cr_assert(fabs(sum - 1) > 1e-9 && fabs(sum - 1) < 1e-7, "sum %.17g", sum);
    const uint64_t counts[8] = {50000, 25000, 17000, 8000, 0, 0, 0, 0};
    sl_stat_gof_test t;
    cr_assert_eq(sl_stat_gof_test_run(res.probs, counts, 8, 0.01, &t, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "sum to"), "%s", err.msg);
    cr_assert_eq(sl_stat_gof_test_run_weights(res.probs, counts, 8, 0.01, &t, &err), 0, "%s", err.msg);
    double p[8], s2;
    cr_assert_eq(sl_stat_gof_normalise(res.probs, 8, p, &s2, &err), 0, "%s", err.msg);
    cr_assert_eq(s2, sum);
    sl_stat_gof g;
    cr_assert_eq(sl_stat_gof_compute(p, counts, 8, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(t.g.chi2, g.chi2, "chi2 %.17g against %.17g", t.g.chi2, g.chi2);
    cr_assert_eq(t.g.support, 4);
    for (int i = 0; i < 8; i++)
        cr_assert_eq(p[i], res.probs[i] / sum, "p[%d]", i);
    sl_logits_result_free(&res);
    sl_base_vec_free(&v);
    /* what is no reference is refused by position */
    const double neg[] = {0.5, -0.25, 0.75}, nan_w[] = {0.5, NAN}, zero[] = {0, 0};
    cr_assert_eq(sl_stat_gof_normalise(neg, 3, p, NULL, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "weight 1 is -0.25"), "%s", err.msg);
    cr_assert_eq(sl_stat_gof_normalise(nan_w, 2, p, NULL, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "weight 1 is nan"), "%s", err.msg);
    cr_assert_eq(sl_stat_gof_normalise(zero, 2, p, NULL, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "sum to 0"), "%s", err.msg);
}

/* sl_stat_kolmogorov_cdf, asserting that it succeeds */
static double kcdf(size_t n, double d)
{
    double k = -1;
    sl_error e = {{0}};
    int rc = sl_stat_kolmogorov_cdf(n, d, &k, &e);
    cr_assert_eq(rc, 0, "K(%zu, %g): %s", n, d, e.msg);
    return k;
}

Test(replay_stats, kolmogorov_distribution)
{
    /* Closed forms (see the file comment). */
    NEAR(kcdf(1, 0.8), 0.6, 1e-14);                 /* 2d - 1 */
    NEAR(kcdf(3, 0.25), 0.027777777777777776, 1e-12); /* 3!(2d-1/3)^3 */
    NEAR(kcdf(5, 0.85), 0.999848125, 1e-12);        /* 1 - 2(1-d)^5 */
    /* Birnbaum–Tingey, exact rationals. */
    NEAR(kcdf(10, 0.6), 0.99943183280000003, 1e-12);
    NEAR(kcdf(7, 0.55), 0.98374406034873862, 1e-12);
    NEAR(kcdf(20, 0.52), 0.99998521279336283, 1e-12);
    /* The example in Marsaglia, Tsang & Wang (2003); a 2e6-sample Monte Carlo
     * in NumPy gave 0.62872 +- 0.00034. */
    NEAR(kcdf(10, 0.274), 0.6284796154565043, 1e-12);
    cr_assert_eq(kcdf(10, 0.0), 0.0);
    cr_assert_eq(kcdf(10, 1.0), 1.0);
}

Test(replay_stats, ks_uniform_statistic)
{
    /* Sorted x = (.1,.4,.7): D+ = max(1/3-.1, 2/3-.4, 1-.7) = .3 (at x = .7);
     * D- = max(.1, .4-1/3, .7-2/3) = .1. D = .3, p = 1 - K(3, .3). */
    const double x[] = {0.7, 0.1, 0.4};
    double d, p;
    sl_error err;
    cr_assert_eq(sl_stat_ks_uniform(x, 3, &d, &p, &err), 0, "%s", err.msg);
    NEAR(d, 0.3, 1e-14);
    NEAR(p, 1 - kcdf(3, 0.3), 1e-14);
    const double bad[] = {0.5, 1.5};
    cr_assert_eq(sl_stat_ks_uniform(bad, 2, &d, &p, &err), SL_EINVAL);
}

Test(replay_stats, fault_families)
{
    const double p[] = {0.5, 0.3, 0.2, 0.0};
    double q[4];
    sl_error err;
    /* shift 0.1: q = .9p + .1 p_{i-1}; the last token keeps its own share. */
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_SHIFT, p, 4, 0.1, q, &err), 0);
    NEAR(q[0], 0.45, 1e-15);
    NEAR(q[1], 0.32, 1e-15);
    NEAR(q[2], 0.21, 1e-15);
    NEAR(q[3], 0.02, 1e-15);
    /* leak 0.01 onto token 3 */
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_LEAK, p, 4, 0.01, q, &err), 0);
    NEAR(q[3], 0.01, 1e-15);
    NEAR(sl_stat_tv_dist(p, q, 4), 0.01, 1e-13);
    /* top-2 without renormalisation: 0.2 falls back to the last token (3) */
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_TOPK, p, 4, 2, q, &err), 0);
    NEAR(q[3], 0.2, 1e-14);
    cr_assert_eq(q[2], 0.0);
    /* T = 2: q ∝ sqrt(p) */
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_TEMPER, p, 4, 1.0, q, &err), 0);
    double s = sqrt(0.5) + sqrt(0.3) + sqrt(0.2);
    NEAR(q[1], sqrt(0.3) / s, 1e-14);
    cr_assert_eq(q[3], 0.0);
    /* leak needs a zero-probability token */
    const double full[] = {0.5, 0.5};
    cr_assert_eq(sl_stat_fault_apply(SL_FAULT_LEAK, full, 2, 0.1, q, &err), SL_EINVAL);
}

Test(replay_stats, kolmogorov_large_n_is_fast_and_consistent)
{
    /* n = 10^6, d = 0.0012 (n d = 1200, past the matrix limit): Kolmogorov's
     * limit L(x) = 1 - 2 sum (-1)^(k-1) exp(-2 k^2 x^2) at x = sqrt(n) d = 1.2
     * is 1 - 2 (e^-2.88 - e^-11.52 + ...) = 0.88776; Stephens' correction moves
     * x by 1.4e-4 only. */
    double k = kcdf(1000000, 0.0012);
    cr_assert(k > 0.887 && k < 0.89, "K(1e6, 0.0012) = %.9g, expected ~L(1.2) = 0.8877", k);
}
