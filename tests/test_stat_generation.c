/* test_stat_generation.c — `samplab check`'s statistics of a generation log
 * (stats/gen.c), with real sampler sessions as the samplers:
 *  - calibration: under a correct sampler (the hf session drawing, its own
 *    probs hook as the claim) the KS-of-PIT and log-likelihood p-values are
 *    uniform over 300 seeds (KS of the p-values, p > 0.001), and the verdict
 *    rejects at most its level (plus 3 binomial standard errors);
 *  - power: a sampler at temperature 1.2 judged against a claim of 1.0, and
 *    one at top-p 0.95 judged against top-p 0.9, are rejected at alpha 0.01
 *    in at least 18 of 20 seeds (T = 300 steps, V = 64);
 *  - sl_stat_gen_power agrees: 90 % power at temperature x 1.2 for that log.
 * Logits: N(0, 2^2) from splitmix64 seeded per seed (fixed); every seed fixed,
 * so the test is deterministic. */
#include <criterion/criterion.h>
#include <math.h>

#include "helpers.h"
#include "samplab.h"

static uint64_t sm(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double gauss(uint64_t *s)
{
    double u = ((double)(sm(s) >> 11) + 0.5) * 0x1p-53, v = (double)(sm(s) >> 11) * 0x1p-53;
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void fill_logits(sl_vec *row, uint64_t *s, double scale)
{
    for (size_t i = 0; i < row->n; i++) {
        row->f[i] = (float)(scale * gauss(s));
        row->d[i] = row->f[i];
    }
    row->dtype = SL_F32;
}

static sl_fw_opts opts(double t, double top_p, long top_k, uint64_t seed)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.k = o.n = 1;
    o.variant = "2";
    o.has_seed = 1;
    o.seed.lo = seed;
    o.cfg.has_temperature = 1;
    o.cfg.temperature = t;
    if (top_p < 1) {
        o.cfg.has_top_p = 1;
        o.cfg.top_p = top_p;
    }
    if (top_k) {
        o.cfg.has_top_k = 1;
        o.cfg.top_k = top_k;
    }
    return o;
}

/* One log of T steps: drawn by a session with `draw` settings, judged against a
 * session with `claim` settings (both see the same history). */
static sl_stat_gen_result judge(const sl_fw_opts *draw, const sl_fw_opts *claim, size_t T, size_t V,
                                uint64_t lseed, double alpha)
{
    sl_error e;
    sl_fw_session ds, cs;
    sl_vec row;
    sl_stat_gen g;
    cr_assert_eq(sl_fw_session_open(&ds, &sl_fw_hf_type, draw, &e), 0, "%s", e.msg);
    cr_assert_eq(sl_fw_session_open(&cs, &sl_fw_hf_type, claim, &e), 0, "%s", e.msg);
    cr_assert_eq(sl_base_vec_alloc(&row, V, "gen", &e), 0);
    cr_assert_eq(sl_stat_gen_init(&g, T, SL_STAT_GEN_SEED, &e), 0);
    uint64_t s = lseed;
    for (size_t t = 0; t < T; t++) {
        fill_logits(&row, &s, 2.0);
        sl_fw_step st;
        sl_logits_result r;
        sl_stat_gen_one one;
        cr_assert_eq(sl_fw_session_step(&ds, &row, &st, &e), 0, "%s", e.msg);
        cr_assert_eq(sl_fw_session_probs(&cs, &row, &r, &e), 0, "%s", e.msg);
        cr_assert_eq(sl_stat_gen_step(r.probs, V, (size_t)st.tokens[0], t, &one, &e), 0, "%s", e.msg);
        cr_assert_eq(sl_stat_gen_add(&g, &one, &e), 0);
        sl_logits_result_free(&r);
        long x = st.tokens[0];
        cr_assert_eq(sl_fw_session_accept(&ds, x, &e), 0);
        cr_assert_eq(sl_fw_session_accept(&cs, x, &e), 0);
    }
    sl_stat_gen_result res;
    cr_assert_eq(sl_stat_gen_finish(&g, alpha, &res, &e), 0, "%s", e.msg);
    sl_stat_gen_free(&g);
    sl_base_vec_free(&row);
    sl_fw_session_close(&ds);
    sl_fw_session_close(&cs);
    return res;
}

Test(stat_generation, calibrated_under_a_correct_sampler)
{
    enum { SEEDS = 300, T = 100, V = 64 };
    double pks[SEEDS], pll[SEEDS];
    size_t rej = 0;
    for (size_t k = 0; k < SEEDS; k++) {
        sl_fw_opts o = opts(0.8, 1.0, 20, 1000 + k);
        sl_stat_gen_result r = judge(&o, &o, T, V, 77 + k, 0.05);
        cr_assert_eq(r.outside, 0, "seed %zu: a correct sampler drew outside the kept set", k);
        pks[k] = r.ks_p;
        pll[k] = r.ll_p;
        rej += r.reject;
    }
    sl_error e;
    double d, p;
    cr_assert_eq(sl_stat_ks_uniform(pks, SEEDS, &d, &p, &e), 0);
    cr_log_info("PIT-KS p-values over %d seeds: KS D = %.4f, p = %.4f (want > 0.001)", SEEDS, d, p);
    cr_expect_gt(p, 0.001, "PIT-KS p-values not uniform: D = %.4f, p = %.4g", d, p);
    cr_assert_eq(sl_stat_ks_uniform(pll, SEEDS, &d, &p, &e), 0);
    cr_log_info("log-likelihood p-values over %d seeds: KS D = %.4f, p = %.4f (want > 0.001)", SEEDS, d, p);
    cr_expect_gt(p, 0.001, "log-likelihood p-values not uniform: D = %.4f, p = %.4g", d, p);
    /* Bonferroni is conservative: at most alpha, within 3 standard errors */
    double lim = 0.05 * SEEDS + 3 * sqrt(SEEDS * 0.05 * 0.95);
    cr_log_info("verdict at alpha 0.05: %zu of %d rejected (at most %.1f)", rej, SEEDS, lim);
    cr_expect_leq((double)rej, lim, "verdict rejects %zu of %d correct logs at alpha 0.05", rej, SEEDS);
}

Test(stat_generation, wrong_samplers_rejected)
{
    enum { SEEDS = 20, T = 300, V = 64 };
    size_t hot = 0, wide = 0;
    for (size_t k = 0; k < SEEDS; k++) {
        sl_fw_opts claim = opts(1.0, 1.0, 0, 1), draw = opts(1.2, 1.0, 0, 500 + k);
        sl_stat_gen_result r = judge(&draw, &claim, T, V, 900 + k, 0.01);
        hot += r.reject;
        claim = opts(1.0, 0.9, 0, 1);
        draw = opts(1.0, 0.95, 0, 700 + k);
        r = judge(&draw, &claim, T, V, 1900 + k, 0.01);
        wide += r.reject;
    }
    cr_log_info("temperature 1.2 claimed as 1.0: %zu of %d rejected; top-p 0.95 claimed as 0.9: %zu of %d",
                hot, SEEDS, wide, SEEDS);
    cr_expect_geq(hot, 18, "temperature 1.2 vs 1.0: only %zu of %d rejected", hot, SEEDS);
    cr_expect_geq(wide, 18, "top-p 0.95 vs 0.9: only %zu of %d rejected", wide, SEEDS);
}

/* the power simulation over a log's own steps */
typedef struct pw_ctx {
    sl_vec row;
    size_t V;
    uint64_t lseed;
    size_t cur;
    double out[64];
} pw_ctx;

static int pw_dist(void *ctx, size_t t, size_t alt, const double **w, size_t *V, sl_error *err)
{
    pw_ctx *c = ctx;
    uint64_t s = c->lseed + 7919 * t; /* each step's logits from its own seed */
    fill_logits(&c->row, &s, 2.0);
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.has_temperature = 1;
    cfg.temperature = alt ? 1.2 : 1.0;
    sl_logits_result r;
    int rc = sl_logits_pipeline_run(&sl_logits_pipeline_hf_type, &c->row, &cfg, &r, err);
    if (rc)
        return rc;
    memcpy(c->out, r.probs, c->V * sizeof *c->out);
    sl_logits_result_free(&r);
    *w = c->out;
    *V = c->V;
    return SL_OK;
}

Test(stat_generation, power_simulation_sees_temperature_1_2)
{
    pw_ctx c;
    sl_error e;
    memset(&c, 0, sizeof c);
    c.V = 64;
    c.lseed = 4242;
    cr_assert_eq(sl_base_vec_alloc(&c.row, 64, "pw", &e), 0);
    double power;
    cr_assert_eq(sl_stat_gen_power(300, 1, pw_dist, &c, 200, 0.01, SL_STAT_SIM_SEED_GEN, &power, &e), 0, "%s", e.msg);
    cr_log_info("power at T = 1.2 vs 1.0 over 300 steps: %.3f (200 trials, seed %u)", power, SL_STAT_SIM_SEED_GEN);
    cr_expect_geq(power, 0.9, "power %.3f", power);
    sl_base_vec_free(&c.row);
}

/* a near-flat step: half the weights 1, half 1 + 1e-7 (V = 4096). Var(log p) =
 * (log(1 + 1e-7) / 2)^2 = 2.5e-15, which p l^2 - (p l)^2 loses to cancellation
 * (l is about -8.3); so is log p(x) - mean = +-log(1 + 1e-7) / 2 */
Test(stat_generation, step_terms_near_flat)
{
    enum { NV = 4096 };
    static double w[NV];
    for (size_t i = 0; i < NV; i++)
        w[i] = i % 2 ? 1 + 1e-7 : 1;
    double d = log1p(1e-7), var = 0, dev = 0;
    /* the exact mass of each half: 1 / (V/2 (2 + 1e-7)) a token below, (1 + 1e-7) times that above */
    double pa = 1 / (NV / 2 * (2 + 1e-7)), pb = pa * (1 + 1e-7);
    double mean_shift = NV / 2 * pb * d; /* E[l - l_a] */
    var = NV / 2 * pa * mean_shift * mean_shift + NV / 2 * pb * (d - mean_shift) * (d - mean_shift);
    dev = -mean_shift; /* x = 0: l_a - E[l] */
    sl_stat_gen_one o;
    sl_error e;
    cr_assert_eq(sl_stat_gen_step(w, NV, 0, 0, &o, &e), 0);
    cr_expect(fabs(o.var - var) <= 1e-6 * var, "var %.17g, want %.17g", o.var, var);
    cr_expect(fabs(o.dev - dev) <= 1e-6 * fabs(dev), "dev %.17g, want %.17g", o.dev, dev);
    cr_assert_eq(sl_stat_gen_step(w, NV, 1, 0, &o, &e), 0);
    cr_expect(fabs(o.var - var) <= 1e-6 * var, "var %.17g, want %.17g", o.var, var);
    cr_expect(fabs(o.dev - (d - mean_shift)) <= 1e-6 * fabs(d - mean_shift), "dev %.17g", o.dev);
}

/* one step's terms by hand: p = (1/2, 1/4, 1/4) */
Test(stat_generation, step_terms_exact)
{
    const double w[3] = {2, 1, 1}; /* weights, divided by their sum */
    sl_stat_gen_one o;
    sl_error e;
    double l2 = log(0.5), l4 = log(0.25), m = 0.5 * l2 + 0.5 * l4;
    double var = 0.5 * l2 * l2 + 0.5 * l4 * l4 - m * m;
    cr_assert_eq(sl_stat_gen_step(w, 3, 1, 0, &o, &e), 0);
    cr_expect_float_eq(o.px, 0.25, 1e-15);
    cr_expect_float_eq(o.mean, m, 1e-15, "mean %.17g, want %.17g", o.mean, m);
    cr_expect_float_eq(o.var, var, 1e-15, "var %.17g, want %.17g", o.var, var);
    cr_expect_float_eq(o.before, 0.5, 1e-15, "token 1 ranks after token 0 only");
    cr_assert_eq(sl_stat_gen_step(w, 3, 2, 0, &o, &e), 0);
    cr_expect_float_eq(o.before, 0.75, 1e-15, "a tie ranks by id: token 2 after 0 and 1");
    cr_assert_eq(sl_stat_gen_step(w, 3, 0, 0, &o, &e), 0);
    cr_expect_float_eq(o.before, 0.0, 1e-15);
    const double z[3] = {1, 0, 1};
    cr_assert_eq(sl_stat_gen_step(z, 3, 1, 4, &o, &e), 0);
    cr_expect_eq(o.px, 0.0, "a removed token has probability 0");
    cr_expect_neq(sl_stat_gen_step(z, 3, 3, 4, &o, &e), 0);
    cr_expect(strstr(e.msg, "step 4: token 3 is not below V = 3"), "%s", e.msg);
    const double bad[2] = {1, -1};
    cr_expect_neq(sl_stat_gen_step(bad, 2, 0, 7, &o, &e), 0);
    cr_expect(strstr(e.msg, "step 7"), "%s", e.msg);
    /* a log of certain steps: L equals its mean, p = 1; one outside: p_value 0 */
    sl_stat_gen g;
    sl_stat_gen_result r;
    const double one[2] = {0, 1};
    cr_assert_eq(sl_stat_gen_init(&g, 1, SL_STAT_GEN_SEED, &e), 0);
    for (int t = 0; t < 5; t++) {
        sl_stat_gen_step(one, 2, 1, (size_t)t, &o, &e);
        cr_assert_eq(sl_stat_gen_add(&g, &o, &e), 0);
    }
    cr_assert_eq(sl_stat_gen_finish(&g, 0.01, &r, &e), 0);
    cr_expect_eq(r.ll_p, 1.0);
    cr_expect_eq(r.reject, 0);
    sl_stat_gen_step(one, 2, 0, 5, &o, &e);
    sl_stat_gen_add(&g, &o, &e);
    cr_assert_eq(sl_stat_gen_finish(&g, 0.01, &r, &e), 0);
    cr_expect_eq(r.outside, 1);
    cr_expect_eq(r.p_value, 0.0);
    cr_expect_eq(r.reject, 1);
    sl_stat_gen_free(&g);
}

/* check's step terms at every SIMD level: the same bits, on whole rows, filtered rows
 * (the zero-skipping path), ties with the observed weight and x at every lane; and
 * the moments against a direct sum in long double (glibc's logl) */
Test(stat_generation, step_terms_levels_agree)
{
    enum { V = 1031 };
    double *w = malloc(V * sizeof *w);
    cr_assert_not_null(w);
    uint64_t s = 99;
    size_t diff = 0, rows = 0;
    double worst = 0;
    for (int kind = 0; kind < 4; kind++)
        for (int r = 0; r < 40; r++) {
            for (size_t i = 0; i < V; i++) {
                double g = gauss(&s);
                w[i] = kind == 0 ? exp(2 * g) : kind == 1 ? (sm(&s) % 50 ? 0 : exp(g)) : kind == 2 ? (double)(sm(&s) % 4) : (double)(float)exp(3 * g);
            }
            w[sm(&s) % V] = 1.0; /* never all zero */
            size_t x = (size_t)(sm(&s) % V);
            if (kind == 2)
                w[x] = 2.0; /* many ties with the observed weight */
            sl_stat_gen_one o[3];
            sl_error e;
            static const int lv[3] = {SL_SIMD_SCALAR, SL_SIMD_SSE2, SL_SIMD_AVX2};
            for (int l = 0; l < 3; l++)
                cr_assert_eq(sl_stat_gen_step_at(w, V, x, 0, lv[l], &o[l], &e), 0, "%s", e.msg);
            for (int l = 1; l < 3; l++)
                diff += memcmp(&o[0], &o[l], sizeof o[0]) != 0;
            long double S = 0, m1 = 0, m2 = 0, bef = 0;
            for (size_t i = 0; i < V; i++)
                S += w[i];
            for (size_t i = 0; i < V; i++)
                if (w[i] > 0) {
                    long double p = w[i] / S, lp = logl(p);
                    m1 += p * lp;
                    m2 += p * lp * lp;
                    bef += (w[i] > w[x] || (w[i] == w[x] && i < x)) ? p : 0;
                }
            double em = fabs((double)((o[0].mean - m1) / (fabsl(m1) + 1e-300)));
            double ev = fabs((double)((o[0].var - (m2 - m1 * m1)) / (m2 - m1 * m1 + 1e-300)));
            double eb = fabs((double)(o[0].before - bef));
            worst = fmax(worst, fmax(em, fmax(ev, eb)));
            rows++;
        }
    cr_log_info("step terms at 3 levels: %zu rows, %zu differing; largest error against long double %.2e", rows, diff,
                worst);
    cr_expect_eq(diff, 0);
    cr_expect_lt(worst, 1e-12);
    free(w);
}
