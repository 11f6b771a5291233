/* test_draw_gumbel.c — the "gumbel" draw method (draw/gumbel.c) and the Gumbel-max
 * argmax every Gumbel-max sampler shares (sl_draw_gumbel_max_offer).
 * Suite stat_gumbel: 100,000 draws per (source, distribution) at fixed seeds, Pearson
 * chi-square through GSL, alpha = 0.001 per check (smallest expected count 100 on the
 * weather vector's last token, so no pooling); 8 correct checks, so the chance any had
 * failed by bad luck when the seeds were chosen is below 0.8%. Power: the same draws
 * with the noise's sign flipped (argmax(log w + log(-log u)), a wrong Gumbel) are
 * rejected. Suite replay_gumbel: exact facts (argmax order, words per draw, zero
 * weights never drawn, the draw equals the formula on the same words, the audit). */
#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#include "helpers.h"

static const double weather_logits[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};

#define N_DRAWS 100000

static void open_rng(sl_rng *g, const char *name, uint64_t seed)
{
    sl_seed s = {.lo = seed, .hi = 0, .stream = 0, .has_stream = 0};
    sl_error e = {0};
    cr_assert_eq(sl_rng_init(g, sl_rng_lookup(name), &s, &e), 0, "%s: %s", name, e.msg);
}

Test(stat_gumbel, agrees_with_distribution)
{
    double weather[8];
    const double tie[4] = {0.375, 0.25, 0.25, 0.125};
    sl_error e;
    cr_assert_eq(sl_logits_softmax(weather_logits, 8, 1.0, weather, &e), 0);
    const char *rngs[] = {"pcg32", "mt19937", "threefry2x32", "philox4x32"};
    for (size_t g = 0; g < 4; g++)
        for (int d = 0; d < 2; d++) {
            const double *p = d ? tie : weather;
            size_t V = d ? 4 : 8;
            void *t;
            cr_assert_eq(sl_draw_prepare(&sl_draw_gumbel_type, &t, p, V, &e), 0, "%s", e.msg);
            sl_rng r;
            open_rng(&r, rngs[g], 3000 + 10 * g + (uint64_t)d);
            uint64_t c[8] = {0};
            for (int i = 0; i < N_DRAWS; i++)
                c[sl_draw_gumbel_type.draw(t, &r)]++;
            cr_expect_eq(r.words, (uint64_t)N_DRAWS * V * 2, "%s: 2 words per column (32-bit source)", rngs[g]);
            double pv = sl_test_chi2_p(c, p, V, N_DRAWS);
            cr_log_info("gumbel/%s %s: chi-square p = %.4f", rngs[g], d ? "tie" : "weather", pv);
            cr_expect_gt(pv, 0.001, "gumbel/%s on %s: chi-square p = %.3g (alpha 0.001)", rngs[g], d ? "tie" : "weather", pv);
            sl_rng_release(&r);
            sl_draw_gumbel_type.free(t);
        }
}

Test(stat_gumbel, wrong_sign_is_rejected)
{
    double weather[8];
    sl_error e;
    cr_assert_eq(sl_logits_softmax(weather_logits, 8, 1.0, weather, &e), 0);
    sl_rng r;
    open_rng(&r, "philox4x32", 4242);
    uint64_t c[8] = {0};
    for (int n = 0; n < N_DRAWS; n++) {
        sl_draw_gumbel_max m;
        sl_draw_gumbel_max_init(&m);
        for (size_t i = 0; i < 8; i++)
            sl_draw_gumbel_max_offer(&m, i, log(weather[i]) + log(-log(sl_rng_uniform_f64(&r))));
        c[sl_draw_gumbel_max_token(&m)]++;
    }
    double pv = sl_test_chi2_p(c, weather, 8, N_DRAWS);
    cr_expect_lt(pv, 0.001, "the flipped noise must be rejected: p = %.3g", pv);
    sl_rng_release(&r);
}

Test(replay_gumbel, argmax_order)
{
    sl_draw_gumbel_max m;
    sl_draw_gumbel_max_init(&m);
    cr_expect_eq(sl_draw_gumbel_max_token(&m), 0, "nothing offered: token 0");
    sl_draw_gumbel_max_offer(&m, 0, -INFINITY);
    sl_draw_gumbel_max_offer(&m, 1, 2.0);
    sl_draw_gumbel_max_offer(&m, 2, 2.0);
    cr_expect_eq(sl_draw_gumbel_max_token(&m), 1, "a tie keeps the lower index");
    sl_draw_gumbel_max_offer(&m, 3, NAN);
    sl_draw_gumbel_max_offer(&m, 4, INFINITY);
    sl_draw_gumbel_max_offer(&m, 5, NAN);
    cr_expect_eq(sl_draw_gumbel_max_token(&m), 3, "the first NaN wins");
    sl_draw_gumbel_max_init(&m);
    sl_draw_gumbel_max_offer(&m, 0, -INFINITY);
    sl_draw_gumbel_max_offer(&m, 1, -INFINITY);
    cr_expect_eq(sl_draw_gumbel_max_token(&m), 0, "all -inf: the first");
}

/* The draw is the formula on the same words: replayed by hand from a copy of the source. */
Test(replay_gumbel, equals_formula_and_zero_never)
{
    const double p[6] = {0.2, 0, 0.3, 0.1, 0, 0.4};
    sl_error e;
    void *t;
    cr_assert_eq(sl_draw_prepare(&sl_draw_gumbel_type, &t, p, 6, &e), 0, "%s", e.msg);
    sl_rng a, b;
    open_rng(&a, "threefry2x32", 99);
    open_rng(&b, "threefry2x32", 99);
    for (int n = 0; n < 20000; n++) {
        size_t tok = sl_draw_gumbel_type.draw(t, &a);
        cr_assert(p[tok] > 0, "draw %d: zero-weight token %zu", n, tok);
        size_t best = 0;
        double bv = -INFINITY;
        for (size_t i = 0; i < 6; i++) {
            double v = log(p[i]) - log(-log(sl_rng_uniform_f64(&b)));
            if (v > bv) {
                bv = v;
                best = i;
            }
        }
        cr_assert_eq(tok, best, "draw %d: %zu, the formula %zu", n, tok, best);
    }
    cr_expect_eq(a.words, b.words);
    sl_rng_release(&a);
    sl_rng_release(&b);
    sl_draw_gumbel_type.free(t);
}

Test(replay_gumbel, exact_audit_bound)
{
    const double p[4] = {0.5, 0.3, 0.2, 0};
    sl_stat_exact_input in = {.V = 4, .d = p, .dtype = SL_F64};
    sl_stat_exact_result r;
    sl_error e = {0};
    cr_assert_eq(sl_stat_exact_run(sl_draw_gumbel_type.exact, &in, &r, &e), 0, "%s", e.msg);
    cr_expect_eq(r.has_counts, 0);
    cr_expect(r.tv_bound > 0 && r.tv_bound < 1e-6, "TV bound %.3g", r.tv_bound);
    cr_expect_eq(r.n_never, 0);
    cr_expect_eq(r.n_zero_drawn, 0);
    sl_stat_exact_result_free(&r);
}
